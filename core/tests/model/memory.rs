//! The in-memory file system of the fuzz targets: a map from names (SPEC.md §1, `.` the root)
//! to nodes, with faults set per name, recording every question the library asks.
//!
//! The model reads it through the `*_of` methods, which record nothing and answer in the model's
//! own terms ([`Stat`], not the library's types); the library reads it through [`FileSystem`],
//! which records each question and then gives the same answer. The tree
//! may be inconsistent on purpose (a file below a file, a listing of a name that stat does not
//! find): the library must cope with whatever a custom file system says.

use std::collections::BTreeMap;
use std::io::Read;
use std::sync::Mutex;

use agentsmd_core::fs::{read_bounded, Entry, FileSystem};
use agentsmd_core::{Error, FsName};

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

/// The faults of one name, per question, and whether a read of it ignores the limit (as a file
/// system that expands a file as it reads it may).
#[derive(Clone, Copy, Debug, Default)]
pub struct Faults {
    pub list: Option<Fault>,
    pub stat: Option<Fault>,
    pub read: Option<Fault>,
    pub expands: bool,
}

/// One question the library asked: the operation, the name, and for a read its limit.
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
fn failure(op: &str, name: &[u8]) -> Error {
    Error::fs(op, name, "injected failure")
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

/// The last element of `name`.
fn base(name: &[u8]) -> &[u8] {
    match name.iter().rposition(|&b| b == b'/') {
        Some(slash) => &name[slash + 1..],
        None => name,
    }
}

/// The library's view of the model's answers: the three questions, each recorded, and `read`
/// the trait's own read loop ([`read_bounded`]) over the content, with the limit it was given
/// recorded, or the whole content for a name whose read expands.
impl FileSystem for MemoryFs {
    fn list(&self, dir: &FsName) -> Result<Option<Vec<Vec<u8>>>, Error> {
        let dir = dir.as_bytes();
        self.ask("list", dir, None);
        self.list_of(dir).map_err(|()| failure("list", dir))
    }

    fn stat(&self, name: &FsName) -> Result<Option<Entry>, Error> {
        let name = name.as_bytes();
        self.ask("stat", name, None);
        let stat = self.stat_of(name).map_err(|()| failure("stat", name))?;
        Ok(stat.map(|stat| match stat {
            Stat::File { size } => Entry::File { size },
            Stat::Dir => Entry::Dir,
            Stat::Other => Entry::Other,
        }))
    }

    fn open(&self, name: &FsName) -> Result<Option<Box<dyn Read + '_>>, Error> {
        let name = name.as_bytes();
        self.ask("open", name, None);
        let content = self
            .read_of(name, u64::MAX)
            .map_err(|()| failure("read", name))?;
        Ok(content.map(|content| Box::new(std::io::Cursor::new(content)) as _))
    }

    fn read(&self, name: &FsName, size_hint: u64, limit: u64) -> Result<Option<Vec<u8>>, Error> {
        let name = name.as_bytes();
        self.ask("read", name, Some(limit));
        let Some(content) = self
            .read_of(name, u64::MAX)
            .map_err(|()| failure("read", name))?
        else {
            return Ok(None);
        };
        if self.faults(name).expands {
            return Ok(Some(content));
        }
        read_bounded(&mut &content[..], size_hint, limit)
            .map(Some)
            .map_err(|e| Error::fs("read", name, &e.to_string()))
    }
}
