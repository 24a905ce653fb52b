//! [`TestFs`], the one in-memory custom file system of the tests: it records every question the
//! walk asks it, one at a time or in batches, can answer "not found" or fail for any (question,
//! name), can report a stat size other than the content's, can find names whatever their case,
//! records how far into each file the library asked to read, and can be loaded from a real
//! directory.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::ffi::OsString;
use std::fs;
use std::io::{self, Read};
use std::path::Path;
use std::sync::{Arc, Mutex};

use agentsmd_core::fs::{BatchFileSystem, Batches, Entry, FileSystem, Listed};
use agentsmd_core::{Cancel, FsName};

use super::{os_string, text};

/// One of the three questions a file system answers (SPEC.md §3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    List,
    Stat,
    /// Open a file to read it.
    Read,
    /// List many directories in one call ([`TestFs::batched`]).
    ListMany,
    /// Read many files in one call ([`TestFs::batched`]).
    ReadMany,
}

/// What [`TestFs`] answers instead of the truth for one (question, name).
#[derive(Clone, Debug)]
pub enum Fault {
    /// "Not found".
    NotFound,
    /// A failure with this message.
    Fail(String),
    /// The true answer, after cancelling this token: a caller that cancels the chain while its
    /// file system answers.
    Cancel(Cancel),
}

#[derive(Clone, Debug)]
enum Node {
    Dir,
    /// A regular file whose stat reports `size`, which need not be `content.len()`.
    File {
        content: Vec<u8>,
        size: u64,
    },
    /// A FIFO, socket or device.
    Other,
}

/// The one in-memory custom file system of the tests. Names are as SPEC.md §1 defines them
/// (`.` is the root); every directory above a node exists. It answers the three questions of
/// the trait (`list`, `stat`, `open`); each file opened records how far into it the library
/// asked to read ([`TestFs::limits`]).
#[derive(Default)]
pub struct TestFs {
    nodes: BTreeMap<Vec<u8>, Node>,
    faults: HashMap<(Op, Vec<u8>), Fault>,
    case_insensitive: bool,
    calls: Mutex<Vec<(Op, Vec<u8>)>>,
    limits: Mutex<Vec<(Vec<u8>, u64)>>,
    batches: Batches,
    /// Names whose batched listing does not say what they are, as a symbolic link's.
    unsaid: HashSet<Vec<u8>>,
    /// The names of each batch asked, in order.
    asked_batches: Mutex<Vec<(Op, Vec<String>)>>,
}

/// The directory holding a name: `.` for a name in the root.
fn parent(name: &[u8]) -> &[u8] {
    match name.iter().rposition(|&b| b == b'/') {
        Some(slash) => &name[..slash],
        None => b".",
    }
}

/// The last element of a name.
fn base(name: &[u8]) -> &[u8] {
    match name.iter().rposition(|&b| b == b'/') {
        Some(slash) => &name[slash + 1..],
        None => name,
    }
}

impl TestFs {
    pub fn new() -> Self {
        let mut fs = Self::default();
        fs.nodes.insert(b".".to_vec(), Node::Dir);
        fs
    }

    /// The tree below the real directory `dir`, read once, following symbolic links as the OS
    /// follows them (a link's target is what the name holds). Links that dangle or loop are
    /// left out; directories are followed at most 16 deep.
    pub fn load(dir: impl AsRef<Path>) -> Self {
        fn walk(fs: &mut TestFs, dir: &Path, name: &[u8], depth: usize) {
            let entries = fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
            for entry in entries {
                let entry = entry.unwrap();
                let os = entry.path();
                let element = entry.file_name();
                let element = element.as_encoded_bytes();
                let child = if name == b"." {
                    element.to_vec()
                } else {
                    [name, b"/", element].concat()
                };
                let Ok(metadata) = fs::metadata(&os) else {
                    continue;
                };
                if metadata.is_dir() {
                    fs.nodes.insert(child.clone(), Node::Dir);
                    if depth < 16 {
                        walk(fs, &os, &child, depth + 1);
                    }
                } else if metadata.is_file() {
                    let content = fs::read(&os).unwrap();
                    let size = content.len() as u64;
                    fs.nodes.insert(child, Node::File { content, size });
                } else {
                    fs.nodes.insert(child, Node::Other);
                }
            }
        }
        let mut fs = Self::new();
        walk(&mut fs, dir.as_ref(), b".", 0);
        fs
    }

    fn insert(mut self, name: &str, node: Node) -> Self {
        let name = name.as_bytes();
        let mut dir = parent(name);
        while dir != b"." {
            self.nodes.entry(dir.to_vec()).or_insert(Node::Dir);
            dir = parent(dir);
        }
        self.nodes.insert(name.to_vec(), node);
        self
    }

