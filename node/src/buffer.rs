//! The `Buffer`s the addon returns. Their bytes are copied into memory V8 owns, which its garbage
//! collector frees with the `Buffer`: a `Buffer` over the addon's own memory (napi-rs's `Buffer`
//! of a `Vec`) is freed by a finalizer that Node runs only on a later turn of the event loop, so
//! a synchronous loop of calls, each dropping its result, held every result until it ended
//! (1,000 `chainSync` calls of a 1 MB file: 1.1 GB).

use std::ptr;

use napi::bindgen_prelude::{ToNapiValue, TypeName, ValueType};
use napi::{sys, Status};

/// Bytes to be a `Buffer` of JavaScript's own.
pub(crate) struct Copied(pub(crate) Vec<u8>);

impl TypeName for Copied {
    fn type_name() -> &'static str {
        "Buffer"
    }

    fn value_type() -> ValueType {
        ValueType::Object
    }
}

impl ToNapiValue for Copied {
    unsafe fn to_napi_value(env: sys::napi_env, bytes: Self) -> napi::Result<sys::napi_value> {
        let (mut value, mut data) = (ptr::null_mut(), ptr::null_mut());
        let status = unsafe {
            sys::napi_create_buffer_copy(
                env,
                bytes.0.len(),
                bytes.0.as_ptr().cast(),
                &mut data,
                &mut value,
            )
        };
        match status {
            sys::Status::napi_ok => Ok(value),
            status => Err(napi::Error::new(
                Status::from(status),
                "creating a Buffer failed",
            )),
        }
    }
}
