//! The in-memory file system of the fuzz targets: a map from names (SPEC.md §1, `.` the root)
//! to nodes, with faults set per name, recording every question the library asks.
//!
//! The model reads it through the `*_of` methods, which record nothing; the library reads it
//! through [`FileSystem`], which records each question and then gives the same answer. The tree
//! may be inconsistent on purpose (a file below a file, a listing of a name that stat does not
//! find): the library must cope with whatever a custom file system says.

use std::collections::BTreeMap;
use std::sync::Mutex;

use agentsmd::fs::{FileSystem, Kind, Metadata};
use agentsmd::Error;

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
    pub fn stat_of(&self, name: &[u8]) -> Result<Option<Metadata>, ()> {
        match self.faults(name).stat {
            Some(Fault::Fail) => return Err(()),
            Some(Fault::NotFound) => return Ok(None),
            None => {}
        }
        Ok(self.nodes.get(name).map(|node| match node {
            Node::Dir => Metadata {
                kind: Kind::Dir,
                size: 0,
            },
            Node::File { size, .. } => Metadata {
                kind: Kind::File,
                size: *size,
            },
            Node::Other => Metadata {
                kind: Kind::Other,
                size: 0,
            },
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

impl FileSystem for MemoryFs {
    fn list(&self, dir: &[u8]) -> Result<Option<Vec<Vec<u8>>>, Error> {
        self.ask("list", dir, None);
        self.list_of(dir).map_err(|()| failure("list", dir))
    }

    fn stat(&self, path: &[u8]) -> Result<Option<Metadata>, Error> {
        self.ask("stat", path, None);
        self.stat_of(path).map_err(|()| failure("stat", path))
    }

    fn read(&self, path: &[u8], _size_hint: u64, limit: u64) -> Result<Option<Vec<u8>>, Error> {
        self.ask("read", path, Some(limit));
        self.read_of(path, limit)
            .map_err(|()| failure("read", path))
    }
}
