//! The in-memory file system of the fuzz targets: a map from names (SPEC.md §1, `.` the root)
//! to nodes, with faults set per name, recording every question the library asks.
//!
//! The model reads it through the `*_of` methods, which record nothing and answer in the model's
//! own terms ([`Stat`], not the library's types); the library reads it through [`FileSystem`],
//! which records each question and then gives the same answer. The tree
//! may be inconsistent on purpose (a file below a file, a listing of a name that stat does not
//! find): the library must cope with whatever a custom file system says.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io::{self, Read};
use std::sync::Mutex;

use agentsmd_core::fs::{Entry, FileSystem};
use agentsmd_core::FsName;

#[derive(Clone, Debug)]
pub enum Node {
    Dir,
    /// A regular file whose stat reports `size`, which need not be `content.len()`.
    File {
        content: Vec<u8>,
        size: u64,
    },
    /// A FIFO, socket or device.
    Other,
}

/// What a stat says a name is, as SPEC.md §3 puts the question: a regular file and its size, a
/// directory, or anything else.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stat {
    File { size: u64 },
    Dir,
    Other,
}

/// What a question answers instead of the truth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    NotFound,
    Fail,
}

/// The faults of one name, per question, and whether a read of it expands (as a file system
/// may, its stat reporting fewer bytes than it reads): the model then reads all its content.
#[derive(Clone, Copy, Debug, Default)]
pub struct Faults {
    pub list: Option<Fault>,
    pub stat: Option<Fault>,
    pub read: Option<Fault>,
    pub expands: bool,
}

/// One question the library asked: the operation, the name, and for an open how far into the
/// file the library then asked to read (the end of the furthest buffer it handed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Asked {
    pub op: &'static str,
    pub name: Vec<u8>,
    pub limit: Option<u64>,
}

#[derive(Debug, Default)]
pub struct MemoryFs {
    nodes: BTreeMap<Vec<u8>, Node>,
    faults: BTreeMap<Vec<u8>, Faults>,
    asked: Mutex<Vec<Asked>>,
}

/// The directory holding `name`: `.` for a name in the root.
pub fn parent(name: &[u8]) -> &[u8] {
    match name.iter().rposition(|&b| b == b'/') {
        Some(slash) => &name[..slash],
        None => b".",
    }
}

/// `dir` joined with one element.
pub fn join(dir: &[u8], element: &[u8]) -> Vec<u8> {
    if dir == b"." {
        return element.to_vec();
    }
    [dir, b"/", element].concat()
}

/// The failure a faulty or impossible question answers with.
fn failure() -> io::Error {
    io::Error::other("injected failure")
}

/// A "not found" answer.
fn not_found() -> io::Error {
    io::ErrorKind::NotFound.into()
}

impl MemoryFs {
    /// An empty tree: only the root directory.
    pub fn new() -> Self {
        let mut fs = Self::default();
        fs.nodes.insert(b".".to_vec(), Node::Dir);
        fs
    }

    /// Adds `node` at `name`, and a directory at each missing ancestor.
    pub fn insert(&mut self, name: Vec<u8>, node: Node) {
        let mut dir = parent(&name).to_vec();
        while dir != b"." {
            self.nodes.entry(dir.clone()).or_insert(Node::Dir);
            dir = parent(&dir).to_vec();
        }
        self.nodes.insert(name, node);
    }

    pub fn set_faults(&mut self, name: Vec<u8>, faults: Faults) {
        self.faults.insert(name, faults);
    }

    /// Whether every question answers the truth: no fault set, and no read that expands.
    pub fn is_faultless(&self) -> bool {
        self.faults.values().all(|faults| {
            faults.list.is_none()
                && faults.stat.is_none()
                && faults.read.is_none()
                && !faults.expands
        })
    }

    fn faults(&self, name: &[u8]) -> Faults {
        self.faults.get(name).copied().unwrap_or_default()
    }

    /// What listing `dir` answers: `Err` for a failure, `None` for not found.
    pub fn list_of(&self, dir: &[u8]) -> Result<Option<Vec<Vec<u8>>>, ()> {
        match self.faults(dir).list {
            Some(Fault::Fail) => return Err(()),
            Some(Fault::NotFound) => return Ok(None),
            None => {}
        }
        match self.nodes.get(dir) {
            None => Ok(None),
            Some(Node::Dir) => Ok(Some(
                self.nodes
                    .keys()
                    .filter(|name| name.as_slice() != b"." && parent(name) == dir)
                    .map(|name| base(name).to_vec())
                    .collect(),
            )),
            Some(_) => Err(()),
        }
    }

