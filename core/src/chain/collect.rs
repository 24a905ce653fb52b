//! What the walk does with each place it looks at and each file it finds (SPEC §1 "Bounds",
//! "Omitted"; §5.2–§5.7): left out unread, or read, expanded, transformed and kept if it fits.

mod rules;

use std::collections::{HashMap, HashSet};
use std::io;
use std::path::{Path, PathBuf};

use super::ahead::{Ahead, View};
use super::fragment::{FragmentDir, Known};
use super::result::{Chain, File, Omitted, Outcome, Probe, Reason, Source};
use crate::budget::Budget;
use crate::error::Error;
use crate::fs::{Files, Kind, Lookup};
use crate::import::State as Imports;
use crate::options::{Options, Transform};
use crate::path::{self, FsName, Syntax, OS_ROOT};
use crate::rules::{Dialect, RuleDir};

/// The chain being built, and what the bounds, imports and transform hold across it.
pub(super) struct Collector<'a> {
    names: &'a [Vec<u8>],
    /// Every name a directory has is one of its files, none shadowing another (SPEC §9).
    all_names: bool,
    fragments: &'a [Vec<u8>],
    rules: &'a [RuleDir],
    chain: Chain,
    max_bytes: u64,
    budget: Budget,
    /// One per chain, with [`Options::imports`]: duplicates and `max_imports` count across it.
    imports: Option<Imports>,
    /// The path of each file kept, with its source, for duplicates (SPEC §5.3).
    kept: HashMap<Vec<u8>, Source>,
    transform: Option<&'a Transform>,
    report: bool,
    /// For a file system asked in batches, the plan of what to read ahead.
    ahead: Option<Ahead>,
    /// In a session, the files and imports its earlier touches gave: not given again.
    given: Option<&'a HashSet<Vec<u8>>>,
    /// In a session, the fragment and rule directories and files its touches found: not asked
    /// again.
    known: Option<&'a mut Known>,
    /// Outside a session, the rule files this chain read.
    own: Known,
    /// The rule files read by this walk: a session's failing touch forgets them, so that the
    /// next one to meet them reports their offers and warnings.
    read_rules: Vec<(FsName, Dialect)>,
    /// In a session's touch but its first, how to undo it: the budgets before it, and where
    /// the imports' files stood.
    undo: Option<(Budget, Option<usize>)>,
}

/// What a session's walk carries from one touch to the next (SPEC §10): the budgets it has
/// spent, and the imports of what it gave.
pub(crate) struct Carried {
    budget: Budget,
    imports: Option<Imports>,
}

impl<'a> Collector<'a> {
    pub(super) fn new(options: &'a Options, names: &'a [Vec<u8>]) -> Self {
        let imports = options
            .imports
            .then(|| Imports::new(options.import_depth, options.max_imports));
        Self {
            names,
            all_names: options.all_names,
            fragments: &options.fragments,
            rules: &options.rules,
            chain: Chain::default(),
            max_bytes: options.effective_max_bytes(),
            budget: Budget::new(options.budget, options.rendered_budget),
            imports,
            kept: HashMap::new(),
            transform: options.transform.as_ref(),
            report: options.report,
            ahead: None,
            given: None,
            known: None,
            own: Known::default(),
            read_rules: Vec::new(),
            undo: None,
        }
    }

    /// The walk of a session's touch: it goes on from what the earlier touches `carried`, and
    /// leaves out, silently, every file in `given`; the fragments it finds are `known` to the
    /// next.
    pub(super) fn resume(
        mut self,
        carried: Option<Carried>,
        given: &'a HashSet<Vec<u8>>,
        known: &'a mut Known,
    ) -> Self {
        if let Some(Carried { budget, imports }) = carried {
            let mark = imports.as_ref().map(Imports::mark);
            self.undo = Some((budget.clone(), mark));
            self.budget = budget;
            self.budget.next_delta();
            self.imports = imports;
            if let Some(imports) = &mut self.imports {
                imports.next_touch();
            }
        }
        self.given = Some(given);
        self.known = Some(known);
        self
    }

    /// What a session carried before the touch that failed, which it undoes; `None` for its
    /// first.
    pub(super) fn undone(self) -> Option<Carried> {
        if let Some(known) = self.known {
            for read in &self.read_rules {
                known.rules.remove(read);
            }
        }
        let (budget, mark) = self.undo?;
        let mut imports = self.imports;
        if let (Some(imports), Some(mark)) = (&mut imports, mark) {
            imports.leave_out(mark);
        }
        Some(Carried { budget, imports })
    }

    /// The chain, and what the next touch of a session carries on with.
    pub(super) fn into_parts(self) -> (Chain, Carried) {
        let carried = Carried {
            budget: self.budget,
            imports: self.imports,
        };
        (self.chain, carried)
    }

