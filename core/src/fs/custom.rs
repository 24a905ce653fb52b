//! A custom file system as a chain asks it: one question at a time, or, for one that answers in
//! batches ([`FileSystem::batches`]), a batch of listings and batches of reads asked ahead
//! (`chain/ahead.rs`), whose answers then answer the single questions as the file system would
//! have. What no batch answered is asked on its own, once: a name whose listing did not say what
//! it is (a symbolic link), and anything the batches did not foresee.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::ffi::OsString;
use std::io::{self, Read};

use super::{not_found, Batches, Entry, FileSystem, Listed};
use crate::path::FsName;

/// A custom file system, with what it has answered when it answers in batches.
pub(crate) struct Custom<'a> {
    fs: &'a dyn FileSystem,
    batches: Batches,
    /// `None` for a file system asked one question at a time.
    answers: Option<RefCell<Answers>>,
}

/// What a file system that answers in batches has answered, in batches or one at a time.
#[derive(Default)]
struct Answers {
    /// Each directory listed: its entries and where each name is among them, or `None` where
    /// there is no such directory.
    listings: HashMap<FsName, Option<Listing>>,
    /// Each file read ahead and not yet taken by a read: its bytes, or `None` where it was not
    /// found.
    contents: HashMap<FsName, Option<Vec<u8>>>,
    /// Each file read ahead, taken or not: none is asked ahead twice.
    read: HashSet<FsName>,
    /// What each name asked of `stat` on its own is; `None` where it was not found.
    stats: HashMap<FsName, Option<Entry>>,
}

/// A directory's entries, with where each name is among them.
struct Listing {
    entries: Vec<Listed>,
    at: HashMap<Vec<u8>, usize>,
}

impl Listing {
    /// The listing of `entries`.
    fn new(entries: Vec<Listed>) -> Self {
        let at = entries
            .iter()
            .enumerate()
            .map(|(i, listed)| (listed.name.as_encoded_bytes().to_vec(), i))
            .collect();
        Self { entries, at }
    }

    /// What the listing says of `name`: not listed (`None`), listed without saying what it is
    /// (`Some(None)`), or what it is.
    fn get(&self, name: &[u8]) -> Option<Option<Entry>> {
        self.at.get(name).map(|&i| self.entries[i].entry)
    }
}

impl<'a> Custom<'a> {
    /// The custom file system `fs`, asked in the batches it says it answers.
    pub(crate) fn new(fs: &'a dyn FileSystem) -> Self {
        let batches = fs.batches();
        let answers = (batches.lists || batches.reads).then(RefCell::default);
        Self {
            fs,
            batches,
            answers,
        }
    }

    /// Which questions the chain asks in batches.
    pub(crate) fn batches(&self) -> Batches {
        self.batches
    }

    /// Lists `dirs` in one batch, but for those already listed; `Err` with the batch's first
    /// name when the batch fails. Nothing, where the file system does not list in batches.
    pub(crate) fn list_ahead(&self, dirs: &[FsName]) -> Result<(), (FsName, io::Error)> {
        let Some(answers) = self.answers.as_ref().filter(|_| self.batches.lists) else {
            return Ok(());
        };
        let asked = not_yet(dirs, |dir| answers.borrow().listings.contains_key(dir));
        let Some(first) = asked.first() else {
            return Ok(());
        };
        let listed = self
            .fs
            .list_many(&asked)
            .and_then(|listed| answered_each(listed, asked.len(), "directories"))
            .map_err(|error| (first.clone(), error))?;
        let mut answers = answers.borrow_mut();
        for (dir, listing) in asked.into_iter().zip(listed) {
            answers.listings.insert(dir, listing.map(Listing::new));
        }
        Ok(())
    }

    /// Reads `names` in one batch, at most `limit` bytes each, but for those already read ahead,
    /// and shows each file found to `each`; `Err` with the name that failed (the batch's first)
    /// when the batch fails. Nothing, where the file system does not read in batches.
    pub(crate) fn read_ahead(
        &self,
        names: &[FsName],
        limit: u64,
        mut each: impl FnMut(&FsName, &[u8]),
    ) -> Result<(), (FsName, io::Error)> {
        let Some(answers) = self.answers.as_ref().filter(|_| self.batches.reads) else {
            return Ok(());
        };
        let asked = not_yet(names, |name| answers.borrow().read.contains(name));
        let Some(first) = asked.first() else {
            return Ok(());
        };
        let mut read = self
            .fs
            .read_many(&asked, limit)
            .and_then(|read| answered_each(read, asked.len(), "files"))
            .map_err(|error| (first.clone(), error))?;
        let kept = usize::try_from(limit).unwrap_or(usize::MAX);
        // Shown before they are kept, so that `each` may ask anything of the file system.
        for (name, content) in asked.iter().zip(&mut read) {
            if let Some(content) = content {
                content.truncate(kept);
                each(name, content);
            }
        }
        let mut answers = answers.borrow_mut();
        for (name, content) in asked.into_iter().zip(read) {
            answers.read.insert(name.clone());
            answers.contents.insert(name, content);
        }
        Ok(())
    }

