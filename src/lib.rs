//! The C ABI of agentsmd (`libagentsmd.so`, `libagentsmd.a`, `include/agentsmd.h`): a thin
//! layer over `agentsmd-core`, which holds every rule. Every export's body runs through
//! [`boundary::export!`], the panic boundary; [`boundary`] owns every cast between a C pointer
//! and a Rust value. The conventions of every function open the header (`cbindgen.toml`).

#![allow(non_camel_case_types)]
#![allow(clippy::missing_safety_doc)] // The safety contract of each function is its C documentation.

mod batch;
mod boundary;
mod callback;
mod cancel;
mod chain;
mod error;
mod fs;
mod options;
mod render;
mod session;
mod structure;
/// cbindgen:ignore
#[cfg(feature = "test-hooks")]
mod test_hooks;
mod transform;
mod types;

use std::ffi::c_char;

/// The version of the library, as `"MAJOR.MINOR.PATCH"`, NUL-terminated and static: compare it
/// with `AGENTSMD_VERSION`. Any thread may call it.
#[no_mangle]
pub extern "C" fn agentsmd_version() -> *const c_char {
    boundary::export!({ concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast() })
}
