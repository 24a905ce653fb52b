//! The transform of SPEC.md §5.5 from C: a callback, or the built-in interpolator.

use std::collections::HashMap;
use std::ffi::c_void;
use std::path::Path;

use agentsmd_core::ffi_support::{self, invalid_argument};
use agentsmd_core::{Error, Transform};

use crate::boundary::{self, export, handle};
use crate::callback::{self, agentsmd_message, required, Plain, Userdata};
use crate::error::agentsmd_error;
use crate::options::agentsmd_options;
use crate::types::{agentsmd_bytes, agentsmd_status};

/// The content a transform callback returns with `agentsmd_content_append`; lent to it.
pub struct agentsmd_content {
    _token: [u8; 0],
}

handle!(agentsmd_content => Vec<u8>, "content");

/// Appends `bytes` to `content`, copying them, any number of times (content never appended to
/// is empty).
#[no_mangle]
pub unsafe extern "C" fn agentsmd_content_append(
    content: *mut agentsmd_content,
    bytes: *const u8,
    bytes_len: usize,
) -> agentsmd_status {
    export!(std::ptr::null_mut(), {
        let content = boundary::borrow_lent(content)?;
        let bytes = boundary::slice_of(bytes, bytes_len, "bytes")?;
        content.extend_from_slice(bytes);
        Ok(())
    })
}

/// Transforms the file at `path` (an OS path, or a name in the custom file system), whose
/// content after its imports are expanded is `content`, appending the content to use to `out`
/// with `agentsmd_content_append`; what it returns is never scanned for import directives.
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

/// A transform written by the caller (SPEC.md §5.5), run on each file of the result that is
/// read, on the thread of the `agentsmd_chain` that reads it.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct agentsmd_transform {
    /// Passed to both callbacks as their first argument; never touched by the library.
    pub userdata: *mut c_void,
    /// Required.
    pub transform: agentsmd_transform_fn,
    /// Releases `userdata` once the library holds it no more. May be NULL.
    pub release: Option<unsafe extern "C" fn(userdata: *mut c_void)>,
}

/// Runs the transform callback `transform` on the file at `path`.
fn apply(
    transform: Plain<agentsmd_transform_fn>,
    userdata: &Userdata,
    path: &Path,
    content: &[u8],
) -> Result<Vec<u8>, String> {
    let path = path.as_os_str().as_encoded_bytes();
    let mut out = Vec::new();
    // SAFETY: every pointer outlives the call; `out` is lent for it.
    let answer = callback::call(|message| {
        boundary::lend(&mut out, |out| unsafe {
            transform(
                userdata.ptr,
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

/// Sets a transform written by the caller; NULL turns the transform off. It replaces the
/// interpolator, which is the same option. `transform->transform` is required. The options hold
/// `transform->userdata` as `agentsmd_options_set_fs` holds a file system's.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_options_set_transform(
    options: *mut agentsmd_options,
    transform: *const agentsmd_transform,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    export!(error_out, {
        let options = boundary::borrow_mut(options)?;
        options.transform = match transform.as_ref() {
            None => None,
            Some(callbacks) => {
                let transform = required(callbacks.transform, "transform->transform")?;
                let userdata = Userdata {
                    ptr: callbacks.userdata,
                    release: callbacks.release,
                };
                Some(Transform::new(move |path, content| {
                    apply(transform, &userdata, path, &content)
                }))
            }
        };
        Ok(())
    })
}

/// Turns on the built-in interpolator (SPEC.md §5.5): each `${env:NAME}` whose NAME is
/// `names[i]` is replaced by `values[i]` (the last, for a name given twice), every other `${…}`
/// kept; the process environment is never read. Each name must match `[A-Za-z_][A-Za-z0-9_]*`.
/// It replaces a transform, which is the same option; `len` 0 turns the transform off.
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
        boundary::borrow_mut(options)?.transform = interpolator;
        Ok(())
    })
}

/// `name` as an interpolator's variable name, `[A-Za-z_][A-Za-z0-9_]*`.
fn variable_name(name: &[u8]) -> Result<String, Error> {
    let shown = String::from_utf8_lossy(name);
    if !ffi_support::is_env_name(name) {
        let why = format!("interpolator name {shown:?} does not match [A-Za-z_][A-Za-z0-9_]*");
        return Err(invalid_argument(why));
    }
    Ok(shown.into_owned())
}
