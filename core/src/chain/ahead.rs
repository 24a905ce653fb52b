//! Asking ahead, for a custom file system that answers in batches
//! ([`FileSystem::batches`](crate::fs::FileSystem::batches)): one batch lists every directory of
//! the walk and every fragment directory, one batch reads the files the walk reads, and one more
//! batch per level of imports reads their targets across the whole chain. The walk then runs as
//! it does over any file system, its questions answered from the batches (`fs/custom.rs`), so
//! every rule stays where it is; what is here decides only what to ask ahead, and asks nothing
//! the walk would not: a file is read ahead only when the walk is sure to read it, unless the
//! chain then ends in an error, or, under a budget, a file reads more than its listing said or
//! vanishes (the listing's sizes decide what fits).

use std::collections::{HashMap, HashSet};

use super::collect::Collector;
use super::request::Request;
use super::{Dirs, Source};
use crate::error::Error;
use crate::fragment::md_files;
use crate::fs::{Entry, Files, Lookup};
use crate::import::{targets, Met};
use crate::path::FsName;

impl Dirs {
    /// The directories the walk and its fragments list: each directory of the walk, and each of
    /// its fragment directories with the directories leading to it, so that each one's listing
    /// says what the next is.
    fn listed(&self, fragments: &[Vec<u8>]) -> Vec<FsName> {
        let mut listed = Vec::new();
        for i in 0..self.len() {
            // The directory first, so that a failed batch names it.
            let dir = self.get(i);
            listed.push(dir.clone());
            for fragment in fragments {
                let ends = fragment.iter().enumerate().filter(|(_, &b)| b == b'/');
                for (end, _) in ends {
                    listed.push(dir.join(&fragment[..end]));
                }
                listed.push(dir.join(fragment));
            }
        }
        listed
    }
}

/// Lists ahead every directory the walk of `request` lists, before it is known whether the path
/// is a directory: as if it were one, since a name that is no directory lists nothing. A file
/// system that fails such a batch instead is asked again without the path, whose own listing
/// then waits for its parent's to say that it is a directory ([`list_rest`]).
pub(super) fn list_walk(
    files: &Files,
    request: &Request,
    fragments: &[Vec<u8>],
) -> Result<(), Error> {
    let root = files.name_of(&request.root);
    let path = files.name_of(&request.path);
    let parent = match path.parent() {
        Some(parent) if path != root => parent,
        _ => return files.list_ahead(&Dirs::between(root.clone(), root).listed(fragments)),
    };
    let if_a_directory = Dirs::between(root.clone(), path).listed(fragments);
    if files.list_ahead(&if_a_directory).is_ok() {
        return Ok(());
    }
    files.list_ahead(&Dirs::between(root, parent).listed(fragments))
}

/// Lists ahead, in one batch, what the walk lists and [`list_walk`] did not: the path's own
/// directories, when it was asked again without them.
pub(super) fn list_rest(files: &Files, dirs: &Dirs, fragments: &[Vec<u8>]) -> Result<(), Error> {
    files.list_ahead(&dirs.listed(fragments))
}

/// The files the walk may read, in its order, for reading them ahead.
pub(crate) struct Ahead {
    /// Each directory's standing file (unless another one supersedes it) and its fragments'
    /// files, with the size reported and the source.
    planned: Vec<(FsName, u64, Source)>,
    /// Where each name is in `planned`.
    at: HashMap<FsName, usize>,
    /// How many import targets have been read ahead: at most `max_imports` in a chain.
    imports: u32,
}

impl Ahead {
    /// The files that the walk over `dirs`, whose lookups are `lookups`, may read: each
    /// directory's standing file, but where `nearest` (the directory whose file stands for the
    /// walk) supersedes it, then the files of its fragment directories. Where a question about
    /// a fragment fails, its file is not planned: the walk meets the failure in its turn.
    pub(super) fn plan(
        files: &Files,
        dirs: &Dirs,
        lookups: &[Lookup],
        collector: &Collector,
        nearest: Option<usize>,
    ) -> Self {
        let mut planned = Vec::new();
        for (i, lookup) in lookups.iter().enumerate() {
            let dir = dirs.get(i);
            let standing = lookup
                .standing()
                .filter(|_| nearest.is_none_or(|at| at == i));
            if let Some((index, size)) = standing {
                planned.push((dir.join(&collector.names[index]), size, Source::Chain));
            }
            if !matches!(lookup, Lookup::Names(_)) {
                continue;
            }
            for fragment in collector.fragments {
                let fragment = dir.join(fragment);
                let Ok(Some(Entry::Dir)) = files.find_entry(&fragment) else {
                    continue;
                };
                let Ok(Some(listed)) = files.list(&fragment) else {
                    continue;
                };
                for name in md_files(&listed) {
                    let name = fragment.join(name);
                    if let Ok(Some(Entry::File { size })) = files.find(&name) {
                        planned.push((name, size, Source::Fragment));
                    }
                }
            }
        }
        let at = planned
            .iter()
            .enumerate()
            .map(|(i, (name, _, _))| (name.clone(), i))
            .rev()
            .collect();
        Self {
            planned,
            at,
            imports: 0,
        }
    }
}

