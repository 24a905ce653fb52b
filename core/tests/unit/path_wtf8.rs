//! Unit tests of `src/path/wtf8.rs`, which includes this file by `#[path]`: they reach
//! private items.

use super::to_wide;

#[test]
fn utf8_is_its_utf16() {
    let text = "AGENTS.md é 日本 🦀";
    assert_eq!(
        to_wide(text.as_bytes()),
        Some(text.encode_utf16().collect())
    );
}

#[test]
fn a_lone_surrogate_is_taken() {
    assert_eq!(to_wide(b"a\xED\xA0\x80b"), Some(vec![0x61, 0xD800, 0x62]));
    assert_eq!(to_wide(b"\xED\xBF\xBF"), Some(vec![0xDFFF]));
}

#[test]
fn what_is_not_wtf8_is_refused() {
    for bytes in [
        &b"\xFF"[..],
        b"\xC0\xAF",                 // overlong '/'
        b"\xE0\x80\xAF",             // overlong '/'
        b"\xE6\x97",                 // truncated
        b"\xF4\x90\x80\x80",         // beyond U+10FFFF
        b"\xED\xA0\x80\xED\xB0\x80", // a pair written as two surrogates
        b"a\x80",
    ] {
        assert_eq!(to_wide(bytes), None, "{bytes:?}");
    }
}
