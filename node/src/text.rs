//! Byte strings as JavaScript strings, and back: the one rule by which the package keeps a path
//! that is not UTF-8 (README.md, "Paths that are not UTF-8").
//!
//! A path is bytes on Unix (WTF-8 on Windows) and a JavaScript string is UTF-16, so some paths
//! have no string of their own. The rule is PEP 383's "surrogateescape": bytes that are UTF-8
//! are that text, and each byte that is not part of a well-formed UTF-8 sequence is the lone
//! surrogate U+DC00 + the byte (U+DC80..U+DCFF), which no UTF-8 text can hold. So no two byte
//! strings share a string, and a string given back names the very bytes it came from. The rule
//! is the same for everything the package hands out as a string — paths, names, messages,
//! titles, the block, `render`'s output — and for every string it takes where bytes are meant.

use napi::bindgen_prelude::{ToNapiValue, TypeName, Unknown, Utf16String, ValueType};
use napi::{sys, Env};
use napi_derive::napi;

use crate::buffer::Copied;
use crate::error::Failure;
use crate::{boundary, input};

/// The first lone surrogate of the rule, U+DC00 (+ 0x80 at the least: ASCII is always UTF-8).
const ESCAPE: u16 = 0xDC00;

/// A byte string on its way to JavaScript: a string by the rule of this module.
pub(crate) struct Text(pub(crate) Vec<u8>);

impl Text {
    /// The text of `bytes`, copied.
    pub(crate) fn of(bytes: &[u8]) -> Self {
        Self(bytes.to_vec())
    }
}

impl TypeName for Text {
    fn type_name() -> &'static str {
        "string"
    }

    fn value_type() -> ValueType {
        ValueType::String
    }
}

impl ToNapiValue for Text {
    unsafe fn to_napi_value(env: sys::napi_env, text: Self) -> napi::Result<sys::napi_value> {
        // Nearly every byte string is UTF-8: that one goes through V8's UTF-8 decoder as is.
        match std::str::from_utf8(&text.0) {
            Ok(utf8) => unsafe { <&str>::to_napi_value(env, utf8) },
            Err(_) => unsafe { Utf16String::to_napi_value(env, to_utf16(&text.0).into()) },
        }
    }
}

/// A byte string or `null`: a field of a `#[napi(object)]` that is an `Option` is left out when
/// it is `None` (so reads `undefined`), where the API says `null`.
pub(crate) struct TextOrNull(pub(crate) Option<Text>);

impl TypeName for TextOrNull {
    fn type_name() -> &'static str {
        "string | null"
    }

    fn value_type() -> ValueType {
        ValueType::Unknown
    }
}

impl ToNapiValue for TextOrNull {
    unsafe fn to_napi_value(env: sys::napi_env, text: Self) -> napi::Result<sys::napi_value> {
        unsafe { Option::<Text>::to_napi_value(env, text.0) }
    }
}

/// The UTF-16 of `bytes` by the rule of this module.
pub(crate) fn to_utf16(bytes: &[u8]) -> Vec<u16> {
    let mut units = Vec::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        units.extend(chunk.valid().encode_utf16());
        units.extend(chunk.invalid().iter().map(|&b| ESCAPE | u16::from(b)));
    }
    units
}

/// The bytes `units` (a JavaScript string) name by the rule of this module: its text as UTF-8,
/// each lone surrogate U+DC80..U+DCFF as the byte it stands for. Any other lone surrogate names
/// no byte: `Err` holds it.
pub(crate) fn from_utf16(units: &[u16]) -> Result<Vec<u8>, u16> {
    let mut bytes = Vec::with_capacity(units.len());
    for decoded in char::decode_utf16(units.iter().copied()) {
        match decoded {
            Ok(c) => bytes.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
            Err(lone) => match lone.unpaired_surrogate() {
                unit @ 0xDC80..=0xDCFF => bytes.push((unit - ESCAPE) as u8),
                unit => return Err(unit),
            },
        }
    }
    Ok(bytes)
}

/// [`from_utf16`], its refusal an `InvalidArgument` failure naming the value as `what`.
pub(crate) fn bytes_of(units: &[u16], what: &str) -> Result<Vec<u8>, Failure> {
    from_utf16(units).map_err(|unit| {
        Failure::invalid(format!(
            "{what}: holds the lone surrogate U+{unit:04X}, which names no byte (only \
             U+DC80..U+DCFF stand for bytes that are not UTF-8)"
        ))
    })
}

/// The bytes `path` names (the rule of the package's paths, above): for `node:fs`, which takes
/// a `Buffer` as a path, on a path the package returned that is not UTF-8.
#[napi(
    js_name = "pathToBytes",
    catch_unwind,
    ts_args_type = "path: string",
    ts_return_type = "Buffer"
)]
pub fn path_to_bytes<'e>(env: &'e Env, path: Unknown<'e>) -> napi::Result<Unknown<'e>> {
    boundary::sync(env, || {
        boundary::js(env, Copied(input::string(path, "path")?))
    })
}

/// The string of the path whose bytes are `bytes` (a `Buffer` path of `node:fs`, say), by the
/// rule of the package's paths (above).
#[napi(
    js_name = "pathFromBytes",
    catch_unwind,
    ts_args_type = "bytes: Uint8Array",
    ts_return_type = "string"
)]
pub fn path_from_bytes<'e>(env: &'e Env, bytes: Unknown<'e>) -> napi::Result<Unknown<'e>> {
    boundary::sync(env, || {
        boundary::js(env, Text(input::buffer(bytes, "bytes")?))
    })
}
