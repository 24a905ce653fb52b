//! What the walk does with each place it looks at — a directory of the walk, its fragment
//! directories (SPEC.md §5.2), an extra, an overlay (§5.3) — and with each file it finds (§1
//! "Bounds", "Omitted"; §5.3–§5.7): a duplicate, a file over budget, a shadowed or a superseded
//! one is left out unread; any other is read, its imports expanded and its text transformed, and
//! kept if it fits the budgets. Every decision is probed when the report is asked for.

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};

use super::ahead::{Ahead, Walk};
use super::fragment::{self, FragmentDir};
use super::result::{Chain, File, Omitted, Outcome, Probe, Reason, Source};
use crate::budget::Budget;
use crate::error::Error;
use crate::fs::{Files, Kind, Lookup};
use crate::import::State as Imports;
use crate::options::{Options, Transform};
use crate::path::{self, FsName, Syntax, OS_ROOT};

/// The chain being built: what it has kept and left out, what the bounds have left, and what
/// each file found goes through.
pub(super) struct Collector<'a> {
    /// The names looked for in each directory.
    names: &'a [Vec<u8>],
    /// The fragment directories of each directory.
    fragments: &'a [Vec<u8>],
    chain: Chain,
    max_bytes: u64,
    budget: Budget,
    /// One per chain, with [`Options::imports`]: duplicates and `max_imports` count across it.
    imports: Option<Imports>,
    /// With fragments or overlays, which can give a path the result already holds (SPEC.md
    /// §5.3): the path of each file kept, with its source.
    kept: Option<HashMap<Vec<u8>, Source>>,
    transform: Option<&'a Transform>,
    report: bool,
    /// For a file system asked in batches, the files the walk may read, read ahead.
    ahead: Option<Ahead>,
}

impl<'a> Collector<'a> {
    pub(super) fn new(options: &'a Options, names: &'a [Vec<u8>]) -> Self {
        let imports = options
            .imports
            .then(|| Imports::new(options.import_depth, options.max_imports));
        let composed = !options.fragments.is_empty() || !options.overlays.is_empty();
        Self {
            names,
            fragments: &options.fragments,
            chain: Chain::default(),
            max_bytes: options.effective_max_bytes(),
            budget: Budget::new(options.budget, options.rendered_budget),
            imports,
            kept: composed.then(HashMap::new),
            transform: options.transform.as_ref(),
            report: options.report,
            ahead: None,
        }
    }

    /// Reads ahead what `ahead` plans, before each file it reads.
    pub(super) fn read_ahead(&mut self, ahead: Ahead) {
        self.ahead = Some(ahead);
    }

    pub(super) fn into_chain(self) -> Chain {
        self.chain
    }

    /// An extra file, read from the OS `os`: skipped when it does not exist, an error when it
    /// is no regular file.
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

    /// The overlay directory `overlay` (absolute and clean), read from `files` (SPEC.md §5.3).
    /// Only "not found" skips it: a link that loops or a path through a file is the host's
    /// mistake, said rather than taken for an overlay that is not there.
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

    /// One directory of the walk or an overlay, `dir` of `files`, which holds `lookup`: the
    /// first of its names that is a regular file stands for it, and the rest are shadowed by it;
    /// then its fragments. Its files have the source `source`, their imports the scope `scope`.
    /// With `superseded_by` (SPEC.md §5.6) the file that stands for it is superseded, unread.
    pub(super) fn directory(
        &mut self,
        files: &Files,
        dir: &FsName,
        lookup: Lookup,
        scope: &[u8],
        source: Source,
        superseded_by: Option<&Path>,
    ) -> Result<(), Error> {
        let found = match lookup {
            Lookup::Missing => {
                self.absent(files, dir, source);
                return Ok(());
            }
            Lookup::Escapes => {
                self.omit(&files.path_of(dir), 0, Reason::Escapes, None, source);
                return Ok(());
            }
            Lookup::Names(found) => found,
        };
        let mut found = found.into_iter().peekable();
        // The path of the file standing for the directory, once one does.
        let mut standing: Option<PathBuf> = None;
        let names = self.names;
        for (index, name) in names.iter().enumerate() {
            let Some((_, entry)) = found.next_if(|(at, _)| *at == index) else {
                if self.report {
                    self.probe_name(files, &dir.join(name), source, Outcome::NotFound);
                }
                continue;
            };
            let name = dir.join(name);
            let size = match entry {
                Kind::File { size } => size,
                Kind::Escapes => {
                    self.omit(&files.path_of(&name), 0, Reason::Escapes, None, source);
                    continue;
                }
                _ => {
                    self.probe_name(files, &name, source, Outcome::NotAFile);
                    continue;
                }
            };
            let path = files.path_of(&name);
            // A file both superseded and a duplicate is a duplicate (SPEC.md §5.8): its text is
            // in the result already.
            let superseded_by =
                superseded_by.filter(|_| self.duplicate_by(&path, source).is_none());
            if let Some(by) = &standing {
                self.omit(&path, size, Reason::Shadowed, Some(by.clone()), source);
            } else if let Some(by) = superseded_by {
                let by = Some(by.to_path_buf());
                self.omit(&path, size, Reason::Superseded, by, source);
                standing = Some(path::into_path_buf(path));
            } else if self.add_file(files, &name, size, source, scope)? {
                standing = Some(path::into_path_buf(path));
            }
        }
        self.fragments(files, dir, scope, source)
    }

