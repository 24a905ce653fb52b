//! OS paths from their bytes (SPEC §8.2): any bytes on Unix; WTF-8 on Windows, turned back into
//! UTF-16 here. Compiled everywhere, so that it is tested on every platform.

use std::ffi::OsString;
use std::path::PathBuf;

/// An OS path from its bytes, which the library made of OS paths and checked names.
pub(crate) fn to_path_buf(bytes: &[u8]) -> PathBuf {
    into_path_buf(bytes.to_vec())
}

/// An OS path from its bytes, without copying them on Unix.
pub(crate) fn into_path_buf(bytes: Vec<u8>) -> PathBuf {
    match os_string(bytes) {
        Ok(path) => path.into(),
        Err(bytes) => String::from_utf8_lossy(&bytes).into_owned().into(),
    }
}

/// The `OsString` of `bytes`, or `bytes` back where they are not WTF-8 on Windows.
pub(crate) fn os_string(bytes: Vec<u8>) -> Result<OsString, Vec<u8>> {
    #[cfg(unix)]
    return Ok(std::os::unix::ffi::OsStringExt::from_vec(bytes));
    #[cfg(windows)]
    return match String::from_utf8(bytes) {
        Ok(text) => Ok(text.into()),
        Err(e) => match to_wide(e.as_bytes()) {
            Some(wide) => Ok(std::os::windows::ffi::OsStringExt::from_wide(&wide)),
            None => Err(e.into_bytes()),
        },
    };
}

/// The UTF-16 of the WTF-8 `bytes` (UTF-8 extended to lone surrogates); `None` when they are
/// not WTF-8, as a surrogate pair written as two surrogates is not.
pub(crate) fn to_wide(bytes: &[u8]) -> Option<Vec<u16>> {
    let mut wide: Vec<u16> = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let (code, len) = decode(&bytes[i..])?;
        let after_lead = wide
            .last()
            .is_some_and(|unit| (0xD800..=0xDBFF).contains(unit));
        if after_lead && (0xDC00..=0xDFFF).contains(&code) {
            return None;
        }
        match char::from_u32(code) {
            Some(c) => wide.extend_from_slice(c.encode_utf16(&mut [0; 2])),
            // A lone surrogate, which no `char` is.
            None => wide.push(code as u16),
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
