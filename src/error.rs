//! `agentsmd_error`: what went wrong, for C.

use std::ffi::{c_char, CString};
use std::path::PathBuf;

use agentsmd_core::{Error, ErrorKind};

use crate::boundary::{self, export, handle};
use crate::types::{agentsmd_bytes, agentsmd_status};

/// An error: its kind, a message naming the path, the path and line apart where there are
/// ones, and the OS errno where there is one. Handed
/// out through the `error_out` parameter of a failing call; the caller owns it and frees it
/// with `agentsmd_error_free`. Immutable: may be read from several threads at once.
// The tag first, at offset 0: see `boundary::Handle`.
#[cfg_attr(all(), repr(C))]
pub struct agentsmd_error {
    magic: u64,
    pub(crate) kind: agentsmd_status,
    message: CString,
    path: Option<PathBuf>,
    line: u64,
    os_code: i32,
}

handle!(agentsmd_error, "error", 0x6167_6d64_6572_7201);

impl agentsmd_error {
    fn new(kind: agentsmd_status, message: &[u8], os_code: i32) -> Self {
        // A NUL inside a message (from a callback's message or a name in a custom FS) would cut
        // it short in C, so it is shown as U+FFFD; every other byte is kept, so that a path
        // that is not UTF-8 is named as it is on disk.
        let mut text = Vec::with_capacity(message.len());
        for &byte in message {
            match byte {
                0 => text.extend_from_slice("\u{FFFD}".as_bytes()),
                byte => text.push(byte),
            }
        }
        Self {
            magic: 0,
            kind,
            message: CString::new(text).unwrap_or_default(),
            path: None,
            line: 0,
            os_code,
        }
    }

    /// The error object of a failure of the core.
    pub(crate) fn from_core(error: &Error) -> Self {
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

    /// The error object of a panic caught at the boundary: a bug in the library.
    pub(crate) fn panic(text: &str) -> Self {
        Self::new(
            agentsmd_status::Panic,
            format!("internal error (panic): {text}").as_bytes(),
            0,
        )
    }
}

/// The kind of `error`, as the failure status the call that handed it out returned. Returns
/// `AGENTSMD_STATUS_INVALID_ARGUMENT` when `error` is NULL or not a live error.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_error_status(error: *const agentsmd_error) -> agentsmd_status {
    export!({ boundary::borrow(error).map_or(agentsmd_status::InvalidArgument, |e| e.kind) })
}

/// The message of `error`, NUL-terminated, naming the path the failure concerns. It is UTF-8
/// text but for the path: a path's bytes are kept as they are on disk, so a path that is not
/// UTF-8 is named exactly (a NUL, which no OS path holds, is shown as U+FFFD). Borrowed from `error`: valid until it is freed. Returns an
/// empty string, never NULL, when `error` is NULL or not a live error.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_error_message(error: *const agentsmd_error) -> *const c_char {
    let message =
        export!({ boundary::borrow(error).map_or(boundary::empty_text(), |e| e.message.as_ptr()) });
    // Never NULL, even after a panic.
    if message.is_null() {
        boundary::empty_text()
    } else {
        message
    }
}

/// The path `error` concerns, borrowed from it (valid until it is freed): an OS path, or a name
/// in the custom file system, its bytes as they are; for an import directive that cannot be
/// expanded, the file holding the directive. NULL (length 0) when the error concerns no path, and
/// when `error` is NULL or not a live error.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_error_path(error: *const agentsmd_error) -> agentsmd_bytes {
    export!({
        match boundary::borrow(error).map(|e| e.path.as_deref()) {
            Ok(Some(path)) => agentsmd_bytes::of_path(path),
            _ => agentsmd_bytes::NONE,
        }
    })
}

/// The 1-based line of `agentsmd_error_path` that holds the import directive `error` concerns
/// (its message then starts `PATH:LINE: `); 0 when there is none, and when `error` is NULL or
/// not a live error.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_error_line(error: *const agentsmd_error) -> u64 {
    export!({ boundary::borrow(error).map_or(0, |e| e.line) })
}

/// The OS `errno` behind an `AGENTSMD_STATUS_IO` error; 0 when there is none, and when `error`
/// is NULL or not a live error.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_error_os_code(error: *const agentsmd_error) -> i32 {
    export!({ boundary::borrow(error).map_or(0, |e| e.os_code) })
}

/// Frees `error`. NULL is accepted and does nothing.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_error_free(error: *mut agentsmd_error) {
    export!({ boundary::free(error) })
}