    /// A regular file whose stat reports its true size.
    pub fn file(self, name: &str, content: impl AsRef<[u8]>) -> Self {
        let content = content.as_ref().to_vec();
        let size = content.len() as u64;
        self.insert(name, Node::File { content, size })
    }

    /// A regular file whose stat reports `size`, whatever its content.
    pub fn file_sized(self, name: &str, content: impl AsRef<[u8]>, size: u64) -> Self {
        let content = content.as_ref().to_vec();
        self.insert(name, Node::File { content, size })
    }

    pub fn dir(self, name: &str) -> Self {
        self.insert(name, Node::Dir)
    }

    /// A FIFO, socket or device.
    pub fn other(self, name: &str) -> Self {
        self.insert(name, Node::Other)
    }

    /// Answers `fault` to `op` on `name`.
    pub fn fault(mut self, op: Op, name: &str, fault: Fault) -> Self {
        self.faults.insert((op, name.as_bytes().to_vec()), fault);
        self
    }

    /// Stat and read find a name whatever its case; listing still gives the exact spelling.
    pub fn case_insensitive(mut self) -> Self {
        self.case_insensitive = true;
        self
    }

    /// Answers in batches ([`FileSystem::batched`]), lists and reads, counting each batch as
    /// one call.
    pub fn batched(self) -> Self {
        self.batching(Batches {
            lists: true,
            reads: true,
        })
    }

    /// Answers the questions of `batches` in batches.
    pub fn batching(mut self, batches: Batches) -> Self {
        self.batches = batches;
        self
    }

    /// `name`'s batched listing does not say what it is, as a symbolic link's does not.
    pub fn unsaid(mut self, name: &str) -> Self {
        self.unsaid.insert(name.as_bytes().to_vec());
        self
    }

    /// The names of each batch asked, in order.
    pub fn batches(&self) -> Vec<(Op, Vec<String>)> {
        self.asked_batches.lock().unwrap().clone()
    }

    /// How many batches of `op` were asked.
    pub fn batches_of(&self, op: Op) -> usize {
        self.batches()
            .iter()
            .filter(|(asked, _)| *asked == op)
            .count()
    }

    /// Every name read, one at a time or in a batch.
    pub fn read_names(&self) -> BTreeSet<String> {
        let batched = self
            .batches()
            .into_iter()
            .filter(|(op, _)| *op == Op::ReadMany);
        let batched = batched.flat_map(|(_, names)| names);
        self.asked(Op::Read).into_iter().chain(batched).collect()
    }

    /// Records a batch and fails it where a name of it has a fault of `op`.
    fn ask_batch(&self, op: Op, names: &[FsName]) -> io::Result<()> {
        let texts = names.iter().map(|name| text(name.as_bytes())).collect();
        self.asked_batches.lock().unwrap().push((op, texts));
        let faults = names
            .iter()
            .filter_map(|n| self.faults.get(&(op, n.as_bytes().to_vec())));
        match faults.into_iter().next() {
            Some(Fault::Fail(message)) => Err(io::Error::other(message.clone())),
            Some(Fault::NotFound) => Err(io::ErrorKind::NotFound.into()),
            Some(Fault::Cancel(cancel)) => {
                cancel.cancel();
                Ok(())
            }
            None => Ok(()),
        }
    }

    pub fn build(self) -> Arc<Self> {
        Arc::new(self)
    }

    /// Every question asked, in order.
    pub fn calls(&self) -> Vec<(Op, Vec<u8>)> {
        self.calls.lock().unwrap().clone()
    }

    /// The names asked `op`, in order, as text.
    pub fn asked(&self, op: Op) -> Vec<String> {
        self.calls()
            .into_iter()
            .filter(|(asked, _)| *asked == op)
            .map(|(_, name)| text(&name))
            .collect()
    }

    /// How many times `name` was opened to be read.
    pub fn reads_of(&self, name: &str) -> usize {
        self.asked(Op::Read).iter().filter(|n| *n == name).count()
    }

    /// The (name, reach) of every file opened, in order: how far into it the library asked to
    /// read (the end of the furthest buffer it handed), which SPEC.md §1 bounds by
    /// `max_bytes + 1`.
    pub fn limits(&self) -> Vec<(String, u64)> {
        self.limits
            .lock()
            .unwrap()
            .iter()
            .map(|(name, limit)| (text(name), *limit))
            .collect()
    }

