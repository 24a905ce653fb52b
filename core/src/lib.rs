//! agentsmd: the AGENTS.md convention for coding agents, in Rust.
//!
//! Given a path, [`chain`] finds the instruction files that apply there — one per directory,
//! from a root down to the path's directory, nearest last so the nearest wins — bounds them,
//! reports every file it found and left out, and [`render`] turns them into the exact bytes a
//! product puts in its model's prompt. Composition — fragments, overlays, imports, a transform,
//! the nearest file only, probes — is opt-in ([`Options`]). Opt-in and apart from the walk,
//! [`structure`] reads one file's front matter, skills and sections and renders a block bounded
//! in bytes that keeps whole sections (SPEC.md §6). `SPEC.md` is the behaviour of record.
//!
//! This crate builds no C artifact; the `agentsmd` crate wraps it in a C ABI.
//!
//! **Platforms** (SPEC.md §8): Linux, every other Unix (macOS, FreeBSD) and Windows, with the
//! same results byte for byte. On Unix paths are bytes; the few calls only Linux has
//! (`getdents64`, `O_PATH`, `openat2`) are apart, in `fs/linux.rs`, and every other Unix gets the
//! same answers from portable calls (`fs/portable.rs`). Confinement ([`Options::confine`]) uses
//! `openat2` from Linux 5.6, and before it (or where seccomp refuses it, or on another Unix) a
//! walk element by element. On Windows paths are UTF-8 (WTF-8 where not valid UTF-16), `\` and
//! `/` both separate, the default root is the path's drive or share, names Windows cannot hold
//! are invalid, and confinement checks an opened file's final path beneath root's
//! (`fs/windows.rs`).
//!
//! # The OS tree
//! ```
//! let repo = tempfile::tempdir()?;
//! std::fs::write(repo.path().join("AGENTS.md"), "Use tabs.\n")?;
//! let mut options = agentsmd_core::Options::default();
//! options.root = Some(repo.path().to_path_buf());
//! let chain = agentsmd_core::chain(repo.path().join("main.go"), &options)?;
//! let prompt = agentsmd_core::render(&chain.files);
//! assert!(prompt.starts_with(b"<project_context>\n<project_instructions path=\""));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # A custom file system
//! ```
//! use std::ffi::OsString;
//! use std::io::{self, Read};
//! use std::sync::Arc;
//! use agentsmd_core::{fs::{Entry, FileSystem}, FsName, Options};
//!
//! /// One file, `AGENTS.md`, in the root.
//! struct One;
//! impl FileSystem for One {
//!     fn list(&self, dir: &FsName) -> io::Result<Vec<OsString>> {
//!         match dir.is_root() {
//!             true => Ok(vec!["AGENTS.md".into()]),
//!             false => Err(io::ErrorKind::NotFound.into()),
//!         }
//!     }
//!     fn stat(&self, name: &FsName) -> io::Result<Entry> {
//!         match name.as_bytes() {
//!             b"." => Ok(Entry::Dir),
//!             b"AGENTS.md" => Ok(Entry::File { size: 3 }),
//!             _ => Err(io::ErrorKind::NotFound.into()),
//!         }
//!     }
//!     fn open(&self, name: &FsName) -> io::Result<Box<dyn Read + '_>> {
//!         match name.as_bytes() {
//!             b"AGENTS.md" => Ok(Box::new(&b"hi\n"[..])),
//!             _ => Err(io::ErrorKind::NotFound.into()),
//!         }
//!     }
//! }
//!
//! let mut options = Options::default();
//! options.fs = Some(Arc::new(One));
//! let chain = agentsmd_core::chain("src/lib.rs", &options)?;
//! assert_eq!(chain.files[0].path, std::path::Path::new("AGENTS.md"));
//! # Ok::<(), agentsmd_core::Error>(())
//! ```
//!
//! # Rewritten paths
//! `render` takes any (path, content) pairs, so a product shows its own paths:
//! ```
//! # let chain = agentsmd_core::Chain::default();
//! let shown: Vec<(Vec<u8>, &[u8])> = chain
//!     .files
//!     .iter()
//!     .map(|f| ([b"/workspace/", f.path.as_os_str().as_encoded_bytes()].concat(), &f.content[..]))
//!     .collect();
//! let prompt = agentsmd_core::render(shown.iter().map(|(p, c)| (&p[..], *c)));
//! assert!(prompt.is_empty());
//! ```
#![deny(unsafe_code)] // Only the Windows calls of `fs/windows.rs` need it, each explained.

mod budget;
mod chain;
mod code_regions;
mod error;
#[doc(hidden)]
pub mod ffi_support;
mod fragment;
pub mod fs;
mod import;
mod interpolate;
mod nearest;
mod options;
mod overlay;
mod path;
mod probe;
mod render;
pub mod structure;

pub use chain::{chain, Chain, File, Omitted, Reason, Source};
pub use error::{Error, ErrorKind};
pub use import::Import;
pub use interpolate::interpolate;
pub use options::{
    Options, Transform, TransformFn, DEFAULT_IMPORT_DEPTH, DEFAULT_MAX_BYTES, DEFAULT_MAX_IMPORTS,
    DEFAULT_NAME,
};
pub use overlay::overlay_dir;
pub use path::FsName;
pub use probe::{Outcome, Probe};
pub use render::{render, Instruction};

/// The identifier of the one instructions part [`render`] produces.
pub const PART_ID: &str = "agentsmd";