    /// What a stat of `name` answers.
    pub fn stat_of(&self, name: &[u8]) -> Result<Option<Stat>, ()> {
        match self.faults(name).stat {
            Some(Fault::Fail) => return Err(()),
            Some(Fault::NotFound) => return Ok(None),
            None => {}
        }
        Ok(self.nodes.get(name).map(|node| match node {
            Node::Dir => Stat::Dir,
            Node::File { size, .. } => Stat::File { size: *size },
            Node::Other => Stat::Other,
        }))
    }

    /// What a read of `name`, asking for at most `limit` bytes, answers.
    pub fn read_of(&self, name: &[u8], limit: u64) -> Result<Option<Vec<u8>>, ()> {
        let faults = self.faults(name);
        match faults.read {
            Some(Fault::Fail) => return Err(()),
            Some(Fault::NotFound) => return Ok(None),
            None => {}
        }
        match self.nodes.get(name) {
            None => Ok(None),
            Some(Node::File { content, .. }) => {
                let limit = usize::try_from(limit).unwrap_or(usize::MAX);
                let take = if faults.expands {
                    content.len()
                } else {
                    content.len().min(limit)
                };
                Ok(Some(content[..take].to_vec()))
            }
            Some(_) => Err(()),
        }
    }

    /// Every question the library asked, in order.
    pub fn asked(&self) -> Vec<Asked> {
        self.asked.lock().unwrap().clone()
    }

    fn ask(&self, op: &'static str, name: &[u8], limit: Option<u64>) {
        self.asked.lock().unwrap().push(Asked {
            op,
            name: name.to_vec(),
            limit,
        });
    }
}

/// The OS path (or name) whose bytes are `bytes`: any bytes on Unix; on Windows WTF-8, as every
/// name of the inputs is there ([`super::input`]), converted by the library's public
/// `path_from_bytes`.
pub fn os_path(bytes: &[u8]) -> std::path::PathBuf {
    #[cfg(unix)]
    return <std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(bytes).into();
    #[cfg(windows)]
    return agentsmd_core::ffi_support::path_from_bytes(bytes.to_vec(), "name").expect("WTF-8");
}

/// The last element of `name`.
fn base(name: &[u8]) -> &[u8] {
    match name.iter().rposition(|&b| b == b'/') {
        Some(slash) => &name[slash + 1..],
        None => name,
    }
}

/// The library's view of the model's answers: the three questions, each recorded, and each
/// file opened recording how far into it the library asked to read.
impl FileSystem for MemoryFs {
    fn list(&self, dir: &FsName) -> io::Result<Vec<OsString>> {
        let dir = dir.as_bytes();
        self.ask("list", dir, None);
        let names = self
            .list_of(dir)
            .map_err(|()| failure())?
            .ok_or_else(not_found)?;
        Ok(names
            .into_iter()
            .map(|name| os_path(&name).into())
            .collect())
    }

    fn stat(&self, name: &FsName) -> io::Result<Entry> {
        let name = name.as_bytes();
        self.ask("stat", name, None);
        match self
            .stat_of(name)
            .map_err(|()| failure())?
            .ok_or_else(not_found)?
        {
            Stat::File { size } => Ok(Entry::File { size }),
            Stat::Dir => Ok(Entry::Dir),
            Stat::Other => Ok(Entry::Other),
        }
    }

    fn open(&self, name: &FsName) -> io::Result<Box<dyn Read + '_>> {
        let name = name.as_bytes();
        self.ask("open", name, Some(0));
        let entry = self.asked.lock().unwrap().len() - 1;
        let content = self.read_of(name, u64::MAX).map_err(|()| failure())?;
        let content = content.ok_or_else(not_found)?;
        Ok(Box::new(Reach {
            fs: self,
            entry,
            content: io::Cursor::new(content),
        }))
    }
}

/// A file of a [`MemoryFs`], open: it records the end of the furthest buffer asked for.
struct Reach<'a> {
    fs: &'a MemoryFs,
    entry: usize,
    content: io::Cursor<Vec<u8>>,
}

impl Read for Reach<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let end = self.content.position() + buf.len() as u64;
        let limit = &mut self.fs.asked.lock().unwrap()[self.entry].limit;
        *limit = (*limit).max(Some(end));
        self.content.read(buf)
    }
}
