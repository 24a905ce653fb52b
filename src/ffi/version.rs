//! The library's version, for a caller checking what it loaded against what it compiled with.

use std::ffi::c_char;

use super::boundary;

/// The version of the library, as `"MAJOR.MINOR.PATCH"`, NUL-terminated and static. Compare it
/// with `AGENTSMD_VERSION` to tell whether the loaded library is the one the header describes.
#[no_mangle]
pub extern "C" fn agentsmd_version() -> *const c_char {
    // Nothing here can panic; it runs inside the boundary all the same, so that every export
    // does and tests/hardening/boundary.rs can hold each to that without exceptions.
    boundary::value(c"".as_ptr(), || {
        concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
    })
}
