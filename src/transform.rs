//! The transform of SPEC.md §5.5 from C: a callback (`agentsmd_transform`), which writes what
//! it returns into an `agentsmd_content`, or the built-in interpolator with the caller's map.

use std::collections::HashMap;
use std::ffi::c_void;
use std::path::Path;

use agentsmd_core::ffi_support::{self, invalid_argument};
use agentsmd_core::{Error, Transform};

use crate::boundary::{self, export, Lent};
use crate::callback::{self, agentsmd_message, required, Plain, Userdata};
use crate::error::agentsmd_error;
use crate::options::{agentsmd_options, options_mut};
use crate::types::{agentsmd_bytes, agentsmd_status};

/// The content a transform callback returns, built with `agentsmd_content_append`. Owned by the
/// library and valid only during the callback it is passed to, on that callback's thread: once
/// the callback has returned, `agentsmd_content_append` refuses it with
/// `AGENTSMD_STATUS_INVALID_ARGUMENT` and never reads or writes through it. Other functions
/// refuse it as a handle of another type.
// Opaque: what C holds is a token lent by `boundary::lend`, never a pointer to the bytes.
pub struct agentsmd_content {
    _token: [u8; 0],
}

impl Lent for agentsmd_content {
    type Value = Vec<u8>;
    const WHAT: &'static str = "content";
}

/// Appends `bytes_len` bytes at `bytes` to `content`, copying them, from within the transform
/// callback `content` was passed to, on its thread; it may be called any number of times, and
/// content never appended to is empty. Returns `AGENTSMD_STATUS_INVALID_ARGUMENT` for a NULL
/// `bytes` with a non-zero length, and for a `content` that is NULL, no content, or one whose
/// callback has returned (kept from an earlier call), and appends nothing anywhere then.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_content_append(
    content: *mut agentsmd_content,
    bytes: *const u8,
    bytes_len: usize,
) -> agentsmd_status {
    let no_error_out = std::ptr::null_mut();
    export!(no_error_out, {
        let content = boundary::borrow_lent(content)?;
        let bytes = boundary::slice_of(bytes, bytes_len, "bytes")?;
        content.extend_from_slice(bytes);
        Ok(())
    })
}

/// Transforms the file at `path` (an OS path, or a name in the custom file system), whose
/// content after its imports are expanded is `content`: appends the content to use to `out`
/// with `agentsmd_content_append` before it returns (`out` is valid only until then) and returns
/// `AGENTSMD_CALLBACK_STATUS_OK`, or fails the chain with `AGENTSMD_STATUS_FS` by returning
/// `AGENTSMD_CALLBACK_STATUS_ERROR`, first setting a message with `agentsmd_message_set` if it
/// likes (the convention of every callback: see `agentsmd_callback_status`). `path` and
/// `content` are borrowed for the call only. What it returns is never scanned for import
/// directives.
pub type agentsmd_transform_fn = Option<
    unsafe extern "C" fn(
        userdata: *mut c_void,
        path: *const u8,
        path_len: usize,
        content: *const u8,
        content_len: usize,
        out: *mut agentsmd_content,
        message: *mut agentsmd_message,
    ) -> u32,
>;

/// A transform written by the caller (SPEC.md §5.5): run on each file of the result that is
/// read, before the bounds, so `max_bytes` and the budgets count what it returns. It runs on
/// the thread of the `agentsmd_chain` that reads the file, on several at once when the options
/// are shared; it may call back into the library but must not unwind through it.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct agentsmd_transform {
    /// Passed to both callbacks as their first argument; never touched by the library.
    pub userdata: *mut c_void,
    /// Required.
    pub transform: agentsmd_transform_fn,
    /// Releases `userdata` when the library holds it no more; called exactly once after a
    /// successful `agentsmd_options_set_transform`. May be NULL.
    pub release: Option<unsafe extern "C" fn(userdata: *mut c_void)>,
}

/// The callback of an `agentsmd_transform`, checked when set.
struct CallbackTransform {
    userdata: Userdata,
    transform: Plain<agentsmd_transform_fn>,
}

