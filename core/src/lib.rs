//! agentsmd: the AGENTS.md convention for coding agents, in Rust.
//!
//! Given a path, [`chain()`] finds the instruction files that apply there — one per directory,
//! from a root down to the path's directory, nearest last — bounds them, reports every file it
//! found and left out, and [`render()`] turns them into the exact bytes of a model's prompt.
//! Composition is opt-in ([`Options`]); apart from the walk, [`structure`] reads one file's
//! front matter, skills and sections and renders a bounded block (SPEC §6). `SPEC.md` is the
//! behaviour of record; the `agentsmd` crate wraps this one in a C ABI.
//!
//! **Platforms** (SPEC §8): Linux, the other Unixes and Windows give the same results byte for
//! byte; a custom file system's names ([`FsName`]) are `/`-separated on every platform.
//!
//! # The OS tree
//! ```
//! use agentsmd_core::{chain, render, ErrorKind, Options, Reason};
//!
//! let repo = tempfile::tempdir()?;
//! let root = repo.path();
//! std::fs::create_dir(root.join("api"))?;
//! std::fs::write(root.join("AGENTS.md"), "Use tabs.\n")?;
//! std::fs::write(root.join("api/AGENTS.md"), "Name the path in errors.\n")?;
//! std::fs::write(root.join("api/AGENTS.override.md"), "Only this here.\n")?;
//!
//! let options = Options::new().root(root).names(["AGENTS.override.md", "AGENTS.md"]);
//! let found = chain(root.join("api/main.go"), &options)?;
//! // The root's file first, the nearest last; in `api` the first name found stands.
//! assert_eq!(found.files[0].path, root.join("AGENTS.md"));
//! assert_eq!(found.files[1].path, root.join("api/AGENTS.override.md"));
//! assert_eq!(found.omitted[0].path, root.join("api/AGENTS.md"));
//! assert_eq!(found.omitted[0].reason, Reason::Shadowed);
//! let prompt = render(&found.files);
//! assert!(prompt.starts_with(b"<project_context>\n<project_instructions path=\""));
//!
//! // An error has a kind to match on and names its path.
//! let error = chain(root.join("api/main.go"), &options.max_bytes(4)).unwrap_err();
//! assert_eq!(error.kind(), ErrorKind::TooLarge);
//! assert_eq!(error.path(), Some(root.join("AGENTS.md").as_path()));
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
//!         let root = dir.is_root().then(|| vec!["AGENTS.md".into()]);
//!         root.ok_or_else(|| io::ErrorKind::NotFound.into())
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
//! let options = Options::new().fs(Arc::new(One));
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
#![deny(unsafe_code)] // Only the Windows calls of `fs/sys/windows/api.rs` need it, each explained.

mod budget;
mod cancel;
mod chain;
mod code_regions;
mod error;
#[doc(hidden)]
pub mod ffi_support;
pub mod fs;
mod import;
mod interpolate;
mod load;
mod options;
mod overlay;
mod path;
mod preset;
mod render;
mod rules;
mod session;
pub mod structure;

pub use cancel::Cancel;
pub use chain::{Chain, File, Omitted, Outcome, Probe, Reason, Source};
pub use error::{Error, ErrorKind};
pub use import::Import;
pub use interpolate::interpolate;
pub use load::chain;
pub use options::{
    Options, Transform, TransformFn, DEFAULT_IMPORT_DEPTH, DEFAULT_MAX_BYTES, DEFAULT_MAX_IMPORTS,
    DEFAULT_NAME,
};
pub use overlay::overlay_dir;
pub use path::FsName;
pub use preset::Preset;
pub use render::{render, Instruction};
pub use rules::{Available, Dialect, RuleDir};
pub use session::Session;

/// The identifier of the one instructions part [`render`] produces.
pub const PART_ID: &str = "agentsmd";
