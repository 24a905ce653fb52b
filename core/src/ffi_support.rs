//! What the sibling crates of this workspace (the C library, the command line, the bindings)
//! share with the core beyond its API: the checks of their callers' arguments, with the chain's
//! own errors, and an OS path's bytes. Hidden, with no stability promise.

pub use crate::interpolate::is_env_name;
pub use crate::path::{
    absolute, check_fragment, check_name, check_path_length, check_rule_dir, is_within_root,
    path_from_bytes, path_to_bytes,
};

use std::io;

use crate::error::Error;

/// An `InvalidArgument` error said by `message`, for a binding's own refusals.
pub fn invalid_argument(message: impl Into<Vec<u8>>) -> Error {
    Error::invalid_argument(message)
}

/// The answer of a host file system to a batch that it does not answer and a chain never asks.
pub fn not_batched(callback: &str) -> io::Error {
    io::Error::other(format!("{callback} is not given: no batch of it is asked"))
}
