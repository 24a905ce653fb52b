//! A custom file system as a chain asks it: one question at a time, or, for one that answers in
//! batches (SPEC §3.1), from the batches the planner asks ahead (`chain/ahead.rs`); what no
//! batch answered (a name whose listing did not say what it is) is asked on its own.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::ffi::OsString;
use std::io::{self, Read};

use super::sys::Backend;
use super::{not_found, BatchFileSystem, Batches, Entry, FileSystem, Kind, Listed, Lookup};
use crate::error::Error;
use crate::path::FsName;

/// A custom file system, with what its batches answered, where it answers some.
pub(crate) struct Custom<'a> {
    fs: &'a dyn FileSystem,
    batched: Option<&'a dyn BatchFileSystem>,
    pub(crate) answers: Answers,
}

/// What a custom file system's batches answered: a chain's, or a session's across its touches
/// (SPEC §10), so that a touch asks only what no earlier one did.
#[derive(Default)]
pub(crate) struct Answers {
    /// Each directory a batch listed.
    listings: RefCell<HashMap<FsName, Listing>>,
    /// Each file read ahead: none is asked ahead twice.
    ahead: RefCell<HashMap<FsName, Ahead>>,
}

/// What a batch listed at a directory's name.
enum Listing {
    /// No such directory: nothing, or no directory, has that name.
    Missing,
    /// Each name the directory lists, by its bytes.
    Dir(HashMap<Vec<u8>, Listed>),
}

/// A file read ahead.
enum Ahead {
    /// Its bytes, not yet taken by a read.
    Found(Vec<u8>),
    NotFound,
    /// Taken by a read: another read asks the file system.
    Taken,
}

impl<'a> Custom<'a> {
    pub(crate) fn new(fs: &'a dyn FileSystem) -> Self {
        Self {
            fs,
            batched: fs.batched(),
            answers: Answers::default(),
        }
    }

    /// Which questions the chain asks in batches.
    pub(crate) fn batches(&self) -> Batches {
        self.batched
            .map_or_else(Batches::default, |batched| batched.batches())
    }

    /// Lists `dirs` in one batch, but for those already listed.
    pub(crate) fn list_ahead(&self, dirs: &[FsName]) -> Result<(), Error> {
        let Some(batched) = self.batched else {
            return Ok(());
        };
        let listings = &self.answers.listings;
        // A name its directory's listing already says is no directory is missing, as a batch
        // would answer it (SPEC §3.1): a session's later touch asks only what is new.
        let no_dirs: Vec<FsName> = dirs
            .iter()
            .filter(|dir| !listings.borrow().contains_key(*dir))
            .filter(|dir| match self.said(dir, true) {
                Some(Ok(entry)) => entry != Entry::Dir,
                Some(Err(error)) => error.kind() == io::ErrorKind::NotFound,
                None => false,
            })
            .cloned()
            .collect();
        let missing = no_dirs.into_iter().map(|dir| (dir, Listing::Missing));
        listings.borrow_mut().extend(missing);
        let answered = |dir: &FsName| listings.borrow().contains_key(dir);
        let listed = self.batch(dirs, "list", answered, |asked| batched.list_many(asked))?;
        let entry = |listed: Listed| (listed.name.as_encoded_bytes().to_vec(), listed);
        for (dir, entries) in listed {
            let entries = entries.map(|entries| entries.into_iter().map(entry).collect());
            listings
                .borrow_mut()
                .insert(dir, entries.map_or(Listing::Missing, Listing::Dir));
        }
        Ok(())
    }

    /// Reads `names` in one batch, but for those already read ahead, at most `limit` bytes each,
    /// and shows each file found to `each`.
    pub(crate) fn read_ahead(
        &self,
        names: &[FsName],
        limit: u64,
        each: &mut dyn FnMut(&FsName, &[u8]),
    ) -> Result<(), Error> {
        let Some(batched) = self.batched else {
            return Ok(());
        };
        let ahead = &self.answers.ahead;
        let answered = |name: &FsName| ahead.borrow().contains_key(name);
        let read = self.batch(names, "read", answered, |asked| {
            batched.read_many(asked, limit)
        })?;
        let kept = usize::try_from(limit).unwrap_or(usize::MAX);
        for (name, content) in read {
            let content = match content {
                Some(mut content) => {
                    content.truncate(kept);
                    each(&name, &content);
                    Ahead::Found(content)
                }
                None => Ahead::NotFound,
            };
            ahead.borrow_mut().insert(name, content);
        }
        Ok(())
    }

    /// Whether `name` has been read ahead, found or not.
    pub(crate) fn has_read(&self, name: &FsName) -> bool {
        self.answers.ahead.borrow().contains_key(name)
    }

    /// The size of the file `name` as the batches said it, without asking.
    pub(crate) fn known_size(&self, name: &FsName) -> Option<u64> {
        match self.said(name, false)? {
            Ok(Entry::File { size }) => Some(size),
            _ => None,
        }
    }

    /// What an import's target is: one that a batch listing does not list is left to the file
    /// system to find, as it may find it under another spelling.
    pub(crate) fn stat_target(&self, name: &FsName) -> io::Result<Kind> {
        let said = self.said(name, false);
        said.unwrap_or_else(|| self.fs.stat(name)).map(Kind::from)
    }

