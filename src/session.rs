//! `agentsmd_session_new`, `agentsmd_session_touch` and `agentsmd_session_free` (SPEC.md §10).

use std::ptr;

use agentsmd_core::Session;

use crate::boundary::{self, export, handle};
use crate::cancel::agentsmd_cancel;
use crate::chain::agentsmd_result;
use crate::error::agentsmd_error;
use crate::options::{agentsmd_options, options_or_default};
use crate::types::agentsmd_status;

/// A session (SPEC.md §10): the options of a chain and a record of the files it has given, so
/// that each touch gives what newly applies. Freed by `agentsmd_session_free`. Thread-safe: any
/// number of threads may touch one session at once, and its touches take effect one at a time;
/// freeing it while a touch runs is the caller's error.
pub struct agentsmd_session {
    _private: [u8; 0],
}

handle!(agentsmd_session => Session, "session", 0x6167_6d64_7365_7301);

/// Makes a session with a copy of `options` (NULL for the defaults) in `*session_out`. Options
/// with nearest-only on are an `AGENTSMD_STATUS_INVALID_ARGUMENT` error.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_session_new(
    options: *const agentsmd_options,
    session_out: *mut *mut agentsmd_session,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    export!(error_out, {
        let session_out = boundary::out(session_out, "session_out")?;
        let session = Session::new(options_or_default(options)?.into_owned())?;
        *session_out = boundary::into_raw(session);
        Ok(())
    })
}

/// What newly applies at `path` (an OS path, or a name in the session's custom file system),
/// which the agent reads, edits, lists or creates: a result of `agentsmd_chain`'s shape, read
/// with its accessors and freed by `agentsmd_result_free`, holding what the session has not
/// given (SPEC.md §10). A path outside the root gives an empty result. An error leaves the
/// session as it was.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_session_touch(
    session: *const agentsmd_session,
    path: *const u8,
    path_len: usize,
    result_out: *mut *mut agentsmd_result,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    agentsmd_session_touch_cancellable(session, path, path_len, ptr::null(), result_out, error_out)
}

/// `agentsmd_session_touch`, stopped once `cancel` (NULL for none) is requested, with
/// `AGENTSMD_STATUS_ABORTED`: a host cancels one touch, and the session goes on as it was.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_session_touch_cancellable(
    session: *const agentsmd_session,
    path: *const u8,
    path_len: usize,
    cancel: *const agentsmd_cancel,
    result_out: *mut *mut agentsmd_result,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    export!(error_out, {
        let result_out = boundary::out(result_out, "result_out")?;
        let session = boundary::borrow(session)?;
        let path = boundary::path_of(path, path_len, "path")?;
        let delta = match boundary::borrow_optional(cancel)? {
            Some(cancel) => session.touch_cancellable(path, cancel)?,
            None => session.touch(path)?,
        };
        *result_out = boundary::into_raw(delta);
        Ok(())
    })
}

/// Frees `session`; NULL is nothing to do.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_session_free(session: *mut agentsmd_session) {
    export!({ boundary::free(session) })
}
