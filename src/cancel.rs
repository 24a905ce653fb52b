//! `agentsmd_cancel`: how a C caller stops a chain it started (SPEC.md §4, `Aborted`).

use agentsmd_core::Cancel;

use crate::boundary::{self, export, handle};
use crate::error::agentsmd_error;
use crate::options::{agentsmd_options, options_mut};
use crate::types::agentsmd_status;

/// A cancellation token: given to options with `agentsmd_options_set_cancel`, it stops every
/// chain run with them, once requested, before that chain's next question to its file system;
/// the chain then fails with `AGENTSMD_STATUS_ABORTED`, naming the path it was at, having
/// released everything it held. A question already asked (a callback running) is answered
/// first. Created by `agentsmd_cancel_new`, freed by `agentsmd_cancel_free`.
///
/// Threads: `agentsmd_cancel_request` may be called from any thread at any time, also while a
/// chain runs and from inside its callbacks; `agentsmd_cancel_free` must not run while any other
/// call uses the handle.
// The tag first, at offset 0: see `boundary::Handle`.
#[cfg_attr(all(), repr(C))]
pub struct agentsmd_cancel {
    magic: u64,
    cancel: Cancel,
}

handle!(agentsmd_cancel, "cancel", 0x6167_6d64_636e_6c01);

/// A new cancellation token, not requested yet. The caller owns it and frees it with
/// `agentsmd_cancel_free`. Returns NULL only if the library failed internally.
#[no_mangle]
pub extern "C" fn agentsmd_cancel_new() -> *mut agentsmd_cancel {
    export!({
        boundary::into_raw(agentsmd_cancel {
            magic: 0,
            cancel: Cancel::new(),
        })
    })
}

/// Requests cancellation: every chain whose options were given `cancel` stops before its next
/// question, and every chain started with them from now on stops before its first. Any thread
/// may call it, at any time and as often as it likes; a second request changes nothing.
/// Returns `AGENTSMD_STATUS_OK`, or `AGENTSMD_STATUS_INVALID_ARGUMENT` when `cancel` is NULL or
/// not a live token.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_cancel_request(
    cancel: *const agentsmd_cancel,
) -> agentsmd_status {
    export!({
        match boundary::borrow(cancel) {
            Ok(cancel) => {
                cancel.cancel.cancel();
                agentsmd_status::Ok
            }
            Err(_) => agentsmd_status::InvalidArgument,
        }
    })
}

/// Frees `cancel`. Options it was given keep their own reference, so they still see a request
/// made before this call. NULL is accepted and does nothing.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_cancel_free(cancel: *mut agentsmd_cancel) {
    export!({ boundary::free(cancel) })
}

/// Gives `options` the token `cancel` (SPEC.md §4); NULL takes the token away, so that chains
/// run to their end. The options keep a reference of their own, which they drop when freed or
/// given another token: `cancel` may be freed before them, and they still see a request made
/// before that. Fails with `AGENTSMD_STATUS_INVALID_ARGUMENT` when `options` is NULL or
/// not live, or `cancel` is not a live token; the options are then unchanged. The caller must not
/// use `options` on another thread during the call.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_options_set_cancel(
    options: *mut agentsmd_options,
    cancel: *const agentsmd_cancel,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    export!(error_out, {
        let cancel = match cancel.is_null() {
            true => None,
            false => Some(boundary::borrow(cancel)?.cancel.clone()),
        };
        options_mut(options)?.cancel = cancel;
        Ok(())
    })
}
