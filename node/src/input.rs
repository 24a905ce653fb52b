//! The arguments of the exports, read from JavaScript values: each checked for the type
//! index.d.ts documents, a wrong one an `InvalidArgument` failure naming it as `what`
//! (`options.names[1]`). `undefined` and `null` are both "not given".

use std::path::PathBuf;

use agentsmd_core::ffi_support;
use napi::bindgen_prelude::{FromNapiValue, Object, Uint8ArraySlice, Unknown, Utf16String};
use napi::{sys, JsValue, ValueType};

use crate::error::Failure;
use crate::text;

/// The most a count (`importDepth`, `maxImports`) may be.
pub(crate) const MAX_COUNT: u64 = u32::MAX as u64;

/// The most a number of bytes may be: `Number.MAX_SAFE_INTEGER`, the largest integer a
/// JavaScript number holds exactly.
pub(crate) const MAX_BYTES: u64 = (1 << 53) - 1;

/// The type of `value`.
fn type_of(value: &Unknown, what: &str) -> Result<ValueType, Failure> {
    value
        .get_type()
        .map_err(|_| Failure::invalid(format!("{what}: its type cannot be read")))
}

/// A refusal of `value` as `what`, which should be `expected`.
fn wrong(what: &str, expected: &str, found: ValueType) -> Failure {
    let found = match found {
        ValueType::Undefined => "undefined",
        ValueType::Null => "null",
        ValueType::Boolean => "a boolean",
        ValueType::Number => "a number",
        ValueType::String => "a string",
        ValueType::Symbol => "a symbol",
        ValueType::Object => "an object",
        ValueType::Function => "a function",
        _ => "another value",
    };
    Failure::invalid(format!("{what}: expected {expected}, not {found}"))
}

/// Whether `value` is `undefined` or `null`.
pub(crate) fn absent(value: &Unknown, what: &str) -> Result<bool, Failure> {
    Ok(matches!(
        type_of(value, what)?,
        ValueType::Undefined | ValueType::Null
    ))
}

/// A string, as the bytes it names (text.rs).
pub(crate) fn string(value: Unknown, what: &str) -> Result<Vec<u8>, Failure> {
    match type_of(&value, what)? {
        ValueType::String => {
            let units = unsafe { Utf16String::from_napi_value(value.value().env, value.raw()) }
                .map_err(Failure::napi)?;
            text::bytes_of(&units, what)
        }
        found => Err(wrong(what, "a string", found)),
    }
}

/// A string naming a path: an OS path, or a name in a custom file system.
pub(crate) fn path(value: Unknown, what: &str) -> Result<PathBuf, Failure> {
    Ok(ffi_support::path_from_bytes(string(value, what)?, what)?)
}

/// A `Buffer` (any `Uint8Array`) as its bytes, or a string as the bytes it names.
pub(crate) fn bytes(value: Unknown, what: &str) -> Result<Vec<u8>, Failure> {
    match type_of(&value, what)? {
        ValueType::String => string(value, what),
        ValueType::Object if is_uint8_array(&value) => buffer(value, what),
        found => Err(wrong(what, "a Buffer or a string", found)),
    }
}

/// A `Buffer` (any `Uint8Array`) as its bytes.
pub(crate) fn buffer(value: Unknown, what: &str) -> Result<Vec<u8>, Failure> {
    match type_of(&value, what)? {
        ValueType::Object if is_uint8_array(&value) => {
            let slice = unsafe { Uint8ArraySlice::from_napi_value(value.value().env, value.raw()) }
                .map_err(Failure::napi)?;
            Ok(slice.to_vec())
        }
        found => Err(wrong(what, "a Buffer (a Uint8Array)", found)),
    }
}

/// Whether `value` is a `Uint8Array` (a `Buffer` is one).
fn is_uint8_array(value: &Unknown) -> bool {
    let env = value.value().env;
    let mut is_typed_array = false;
    if unsafe { sys::napi_is_typedarray(env, value.raw(), &mut is_typed_array) }
        != sys::Status::napi_ok
        || !is_typed_array
    {
        return false;
    }
    let mut kind = 0;
    let (mut length, mut data, mut buffer, mut offset) =
        (0, std::ptr::null_mut(), std::ptr::null_mut(), 0);
    let status = unsafe {
        sys::napi_get_typedarray_info(
            env,
            value.raw(),
            &mut kind,
            &mut length,
            &mut data,
            &mut buffer,
            &mut offset,
        )
    };
    status == sys::Status::napi_ok && kind == sys::TypedarrayType::uint8_array
}

