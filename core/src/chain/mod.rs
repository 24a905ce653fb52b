//! The walk (SPEC.md §1, §5): which instruction files apply at a path. It checks the request
//! ([`request`]), then reads the extras, then looks up every directory ([`dirs`]) from the root
//! down to the start, and then goes through them, root first, each directory's file and its
//! fragments ([`fragment`]), and last the overlays: the order of SPEC.md §5.1. What happens to
//! each place looked at and each file found — read, imports, transform, bounds, report — is in
//! [`collect`]; what a chain returns is in [`result`]; what a file system that answers in
//! batches is asked ahead is in [`ahead`].

mod ahead;
mod collect;
mod dirs;
mod fragment;
mod nearest;
mod request;
mod result;

use std::path::Path;

pub use result::{Chain, File, Omitted, Outcome, Probe, Reason, Source};

use crate::error::Error;
use crate::fs::{Files, Lookup};
use crate::options::Options;
use crate::path;
use ahead::Ahead;
use collect::Collector;
use dirs::Dirs;
use nearest::nearest;
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
    let dirs = Dirs::down_to_path(&files, &request);
    if batches.lists {
        ahead::list(&files, &dirs, &options.fragments)?;
    }
    let dirs = dirs.down_to_start(&files)?;
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
        let names = &request.names;
        let planned = Ahead::plan(&files, &dirs, &lookups, names, &options.fragments, at);
        collector.read_ahead(planned);
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
    Ok(collector.into_chain())
}