impl Collector<'_> {
    /// Before the walk reads `name` of `files`: reads ahead, in one batch, it and the planned
    /// files after it that the walk is sure to read, then their imports, a batch per level.
    /// `scope` bounds the imports.
    pub(super) fn read_ahead(
        &mut self,
        files: &Files,
        name: &FsName,
        scope: &[u8],
    ) -> Result<(), Error> {
        if !files.batches().reads || files.has_read(name) {
            return Ok(());
        }
        let Some(&from) = self.ahead.as_ref().and_then(|ahead| ahead.at.get(name)) else {
            return Ok(());
        };
        let batch = self.sure_reads(files, from);
        let mut met = Vec::new();
        files.read_ahead(&batch, self.max_bytes, |name, content| {
            met.extend(self.imports_in(files, name, content, scope));
        })?;
        self.read_imports_ahead(files, met, scope)
    }

    /// The imports the expansion of `content`, the file `name`, would read: none without
    /// imports, nor of a file over `max_bytes`, whose `TooLarge` comes first.
    fn imports_in(&self, files: &Files, name: &FsName, content: &[u8], scope: &[u8]) -> Vec<Met> {
        if self.imports.is_none() || content.len() as u64 > self.max_bytes {
            return Vec::new();
        }
        targets(&files.path_of(name), content, scope, files.syntax())
    }

    /// The planned files from `from` on that the walk is sure to read, not read yet: each one
    /// that is no duplicate and fits the budgets unread, as long as the files before it are sure
    /// to be kept. Without a budget every file is; with one, a file is sure to be kept when its
    /// size fits however it ends, and only when its content is what it reads (no imports, no
    /// transform).
    fn sure_reads(&self, files: &Files, from: usize) -> Vec<FsName> {
        let Some(ahead) = &self.ahead else {
            return Vec::new();
        };
        let mut budget = self.budget.clone();
        let rewritten = self.imports.is_some() || self.transform.is_some();
        let mut seen = HashSet::new();
        let mut batch = Vec::new();
        for (name, size, source) in &ahead.planned[from..] {
            let path = files.path_of(name);
            if !seen.insert(name) || self.duplicate_by(&path, *source).is_some() {
                continue;
            }
            if !budget.fits_unread(&path, *size) {
                break;
            }
            if !files.has_read(name) {
                batch.push(name.clone());
            }
            if budget.is_limited() && (rewritten || !budget.spend_len(&path, *size, false)) {
                break;
            }
        }
        batch
    }

    /// Reads ahead the import targets `met` in the files just read, and theirs, a batch per
    /// level down to the import depth, at most `max_imports` in the chain. A failed batch is the
    /// error of the import of its first target, where its directive is.
    fn read_imports_ahead(
        &mut self,
        files: &Files,
        mut met: Vec<Met>,
        scope: &[u8],
    ) -> Result<(), Error> {
        let Some(imports) = &self.imports else {
            return Ok(());
        };
        for _ in 0..imports.depth_limit() {
            let Some(ahead) = &mut self.ahead else {
                return Ok(());
            };
            let left = imports.max_imports().saturating_sub(ahead.imports) as usize;
            let mut seen = HashSet::new();
            let level: Vec<(FsName, &Met)> = met
                .iter()
                .map(|met| (files.name_of(&met.target), met))
                .filter(|(name, _)| !files.has_read(name) && seen.insert(name.clone()))
                .take(left)
                .collect();
            let Some((_, first)) = level.first() else {
                break;
            };
            ahead.imports += level.len() as u32;
            let names: Vec<FsName> = level.iter().map(|(name, _)| name.clone()).collect();
            let mut next = Vec::new();
            files
                .read_ahead(&names, self.max_bytes, |name, content| {
                    next.extend(self.imports_in(files, name, content, scope));
                })
                .map_err(|error| error.in_import(&first.by, first.line, &first.target))?;
            met = next;
        }
        Ok(())
    }
}
