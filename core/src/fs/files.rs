//! [`Files`]: the file system a chain reads, and the one place that asks it anything, through a
//! [`Backend`]. Each rule about an answer is here once: "not found" and a path through a file,
//! the read bounded by `max_bytes`, and whether the chain was cancelled.

use std::collections::{HashMap, HashSet};
use std::ffi::OsString;
use std::io::{self, Read};

use super::custom::{Answers, Custom};
use super::sys::{is_not_a_directory, Backend, ConfinedFs, Os};
use super::{read_bounded, Batches, Kind};
use crate::cancel::Cancel;
use crate::error::Error;
use crate::options::Options;
use crate::path::{self, FsName, Syntax, NAMES};

/// What one directory of the walk holds under the names looked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Lookup {
    /// The directory does not exist (or leads nowhere): nothing below it is asked about.
    Missing,
    /// The directory is a link leading out of a confined root: nothing in or below it is asked.
    Escapes,
    /// The names looked for that the directory lists, in their order: `(index in names, kind)`.
    Names(Vec<(usize, Kind)>),
}

impl Lookup {
    /// The file standing for the directory as far as its lookup tells (SPEC §1): the first
    /// regular file, as `(index in names, size)`.
    pub(crate) fn standing(&self) -> Option<(usize, u64)> {
        self.files().next()
    }

    /// Every name looked for that is a regular file, as `(index in names, size)`: with
    /// `all_names` (SPEC.md §9), each is one of the directory's files.
    pub(crate) fn files(&self) -> impl Iterator<Item = (usize, u64)> + '_ {
        let found = match self {
            Lookup::Names(found) => &found[..],
            Lookup::Missing | Lookup::Escapes => &[],
        };
        found.iter().filter_map(|&(index, entry)| match entry {
            Kind::File { size } => Some((index, size)),
            _ => None,
        })
    }
}

/// The file system a chain reads, and whether its caller has cancelled the chain.
pub(crate) struct Files<'a> {
    fs: Door<'a>,
    cancel: Option<Cancel>,
}

/// What answers a chain's questions: the OS (beneath a root, or not), or a custom file system,
/// which alone may also be asked in batches (SPEC §3.1).
enum Door<'a> {
    Os(Box<dyn Backend>),
    Custom(Custom<'a>),
}

impl<'a> Files<'a> {
    /// The file system of a chain's `options`, whose root is the OS path `os_root` when it is the
    /// OS's.
    pub(crate) fn new(options: &'a Options, os_root: &[u8]) -> Result<Self, Error> {
        let fs = match &options.fs {
            Some(fs) => Door::Custom(Custom::new(&**fs)),
            None if options.confine => {
                Door::Os(Box::new(ConfinedFs::open(&path::to_path_buf(os_root))?))
            }
            None => Door::Os(Box::new(Os::default())),
        };
        let cancel = options.cancel.clone();
        Ok(Self { fs, cancel })
    }

    /// Swaps what a custom file system's batches answered with `answers`: a session's, lent to
    /// one touch and taken back after it (SPEC §10). The OS's answers are never kept.
    pub(crate) fn swap_answers(&mut self, answers: &mut Answers) {
        if let Door::Custom(custom) = &mut self.fs {
            std::mem::swap(&mut custom.answers, answers);
        }
    }

    /// The OS file system, names below `/`: where extras are read, and unconfined overlays.
    pub(crate) fn os(options: &Options) -> Self {
        let fs = Door::Os(Box::new(Os::default()));
        let cancel = options.cancel.clone();
        Self { fs, cancel }
    }

    /// The file system, to ask it about `name`: once the caller has cancelled the chain (SPEC
    /// §4) none is asked, and the chain fails `Aborted` naming the path it was at.
    fn ask(&self, name: &FsName) -> Result<&dyn Backend, Error> {
        match &self.cancel {
            Some(cancel) if cancel.is_cancelled() => Err(Error::aborted(&self.path_of(name))),
            _ => Ok(self.backend()),
        }
    }