    pub(super) fn read_ahead(&mut self, ahead: Ahead) {
        self.ahead = Some(ahead);
    }

    /// An extra file, read from the OS `os` (SPEC §1 "Paths").
    pub(super) fn extra(&mut self, os: &Files, extra: &Path) -> Result<(), Error> {
        let bytes = path::bytes(extra);
        let name = os.name_of(bytes);
        match os.stat(&name)? {
            None => self.probe(bytes, Source::Extra, Outcome::NotFound),
            Some(Kind::File { size }) => {
                let scope = path::parent(Syntax::OS, bytes).unwrap_or(OS_ROOT);
                self.add_file(os, &name, size, Source::Extra, scope)?;
            }
            Some(_) => {
                let message = [&b"extra "[..], bytes, b": not a regular file"].concat();
                return Err(Error::invalid_argument(message));
            }
        }
        Ok(())
    }

    /// The overlay directory `overlay` (absolute and clean), read from `files` (SPEC §5.3, §5.8).
    pub(super) fn overlay(&mut self, files: &Files, overlay: &Path) -> Result<(), Error> {
        let bytes = path::bytes(overlay);
        let dir = files.name_of(bytes);
        let lookup = match files.stat_exactly(&dir)? {
            Ok(Kind::Dir) => files.lookup(&dir, self.names)?,
            // Confined, a link that leads out of root: as a directory of the walk that does.
            Ok(Kind::Escapes) => Lookup::Escapes,
            Ok(_) => {
                let message = [&b"overlay "[..], bytes, b": not a directory"].concat();
                return Err(Error::invalid_argument(message));
            }
            Err(error) if error.kind() == io::ErrorKind::NotFound => Lookup::Missing,
            Err(error) => return Err(Error::io("stat", bytes, error)),
        };
        self.directory(files, &dir, lookup, bytes, Source::Overlay, None)
    }

    /// One directory of the walk or an overlay, `dir`, which holds `lookup`: its file (SPEC §1),
    /// superseded by `superseded_by` (§5.6), then its fragments (§5.2); `scope` bounds imports.
    pub(super) fn directory(
        &mut self,
        files: &Files,
        dir: &FsName,
        lookup: Lookup,
        scope: &[u8],
        source: Source,
        superseded_by: Option<&Path>,
    ) -> Result<(), Error> {
        // A directory that does not exist: every place in it is probed as not found, unasked.
        let missing = matches!(lookup, Lookup::Missing);
        let found = match lookup {
            Lookup::Missing => Vec::new(),
            Lookup::Escapes => {
                self.omit(&files.path_of(dir), 0, Reason::Escapes, None, source);
                return Ok(());
            }
            Lookup::Names(found) => found,
        };
        // The path of the file standing for the directory, once one does.
        let mut standing: Option<PathBuf> = None;
        for (index, name) in self.names.iter().enumerate() {
            let Some(&(_, kind)) = found.iter().find(|(at, _)| *at == index) else {
                // Most names looked for are not there: their paths are built for a report only.
                if self.report {
                    self.probe(&files.path_of(&dir.join(name)), source, Outcome::NotFound);
                }
                continue;
            };
            let name = dir.join(name);
            let path = files.path_of(&name);
            let Some(size) = self.file_size(&path, kind, source) else {
                continue;
            };
            // A file both superseded and a duplicate is a duplicate (SPEC §5.8).
            let superseded_by =
                superseded_by.filter(|_| self.duplicate_by(&path, source).is_none());
            if let Some(by) = standing.as_ref().filter(|_| !self.all_names) {
                self.omit(&path, size, Reason::Shadowed, Some(by.clone()), source);
            } else if let Some(by) = superseded_by {
                let by = Some(by.to_path_buf());
                self.omit(&path, size, Reason::Superseded, by, source);
                standing = Some(path::into_path_buf(path));
            } else if self.add_file(files, &name, size, source, scope)? {
                standing = Some(path::into_path_buf(path));
            }
        }
        let source = match source {
            Source::Chain => Source::Fragment,
            overlay => overlay,
        };
        for fragment in self.fragments {
            let fragment_dir = dir.join(fragment);
            match missing {
                true => self.probe(&files.path_of(&fragment_dir), source, Outcome::NotFound),
                false => self.fragment_dir(files, &fragment_dir, scope, source)?,
            }
        }
        Ok(())
    }