    /// Whether `name` has been read ahead, found or not.
    pub(crate) fn has_read(&self, name: &FsName) -> bool {
        self.answers
            .as_ref()
            .is_some_and(|answers| answers.borrow().read.contains(name))
    }

    /// What `name` is, following links: as the batches said it (a directory listed, a name its
    /// directory's listing says, a file read ahead), else asked, once.
    pub(crate) fn stat(&self, name: &FsName) -> io::Result<Entry> {
        let Some(answers) = &self.answers else {
            return self.fs.stat(name);
        };
        if let Some(said) = answers.borrow().said(name) {
            return said;
        }
        let entry = match self.fs.stat(name) {
            Ok(entry) => Some(entry),
            Err(error) if error.kind() == io::ErrorKind::NotFound => None,
            Err(error) => return Err(error),
        };
        answers.borrow_mut().stats.insert(name.clone(), entry);
        entry.ok_or_else(not_found)
    }

    /// The names `dir` lists: as its listing said, else asked, once. A directory a batch found
    /// no listing of is not found, but where its own directory lists it as something else than
    /// a directory, or is not listed: then the file system says what listing it gives, as it
    /// would have one question at a time (an error, for a file it is asked to list).
    pub(crate) fn list(&self, dir: &FsName) -> io::Result<Vec<OsString>> {
        let Some(answers) = &self.answers else {
            return self.fs.list(dir);
        };
        if let Some(Some(listing)) = answers.borrow().listings.get(dir) {
            return Ok(listing.entries.iter().map(|e| e.name.clone()).collect());
        }
        if answers.borrow().lists_nothing(dir) {
            return Err(not_found());
        }
        let names = match self.fs.list(dir) {
            Ok(names) => Some(names),
            Err(error) if error.kind() == io::ErrorKind::NotFound => None,
            Err(error) => return Err(error),
        };
        let listing = names
            .clone()
            .map(|names| Listing::new(names.into_iter().map(Listed::name).collect()));
        answers.borrow_mut().listings.insert(dir.clone(), listing);
        names.ok_or_else(not_found)
    }

    /// The file `name`, opened: its bytes as read ahead (at most the limit of every read), taken
    /// from the answers, else opened by the file system.
    pub(crate) fn open(&self, name: &FsName) -> io::Result<Box<dyn Read + 'a>> {
        let ahead = self
            .answers
            .as_ref()
            .and_then(|answers| answers.borrow_mut().contents.remove(name));
        match ahead {
            Some(content) => Ok(Box::new(io::Cursor::new(content.ok_or_else(not_found)?))),
            None => self.fs.open(name),
        }
    }
}

impl Answers {
    /// What the answers say `name` is, if they say: a directory listed is one; a name is what
    /// its directory's listing says (not found where it lists no such name, or there is no such
    /// directory), or what a stat of it answered; and a file read ahead in a directory not
    /// listed is a file of the size read.
    fn said(&self, name: &FsName) -> Option<io::Result<Entry>> {
        if let Some(Some(_)) = self.listings.get(name) {
            return Some(Ok(Entry::Dir));
        }
        if let Some(&entry) = self.stats.get(name) {
            return Some(entry.ok_or_else(not_found));
        }
        let listing = name.parent().and_then(|dir| self.listings.get(&dir));
        let element = name.as_bytes().rsplit(|&b| b == b'/').next().unwrap_or(b"");
        match listing {
            Some(None) => Some(Err(not_found())),
            Some(Some(listing)) => match listing.get(element) {
                None => Some(Err(not_found())),
                Some(entry) => entry.map(Ok),
            },
            None => match self.contents.get(name) {
                Some(Some(content)) => Some(Ok(Entry::File {
                    size: content.len() as u64,
                })),
                _ => None,
            },
        }
    }

    /// Whether `dir`, which no listing answered, surely lists nothing: a batch found no listing
    /// of it, and its own directory's listing says there is no such name (a directory that
    /// leads nowhere included), or there is no such directory.
    fn lists_nothing(&self, dir: &FsName) -> bool {
        let Some(None) = self.listings.get(dir) else {
            return false;
        };
        let element = dir.as_bytes().rsplit(|&b| b == b'/').next().unwrap_or(b"");
        match dir.parent().and_then(|parent| self.listings.get(&parent)) {
            Some(None) => true,
            Some(Some(listing)) => matches!(listing.get(element), None | Some(Some(Entry::Dir))),
            None => false,
        }
    }
}

/// `names` without repeats and without those `answered`, in order.
fn not_yet(names: &[FsName], answered: impl Fn(&FsName) -> bool) -> Vec<FsName> {
    let mut seen = HashSet::new();
    names
        .iter()
        .filter(|name| !answered(name) && seen.insert(*name))
        .cloned()
        .collect()
}

/// `answers`, when it holds one answer for each of the `asked` names (`what`).
fn answered_each<T>(answers: Vec<T>, asked: usize, what: &str) -> io::Result<Vec<T>> {
    match answers.len() == asked {
        true => Ok(answers),
        false => Err(io::Error::other(format!(
            "the file system answered {} of {asked} {what} in one batch",
            answers.len()
        ))),
    }
}