    /// Asks `ask` to `op` `names` in one batch, without repeats and but for those already
    /// `answered`: each name asked with its answer. A batch that fails, or answers other than
    /// once per name, is the error of its first name.
    fn batch<T>(
        &self,
        names: &[FsName],
        op: &str,
        answered: impl Fn(&FsName) -> bool,
        ask: impl FnOnce(&[FsName]) -> io::Result<Vec<T>>,
    ) -> Result<Vec<(FsName, T)>, Error> {
        let mut seen = HashSet::new();
        let asked: Vec<FsName> = names
            .iter()
            .filter(|name| !answered(name) && seen.insert(*name))
            .cloned()
            .collect();
        let Some(first) = asked.first() else {
            return Ok(Vec::new());
        };
        let answers = ask(&asked).map_err(|error| self.error(op, first.as_bytes(), error))?;
        if answers.len() != asked.len() {
            let what = if op == "list" { "directories" } else { "files" };
            let error = io::Error::other(format!(
                "the file system answered {} of {} {what} in one batch",
                answers.len(),
                asked.len()
            ));
            return Err(self.error(op, first.as_bytes(), error));
        }
        Ok(asked.into_iter().zip(answers).collect())
    }

    /// What the batches say `name` is, if they say: a directory listed is one, and else a name
    /// is what its directory's listing says. One it does not list is not found where
    /// `listed_all` (but for a file read ahead under a spelling the listing does not give), else
    /// left to the file system; one in a directory listed as missing is not found (SPEC §3.1).
    fn said(&self, name: &FsName, listed_all: bool) -> Option<io::Result<Entry>> {
        let listings = self.answers.listings.borrow();
        if let Some(Listing::Dir(_)) = listings.get(name) {
            return Some(Ok(Entry::Dir));
        }
        let read_ahead = match self.answers.ahead.borrow().get(name) {
            Some(Ahead::Found(content)) => Some(Ok(Entry::File {
                size: content.len() as u64,
            })),
            _ => None,
        };
        match listings.get(&name.parent()?) {
            Some(Listing::Dir(listing)) => match listing.get(element(name)) {
                Some(listed) => listed.entry.map(Ok),
                None if listed_all => Some(read_ahead.unwrap_or_else(|| Err(not_found()))),
                None => read_ahead,
            },
            Some(Listing::Missing) => Some(Err(not_found())),
            None => read_ahead,
        }
    }
}

/// A custom file system as a chain asks it: its names are the paths, and its failures `Fs`
/// errors but for one with an OS code.
impl Backend for Custom<'_> {
    fn base(&self) -> Option<&[u8]> {
        None
    }

    fn error(&self, op: &str, path: &[u8], error: io::Error) -> Error {
        match error.raw_os_error() {
            Some(_) => Error::io(op, path, error),
            None => Error::of_fs(op, path, error),
        }
    }

    fn stat(&self, name: &FsName) -> io::Result<Kind> {
        let said = self.said(name, true);
        said.unwrap_or_else(|| self.fs.stat(name)).map(Kind::from)
    }

    fn stat_exactly(&self, name: &FsName) -> io::Result<Kind> {
        self.stat(name)
    }

    fn entry(&self, name: &FsName) -> Result<Option<Kind>, Error> {
        match self.stat(name) {
            Ok(kind) => Ok(Some(kind)),
            Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(error) => Err(self.error("stat", name.as_bytes(), error)),
        }
    }

    /// From the directory's batch listing, in one step (a name it does not say, a link, asked on
    /// its own); none without one.
    fn lookup(&self, dir: &FsName, names: &[Vec<u8>]) -> Option<Result<Lookup, Error>> {
        let listings = self.answers.listings.borrow();
        let listing = match listings.get(dir)? {
            Listing::Missing => return Some(Ok(Lookup::Missing)),
            Listing::Dir(listing) => listing,
        };
        let found = |(index, name): (usize, &Vec<u8>)| {
            Some(match listing.get(name)?.entry {
                Some(entry) => Ok((index, Kind::from(entry))),
                // Listed, and leading nowhere: a dangling link.
                None => {
                    (self.entry(&dir.join(name))).map(|kind| (index, kind.unwrap_or(Kind::Other)))
                }
            })
        };
        let found: Result<Vec<_>, Error> = names.iter().enumerate().filter_map(found).collect();
        Some(found.map(Lookup::Names))
    }

    /// The names `dir` lists: as a batch listing said (no listing: no such directory, or not a
    /// directory, SPEC §3.1), else asked.
    fn list(&self, dir: &FsName) -> io::Result<Vec<OsString>> {
        match self.answers.listings.borrow().get(dir) {
            Some(Listing::Dir(listing)) => Ok(listing.values().map(|l| l.name.clone()).collect()),
            Some(Listing::Missing) => Err(not_found()),
            None => self.fs.list(dir),
        }
    }

    /// The file `name`: its bytes as read ahead (at most the limit of every read), taken, else
    /// opened by the file system.
    fn open(&self, name: &FsName, _size: Option<u64>) -> io::Result<Box<dyn Read + '_>> {
        let ahead = (self.answers.ahead.borrow_mut().get_mut(name))
            .map(|ahead| std::mem::replace(ahead, Ahead::Taken));
        match ahead {
            Some(Ahead::Found(content)) => Ok(Box::new(io::Cursor::new(content))),
            Some(Ahead::NotFound) => Err(not_found()),
            Some(Ahead::Taken) | None => self.fs.open(name),
        }
    }
}

/// The last element of `name`.
fn element(name: &FsName) -> &[u8] {
    let bytes = name.as_bytes();
    bytes.rsplit(|&b| b == b'/').next().unwrap_or(bytes)
}