    /// The fragment directory `dir`: its files in order (SPEC §5.2).
    fn fragment_dir(
        &mut self,
        files: &Files,
        dir: &FsName,
        scope: &[u8],
        source: Source,
    ) -> Result<(), Error> {
        let known = self
            .known
            .as_deref()
            .and_then(|known| known.dirs.get(dir).cloned());
        let found = match known {
            Some(found) => found,
            None => {
                // What the plan found of a fragment of the walk is taken, not asked again.
                let planned = self.ahead.as_mut().filter(|_| source == Source::Fragment);
                let found = planned.and_then(|ahead| ahead.fragment_dir(dir));
                let found = found.unwrap_or_else(|| FragmentDir::of(files, dir))?;
                if let Some(known) = self.known.as_deref_mut() {
                    known.dirs.insert(dir.clone(), found.clone());
                }
                found
            }
        };
        let outcome = match found {
            FragmentDir::Listed(_) => Outcome::Listed,
            FragmentDir::Escapes => {
                self.omit(&files.path_of(dir), 0, Reason::Escapes, None, source);
                return Ok(());
            }
            FragmentDir::NotADir => Outcome::NotAFile,
            FragmentDir::NotFound => Outcome::NotFound,
        };
        self.probe(&files.path_of(dir), source, outcome);
        let FragmentDir::Listed(names) = found else {
            return Ok(());
        };
        for name in names {
            let known = self
                .known
                .as_deref()
                .and_then(|known| known.files.get(&name));
            let found = match known.copied() {
                Some(found) => found,
                None => {
                    let planned = self.ahead.as_mut().filter(|_| source == Source::Fragment);
                    let found = planned.and_then(|ahead| ahead.fragment(&name));
                    let found = found.unwrap_or_else(|| files.find(&name))?;
                    if let Some(known) = self.known.as_deref_mut() {
                        known.files.insert(name.clone(), found);
                    }
                    found
                }
            };
            // Listed but leading nowhere: a dangling link, no file.
            let kind = found.unwrap_or(Kind::Other);
            if let Some(size) = self.file_size(&files.path_of(&name), kind, source) {
                self.add_file(files, &name, size, source, scope)?;
            }
        }
        Ok(())
    }

    /// The size of the file at `path`, a `kind`, if regular; else left out or probed (SPEC §1).
    fn file_size(&mut self, path: &[u8], kind: Kind, source: Source) -> Option<u64> {
        match kind {
            Kind::File { size } => return Some(size),
            Kind::Escapes => self.omit(path, 0, Reason::Escapes, None, source),
            _ => self.probe(path, source, Outcome::NotAFile),
        }
        None
    }

    /// Leaves out a file decided without reading it, probed with the outcome of its reason.
    fn omit(
        &mut self,
        path: &[u8],
        size: u64,
        reason: Reason,
        by: Option<PathBuf>,
        source: Source,
    ) {
        self.probe(path, source, reason.into());
        self.chain.omitted.push(Omitted {
            path: path::to_path_buf(path),
            size,
            reason,
            by,
        });
    }

    /// The regular file `name`, whose stat reported `size`: kept, or left out (a duplicate, over
    /// budget); `false` when it turned out not to exist when read.
    fn add_file(
        &mut self,
        files: &Files,
        name: &FsName,
        size: u64,
        source: Source,
        scope: &[u8],
    ) -> Result<bool, Error> {
        let path = files.path_of(name);
        if !self.admits(&path, size, source) {
            return Ok(true);
        }
        let imports_from = self.chain.imports.len();
        self.read_planned(files, name, scope)?;
        let Some(content) = files.read(name, size, self.max_bytes)? else {
            self.probe(&path, source, Outcome::NotFound);
            return Ok(false);
        };
        // The imports met are added to the chain's list as they are met, and taken back if the
        // file is left out.
        let mark = self.imports.as_ref().map(Imports::mark);
        let content = match &mut self.imports {
            Some(imports) => {
                let met = &mut self.chain.imports;
                imports.expand(&path, content, scope, files, self.max_bytes, met)?
            }
            None => content,
        };
        let content = match self.transform {
            Some(transform) => transform.apply_within(&path, content, self.max_bytes)?,
            None => content,
        };
        // Bounds count the expanded, transformed text, and name the top-level file.
        if content.len() as u64 > self.max_bytes {
            return Err(Error::too_large(&path, self.max_bytes));
        }
        self.keep(path, content, source, imports_from, mark);
        Ok(true)
    }

    /// Before the walk reads `name`, where the file system is asked in batches: reads ahead it
    /// and the files after it that the walk is sure to read, and their imports within `scope`.
    fn read_planned(&mut self, files: &Files, name: &FsName, scope: &[u8]) -> Result<(), Error> {
        let Some(mut ahead) = self.ahead.take() else {
            return Ok(());
        };
        // The planner reads the walk's state, and changes none of it.
        let left_unread = |path: &[u8], source| self.is_duplicate(path, source);
        let view = View {
            max_bytes: self.max_bytes,
            budget: &self.budget,
            imports: self.imports.as_ref(),
            rewrites: self.imports.is_some() || self.transform.is_some(),
            left_unread: &left_unread,
        };
        let read = ahead.read(files, name, scope, &view);
        self.ahead = Some(ahead);
        read
    }