impl CallbackTransform {
    fn apply(&self, path: &Path, content: Vec<u8>) -> Result<Vec<u8>, String> {
        let path = path.as_os_str().as_encoded_bytes();
        let mut out = Vec::new();
        // SAFETY: every pointer outlives the call; `out` is lent for it.
        let answer = callback::call(|message| {
            boundary::lend(&mut out, |out| unsafe {
                (self.transform)(
                    self.userdata.ptr,
                    path.as_ptr(),
                    path.len(),
                    content.as_ptr(),
                    content.len(),
                    out,
                    message,
                )
            })
        });
        match answer? {
            true => Ok(out),
            false => Err("callback answered not found, which a transform cannot".to_owned()),
        }
    }
}

/// Sets a transform written by the caller (SPEC.md §5.5), copying the callback struct; NULL
/// turns the transform off. It replaces the interpolator, which is the same option.
/// `transform->transform` is required; `release` may be NULL. A failure of the callback is the
/// chain's `AGENTSMD_STATUS_FS` error, naming the file, with the callback's message.
///
/// On success the options hold `transform->userdata` until they are freed or another transform
/// is set, and then call `transform->release(transform->userdata)` once, after the last chain
/// using it has returned. On failure nothing is kept and `release` is not called. The caller
/// must not use `options` on another thread during the call.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_options_set_transform(
    options: *mut agentsmd_options,
    transform: *const agentsmd_transform,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    export!(error_out, {
        let options = options_mut(options)?;
        options.transform = match transform.as_ref() {
            None => None,
            Some(callbacks) => {
                let callback = CallbackTransform {
                    transform: required(callbacks.transform, "transform->transform")?,
                    userdata: Userdata {
                        ptr: callbacks.userdata,
                        release: callbacks.release,
                    },
                };
                Some(Transform::new(move |path, content| {
                    callback.apply(path, content)
                }))
            }
        };
        Ok(())
    })
}

/// Turns on the built-in interpolator (SPEC.md §5.5), copying the map: in each file of the
/// result that is read, each `${env:NAME}` whose NAME is `names[i]` is replaced by `values[i]`,
/// and every other `${…}` stays as it is. It reads nothing but this map, never the process
/// environment. A name given twice takes its last value. Each name must match
/// `[A-Za-z_][A-Za-z0-9_]*` (`names` and `values` may be NULL only when `len` is 0); otherwise
/// the call fails with `AGENTSMD_STATUS_INVALID_ARGUMENT` and the options are unchanged.
///
/// It replaces a transform set by `agentsmd_options_set_transform` (releasing its userdata once
/// no chain uses it), which is the same option; `len` 0 turns the transform off. The caller
/// must not use `options` on another thread during the call.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_options_set_interpolator(
    options: *mut agentsmd_options,
    names: *const agentsmd_bytes,
    values: *const agentsmd_bytes,
    len: usize,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    export!(error_out, {
        let names = boundary::slice_of(names, len, "names")?;
        let values = boundary::slice_of(values, len, "values")?;
        let mut map = HashMap::with_capacity(len);
        for (name, value) in names.iter().zip(values) {
            let name = boundary::bytes_of(name, "names[]")?;
            let value = boundary::bytes_of(value, "values[]")?;
            map.insert(variable_name(name)?, value.to_vec());
        }
        let interpolator = (!map.is_empty()).then(|| Transform::interpolator(map));
        options_mut(options)?.transform = interpolator;
        Ok(())
    })
}

/// `name` as an interpolator's variable name, `[A-Za-z_][A-Za-z0-9_]*`.
fn variable_name(name: &[u8]) -> Result<String, Error> {
    match std::str::from_utf8(name) {
        Ok(name) if ffi_support::is_env_name(name.as_bytes()) => Ok(name.to_owned()),
        _ => Err(invalid_argument(format!(
            "interpolator name {:?} does not match [A-Za-z_][A-Za-z0-9_]*",
            String::from_utf8_lossy(name)
        ))),
    }
}
