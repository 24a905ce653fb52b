//! The walk (SPEC.md §1, §5): which instruction files apply at a path. It checks the request
//! ([`request`]), then reads the extras, then looks up every directory from the root down to
//! the start, and then goes through them, root first, each directory's file and its fragments,
//! and last the overlays: the order of SPEC.md §5.1. What happens to each file found — read,
//! imports, transform, bounds, report — is in [`collect`]; what a chain returns is in
//! [`result`].

mod ahead;
mod collect;
mod request;
mod result;

use std::path::Path;

pub(crate) use collect::Collector;
pub use result::{Chain, File, Omitted, Reason, Source};

use crate::error::Error;
use crate::fs::{Files, Kind, Lookup};
use crate::nearest::nearest;
use crate::options::Options;
use crate::path::{self, FsName};
use request::Request;

/// Returns the instruction files that apply at `path`: `options.extra` first, then the first of
/// `options.names` that each directory from `options.root` down to the start directory lists,
/// within the bounds. See SPEC.md §1 for every rule.
///
/// With [`Options::fs`], `path` and `root` are names in that file system.
///
/// Composition (SPEC.md §5), each opt-in: each directory's [`Options::fragments`] follow its
/// file, the [`Options::overlays`] follow the walk, [`Options::imports`] expands directives,
/// [`Options::transform`] rewrites each file read, [`Options::nearest`] keeps only the nearest
/// directory's file, and [`Options::report`] lists every place looked at.
///
/// ```
/// let dir = tempfile::tempdir()?;
/// std::fs::write(dir.path().join("AGENTS.md"), "@docs/style.md\n")?;
/// std::fs::create_dir_all(dir.path().join("docs"))?;
/// std::fs::write(dir.path().join("docs/style.md"), "Use tabs.\n")?;
/// let options = agentsmd_core::Options::new().root(dir.path()).imports(true);
/// let chain = agentsmd_core::chain(dir.path().join("main.rs"), &options)?;
/// assert_eq!(chain.files[0].content, b"Use tabs.\n");
/// assert_eq!(chain.imports.get(0).map(|import| import.line), Some(1));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// ```
/// let dir = tempfile::tempdir()?;
/// std::fs::write(dir.path().join("AGENTS.md"), "root rules\n")?;
/// std::fs::create_dir(dir.path().join("src"))?;
/// let mut options = agentsmd_core::Options::default();
/// options.root = Some(dir.path().to_path_buf());
/// let chain = agentsmd_core::chain(dir.path().join("src/main.rs"), &options)?;
/// assert_eq!(chain.files.len(), 1);
/// assert_eq!(chain.files[0].content, b"root rules\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn chain(path: impl AsRef<Path>, options: &Options) -> Result<Chain, Error> {
    let request = Request::new(path.as_ref(), options)?;
    let mut collector = Collector::new(options, &request.names);
    let os = Files::os(options);
    for extra in &request.extras {
        collector.extra(&os, extra)?;
    }
    let files = Files::new(options, &request.root)?;
    let batches = files.batches();
    if batches.lists {
        ahead::list_walk(&files, &request, &options.fragments)?;
    }
    let dirs = Dirs::new(&files, &request)?;
    // Every directory is looked up before a file is read, so that the nearest file (SPEC.md
    // §5.6) is known before one it supersedes would be read. Below a directory that does not
    // exist nothing is asked; below one that leads out of a confined root, nothing is looked at.
    let mut lookups = Vec::new();
    for i in 0..dirs.len() {
        match files.lookup(&dirs.get(i), &request.names)? {
            Lookup::Missing => {
                lookups.resize(dirs.len(), Lookup::Missing);
                break;
            }
            Lookup::Escapes => {
                lookups.push(Lookup::Escapes);
                break;
            }
            found => lookups.push(found),
        }
    }
    let nearest = match options.nearest {
        true => nearest(&files, &dirs, &lookups, &request.names),
        false => None,
    };
    if batches.reads {
        let at = nearest.as_ref().map(|(at, _)| *at);
        collector.ahead = Some(ahead::Ahead::plan(&files, &dirs, &lookups, &collector, at));
    }
    // Only imports are bounded by the scope.
    let scope = match options.imports {
        true => files.path_of(&dirs.get(0)),
        false => Vec::new(),
    };
    for (i, lookup) in lookups.into_iter().enumerate() {
        let superseded_by = nearest
            .as_ref()
            .filter(|(at, _)| *at != i)
            .map(|(_, by)| by.as_path());
        collector.directory(
            &files,
            &dirs.get(i),
            lookup,
            &scope,
            Source::Chain,
            superseded_by,
        )?;
    }
    for overlay in &request.overlays {
        // One inside a confined root is confined like the walk (SPEC.md §5.3); one outside it
        // is the host's choice, as an extra is.
        let confined = files.confines(path::bytes(overlay));
        collector.overlay(if confined { &files } else { &os }, overlay)?;
    }
    Ok(collector.chain)
}

/// The directories of a walk, from its root down to its start, each the parent of the next:
/// prefixes of the start's name, made one at a time, so that memory stays linear in the
/// start's length however deep it is.
pub(crate) struct Dirs {
    start: FsName,
    /// The length of each directory's name in the start's; 0 for the root `.`.
    ends: Vec<usize>,
}

impl Dirs {
    /// The directories of the walk of `request` in `files`: from the root down to the path if
    /// it is a directory, else to its parent (SPEC.md §1 "Paths").
    fn new(files: &Files, request: &Request) -> Result<Self, Error> {
        let root = files.name_of(&request.root);
        let path = files.name_of(&request.path);
        let start = match files.stat(&path)? {
            // Whether a path that leads out of root is a directory is not asked: the walk goes
            // down to it, so that it is reported as leading out.
            Some(Kind::Dir | Kind::Escapes) => path,
            // Otherwise its parent, but never above the root.
            _ if path == root => root.clone(),
            _ => path.parent().unwrap_or_else(FsName::root),
        };
        Ok(Self::between(root, start))
    }

    /// The directories from `root` down to `start`, a name within it.
    fn between(root: FsName, start: FsName) -> Self {
        let name = start.as_bytes();
        let first = if root.is_root() {
            0
        } else {
            root.as_bytes().len()
        };
        let mut ends = vec![first];
        if !start.is_root() && name.len() > first {
            let slashes = name[first..].iter().enumerate().skip(1);
            ends.extend(
                slashes
                    .filter(|(_, &b)| b == b'/')
                    .map(|(at, _)| first + at),
            );
            ends.push(name.len());
        }
        Self { start, ends }
    }

    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    /// The `i`th directory's name, the root's first.
    pub(crate) fn get(&self, i: usize) -> FsName {
        match self.ends[i] {
            0 => FsName::root(),
            end => FsName::of_valid(&self.start.as_bytes()[..end]),
        }
    }
}