    fn backend(&self) -> &dyn Backend {
        match &self.fs {
            Door::Os(os) => &**os,
            Door::Custom(custom) => custom,
        }
    }

    fn custom(&self) -> Option<&Custom<'a>> {
        match &self.fs {
            Door::Custom(custom) => Some(custom),
            Door::Os(_) => None,
        }
    }

    /// How the paths of this file system's files are written ([`Files::path_of`]).
    pub(crate) fn syntax(&self) -> Syntax {
        match self.backend().base() {
            Some(_) => Syntax::OS,
            None => NAMES,
        }
    }

    /// The path `name` is reported under: its OS path, or the name itself.
    pub(crate) fn path_of(&self, name: &FsName) -> Vec<u8> {
        match self.backend().base() {
            Some(base) => path::os_path(base, name),
            None => name.as_bytes().to_vec(),
        }
    }

    /// The name whose path is `path` ([`Files::path_of`]).
    pub(crate) fn name_of(&self, path: &[u8]) -> FsName {
        match self.backend().base() {
            Some(base) => path::name_below(base, path),
            None => FsName::of_valid(path),
        }
    }

    /// Whether the OS path `path` is this file system's confined root or below it.
    pub(crate) fn confines(&self, path: &[u8]) -> bool {
        match self.backend().base() {
            Some(root) if self.backend().confined() => path::is_within(Syntax::OS, path, root),
            _ => false,
        }
    }

    /// Which questions the chain asks in batches (SPEC §3.1): none of the OS's.
    pub(crate) fn batches(&self) -> Batches {
        self.custom().map_or_else(Batches::default, Custom::batches)
    }

    /// Lists `dirs` in one batch, where this file system is asked in batches.
    pub(crate) fn list_ahead(&self, dirs: &[FsName]) -> Result<(), Error> {
        match (dirs.first(), self.custom()) {
            (Some(first), Some(custom)) => self.ask(first).and_then(|_| custom.list_ahead(dirs)),
            _ => Ok(()),
        }
    }

    /// Reads `names` in one batch, as [`Files::read`] reads each, where this file system is
    /// asked in batches; `each` is shown every file found.
    pub(crate) fn read_ahead(
        &self,
        names: &[FsName],
        max_bytes: u64,
        mut each: impl FnMut(&FsName, &[u8]),
    ) -> Result<(), Error> {
        match (names.first(), self.custom()) {
            (Some(first), Some(custom)) => self
                .ask(first)
                .and_then(|_| custom.read_ahead(names, read_limit(max_bytes), &mut each)),
            _ => Ok(()),
        }
    }

    /// The size of the file `name` as a batch said it, without asking.
    pub(crate) fn known_size(&self, name: &FsName) -> Option<u64> {
        self.custom()?.known_size(name)
    }

    /// Whether `name` has been read ahead, found or not.
    pub(crate) fn has_read(&self, name: &FsName) -> bool {
        self.custom().is_some_and(|custom| custom.has_read(name))
    }

    fn fail(&self, op: &str, name: &FsName, error: io::Error) -> Error {
        self.backend().error(op, &self.path_of(name), error)
    }

    /// What `name` is, following links; `None` when it leads nowhere.
    pub(crate) fn stat(&self, name: &FsName) -> Result<Option<Kind>, Error> {
        let stat = self.ask(name)?.stat(name);
        self.stat_answer(name, stat)
    }

    /// [`Files::find`] of an import's target: one that a batch listing does not list is asked
    /// of the file system, which may find it under another spelling.
    pub(crate) fn find_target(&self, name: &FsName) -> Result<Option<Kind>, Error> {
        let fs = self.ask(name)?;
        let stat = match self.custom() {
            Some(custom) => custom.stat_target(name),
            None => fs.stat(name),
        };
        through_a_file_is_nothing(self.stat_answer(name, stat))
    }

    fn stat_answer(&self, name: &FsName, stat: io::Result<Kind>) -> Result<Option<Kind>, Error> {
        match stat {
            Ok(entry) => Ok(Some(entry)),
            Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(error) => Err(self.fail("stat", name, error)),
        }
    }

    /// [`Files::stat`] of a name that a path through a file names (`.agents/x` where `.agents`
    /// is a file): nothing there, rather than an error (SPEC §5.8).
    pub(crate) fn find(&self, name: &FsName) -> Result<Option<Kind>, Error> {
        through_a_file_is_nothing(self.stat(name))
    }

    /// [`Files::find`] of a name that the directory holding it may hold as a link that leads
    /// nowhere: [`Kind::Other`] then, rather than nothing (a fragment directory, SPEC §5.8).
    pub(crate) fn find_entry(&self, name: &FsName) -> Result<Option<Kind>, Error> {
        through_a_file_is_nothing(self.ask(name)?.entry(name))
    }

    /// Whether `name` is a symbolic link, not followed.
    pub(crate) fn is_link(&self, name: &FsName) -> Result<bool, Error> {
        self.ask(name)?.is_link(name)
    }

    /// [`Backend::stat_exactly`] of `name`, an overlay directory; the outer error is the chain's
    /// own: it was cancelled.
    pub(crate) fn stat_exactly(&self, name: &FsName) -> Result<io::Result<Kind>, Error> {
        Ok(self.ask(name)?.stat_exactly(name))
    }

    /// The names the directory `dir` lists; `None` when it leads nowhere.
    pub(crate) fn list(&self, dir: &FsName) -> Result<Option<Vec<OsString>>, Error> {
        let listed = self.ask(dir)?.list(dir);
        match listed {
            Ok(names) => Ok(Some(names)),
            Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(error) => Err(self.fail("list", dir, error)),
        }
    }

    /// What the directory `dir` holds under `names`. A name of several elements (SPEC.md §9) is
    /// looked up in the directory its first element names, once `dir` has listed that element
    /// and it is a directory; one whose first element leads out of a confined root escapes.
    pub(crate) fn lookup(&self, dir: &FsName, names: &[Vec<u8>]) -> Result<Lookup, Error> {
        if !names.iter().any(|name| name.contains(&b'/')) {
            return self.lookup_elements(dir, names);
        }
        // Each name's first element, asked of `dir` once however many names it begins.
        let mut firsts: Vec<Vec<u8>> = Vec::new();
        let mut first_at = HashMap::new();
        let mut first_of = Vec::with_capacity(names.len());
        for name in names {
            let first = name.split(|&b| b == b'/').next().unwrap_or_default();
            let at = *first_at.entry(first).or_insert_with(|| {
                firsts.push(first.to_vec());
                firsts.len() - 1
            });
            first_of.push(at);
        }
        let here = match self.lookup_elements(dir, &firsts)? {
            Lookup::Names(here) => here,
            missing_or_escapes => return Ok(missing_or_escapes),
        };
        let kind_of = |at: usize| here.iter().find(|&&(i, _)| i == at).map(|&(_, kind)| kind);
        let mut found = Vec::new();
        // The rest of the names below each first element that is a directory: (index, rest).
        let mut below: Vec<Vec<(usize, Vec<u8>)>> = vec![Vec::new(); firsts.len()];
        for (index, name) in names.iter().enumerate() {
            let at = first_of[index];
            match (name.iter().position(|&b| b == b'/'), kind_of(at)) {
                (None, Some(kind)) => found.push((index, kind)),
                (Some(slash), Some(Kind::Dir)) => {
                    below[at].push((index, name[slash + 1..].to_vec()))
                }
                (Some(_), Some(Kind::Escapes)) => found.push((index, Kind::Escapes)),
                _ => {}
            }
        }
        for (at, rests) in below.into_iter().enumerate().filter(|(_, r)| !r.is_empty()) {
            let (indices, rests): (Vec<usize>, Vec<Vec<u8>>) = rests.into_iter().unzip();
            match self.lookup(&dir.join(&firsts[at]), &rests)? {
                Lookup::Names(inner) => found.extend(inner.iter().map(|&(i, k)| (indices[i], k))),
                Lookup::Escapes => found.extend(indices.iter().map(|&i| (i, Kind::Escapes))),
                Lookup::Missing => {}
            }
        }
        found.sort_unstable_by_key(|&(index, _)| index);
        Ok(Lookup::Names(found))
    }

    /// What the directory `dir` holds under `names` (each one path element), as the listing of
    /// SPEC.md §1 answers: the directory listed and the names it lists stat'ed; the OS looks
    /// each name up instead, with the same answer.
    fn lookup_elements(&self, dir: &FsName, names: &[Vec<u8>]) -> Result<Lookup, Error> {
        if let Some(lookup) = self.ask(dir)?.lookup(dir, names) {
            return lookup;
        }
        let Some(listed) = self.list(dir)? else {
            return Ok(Lookup::Missing);
        };
        let listed: HashSet<&[u8]> = listed.iter().map(|name| name.as_encoded_bytes()).collect();
        let found = names.iter().enumerate();
        let found = found.filter(|(_, name)| listed.contains(&name[..]));
        // Each stat is a question of its own, which a cancelled chain does not ask; a name
        // listed and leading nowhere is a dangling link.
        let found = found.map(|(index, name)| {
            let name = dir.join(name);
            Ok((index, self.ask(&name)?.entry(&name)?.unwrap_or(Kind::Other)))
        });
        found.collect::<Result<_, Error>>().map(Lookup::Names)
    }

    /// The content of the file `name`, whose stat reported `size`; `None` when it is gone. More
    /// than `max_bytes` is `TooLarge` naming it (SPEC §1 "Bounds").
    pub(crate) fn read(
        &self,
        name: &FsName,
        size: u64,
        max_bytes: u64,
    ) -> Result<Option<Vec<u8>>, Error> {
        let Some(mut file) = self.open(name, size)? else {
            return Ok(None);
        };
        let mut content = Vec::new();
        self.read_on(
            &mut *file,
            name,
            (size, read_limit(max_bytes)),
            &mut content,
        )?;
        if content.len() as u64 > max_bytes {
            return Err(Error::too_large(&self.path_of(name), max_bytes));
        }
        Ok(Some(content))
    }

    /// The file `name`, whose stat reported `size`, opened to read; `None` when it is gone.
    pub(crate) fn open(
        &self,
        name: &FsName,
        size: u64,
    ) -> Result<Option<Box<dyn Read + '_>>, Error> {
        match self.ask(name)?.open(name, Some(size)) {
            Ok(file) => Ok(Some(file)),
            Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(error) => Err(self.fail("open", name, error)),
        }
    }

    /// Reads on from `file`, the file `name`, into `into`: to its end, at most `most` bytes more,
    /// of which `expected` size the first read (SPEC §11 reads a rule file's front matter
    /// first). Answers how many it read.
    pub(crate) fn read_on(
        &self,
        file: &mut dyn Read,
        name: &FsName,
        (expected, most): (u64, u64),
        into: &mut Vec<u8>,
    ) -> Result<u64, Error> {
        let read = read_bounded(file, expected, most);
        let read = read.map_err(|error| self.fail("read", name, error))?;
        let count = read.len() as u64;
        match into.is_empty() {
            true => *into = read,
            false => into.extend_from_slice(&read),
        }
        Ok(count)
    }
}

/// The most bytes read of one file to tell whether it holds more than `max_bytes`.
pub(crate) fn read_limit(max_bytes: u64) -> u64 {
    max_bytes.saturating_add(1)
}

/// An answer about a name, with a path through a file (`ENOTDIR`) taken for nothing there.
fn through_a_file_is_nothing(found: Result<Option<Kind>, Error>) -> Result<Option<Kind>, Error> {
    match found {
        Err(error) if error.os_code().is_some_and(is_not_a_directory) => Ok(None),
        found => found,
    }
}
