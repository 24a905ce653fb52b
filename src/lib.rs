//! agentsmd: the AGENTS.md convention for coding agents.
//!
//! Given a path, [`chain`] finds the instruction files that apply there — one per directory,
//! from a root down to the path's directory, nearest last so the nearest wins — bounds them,
//! reports every file it found and left out, and [`render`] turns them into the exact bytes a
//! product puts in its model's prompt. A [`Walker`] answers the chains of many paths, sharing
//! what it has looked up and read between them. `SPEC.md` is the behaviour of record; the C ABI in
//! [`ffi`] and `include/agentsmd.h` expose the same to C.

mod chain;
mod constants;
mod error;
pub mod ffi;
pub mod fs;
mod options;
mod path;
mod render;
mod walker;

pub use chain::{absolute, chain, check_name, Chain, File, Omitted, Reason};
pub use constants::{
    DEFAULT_IMPORT_DEPTH, DEFAULT_MAX_BYTES, DEFAULT_MAX_IMPORTS, DEFAULT_NAME, PART_ID,
};
pub use error::{Error, ErrorKind};
pub use options::Options;
pub use render::{render, Instruction};
pub use walker::Walker;
