//! The walk (SPEC §1, §5): which instruction files apply at a path, in the order of §5.1; what
//! happens to each place and file is in [`collect`], what is asked ahead in batches in [`ahead`].

mod ahead;
mod collect;
mod dirs;
mod fragment;
mod request;
mod result;
mod rule_dir;

use std::collections::{HashMap, HashSet};
use std::path::Path;

pub use result::{Chain, File, Omitted, Outcome, Probe, Reason, Source};

use crate::error::Error;
use crate::fs::{Answers, Files, Lookup};
use crate::options::Options;
use crate::path::{self, FsName};
use ahead::Ahead;
use collect::{Carried, Collector};
use dirs::Dirs;
use request::Request;

/// The chain of SPEC §1 and §5 at `path` with `options`: [`crate::chain`] without a preset.
pub(crate) fn of(path: &Path, options: &Options) -> Result<Chain, Error> {
    let request = Request::new(path, options)?;
    walk(&request, options, None)
}

/// What a session remembers of its touches (SPEC §10): what it gave, each directory it looked
/// up, and what its walk carries on with.
#[derive(Default)]
pub(crate) struct Memory {
    /// The identity of each file and import given (SPEC §5.4).
    pub(crate) given: HashSet<Vec<u8>>,
    /// Each directory of the walks looked up, with what it holds: not asked again.
    lookups: HashMap<FsName, Lookup>,
    /// What a custom file system's batches answered: a later touch asks only what is new.
    answers: Answers,
    /// The fragment directories and files found.
    fragments: fragment::Known,
    /// What the last touch's walk carried; `None` before the first touch inside root, which
    /// gives the extras and overlays.
    carried: Option<Carried>,
}

/// What newly applies at `path` in a session that remembers `memory` (SPEC §10): the files of
/// `chain(path, options)` that it has not given, in chain order; nothing for a path outside
/// root. The files given are added to `memory` by the caller, once it keeps the delta; every
/// other change to `memory` is made only when the touch succeeds, but for what it looked up
/// (directories, fragments, a batch's answers): facts of the tree, kept after a failure too.
pub(crate) fn touch(path: &Path, options: &Options, memory: &mut Memory) -> Result<Chain, Error> {
    match Request::touching(path, options, true)? {
        Some(request) => walk(&request, options, Some(memory)),
        None => Ok(Chain::default()),
    }
}

/// The walk of `request`: a chain's, or with `memory` a session's touch.
fn walk(request: &Request, options: &Options, memory: Option<&mut Memory>) -> Result<Chain, Error> {
    let mut collector = Collector::new(options, &request.names);
    let (first, known, carried, answers) = match memory {
        Some(Memory {
            given,
            lookups,
            answers,
            fragments,
            carried,
        }) => {
            let first = carried.is_none();
            collector = collector.resume(carried.take(), given, fragments);
            (first, Some(lookups), Some(carried), Some(answers))
        }
        None => (true, None, None, None),
    };
    let walked = walk_all(request, options, &mut collector, first, known, answers);
    match (walked, carried) {
        (Ok(()), carried) => {
            let (chain, next) = collector.into_parts();
            if let Some(carried) = carried {
                *carried = Some(next);
            }
            Ok(chain)
        }
        // The session as it was before the touch (SPEC §10).
        (Err(error), Some(carried)) => {
            *carried = collector.undone();
            Err(error)
        }
        (Err(error), None) => Err(error),
    }
}

/// The extras (with `first`), the directories and the overlays (with `first`) of `request`.
fn walk_all(
    request: &Request,
    options: &Options,
    collector: &mut Collector,
    first: bool,
    known: Option<&mut HashMap<FsName, Lookup>>,
    answers: Option<&mut Answers>,
) -> Result<(), Error> {
    let os = Files::os(options);
    for extra in request.extras.iter().filter(|_| first) {
        collector.extra(&os, extra)?;
    }
    let mut files = Files::new(options, &request.root)?;
    let walked = match answers {
        Some(answers) => {
            // The session's answers serve this touch, and keep what it adds, error or not.
            files.swap_answers(answers);
            let walked = walk_dirs(request, options, &files, collector, known);
            files.swap_answers(answers);
            walked
        }
        None => walk_dirs(request, options, &files, collector, known),
    };
    walked?;
    for overlay in request.overlays.iter().filter(|_| first) {
        // One inside a confined root is confined like the walk (SPEC §5.3); one outside it is
        // the host's choice, as an extra is.
        let confined = files.confines(path::bytes(overlay));
        collector.overlay(if confined { &files } else { &os }, overlay)?;
    }
    Ok(())
}

/// The directories of the walk of `request` over `files`, from the root down (SPEC §1), each
/// looked up once, or with `known` as a session's earlier touch found it.
fn walk_dirs(
    request: &Request,
    options: &Options,
    files: &Files,
    collector: &mut Collector,
    mut known: Option<&mut HashMap<FsName, Lookup>>,
) -> Result<(), Error> {
    let batches = files.batches();
    let dirs = Dirs::down_to_path(files, request);
    if batches.lists {
        ahead::list(
            files,
            &dirs,
            &request.names,
            &options.fragments,
            &options.rules,
        )?;
    }
    // A directory an earlier touch looked up and found (or found leading out) is one.
    let found = |dir: &FsName| {
        let lookup = known.as_ref().and_then(|known| known.get(dir));
        matches!(lookup, Some(Lookup::Names(_) | Lookup::Escapes))
    };
    let dirs = dirs.down_to_start(files, found)?;
    // Every directory is looked up before a file is read, so that the nearest file (SPEC §5.6)
    // is known before one it supersedes would be read. Below a directory that does not exist
    // nothing is asked; below one that leads out of a confined root, nothing is looked at.
    let mut lookups = Vec::new();
    for i in 0..dirs.len() {
        let lookup = match lookups.last() {
            Some(Lookup::Missing) => Lookup::Missing,
            Some(Lookup::Escapes) => break,
            _ => lookup(files, &dirs.get(i), &request.names, known.as_deref_mut())?,
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
        let planned = Ahead::plan(files, &dirs, &lookups, &request.names, options, at);
        collector.read_ahead(planned);
    }
    let scope = files.path_of(&dirs.get(0));
    let touched = files.name_of(&request.path);
    for (i, lookup) in lookups.into_iter().enumerate() {
        let superseded_by = nearest.as_deref().filter(|_| at != Some(i));
        let dir = dirs.get(i);
        let (missing, escapes) = (lookup == Lookup::Missing, lookup == Lookup::Escapes);
        collector.directory(files, &dir, lookup, &scope, Source::Chain, superseded_by)?;
        // A directory's rules come after its file and fragments (SPEC §11 "Order").
        if !escapes && !options.rules.is_empty() {
            collector.rules(files, &dir, i == 0, missing, &touched, &scope)?;
        }
    }
    Ok(())
}

/// What the directory `dir` holds under `names`: looked up, or in a session, as the touch that
/// first looked it up found it.
fn lookup(
    files: &Files,
    dir: &FsName,
    names: &[Vec<u8>],
    known: Option<&mut HashMap<FsName, Lookup>>,
) -> Result<Lookup, Error> {
    let Some(known) = known else {
        return files.lookup(dir, names);
    };
    if let Some(lookup) = known.get(dir) {
        return Ok(lookup.clone());
    }
    let lookup = files.lookup(dir, names)?;
    known.insert(dir.clone(), lookup.clone());
    Ok(lookup)
}
