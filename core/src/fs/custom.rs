//! A custom file system as a chain asks it: one question at a time, or, for one that answers in
//! batches ([`FileSystem::batched`]), the batches the planner asks ahead (`chain/ahead.rs`),
//! whose answers then answer the single questions as the file system would have. What no batch
//! answered (a name whose listing did not say what it is) is asked on its own.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::ffi::OsString;
use std::io::{self, Read};

use super::sys::Backend;
use super::{not_found, BatchFileSystem, Batches, Entry, FileSystem, Kind, Listed, Lookup};
use crate::error::Error;
use crate::path::FsName;

/// A custom file system, with its batched questions and what they answered, where it has some:
/// with none, the answers stay empty and every question goes to the file system.
pub(crate) struct Custom<'a> {
    fs: &'a dyn FileSystem,
    batched: Option<&'a dyn BatchFileSystem>,
    batches: Batches,
    answers: RefCell<Answers>,
}

/// What a file system that answers in batches has answered in batches.
#[derive(Default)]
struct Answers {
    /// Each directory a batch listed. A name it does not list is not there (but for a file read
    /// ahead).
    listings: HashMap<FsName, Listing>,
    /// Each file read ahead: none is asked ahead twice.
    ahead: HashMap<FsName, Ahead>,
}

/// What a batch listed at a directory's name.
enum Listing {
    /// No such directory: nothing, or no directory, has that name.
    Missing,
    /// Each name the directory lists, by its bytes, with what it is where the listing says.
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
    /// The custom file system `fs`, asked in the batches it says it answers.
    pub(crate) fn new(fs: &'a dyn FileSystem) -> Self {
        let batched = fs.batched();
        Self {
            fs,
            batched,
            batches: batched.map_or_else(Batches::default, |batched| batched.batches()),
            answers: RefCell::default(),
        }
    }

    /// What `name` is as the batches said it, else asked.
    fn stat_as(&self, name: &FsName, absent: Absent) -> io::Result<Entry> {
        let said = self.answers.borrow().said(name, absent);
        said.unwrap_or_else(|| self.fs.stat(name))
    }

    /// Which questions the chain asks in batches.
    pub(crate) fn batches(&self) -> Batches {
        self.batches
    }

    /// Lists `dirs` in one batch, but for those already listed, where the file system lists in
    /// batches, so that the questions about them are answered without asking it again; `Err`
    /// with the batch's first name when the batch fails.
    pub(crate) fn list_ahead(&self, dirs: &[FsName]) -> Result<(), (FsName, io::Error)> {
        let Some(batched) = self.batched.filter(|_| self.batches.lists) else {
            return Ok(());
        };
        let answers = &self.answers;
        let listed = batch(
            dirs,
            "directories",
            |dir| answers.borrow().listings.contains_key(dir),
            |asked| batched.list_many(asked),
        )?;
        let listing = |entries: Option<Vec<Listed>>| match entries {
            None => Listing::Missing,
            Some(entries) => {
                let entry = |listed: Listed| (listed.name.as_encoded_bytes().to_vec(), listed);
                Listing::Dir(entries.into_iter().map(entry).collect())
            }
        };
        let mut answers = answers.borrow_mut();
        for (dir, entries) in listed {
            answers.listings.insert(dir, listing(entries));
        }
        Ok(())
    }

    /// Reads `names` in one batch, but for those already read ahead, at most `limit` bytes each,
    /// where the file system reads in batches, and shows each file found to `each`; `Err` with
    /// the batch's first name when the batch fails.
    pub(crate) fn read_ahead(
        &self,
        names: &[FsName],
        limit: u64,
        each: &mut dyn FnMut(&FsName, &[u8]),
    ) -> Result<(), (FsName, io::Error)> {
        let Some(batched) = self.batched.filter(|_| self.batches.reads) else {
            return Ok(());
        };
        let answers = &self.answers;
        let read = batch(
            names,
            "files",
            |name| answers.borrow().ahead.contains_key(name),
            |asked| batched.read_many(asked, limit),
        )?;
        let kept = usize::try_from(limit).unwrap_or(usize::MAX);
        let mut ahead = Vec::with_capacity(read.len());
        // Shown before they are kept, so that `each` may ask anything of the file system.
        for (name, content) in read {
            let content = match content {
                Some(mut content) => {
                    content.truncate(kept);
                    each(&name, &content);
                    Ahead::Found(content)
                }
                None => Ahead::NotFound,
            };
            ahead.push((name, content));
        }
        answers.borrow_mut().ahead.extend(ahead);
        Ok(())
    }

    /// Whether `name` has been read ahead, found or not.
    pub(crate) fn has_read(&self, name: &FsName) -> bool {
        self.answers.borrow().ahead.contains_key(name)
    }

    /// The size of the file `name` as the batches said it, without asking.
    pub(crate) fn known_size(&self, name: &FsName) -> Option<u64> {
        match self.answers.borrow().said(name, Absent::IsAsked)? {
            Ok(Entry::File { size }) => Some(size),
            _ => None,
        }
    }