    /// Records the question and answers a fault, if one is set: `Some(answer)` to return.
    fn ask<T>(&self, op: Op, name: &FsName) -> Option<io::Result<T>> {
        let name = name.as_bytes();
        self.calls.lock().unwrap().push((op, name.to_vec()));
        match self.faults.get(&(op, name.to_vec()))? {
            Fault::NotFound => Some(Err(io::ErrorKind::NotFound.into())),
            Fault::Fail(message) => Some(Err(io::Error::other(message.clone()))),
            Fault::Cancel(cancel) => {
                cancel.cancel();
                None
            }
        }
    }

    fn node(&self, name: &FsName) -> Option<&Node> {
        let name = name.as_bytes();
        if !self.case_insensitive {
            return self.nodes.get(name);
        }
        self.nodes
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, node)| node)
    }
}

impl FileSystem for TestFs {
    fn list(&self, dir: &FsName) -> io::Result<Vec<OsString>> {
        if let Some(answer) = self.ask(Op::List, dir) {
            return answer;
        }
        match self.node(dir) {
            None => Err(io::ErrorKind::NotFound.into()),
            Some(Node::Dir) => Ok(self
                .nodes
                .keys()
                .filter(|name| name.as_slice() != b"." && parent(name) == dir.as_bytes())
                .map(|name| os_string(base(name)))
                .collect()),
            Some(_) => Err(io::Error::other("not a directory")),
        }
    }

    fn stat(&self, name: &FsName) -> io::Result<Entry> {
        if let Some(answer) = self.ask(Op::Stat, name) {
            return answer;
        }
        match self.node(name) {
            None => Err(io::ErrorKind::NotFound.into()),
            Some(Node::Dir) => Ok(Entry::Dir),
            Some(Node::File { size, .. }) => Ok(Entry::File { size: *size }),
            Some(Node::Other) => Ok(Entry::Other),
        }
    }

    fn open(&self, name: &FsName) -> io::Result<Box<dyn Read + '_>> {
        if let Some(answer) = self.ask(Op::Read, name) {
            return answer;
        }
        match self.node(name) {
            None => Err(io::ErrorKind::NotFound.into()),
            Some(Node::File { content, .. }) => {
                let mut limits = self.limits.lock().unwrap();
                limits.push((name.as_bytes().to_vec(), 0));
                let entry = limits.len() - 1;
                Ok(Box::new(Reach {
                    fs: self,
                    entry,
                    content,
                    offset: 0,
                }))
            }
            Some(_) => Err(io::Error::other("not a regular file")),
        }
    }

    fn batched(&self) -> Option<&dyn BatchFileSystem> {
        (self.batches.lists || self.batches.reads).then_some(self)
    }
}

impl BatchFileSystem for TestFs {
    fn batches(&self) -> Batches {
        self.batches
    }

    fn list_many(&self, dirs: &[FsName]) -> io::Result<Vec<Option<Vec<Listed>>>> {
        self.ask_batch(Op::ListMany, dirs)?;
        let listing = |dir: &FsName| {
            let Some(Node::Dir) = self.node(dir) else {
                return None;
            };
            let children = self
                .nodes
                .iter()
                .filter(|(name, _)| name.as_slice() != b"." && parent(name) == dir.as_bytes());
            let listed = children.map(|(name, node)| Listed {
                name: os_string(base(name)),
                entry: match node {
                    _ if self.unsaid.contains(name) => None,
                    Node::Dir => Some(Entry::Dir),
                    Node::File { size, .. } => Some(Entry::File { size: *size }),
                    Node::Other => Some(Entry::Other),
                },
            });
            Some(listed.collect())
        };
        Ok(dirs.iter().map(listing).collect())
    }

    fn read_many(&self, names: &[FsName], limit: u64) -> io::Result<Vec<Option<Vec<u8>>>> {
        self.ask_batch(Op::ReadMany, names)?;
        let read = |name: &FsName| match self.node(name) {
            Some(Node::File { content, .. }) => {
                let end = content
                    .len()
                    .min(usize::try_from(limit).unwrap_or(usize::MAX));
                Some(content[..end].to_vec())
            }
            _ => None,
        };
        Ok(names.iter().map(read).collect())
    }
}

/// A file of a [`TestFs`], open: it records the end of the furthest buffer asked for.
struct Reach<'a> {
    fs: &'a TestFs,
    entry: usize,
    content: &'a [u8],
    offset: usize,
}

impl Read for Reach<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let reach = &mut self.fs.limits.lock().unwrap()[self.entry].1;
        *reach = (*reach).max((self.offset + buf.len()) as u64);
        let n = buf.len().min(self.content.len() - self.offset);
        buf[..n].copy_from_slice(&self.content[self.offset..self.offset + n]);
        self.offset += n;
        Ok(n)
    }
}
