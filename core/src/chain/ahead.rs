//! The batch planner (SPEC §3.1), for a custom file system that answers in batches: it decides
//! only what to ask ahead; the walk then runs as over any file system, its questions answered
//! from the batches (`fs/custom.rs`), so every rule stays where it is.

use std::collections::{HashMap, HashSet};

use super::dirs::Dirs;
use super::fragment::FragmentDir;
use super::result::Source;
use super::rule_dir::RuleFiles;
use crate::budget::Budget;
use crate::error::Error;
use crate::fs::{read_limit, Files, Kind, Lookup};
use crate::import::{targets, Met, State as Imports};
use crate::options::Options;
use crate::path::FsName;
use crate::rules::{Dialect, RuleDir};

/// Lists ahead, in one batch, each directory of `dirs`, and below each the directories a name
/// of several elements is in (SPEC §9), each of its `fragments` directories and each rule
/// directory looked up there (§11), with the directories leading to them, so that each one's
/// listing says what the next is.
pub(super) fn list(
    files: &Files,
    dirs: &Dirs,
    names: &[Vec<u8>],
    fragments: &[Vec<u8>],
    rules: &[RuleDir],
) -> Result<(), Error> {
    // The directories names of several elements are in, each once.
    let mut name_dirs: Vec<&[u8]> = Vec::new();
    for name in names {
        let Some(end) = name.iter().rposition(|&b| b == b'/') else {
            continue;
        };
        if !name_dirs.contains(&&name[..end]) {
            name_dirs.push(&name[..end]);
        }
    }
    let mut listed = Vec::new();
    for i in 0..dirs.len() {
        // The directory first, so that a failed batch names it.
        let dir = dirs.get(i);
        listed.push(dir.clone());
        let below = name_dirs.iter().copied();
        let rules = rules
            .iter()
            .filter(|rules| i == 0 || rules.dialect.in_each_directory());
        let below = below.chain(fragments.iter().map(Vec::as_slice));
        for relative in below.chain(rules.map(|rules| &rules.dir[..])) {
            let ends = relative.iter().enumerate().filter(|(_, &b)| b == b'/');
            let ends = ends.map(|(end, _)| end).chain([relative.len()]);
            listed.extend(ends.map(|end| dir.join(&relative[..end])));
        }
    }
    files.list_ahead(&listed)
}

/// The walk's state, as the planner reads it: lent for each read ahead, changed by none.
pub(super) struct View<'a> {
    pub(super) max_bytes: u64,
    pub(super) budget: &'a Budget,
    pub(super) imports: Option<&'a Imports>,
    /// Whether the content kept of a file may differ from what it reads: imports expanded, or a
    /// transform.
    pub(super) rewrites: bool,
    /// Whether the top-level file at a path, of a source, is left out unread: a duplicate, or
    /// one a session gave.
    pub(super) left_unread: &'a dyn Fn(&[u8], Source) -> bool,
}

/// The files the walk may read, in its order, for reading them ahead.
pub(super) struct Ahead {
    /// Each file, with the size reported and the source.
    planned: Vec<(FsName, u64, Source)>,
    /// Where each name is first in `planned`.
    at: HashMap<FsName, usize>,
    /// What each fragment directory and each of its files is: the walk takes these answers
    /// rather than ask again.
    fragment_dirs: HashMap<FsName, Result<FragmentDir, Error>>,
    fragment_files: HashMap<FsName, Result<Option<Kind>, Error>>,
    /// What each rule directory holds, likewise.
    rule_dirs: HashMap<(FsName, Dialect), Result<RuleFiles, Error>>,
    /// How many import targets have been read ahead: at most `max_imports` in a chain.
    imports: u32,
}

