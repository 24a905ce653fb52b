//! The C ABI: a thin, mechanical layer over the Rust core.
//!
//! Every export has the same shape. Handles are opaque and tagged, so a freed or foreign pointer
//! is caught where a check is cheap; byte strings are a pointer and a length, so contents may hold
//! NUL and paths need not be UTF-8; a fallible function returns an [`agentsmd_status`] and, on
//! failure only, an error object through `error_out`; an output parameter is written on success
//! only; and no panic ever unwinds into C. [`boundary`] owns every cast between a C pointer and a
//! Rust value, so no export does its own pointer arithmetic.
//!
//! Thread rules, for every function: a `const` handle may be used from several threads at once;
//! a handle passed as non-`const` (a setter, a free function) must not be used by any other
//! thread during the call.

#![allow(non_camel_case_types)]
#![allow(clippy::missing_safety_doc)] // The safety contract of each function is its C documentation.

mod boundary;
mod chain;
mod error;
mod fs;
mod options;
mod render;
#[cfg(feature = "test-hooks")]
mod test_hooks;
mod types;
mod version;
mod walker;

pub use chain::*;
pub use error::*;
pub use fs::*;
pub use options::*;
pub use render::*;
#[cfg(feature = "test-hooks")]
pub use test_hooks::*;
pub use types::*;
pub use version::*;
pub use walker::*;
