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
//! **Platforms**: Unix (paths are bytes). Confinement ([`Options::confine`]) is Linux's:
//! `openat2` from 5.6, and before it (or where seccomp refuses it) a walk element by element;
//! everything else runs on any Unix the `rustix` crate supports.
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
//! use std::io::Read;
//! use std::sync::Arc;
//! use agentsmd_core::{fs::{Entry, FileSystem}, Error, FsName, Options};
//!
//! /// One file, `AGENTS.md`, in the root.
//! struct One;
//! impl FileSystem for One {
//!     fn list(&self, dir: &FsName) -> Result<Option<Vec<Vec<u8>>>, Error> {
//!         Ok(dir.is_root().then(|| vec![b"AGENTS.md".to_vec()]))
//!     }
//!     fn stat(&self, name: &FsName) -> Result<Option<Entry>, Error> {
//!         Ok(match name.as_bytes() {
//!             b"." => Some(Entry::Dir),
//!             b"AGENTS.md" => Some(Entry::File { size: 3 }),
//!             _ => None,
//!         })
//!     }
//!     fn open(&self, name: &FsName) -> Result<Option<Box<dyn Read + '_>>, Error> {
//!         Ok((name.as_bytes() == b"AGENTS.md").then(|| Box::new(&b"hi\n"[..]) as _))
//!     }
//! }
//!
//! let mut options = Options::default();
//! options.fs = Some(Arc::new(One));
//! let chain = agentsmd_core::chain("src/lib.rs", &options)?;
//! assert_eq!(chain.files[0].path, std::path::Path::new("AGENTS.md"));
//! # Ok::<(), Error>(())
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

#[cfg(not(unix))]
compile_error!("agentsmd-core supports Unix only: paths are bytes");

mod budget;
mod chain;
mod code_regions;
mod error;
pub mod fs;
mod import;
mod interpolate;
mod options;
mod overlay;
mod path;
mod path_list;
mod probe;
mod render;
pub mod structure;

pub use chain::{chain, Chain, File, Omitted, Reason, Source};
pub use error::{Error, ErrorKind};
pub use import::{Import, Imports, ImportsIter};
pub use interpolate::interpolate;
pub use options::{
    Options, Transform, TransformFn, DEFAULT_IMPORT_DEPTH, DEFAULT_MAX_BYTES, DEFAULT_MAX_IMPORTS,
    DEFAULT_NAME,
};
pub use overlay::overlay_dir;
pub use path::{absolute, check_fragment, check_name, FsName};
pub use probe::{Outcome, Probe, Probes, ProbesIter};
pub use render::{render, Instruction};

/// The identifier of the one instructions part [`render`] produces.
pub const PART_ID: &str = "agentsmd";
