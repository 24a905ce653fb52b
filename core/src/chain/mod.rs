//! The walk (SPEC §1, §5): which instruction files apply at a path, in the order of §5.1; what
//! happens to each place and file is in [`collect`], what is asked ahead in batches in [`ahead`].

mod ahead;
mod collect;
mod dirs;
mod fragment;
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
use request::Request;

/// Returns the instruction files that apply at `path`: `options.extra` first, then the first of
/// `options.names` that each directory from `options.root` down to the start directory lists,
/// within the bounds (SPEC §1), and what the composition options of SPEC §5 add, each opt-in.
/// With [`Options::fs`], `path` and `root` are names in that file system.
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
        ahead::list(&files, &dirs, &request.names, &options.fragments)?;
    }
    let dirs = dirs.down_to_start(&files)?;
    // Every directory is looked up before a file is read, so that the nearest file (SPEC §5.6)
    // is known before one it supersedes would be read. Below a directory that does not exist
    // nothing is asked; below one that leads out of a confined root, nothing is looked at.
    let mut lookups = Vec::new();
    for i in 0..dirs.len() {
        let lookup = match lookups.last() {
            Some(Lookup::Missing) => Lookup::Missing,
            Some(Lookup::Escapes) => break,
            _ => files.lookup(&dirs.get(i), &request.names)?,
        };
        lookups.push(lookup);
    }
    // With `nearest`, the file of the last directory that has one, and that directory's index.
    let nearest = lookups.iter().enumerate().rev().find_map(|(i, lookup)| {
        let (index, _) = lookup.standing().filter(|_| options.nearest)?;
        let file = dirs.get(i).join(&request.names[index]);
        Some((i, path::into_path_buf(files.path_of(&file))))
    });
    let (at, nearest) = nearest.unzip();
    if batches.reads {
        let names = &request.names;
        let (all_names, fragments) = (options.all_names, &options.fragments);
        let planned = Ahead::plan(&files, &dirs, &lookups, names, all_names, fragments, at);
        collector.read_ahead(planned);
    }
    let scope = files.path_of(&dirs.get(0));
    for (i, lookup) in lookups.into_iter().enumerate() {
        let superseded_by = nearest.as_deref().filter(|_| at != Some(i));
        let dir = dirs.get(i);
        collector.directory(&files, &dir, lookup, &scope, Source::Chain, superseded_by)?;
    }
    for overlay in &request.overlays {
        // One inside a confined root is confined like the walk (SPEC §5.3); one outside it is
        // the host's choice, as an extra is.
        let confined = files.confines(path::bytes(overlay));
        collector.overlay(if confined { &files } else { &os }, overlay)?;
    }
    Ok(collector.into_chain())
}
