//! `agentsmd_error`: what went wrong, for C.

use std::ffi::{c_char, CString};

use super::boundary::{self, handle};
use super::types::agentsmd_status;
use crate::error::Error;

/// An error: its kind, a message naming the path, and the OS errno where there is one. Handed
/// out through the `error_out` parameter of a failing call; the caller owns it and frees it
/// with `agentsmd_error_free`. Immutable: may be read from several threads at once.
// The tag first, at offset 0: see `boundary::Handle`.
#[cfg_attr(all(), repr(C))]
pub struct agentsmd_error {
    magic: u64,
    kind: agentsmd_status,
    message: CString,
    os_code: i32,
}

handle!(agentsmd_error, "error", 0x6167_6d64_6572_7201);

impl agentsmd_error {
    pub(crate) fn new(error: Error) -> Self {
        // A message is text for people: a NUL inside it (from a callback's message or a path
        // in a custom FS) would cut it short in C, so it is shown as U+FFFD.
        let text = error.message().replace('\0', "\u{FFFD}");
        Self {
            magic: 0,
            kind: error.kind().into(),
            message: CString::new(text).unwrap_or_default(),
            os_code: error.os_code().unwrap_or(0),
        }
    }
}

/// The kind of `error`: one of the failure statuses. Returns `AGENTSMD_STATUS_INVALID_ARGUMENT`
/// when `error` is NULL or not a live error.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_error_kind(error: *const agentsmd_error) -> agentsmd_status {
    boundary::value(agentsmd_status::Panic, || {
        boundary::borrow(error).map_or(agentsmd_status::InvalidArgument, |e| e.kind)
    })
}

/// The message of `error`, NUL-terminated, naming the path the failure concerns (paths that are
/// not UTF-8 are shown with U+FFFD). Borrowed from `error`: valid until it is freed. Returns an
/// empty string, never NULL, when `error` is NULL or not a live error.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_error_message(error: *const agentsmd_error) -> *const c_char {
    boundary::value(c"".as_ptr(), || {
        boundary::borrow(error).map_or(c"".as_ptr(), |e| e.message.as_ptr())
    })
}

/// The OS `errno` behind an `AGENTSMD_STATUS_IO` error; 0 when there is none, and when `error`
/// is NULL or not a live error.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_error_os_code(error: *const agentsmd_error) -> i32 {
    boundary::value(0, || boundary::borrow(error).map_or(0, |e| e.os_code))
}

/// Frees `error`. NULL is accepted and does nothing.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_error_free(error: *mut agentsmd_error) {
    boundary::value((), || boundary::free(error))
}
