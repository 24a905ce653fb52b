//! `agentsmd_cancel`: how a C caller stops a chain it started (SPEC.md §4, `Aborted`).

use agentsmd_core::Cancel;

use crate::boundary::{self, export, handle};
use crate::error::agentsmd_error;
use crate::options::{agentsmd_options, set};
use crate::types::agentsmd_status;

/// A cancellation token (SPEC.md §4): given to options with `agentsmd_options_set_cancel`, it
/// stops every chain run with them, once requested, before that chain's next question to its
/// file system; the chain then fails with `AGENTSMD_STATUS_ABORTED`, naming the path it was at,
/// having released everything it held. Freed by `agentsmd_cancel_free`.
pub struct agentsmd_cancel {
    _private: [u8; 0],
}

handle!(agentsmd_cancel => Cancel, "cancel", 0x6167_6d64_636e_6c01);

/// A new cancellation token, not requested yet; NULL only if the library failed internally.
#[no_mangle]
pub extern "C" fn agentsmd_cancel_new() -> *mut agentsmd_cancel {
    export!({ boundary::into_raw(Cancel::new()) })
}

/// Requests cancellation: every chain whose options were given `cancel` stops before its next
/// question, and every chain started with them from now on before its first. Any thread may
/// call it, at any time (from a callback too), as often as it likes.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_cancel_request(
    cancel: *const agentsmd_cancel,
) -> agentsmd_status {
    export!(std::ptr::null_mut(), {
        boundary::borrow(cancel)?.cancel();
        Ok(())
    })
}

/// Frees `cancel`. Options it was given keep their own reference, so they still see a request
/// made before this call.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_cancel_free(cancel: *mut agentsmd_cancel) {
    export!({ boundary::free(cancel) })
}

/// Gives `options` the token `cancel`; NULL takes the token away, so that chains run to their
/// end. The options keep a reference of their own: `cancel` may be freed before them.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_options_set_cancel(
    options: *mut agentsmd_options,
    cancel: *const agentsmd_cancel,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    set!(
        error_out,
        options.cancel = boundary::borrow_optional(cancel)?.cloned()
    )
}