    /// What an import's target is: one that a batch listing does not list is left to the file
    /// system to find, as it may find it under another spelling.
    pub(crate) fn stat_target(&self, name: &FsName) -> io::Result<Kind> {
        self.stat_as(name, Absent::IsAsked).map(Kind::from)
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

    /// As the batches said it (a directory listed, a name its directory's listing says, a file
    /// read ahead), else asked.
    fn stat(&self, name: &FsName) -> io::Result<Kind> {
        self.stat_as(name, Absent::IsNotFound).map(Kind::from)
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

    /// From the directory's batch listing, in one step: each name looked for that it lists,
    /// with what the listing says it is (a name it does not say, a link, asked on its own); none
    /// without one, to be listed and each name stat'ed.
    fn lookup(&self, dir: &FsName, names: &[Vec<u8>]) -> Option<Result<Lookup, Error>> {
        let found: Vec<(usize, Option<Entry>)> = match self.answers.borrow().listings.get(dir)? {
            Listing::Missing => return Some(Ok(Lookup::Missing)),
            Listing::Dir(listing) => names
                .iter()
                .enumerate()
                .filter_map(|(index, name)| Some((index, listing.get(name)?.entry)))
                .collect(),
        };
        let kind = |(index, entry): (usize, Option<Entry>)| {
            let entry = match entry {
                Some(entry) => entry,
                None => match self.entry(&dir.join(&names[index]))? {
                    Some(kind) => return Ok((index, kind)),
                    // Listed, and leading nowhere: a dangling link.
                    None => Entry::Other,
                },
            };
            Ok((index, Kind::from(entry)))
        };
        let found: Result<Vec<_>, Error> = found.into_iter().map(kind).collect();
        Some(found.map(Lookup::Names))
    }

    /// The names `dir` lists: as a batch listing said (no listing: no such directory, or not a
    /// directory, SPEC.md §3.1), else asked.
    fn list(&self, dir: &FsName) -> io::Result<Vec<OsString>> {
        match self.answers.borrow().listings.get(dir) {
            Some(Listing::Dir(listing)) => Ok(listing.values().map(|l| l.name.clone()).collect()),
            Some(Listing::Missing) => Err(not_found()),
            None => self.fs.list(dir),
        }
    }

    /// The file `name`, opened: its bytes as read ahead (at most the limit of every read), taken
    /// from the answers, else opened by the file system.
    fn open(&self, name: &FsName, _size: Option<u64>) -> io::Result<Box<dyn Read + '_>> {
        let ahead = (self.answers.borrow_mut().ahead.get_mut(name))
            .map(|ahead| std::mem::replace(ahead, Ahead::Taken));
        match ahead {
            Some(Ahead::Found(content)) => Ok(Box::new(io::Cursor::new(content))),
            Some(Ahead::NotFound) => Err(not_found()),
            Some(Ahead::Taken) | None => self.fs.open(name),
        }
    }
}

impl Answers {
    /// What the answers say `name` is, if they say: a directory a batch listed is one; a name
    /// is what its directory's batch listing says: not found where it lists no such name
    /// (unless the file was read ahead, under a spelling the listing does not give, or `absent`
    /// leaves that to the file system) or where there is no such directory (a batch answers a
    /// name that is no directory as a missing one); and a file read ahead is a file.
    fn said(&self, name: &FsName, absent: Absent) -> Option<io::Result<Entry>> {
        if let Some(Listing::Dir(_)) = self.listings.get(name) {
            return Some(Ok(Entry::Dir));
        }
        let read_ahead = match self.ahead.get(name) {
            Some(Ahead::Found(content)) => Some(Ok(Entry::File {
                size: content.len() as u64,
            })),
            _ => None,
        };
        let dir = name.parent()?;
        match self.listings.get(&dir) {
            Some(Listing::Dir(listing)) => match (listing.get(element(name)), absent) {
                (None, Absent::IsNotFound) => Some(read_ahead.unwrap_or_else(|| Err(not_found()))),
                (None, Absent::IsAsked) => read_ahead,
                (Some(listed), _) => listed.entry.map(Ok),
            },
            Some(Listing::Missing) => Some(Err(not_found())),
            None => read_ahead,
        }
    }
}

/// What a name that a batch listing does not list is.
#[derive(Clone, Copy)]
enum Absent {
    /// Not found: the listing holds every name there is.
    IsNotFound,
    /// For the file system to tell, which may find it under another spelling.
    IsAsked,
}

/// The last element of `name`.
fn element(name: &FsName) -> &[u8] {
    let bytes = name.as_bytes();
    bytes.rsplit(|&b| b == b'/').next().unwrap_or(bytes)
}

/// Asks `ask` in one batch about `names` (`what`), without repeats and but for those already
/// `answered`: each name asked with its answer, none where nothing was left to ask. A batch that
/// fails, or answers other than once per name, is `Err` with its first name.
fn batch<T>(
    names: &[FsName],
    what: &str,
    answered: impl Fn(&FsName) -> bool,
    ask: impl FnOnce(&[FsName]) -> io::Result<Vec<T>>,
) -> Result<Vec<(FsName, T)>, (FsName, io::Error)> {
    let mut seen = HashSet::new();
    let asked: Vec<FsName> = names
        .iter()
        .filter(|name| !answered(name) && seen.insert(*name))
        .cloned()
        .collect();
    let Some(first) = asked.first() else {
        return Ok(Vec::new());
    };
    let answers = ask(&asked).map_err(|error| (first.clone(), error))?;
    if answers.len() != asked.len() {
        let error = io::Error::other(format!(
            "the file system answered {} of {} {what} in one batch",
            answers.len(),
            asked.len()
        ));
        return Err((first.clone(), error));
    }
    Ok(asked.into_iter().zip(answers).collect())
}
