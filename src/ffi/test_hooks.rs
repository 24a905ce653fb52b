//! Exports built only with the `test-hooks` feature, for the C tests: they reach code no
//! correct input reaches.

use super::boundary;
use super::error::agentsmd_error;
use super::types::agentsmd_status;

/// Panics inside the library, as a bug would; returns `AGENTSMD_STATUS_PANIC` with an error
/// object, proving that the boundary catches the panic. Built only with the `test-hooks`
/// feature.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_test_panic(
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    boundary::status(error_out, || panic!("agentsmd_test_panic was called"))
}
