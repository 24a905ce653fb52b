//! `agentsmd_error`: what went wrong, for C, and how a fallible export hands it out.

use std::ffi::{c_char, CString};
use std::path::PathBuf;

use agentsmd_core::{Error, ErrorKind};

use crate::boundary::{self, export, handle};
use crate::types::{agentsmd_bytes, agentsmd_status};

/// An error: its kind, a message naming the path, the path and line apart where there are
/// ones, and the OS errno where there is one. Its accessors answer a NULL or dead `error` as
/// they would an error without that part.
pub struct agentsmd_error {
    _private: [u8; 0],
}

handle!(agentsmd_error => CError, "error", 0x6167_6d64_6572_7201);

/// What an `agentsmd_error` stands for.
pub(crate) struct CError {
    kind: agentsmd_status,
    message: CString,
    path: Option<PathBuf>,
    line: u64,
    os_code: i32,
}

impl CError {
    fn new(kind: agentsmd_status, message: &[u8], os_code: i32) -> Self {
        // A NUL inside a message (from a callback's message or a name in a custom FS) would cut
        // it short in C, so it is shown as U+FFFD; every other byte is kept, so that a path
        // that is not UTF-8 is named as it is on disk.
        let text = message.split(|&byte| byte == 0).collect::<Vec<_>>();
        Self {
            kind,
            message: CString::new(text.join("\u{FFFD}".as_bytes())).unwrap_or_default(),
            path: None,
            line: 0,
            os_code,
        }
    }

    fn from_core(error: &Error) -> Self {
        let kind = match error.kind() {
            ErrorKind::InvalidArgument => agentsmd_status::InvalidArgument,
            ErrorKind::TooLarge => agentsmd_status::TooLarge,
            ErrorKind::Io => agentsmd_status::Io,
            ErrorKind::Import => agentsmd_status::Import,
            ErrorKind::Fs => agentsmd_status::Fs,
            ErrorKind::Aborted => agentsmd_status::Aborted,
            // The core's kinds are non-exhaustive; a new one is still a failure.
            _ => agentsmd_status::Fs,
        };
        Self {
            path: error.path().map(PathBuf::from),
            line: error.line().unwrap_or(0),
            ..Self::new(kind, error.message(), error.os_code().unwrap_or(0))
        }
    }
}

/// Runs the body of a fallible export ([`boundary::export!`]): OK, or its error's status (PANIC
/// for a panic, a bug in the library), with a new error through `error_out` unless it is NULL.
pub(crate) unsafe fn fallible(
    error_out: *mut *mut agentsmd_error,
    body: impl FnOnce() -> Result<(), Error>,
) -> agentsmd_status {
    let error = match boundary::catch(body) {
        Ok(Ok(())) => return agentsmd_status::Ok,
        Ok(Err(error)) => CError::from_core(&error),
        Err(panic) => CError::new(
            agentsmd_status::Panic,
            format!("internal error (panic): {panic}").as_bytes(),
            0,
        ),
    };
    let status = error.kind;
    if let Some(error_out) = error_out.as_mut() {
        *error_out = boundary::into_raw(error);
    }
    status
}

/// The kind of `error`, as the failure status the call that handed it out returned;
/// `AGENTSMD_STATUS_INVALID_ARGUMENT` when `error` is NULL or not a live error.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_error_status(error: *const agentsmd_error) -> agentsmd_status {
    export!({ boundary::borrow(error).map_or(agentsmd_status::InvalidArgument, |e| e.kind) })
}

/// The message of `error`, NUL-terminated and never NULL: UTF-8 text but for the path it names,
/// whose bytes are kept as they are on disk (a NUL shown as U+FFFD).
#[no_mangle]
pub unsafe extern "C" fn agentsmd_error_message(error: *const agentsmd_error) -> *const c_char {
    let message = export!({ boundary::borrow(error).map_or(c"".as_ptr(), |e| e.message.as_ptr()) });
    // Never NULL, even after a panic.
    match message.is_null() {
        true => c"".as_ptr(),
        false => message,
    }
}

/// The path `error` concerns (an OS path, or a name in the custom file system; for an import
/// directive, the file holding it), NULL (length 0) for none.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_error_path(error: *const agentsmd_error) -> agentsmd_bytes {
    export!({
        let path = boundary::borrow(error).ok().and_then(|e| e.path.as_deref());
        path.map_or(agentsmd_bytes::NONE, agentsmd_bytes::of_path)
    })
}

/// The 1-based line of `agentsmd_error_path` that holds the import directive `error` concerns
/// (its message then starts `PATH:LINE: `); 0 for none.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_error_line(error: *const agentsmd_error) -> u64 {
    export!({ boundary::borrow(error).map_or(0, |e| e.line) })
}

/// The OS `errno` behind an `AGENTSMD_STATUS_IO` error; 0 for none.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_error_os_code(error: *const agentsmd_error) -> i32 {
    export!({ boundary::borrow(error).map_or(0, |e| e.os_code) })
}

/// Frees `error`.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_error_free(error: *mut agentsmd_error) {
    export!({ boundary::free(error) })
}