/// An object, or `None` for `undefined` or `null`.
pub(crate) fn object<'e>(value: Unknown<'e>, what: &str) -> Result<Option<Object<'e>>, Failure> {
    match type_of(&value, what)? {
        ValueType::Undefined | ValueType::Null => Ok(None),
        ValueType::Object => Ok(Some(Object::from_raw(value.value().env, value.raw()))),
        found => Err(wrong(what, "an object", found)),
    }
}

/// The property `name` of `object` (`undefined` when it has none).
pub(crate) fn field<'e>(
    object: &Object<'e>,
    name: &str,
    what: &str,
) -> Result<Unknown<'e>, Failure> {
    object
        .get::<Unknown>(name)
        .map(|value| value.unwrap_or_else(|| undefined(object)))
        .map_err(|_| {
            Failure::invalid(format!(
                "{what}.{name}: reading it threw (see the error's cause)"
            ))
        })
}

/// `undefined`, in the environment of `object`.
fn undefined<'e>(object: &Object<'e>) -> Unknown<'e> {
    let env = object.value().env;
    let mut raw = std::ptr::null_mut();
    unsafe { sys::napi_get_undefined(env, &mut raw) };
    unsafe { Unknown::from_raw_unchecked(env, raw) }
}

/// An array's elements, each taken by `each(element, what it is)` as it is read, so that the
/// first that is wrong ends the reading (a sparse array of billions is refused at once); empty
/// for `undefined` or `null`.
pub(crate) fn array<'e, T>(
    value: Unknown<'e>,
    what: &str,
    mut each: impl FnMut(Unknown<'e>, &str) -> Result<T, Failure>,
) -> Result<Vec<T>, Failure> {
    match type_of(&value, what)? {
        ValueType::Undefined | ValueType::Null => return Ok(Vec::new()),
        ValueType::Object if value.is_array().unwrap_or(false) => {}
        found => return Err(wrong(what, "an array", found)),
    }
    let env = value.value().env;
    let mut length = 0;
    if unsafe { sys::napi_get_array_length(env, value.raw(), &mut length) } != sys::Status::napi_ok
    {
        return Err(Failure::invalid(format!(
            "{what}: its length cannot be read"
        )));
    }
    let mut items = Vec::new();
    for i in 0..length {
        let what = format!("{what}[{i}]");
        let mut raw = std::ptr::null_mut();
        if unsafe { sys::napi_get_element(env, value.raw(), i, &mut raw) } != sys::Status::napi_ok {
            return Err(Failure::invalid(format!(
                "{what}: reading it threw (see the error's cause)"
            )));
        }
        items.push(each(
            unsafe { Unknown::from_raw_unchecked(env, raw) },
            &what,
        )?);
    }
    Ok(items)
}

/// An array of strings, as the bytes each names; empty for `undefined` or `null`.
pub(crate) fn strings(value: Unknown, what: &str) -> Result<Vec<Vec<u8>>, Failure> {
    array(value, what, string)
}

/// An array of strings naming paths; empty for `undefined` or `null`.
pub(crate) fn paths(value: Unknown, what: &str) -> Result<Vec<PathBuf>, Failure> {
    array(value, what, path)
}

/// A boolean; `false` for `undefined` or `null`.
pub(crate) fn flag(value: Unknown, what: &str) -> Result<bool, Failure> {
    match type_of(&value, what)? {
        ValueType::Undefined | ValueType::Null => Ok(false),
        ValueType::Boolean => {
            unsafe { bool::from_napi_value(value.value().env, value.raw()) }.map_err(Failure::napi)
        }
        found => Err(wrong(what, "a boolean", found)),
    }
}

/// A whole number from 0 to `max`; 0 for `undefined` or `null`, which is every bound's and
/// count's default (SPEC.md §1's zero value).
pub(crate) fn number(value: Unknown, what: &str, max: u64) -> Result<u64, Failure> {
    let number = match type_of(&value, what)? {
        ValueType::Undefined | ValueType::Null => return Ok(0),
        ValueType::Number => unsafe { f64::from_napi_value(value.value().env, value.raw()) }
            .map_err(Failure::napi)?,
        found => return Err(wrong(what, "a number", found)),
    };
    if number.fract() != 0.0 || !(0.0..=max as f64).contains(&number) {
        return Err(Failure::invalid(format!(
            "{what}: expected a whole number from 0 to {max}, not {number}"
        )));
    }
    Ok(number as u64)
}

/// A function, or `None` for `undefined` or `null`.
pub(crate) fn function<'e>(value: Unknown<'e>, what: &str) -> Result<Option<Unknown<'e>>, Failure> {
    match type_of(&value, what)? {
        ValueType::Undefined | ValueType::Null => Ok(None),
        ValueType::Function => Ok(Some(value)),
        found => Err(wrong(what, "a function", found)),
    }
}
