//! The library's version, for a caller checking what it loaded against what it compiled with.

use std::ffi::c_char;

/// The version of the library, as `"MAJOR.MINOR.PATCH"`, NUL-terminated and static. Compare it
/// with `AGENTSMD_VERSION` to tell whether the loaded library is the one the header describes.
#[no_mangle]
pub extern "C" fn agentsmd_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}