    /// A directory that does not exist: every place in it is probed as not found, unasked.
    fn absent(&mut self, files: &Files, dir: &FsName, source: Source) {
        if !self.report {
            return;
        }
        for name in self.names {
            self.probe_name(files, &dir.join(name), source, Outcome::NotFound);
        }
        let fragment_source = fragment::source_of(source);
        for fragment in self.fragments {
            let name = dir.join(fragment);
            self.probe_name(files, &name, fragment_source, Outcome::NotFound);
        }
    }

    /// The files of each fragment directory of `dir`, in order, after `dir`'s own file, whose
    /// source is `source`; `scope` bounds their imports.
    fn fragments(
        &mut self,
        files: &Files,
        dir: &FsName,
        scope: &[u8],
        source: Source,
    ) -> Result<(), Error> {
        let source = fragment::source_of(source);
        for fragment in self.fragments {
            self.fragment_dir(files, &dir.join(fragment), scope, source)?;
        }
        Ok(())
    }

    /// The fragment directory `dir`: its files in order, each `.md` regular file that does not
    /// begin with `.`. One that does not exist, or is no directory, adds nothing.
    fn fragment_dir(
        &mut self,
        files: &Files,
        dir: &FsName,
        scope: &[u8],
        source: Source,
    ) -> Result<(), Error> {
        let found = self.planned(source, |ahead| ahead.fragment_dir(dir));
        let names = match found.unwrap_or_else(|| FragmentDir::of(files, dir))? {
            FragmentDir::Listed(names) => names,
            FragmentDir::Escapes => {
                self.omit(&files.path_of(dir), 0, Reason::Escapes, None, source);
                return Ok(());
            }
            FragmentDir::NotADir => {
                self.probe_name(files, dir, source, Outcome::NotAFile);
                return Ok(());
            }
            FragmentDir::NotFound => {
                self.probe_name(files, dir, source, Outcome::NotFound);
                return Ok(());
            }
        };
        self.probe_name(files, dir, source, Outcome::Listed);
        for name in names {
            let found = self.planned(source, |ahead| ahead.fragment(&name));
            match found.unwrap_or_else(|| files.find(&name))? {
                Some(Kind::File { size }) => {
                    self.add_file(files, &name, size, source, scope)?;
                }
                Some(Kind::Escapes) => {
                    self.omit(&files.path_of(&name), 0, Reason::Escapes, None, source)
                }
                // Listed but leading nowhere: a dangling link, no file.
                _ => self.probe_name(files, &name, source, Outcome::NotAFile),
            }
        }
        Ok(())
    }

    /// What the batch plan found of a fragment of the walk (of `source`), taken by `take`, so
    /// that the walk does not ask it again.
    fn planned<T>(
        &mut self,
        source: Source,
        take: impl FnOnce(&mut Ahead) -> Option<T>,
    ) -> Option<T> {
        self.ahead
            .as_mut()
            .filter(|_| source == Source::Fragment)
            .and_then(take)
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
        let outcome = match reason {
            Reason::Shadowed => Outcome::Shadowed,
            Reason::Superseded => Outcome::Superseded,
            Reason::Duplicate => Outcome::Duplicate,
            Reason::OverBudget => Outcome::OverBudget,
            Reason::Escapes => Outcome::Escapes,
        };
        self.probe(path, source, outcome);
        let path = path::to_path_buf(path);
        self.chain.omitted.push(Omitted {
            path,
            size,
            reason,
            by,
        });
    }

