//! The C ABI of agentsmd (`libagentsmd.so`, `libagentsmd.a`, `include/agentsmd.h`): a thin,
//! mechanical layer over the Rust core, `agentsmd-core`, which holds every rule. A Rust program
//! uses the core; nothing here is Rust API.
//!
//! Every export has the same shape. Its signature is written out, for cbindgen, and its whole
//! body runs through [`boundary::export!`], so that no panic ever unwinds into C. Handles are
//! opaque and tagged, so a freed or foreign pointer is caught where a check is cheap; byte
//! strings are a pointer and a length, so contents may hold NUL and paths need not be UTF-8; a
//! fallible function returns an [`agentsmd_status`] and, on failure only, an error object
//! through `error_out`; an output parameter is written on success only. [`boundary`] owns every
//! cast between a C pointer and a Rust value, so no export does its own pointer arithmetic.
//! Every callback, the file system's ([`fs`]) and the transform's ([`transform`]), has one shape
//! too ([`callback`]): userdata first, an [`agentsmd_callback_status`] back, and a message of any
//! length set on the [`agentsmd_message`] it is lent.
//!
//! Thread rules, for every function: a `const` handle may be used from several threads at once;
//! a handle passed as non-`const` (a setter, a free function) must not be used by any other
//! thread during the call.

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
mod structure;
/// cbindgen:ignore
#[cfg(feature = "test-hooks")]
mod test_hooks;
mod transform;
mod types;

pub use batch::*;
pub use callback::*;
pub use cancel::*;
pub use chain::*;
pub use error::*;
pub use fs::*;
pub use options::*;
pub use render::*;
pub use structure::*;
#[cfg(feature = "test-hooks")]
pub use test_hooks::*;
pub use transform::*;
pub use types::*;

use std::ffi::c_char;

/// The version of the library, as `"MAJOR.MINOR.PATCH"`, NUL-terminated and static. Compare it
/// with `AGENTSMD_VERSION` to tell whether the loaded library is the one the header describes.
/// Any thread may call it.
#[no_mangle]
pub extern "C" fn agentsmd_version() -> *const c_char {
    boundary::export!({ concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast() })
}
