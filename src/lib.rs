//! The C ABI of agentsmd (`libagentsmd.so`, `libagentsmd.a`, `include/agentsmd.h`): a thin,
//! mechanical layer over the Rust core, `agentsmd-core`, which holds every rule; nothing here is
//! Rust API. Every export's signature is written out, for cbindgen, and its body runs through
//! [`boundary::export!`], so that no panic unwinds into C; [`boundary`] owns every cast between
//! a C pointer and a Rust value, and [`callback`] the one shape of every callback. The
//! conventions every function keeps (byte strings, statuses and `error_out`, outputs written on
//! success only, tagged handles, threads) open the header, from `cbindgen.toml`.

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

use std::ffi::c_char;

/// The version of the library, as `"MAJOR.MINOR.PATCH"`, NUL-terminated and static: compare it
/// with `AGENTSMD_VERSION`. Any thread may call it.
#[no_mangle]
pub extern "C" fn agentsmd_version() -> *const c_char {
    boundary::export!({ concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast() })
}