impl Ahead {
    /// The files that the walk over `dirs`, whose lookups of `names` are `lookups`, may read:
    /// each directory's standing file (where the one at `nearest` supersedes none), then the
    /// files of its fragment directories, then its rule files (a rule on request included: what
    /// it is tells only its front matter). A failed question plans nothing: the walk meets it in
    /// its turn.
    pub(super) fn plan(
        files: &Files,
        dirs: &Dirs,
        lookups: &[Lookup],
        names: &[Vec<u8>],
        options: &Options,
        nearest: Option<usize>,
    ) -> Self {
        let (all_names, fragments) = (options.all_names, &options.fragments);
        let mut planned = Vec::new();
        let mut fragment_dirs = HashMap::new();
        let mut fragment_files = HashMap::new();
        let mut rule_dirs = HashMap::new();
        for (i, lookup) in lookups.iter().enumerate() {
            let dir = dirs.get(i);
            if nearest.is_none_or(|at| at == i) {
                // The standing file, or with `all_names` every one (SPEC.md §9).
                let count = if all_names { usize::MAX } else { 1 };
                for (index, size) in lookup.files().take(count) {
                    planned.push((dir.join(&names[index]), size, Source::Chain));
                }
            }
            if !matches!(lookup, Lookup::Names(_)) {
                continue;
            }
            for fragment in fragments {
                let fragment_dir = dir.join(fragment);
                // A fragment named twice is asked once here: the walk, which takes this answer
                // once, asks it again the second time, as one question at a time does.
                if fragment_dirs.contains_key(&fragment_dir) {
                    continue;
                }
                let found = FragmentDir::of(files, &fragment_dir);
                if let Ok(FragmentDir::Listed(listed)) = &found {
                    for name in listed {
                        let kind = files.find(name);
                        if let Ok(Some(Kind::File { size })) = kind {
                            planned.push((name.clone(), size, Source::Fragment));
                        }
                        fragment_files.insert(name.clone(), kind);
                    }
                }
                fragment_dirs.insert(fragment_dir, found);
            }
            let rules = options.rules.iter();
            for rules in rules.filter(|rules| i == 0 || rules.dialect.in_each_directory()) {
                let key = (dir.join(&rules.dir), rules.dialect);
                if rule_dirs.contains_key(&key) {
                    continue;
                }
                let found = RuleFiles::of(files, &key.0, rules.dialect);
                if let Ok(RuleFiles::Listed(listed)) = &found {
                    for (name, kind) in listed {
                        if let Kind::File { size } = kind {
                            planned.push((name.clone(), *size, Source::Rule));
                        }
                    }
                }
                rule_dirs.insert(key, found);
            }
        }
        let at = planned.iter().enumerate().rev();
        let at = at.map(|(i, (name, _, _))| (name.clone(), i)).collect();
        Self {
            planned,
            at,
            fragment_dirs,
            fragment_files,
            rule_dirs,
            imports: 0,
        }
    }

    /// What the fragment directory `dir` is, as the plan found it, once.
    pub(super) fn fragment_dir(&mut self, dir: &FsName) -> Option<Result<FragmentDir, Error>> {
        self.fragment_dirs.remove(dir)
    }

    /// What the rule directory `key` holds, as the plan found it, once.
    pub(super) fn rule_dir(&mut self, key: &(FsName, Dialect)) -> Option<Result<RuleFiles, Error>> {
        self.rule_dirs.remove(key)
    }

    /// What the fragment file `name` is, as the plan found it, once.
    pub(super) fn fragment(&mut self, name: &FsName) -> Option<Result<Option<Kind>, Error>> {
        self.fragment_files.remove(name)
    }

    /// Before `walk` reads `name`: reads ahead, in one batch, it and the planned files after it
    /// that the walk is sure to read, then their imports (within `scope`), a batch per level.
    pub(super) fn read(
        &mut self,
        files: &Files,
        name: &FsName,
        scope: &[u8],
        walk: &View,
    ) -> Result<(), Error> {
        let Some(&from) = self.at.get(name).filter(|_| !files.has_read(name)) else {
            return Ok(());
        };
        let batch = self.sure_reads(files, from, walk);
        // What each expansion holds: its top-level file, then its imports read ahead.
        let mut held = Vec::new();
        let mut needed = Vec::new();
        files.read_ahead(&batch, walk.max_bytes, |name, content| {
            let top = held.len();
            held.push(content.len() as u64);
            let met = imports_in(files, name, content, scope, walk);
            needed.extend(met.into_iter().map(|met| Needed { met, top, depth: 1 }));
        })?;
        self.read_imports_ahead(files, needed, held, scope, walk)
    }

