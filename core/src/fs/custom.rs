//! A custom file system as a chain asks it: one question at a time, or, for one that answers in
//! batches ([`FileSystem::batched`]), a batch of listings and batches of reads asked ahead
//! (`chain/ahead.rs`), whose answers then answer the single questions as the file system would
//! have. What no batch answered is asked on its own: a name whose listing did not say what it is
//! (a symbolic link), and anything the batches did not foresee.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::ffi::OsString;
use std::io::{self, Read};

use super::{not_found, Entry, FileSystem, Listed};
use crate::path::FsName;

/// A custom file system, with what its batches answered.
pub(crate) struct Custom<'a> {
    fs: &'a dyn FileSystem,
    /// `None` for a file system asked one question at a time.
    answers: Option<RefCell<Answers>>,
}

/// What a batched file system has answered.
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

struct Listing {
    entries: Vec<Listed>,
    at: HashMap<Vec<u8>, usize>,
}

impl Listing {
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
    pub(crate) fn new(fs: &'a dyn FileSystem) -> Self {
        let answers = fs.batched().then(RefCell::default);
        Self { fs, answers }
    }

    /// Whether the chain asks this file system in batches.
    pub(crate) fn batched(&self) -> bool {
        self.answers.is_some()
    }

    /// Lists `dirs` in one batch, but for those already listed; `Err` with the batch's first
    /// name when the batch fails.
    pub(crate) fn list_ahead(&self, dirs: &[FsName]) -> Result<(), (FsName, io::Error)> {
        let Some(answers) = &self.answers else {
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
    /// and shows each file found to `each`; `Err` with the batch's first name when it fails.
    pub(crate) fn read_ahead(
        &self,
        names: &[FsName],
        limit: u64,
        mut each: impl FnMut(&FsName, &[u8]),
    ) -> Result<(), (FsName, io::Error)> {
        let Some(answers) = &self.answers else {
            return Ok(());
        };
        let asked = not_yet(names, |name| answers.borrow().read.contains(name));
        let Some(first) = asked.first() else {
            return Ok(());
        };
        let read = self
            .fs
            .read_many(&asked, limit)
            .and_then(|read| answered_each(read, asked.len(), "files"))
            .map_err(|error| (first.clone(), error))?;
        let mut answers = answers.borrow_mut();
        for (name, mut content) in asked.into_iter().zip(read) {
            if let Some(content) = &mut content {
                content.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
                each(&name, content);
            }
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

    /// What `name` is, following links: from what the batches said where they said it (a
    /// directory listed; a file read; the name's directory listed), else asked.
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

    /// The names `dir` lists: as its batch listed them, else asked.
    pub(crate) fn list(&self, dir: &FsName) -> io::Result<Vec<OsString>> {
        let listed = self.answers.as_ref().and_then(|answers| {
            let answers = answers.borrow();
            let listing = answers.listings.get(dir)?;
            Some(match listing {
                Some(listing) => Ok(listing.entries.iter().map(|e| e.name.clone()).collect()),
                None => Err(not_found()),
            })
        });
        listed.unwrap_or_else(|| self.fs.list(dir))
    }

    /// The file `name`, opened: its bytes as read ahead (at most `limit`, as every read), else
    /// opened by the file system.
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
    /// What the batches said `name` is, if they said: a directory listed is one, a file read is
    /// one, and a name is what its directory's listing says (not found where it lists no such
    /// name, or there is no such directory).
    fn said(&self, name: &FsName) -> Option<io::Result<Entry>> {
        if let Some(Some(_)) = self.listings.get(name) {
            return Some(Ok(Entry::Dir));
        }
        if let Some(Some(content)) = self.contents.get(name) {
            let size = content.len() as u64;
            return Some(Ok(Entry::File { size }));
        }
        if let Some(&entry) = self.stats.get(name) {
            return Some(entry.ok_or_else(not_found));
        }
        let listing = self.listings.get(&name.parent()?)?;
        let element = name.as_bytes().rsplit(|&b| b == b'/').next()?;
        match listing.as_ref().map(|listing| listing.get(element)) {
            None | Some(None) => Some(Err(not_found())),
            Some(Some(entry)) => entry.map(Ok),
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