    /// The regular file `name` of `files`, whose stat reported `size`: kept, or left out (a
    /// duplicate, over budget); `scope` bounds its imports. `false` when it turned out not to
    /// exist when read, so that it is no file at all.
    fn add_file(
        &mut self,
        files: &Files,
        name: &FsName,
        size: u64,
        source: Source,
        scope: &[u8],
    ) -> Result<bool, Error> {
        let path = files.path_of(name);
        if let Some(by) = self.duplicate_by(&path, source) {
            self.omit(&path, size, Reason::Duplicate, Some(by), source);
            return Ok(true);
        }
        let imports_from = self.chain.imports.len();
        if !self.budget.fits_unread(&path, size) {
            self.over_budget(&path, size, source, imports_from);
            return Ok(true);
        }
        if let Some(mut ahead) = self.ahead.take() {
            // The planner reads the walk's state, and changes none of it.
            let read = ahead.read(files, name, scope, self);
            self.ahead = Some(ahead);
            read?;
        }
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
        if !self.budget.spend(&path, &content) {
            if let (Some(imports), Some(mark)) = (&mut self.imports, mark) {
                imports.leave_out(mark);
            }
            self.over_budget(&path, content.len() as u64, source, imports_from);
            self.chain.imports.truncate(imports_from);
            return Ok(true);
        }
        if let Some(imports) = &mut self.imports {
            imports.keep(&path);
        }
        if let Some(kept) = &mut self.kept {
            kept.insert(path.clone(), source);
        }
        self.probe(&path, source, Outcome::Included);
        self.probe_imports(imports_from, source);
        self.chain.files.push(File {
            path: path::into_path_buf(path),
            content,
            source,
        });
        Ok(true)
    }

    /// The `by` of the top-level file at `path` of `source` when it is a duplicate, decided
    /// without reading it: itself, when it is already a file of the result (SPEC.md §5.3); or
    /// the file whose directive imported it (§5.4). Two files that §1 alone gives (an extra, a
    /// directory's file) are no duplicates of each other: §1 holds as it is (§5).
    fn duplicate_by(&self, path: &[u8], source: Source) -> Option<PathBuf> {
        let section_1 = |source| matches!(source, Source::Extra | Source::Chain);
        let kept = self.kept.as_ref().and_then(|kept| kept.get(path));
        if kept.is_some_and(|&earlier| !(section_1(earlier) && section_1(source))) {
            return Some(path::to_path_buf(path));
        }
        let by = self.imports.as_ref()?.imported_by(path)?;
        Some(path::to_path_buf(by))
    }

    /// Leaves out a file over budget, which ends the chain; the imports it read, the chain's
    /// from `imports_from` on, are probed.
    fn over_budget(&mut self, path: &[u8], size: u64, source: Source, imports_from: usize) {
        self.budget.ended = true;
        self.omit(path, size, Reason::OverBudget, None, source);
        self.probe_imports(imports_from, source);
    }

    /// Probes the chain's imports from `from` on, met in a file of source `source`.
    fn probe_imports(&mut self, from: usize, source: Source) {
        if !self.report {
            return;
        }
        for import in &self.chain.imports[from..] {
            let outcome = match import.duplicate {
                true => Outcome::Duplicate,
                false => Outcome::Imported,
            };
            let path = import.path.clone();
            self.chain.probes.push(Probe {
                path,
                source,
                outcome,
            });
        }
    }

    /// Probes `name` of `files`, its path built only when probes are asked for.
    fn probe_name(&mut self, files: &Files, name: &FsName, source: Source, outcome: Outcome) {
        if self.report {
            self.probe(&files.path_of(name), source, outcome);
        }
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
}

impl Walk for Collector<'_> {
    fn max_bytes(&self) -> u64 {
        self.max_bytes
    }

    fn budget(&self) -> &Budget {
        &self.budget
    }

    fn imports(&self) -> Option<&Imports> {
        self.imports.as_ref()
    }

    fn rewrites(&self) -> bool {
        self.imports.is_some() || self.transform.is_some()
    }

    fn is_duplicate(&self, path: &[u8], source: Source) -> bool {
        self.duplicate_by(path, source).is_some()
    }
}
