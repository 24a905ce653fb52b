//! What the sibling crates of this workspace — the C library (`src/`), the command line, the
//! Node and Python bindings — share with the core beyond its API: the checks they make of their
//! callers' arguments before any walk, with the chain's own errors; an OS path's bytes and back;
//! and the errors of their own refusals.
//!
//! Hidden from the documentation, and with no stability promise: it changes with them, in any
//! release. A Rust user has no need of it; each item keeps its rule where the core has it.

pub use crate::interpolate::is_env_name;
pub use crate::path::{
    absolute, check_fragment, check_name, check_path_length, is_within_root, path_from_bytes,
    path_to_bytes,
};

use std::io;

use crate::error::Error;

/// An `InvalidArgument` error said by `message` (text, or bytes naming a path as it is): a
/// binding's refusal (a NULL pointer, an index out of range) is an error of the core's one type.
pub fn invalid_argument(message: impl Into<Vec<u8>>) -> Error {
    Error::invalid_argument(message)
}

/// The answer of a host file system to a batch it does not answer, which a chain never asks
/// ([`BatchFileSystem::batches`](crate::fs::BatchFileSystem::batches)): `callback` is not given.
pub fn not_batched(callback: &str) -> io::Error {
    io::Error::other(format!("{callback} is not given: no batch of it is asked"))
}