    /// The planned files from `from` on that the walk is sure to read, not read yet: each one
    /// that is no duplicate and fits unread, while the files before it are sure to be kept (with
    /// a budget: their size fits however they end, and nothing rewrites them).
    fn sure_reads(&self, files: &Files, from: usize, walk: &View) -> Vec<FsName> {
        let mut budget = walk.budget.clone();
        let mut seen = HashSet::new();
        let mut batch = Vec::new();
        for (name, size, source) in &self.planned[from..] {
            let path = files.path_of(name);
            if !seen.insert(name) || (walk.left_unread)(&path, *source) {
                continue;
            }
            if !budget.fits_unread(&path, *size) {
                break;
            }
            if !files.has_read(name) {
                batch.push(name.clone());
            }
            if budget.is_limited() && (walk.rewrites || !budget.spend_len(&path, *size, false)) {
                break;
            }
        }
        batch
    }

    /// Reads ahead the import targets `needed` in the files just read, and theirs, within the
    /// import depth and `max_imports`: a batch a level while every expansion could hold what is
    /// asked for it, else as many as it takes (SPEC §3.1 "Memory"). A target is asked only while
    /// its expansion holds at most `max_bytes` (past that its `TooLarge` comes first), and with
    /// the others of it only while their sizes (listed, or `max_bytes + 1`) fit `max_bytes + 1`.
    /// A failed batch is the error of the import of its first target.
    fn read_imports_ahead(
        &mut self,
        files: &Files,
        mut needed: Vec<Needed>,
        mut held: Vec<u64>,
        scope: &[u8],
        walk: &View,
    ) -> Result<(), Error> {
        let Some(imports) = walk.imports else {
            return Ok(());
        };
        let max_bytes = walk.max_bytes;
        let limit = read_limit(max_bytes);
        loop {
            let mut left = imports.max_imports().saturating_sub(self.imports);
            let mut asked = Vec::new();
            let mut later = Vec::new();
            // What this batch may bring each expansion, at most.
            let mut charged = vec![0u64; held.len()];
            let mut seen = HashSet::new();
            for need in needed {
                let name = files.name_of(&need.met.target);
                let holding = held[need.top];
                if need.depth > imports.depth_limit()
                    || holding > max_bytes
                    || files.has_read(&name)
                    || !seen.insert(name.clone())
                {
                    continue;
                }
                let size = files
                    .known_size(&name)
                    .map_or(limit, |size| size.min(limit));
                let charge = &mut charged[need.top];
                if left == 0
                    || (*charge > 0 && holding.saturating_add(*charge).saturating_add(size) > limit)
                {
                    later.push(need);
                    continue;
                }
                *charge = charge.saturating_add(size.max(1));
                left -= 1;
                asked.push((name, need));
            }
            let Some((_, first)) = asked.first() else {
                break;
            };
            self.imports += asked.len() as u32;
            let names: Vec<FsName> = asked.iter().map(|(name, _)| name.clone()).collect();
            let at: HashMap<&FsName, &Needed> = asked.iter().map(|(n, need)| (n, need)).collect();
            let mut next = Vec::new();
            files
                .read_ahead(&names, max_bytes, |name, content| {
                    let need = at[name];
                    held[need.top] += content.len() as u64;
                    let met = imports_in(files, name, content, scope, walk);
                    next.extend(met.into_iter().map(|met| Needed {
                        met,
                        top: need.top,
                        depth: need.depth + 1,
                    }));
                })
                .map_err(|error| {
                    error.in_import(&first.met.by, first.met.line, &first.met.target)
                })?;
            // Later batches ask what this one left out before what it found.
            later.extend(next);
            needed = later;
        }
        Ok(())
    }
}

/// The imports the expansion of `content`, the file `name`, would read: none of a file over
/// `max_bytes`, whose `TooLarge` comes first.
fn imports_in(files: &Files, name: &FsName, content: &[u8], scope: &[u8], walk: &View) -> Vec<Met> {
    if walk.imports.is_none() || content.len() as u64 > walk.max_bytes {
        return Vec::new();
    }
    targets(&files.path_of(name), content, scope, files.syntax())
}

/// An import target met in a file read ahead, with the expansion that needs it (its top-level
/// file's index among those read ahead together) and its depth.
struct Needed {
    met: Met,
    top: usize,
    depth: u32,
}