    /// Whether the file at `path`, of `size`, is to be read: not one the session gave, nor a
    /// duplicate or over budget, which are left out here.
    fn admits(&mut self, path: &[u8], size: u64, source: Source) -> bool {
        if self.is_given(path) {
            return false;
        }
        if let Some(by) = self.duplicate_by(path, source) {
            self.omit(path, size, Reason::Duplicate, Some(by), source);
            return false;
        }
        if !self.budget.fits_unread(path, size) {
            let imports_from = self.chain.imports.len();
            self.over_budget(path, size, source, imports_from);
            return false;
        }
        true
    }

    /// Keeps `content`, the file at `path`, if the budgets have room for it; the imports met in
    /// it from `imports_from` on are probed, or taken back (to `mark`) with it.
    fn keep(
        &mut self,
        path: Vec<u8>,
        content: Vec<u8>,
        source: Source,
        imports_from: usize,
        mark: Option<usize>,
    ) {
        if !self.budget.spend(&path, &content) {
            if let (Some(imports), Some(mark)) = (&mut self.imports, mark) {
                imports.leave_out(mark);
            }
            self.over_budget(&path, content.len() as u64, source, imports_from);
            return;
        }
        if let Some(imports) = &mut self.imports {
            imports.keep(&path);
        }
        self.kept.insert(path.clone(), source);
        self.probe(&path, source, Outcome::Included);
        self.probe_imports(imports_from, source);
        self.chain.files.push(File {
            path: path::into_path_buf(path),
            content,
            source,
        });
    }

    /// What the session (or, outside one, this chain) found of fragment and rule directories.
    fn known(&mut self) -> &mut Known {
        match &mut self.known {
            Some(known) => known,
            None => &mut self.own,
        }
    }

    /// The `by` of the top-level file at `path` of `source` when it is a duplicate, decided
    /// without reading it (SPEC §5.3, §5.4). Two files that §1 alone gives (an extra, a
    /// directory's file) are no duplicates of each other: §1 holds as it is (§5).
    fn duplicate_by(&self, path: &[u8], source: Source) -> Option<PathBuf> {
        // Nor are two rules: two rule directories over the same files both count (SPEC §11.1).
        let section_1 = |source| matches!(source, Source::Extra | Source::Chain);
        let both = |earlier, is: fn(Source) -> bool| is(earlier) && is(source);
        let kept = self.kept.get(path);
        let rule = |source| source == Source::Rule;
        if kept.is_some_and(|&earlier| !(both(earlier, section_1) || both(earlier, rule))) {
            return Some(path::to_path_buf(path));
        }
        let by = self.imports.as_ref()?.imported_by(path)?;
        Some(path::to_path_buf(by))
    }

    /// Leaves out a file over budget, ending the chain: the imports it read are probed, then
    /// taken back from the chain's (from `imports_from` on).
    fn over_budget(&mut self, path: &[u8], size: u64, source: Source, imports_from: usize) {
        self.budget.ended = true;
        self.omit(path, size, Reason::OverBudget, None, source);
        self.probe_imports(imports_from, source);
        self.chain.imports.truncate(imports_from);
    }

    /// Probes the chain's imports from `from` on, met in a file of source `source`.
    fn probe_imports(&mut self, from: usize, source: Source) {
        let imports = self.chain.imports[from..].iter().filter(|_| self.report);
        let probes = imports.map(|import| Probe {
            path: import.path.clone(),
            source,
            outcome: match import.duplicate {
                true => Outcome::Duplicate,
                false => Outcome::Imported,
            },
        });
        self.chain.probes.extend(probes);
    }

    fn probe(&mut self, path: &[u8], source: Source, outcome: Outcome) {
        if self.report {
            let path = path::to_path_buf(path);
            self.chain.probes.push(Probe {
                path,
                source,
                outcome,
            });
        }
    }

    /// Whether the top-level file at `path` of `source` is left out unread: a duplicate, or one
    /// the session gave.
    fn is_duplicate(&self, path: &[u8], source: Source) -> bool {
        self.is_given(path) || self.duplicate_by(path, source).is_some()
    }

    /// Whether an earlier touch of the session gave the file at `path` (SPEC §10).
    fn is_given(&self, path: &[u8]) -> bool {
        self.given.is_some_and(|given| given.contains(path))
    }
}
