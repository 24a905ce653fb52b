//! Windows paths as bytes: an `OsStr` holds UTF-16 that need not be valid (a lone surrogate),
//! which Rust encodes as WTF-8, UTF-8 extended to lone surrogates. The library takes and gives
//! paths as those bytes (SPEC.md §8.2); this turns bytes from outside (the C ABI, a callback)
//! back into UTF-16, refusing what is not WTF-8. Compiled everywhere, so that it is tested on
//! every platform; Windows's rules ask it (`syntax.rs`).

/// The UTF-16 of the WTF-8 `bytes`; `None` when they are not WTF-8 (not UTF-8 extended to lone
/// surrogates: an overlong or truncated sequence, a code point beyond U+10FFFF, or a surrogate
/// pair written as two surrogates, which WTF-8 writes as the one code point).
pub(crate) fn to_wide(bytes: &[u8]) -> Option<Vec<u16>> {
    let mut wide = Vec::with_capacity(bytes.len());
    let mut i = 0;
    let mut lead_surrogate_before = false;
    while i < bytes.len() {
        let (code, len) = decode(&bytes[i..])?;
        let is_trail = (0xDC00..=0xDFFF).contains(&code);
        if is_trail && lead_surrogate_before {
            return None;
        }
        lead_surrogate_before = (0xD800..=0xDBFF).contains(&code);
        match u16::try_from(code) {
            Ok(unit) => wide.push(unit),
            Err(_) => {
                let code = code - 0x1_0000;
                wide.push(0xD800 | (code >> 10) as u16);
                wide.push(0xDC00 | (code & 0x3FF) as u16);
            }
        }
        i += len;
    }
    Some(wide)
}

/// The code point at the start of `bytes` and its length in bytes, surrogates allowed.
fn decode(bytes: &[u8]) -> Option<(u32, usize)> {
    let continuation = |i: usize| {
        bytes
            .get(i)
            .filter(|&&b| b & 0xC0 == 0x80)
            .map(|&b| u32::from(b & 0x3F))
    };
    let first = bytes[0];
    let (len, initial, min) = match first {
        0x00..=0x7F => return Some((u32::from(first), 1)),
        0xC2..=0xDF => (2, u32::from(first & 0x1F), 0x80),
        0xE0..=0xEF => (3, u32::from(first & 0x0F), 0x800),
        0xF0..=0xF4 => (4, u32::from(first & 0x07), 0x1_0000),
        _ => return None,
    };
    let mut code = initial;
    for i in 1..len {
        code = (code << 6) | continuation(i)?;
    }
    (code >= min && code <= 0x10_FFFF).then_some((code, len))
}

#[cfg(test)]
#[path = "../../tests/unit/path_wtf8.rs"]
mod tests;
