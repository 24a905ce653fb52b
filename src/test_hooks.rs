//! Exports built only with the `test-hooks` feature, for the C tests: they reach code no
//! correct input reaches. They are declared in `ffi-tests/test_hooks.h`, not in the shipped
//! header, and the libraries `cargo build` makes do not have them.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::boundary::export;
use crate::error::agentsmd_error;
use crate::types::agentsmd_status;

/// Panics inside the library, as a bug would; returns `AGENTSMD_STATUS_PANIC` with an error
/// object, proving that the boundary catches the panic.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_test_panic(
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    export!(error_out, { panic!("agentsmd_test_panic was called") })
}

/// Callbacks left before the injected panic; 0 when none is armed. Process-wide: the C tests
/// that arm it run one chain at a time.
static PANIC_COUNTDOWN: AtomicU64 = AtomicU64::new(0);

/// Arms a panic inside the library: right after the `count`-th file-system callback from now
/// returns (`list`, `stat`, `open` or `read`, on any thread), the library panics, as a bug in
/// the walk would, and the chain returns `AGENTSMD_STATUS_PANIC`. 0 disarms.
#[no_mangle]
pub extern "C" fn agentsmd_test_panic_after_callbacks(count: u64) {
    export!({ PANIC_COUNTDOWN.store(count, Ordering::SeqCst) })
}

/// Called after every file-system callback returns: panics when the armed count runs out.
pub(crate) fn callback_returned(op: &str) {
    let before = PANIC_COUNTDOWN.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |left| {
        left.checked_sub(1)
    });
    if before == Ok(1) {
        panic!("injected panic after a {op} callback (agentsmd_test_panic_after_callbacks)");
    }
}

/// Bytes the library has zeroed in buffers it handed to `read` callbacks, process-wide.
static BYTES_ZEROED: AtomicU64 = AtomicU64::new(0);

/// How many bytes the library has zeroed, since the process started, in the buffers it passes
/// to custom file systems' `read` callbacks: the work of reading a file apart from the
/// callbacks' own.
#[no_mangle]
pub extern "C" fn agentsmd_test_bytes_zeroed() -> u64 {
    export!({ BYTES_ZEROED.load(Ordering::SeqCst) })
}

/// Counts `bytes` zeroed for a `read` callback.
pub(crate) fn zeroed(bytes: usize) {
    BYTES_ZEROED.fetch_add(bytes as u64, Ordering::SeqCst);
}
