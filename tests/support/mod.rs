//! Shared helpers of the integration tests: a temporary directory tree on the OS file system,
//! an in-memory [`FileSystem`] that can lie about sizes, fail on demand and record what it was
//! asked, and [`DirFs`], a custom file system over a real directory.

// Each test file uses the helpers it needs; the rest would be dead code there.
#![allow(dead_code)]

use std::collections::{BTreeMap, HashMap};
use std::ffi::{CString, OsStr};
use std::fs;
use std::io::{self, Read};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::net::UnixListener;
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

use agentsmd::fs::{FileSystem, Kind, Metadata};
use agentsmd::{Error, Omitted, Reason};

/// Bytes as text for assertions and messages; non-UTF-8 bytes become U+FFFD.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Names as the options take them.
pub fn names(names: &[&str]) -> Vec<Vec<u8>> {
    names.iter().map(|name| name.as_bytes().to_vec()).collect()
}

/// The paths of a chain's files, as text.
pub fn paths(files: &[agentsmd::File]) -> Vec<String> {
    files.iter().map(|file| text(&file.path)).collect()
}

/// An omitted file as a tuple that compares and prints well: (path, size, reason, by).
pub fn omitted(omitted: &[Omitted]) -> Vec<(String, u64, Reason, String)> {
    omitted
        .iter()
        .map(|o| (text(&o.path), o.size, o.reason, text(&o.by)))
        .collect()
}

/// Runs `f` on another thread and fails the test if it has not returned within `seconds`: for
/// calls that must never block, such as a walk past a FIFO.
pub fn within<T: Send + 'static>(seconds: u64, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = send.send(f());
    });
    receive
        .recv_timeout(Duration::from_secs(seconds))
        .expect("the call blocked (or panicked)")
}

/// A directory tree in a fresh temporary directory, removed when dropped. Every method takes a
/// path relative to the tree's root and returns the absolute path as bytes.
pub struct Tree {
    dir: tempfile::TempDir,
}

impl Default for Tree {
    fn default() -> Self {
        Self::new()
    }
}

impl Tree {
    pub fn new() -> Self {
        Self {
            dir: tempfile::TempDir::new().expect("temporary directory"),
        }
    }

    /// The tree's root, absolute and clean.
    pub fn root(&self) -> Vec<u8> {
        self.dir.path().as_os_str().as_bytes().to_vec()
    }

    /// The absolute path of `rel` (bytes, so that it may be non-UTF-8), whether or not it exists.
    pub fn path(&self, rel: impl AsRef<[u8]>) -> Vec<u8> {
        let rel = rel.as_ref();
        if rel.is_empty() {
            return self.root();
        }
        let mut path = self.root();
        path.push(b'/');
        path.extend_from_slice(rel);
        path
    }

    fn os(&self, rel: impl AsRef<[u8]>) -> PathBuf {
        PathBuf::from(OsStr::from_bytes(&self.path(rel)))
    }

    fn parents(&self, rel: &[u8]) {
        if let Some(parent) = self.os(rel).parent() {
            fs::create_dir_all(parent).expect("create parents");
        }
    }

    /// A regular file with `content`, and its parents.
    pub fn file(&self, rel: impl AsRef<[u8]>, content: impl AsRef<[u8]>) -> Vec<u8> {
        let rel = rel.as_ref();
        self.parents(rel);
        fs::write(self.os(rel), content).expect("write file");
        self.path(rel)
    }

    /// A directory and its parents.
    pub fn dir(&self, rel: impl AsRef<[u8]>) -> Vec<u8> {
        fs::create_dir_all(self.os(rel.as_ref())).expect("create directory");
        self.path(rel)
    }

    /// A symbolic link at `rel` to `target` (taken as is: relative to the link's directory, or
    /// absolute).
    pub fn symlink(&self, rel: impl AsRef<[u8]>, target: impl AsRef<[u8]>) -> Vec<u8> {
        let rel = rel.as_ref();
        self.parents(rel);
        std::os::unix::fs::symlink(OsStr::from_bytes(target.as_ref()), self.os(rel))
            .expect("create symbolic link");
        self.path(rel)
    }

    /// A FIFO: opening it for reading would block until a writer came.
    pub fn fifo(&self, rel: impl AsRef<[u8]>) -> Vec<u8> {
        let rel = rel.as_ref();
        self.parents(rel);
        let path = CString::new(self.path(rel)).expect("no NUL in the path");
        // SAFETY: `path` is a valid NUL-terminated string that outlives the call.
        let status = unsafe { libc::mkfifo(path.as_ptr(), 0o644) };
        assert_eq!(status, 0, "mkfifo: {}", io::Error::last_os_error());
        self.path(rel)
    }

    /// A Unix socket, listening for as long as the returned listener lives.
    pub fn socket(&self, rel: impl AsRef<[u8]>) -> UnixListener {
        let rel = rel.as_ref();
        self.parents(rel);
        UnixListener::bind(self.os(rel)).expect("bind socket")
    }
}

/// One of the three questions a file system answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    List,
    Stat,
    Read,
}

/// What [`MemFs`] answers instead of the truth for one (question, name).
#[derive(Clone, Debug)]
pub enum Fault {
    /// "Not found".
    NotFound,
    /// A failure with this message.
    Fail(String),
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

/// An in-memory custom file system. Names are as SPEC.md §1 defines them (`.` is the root);
/// every directory above a node exists. It records every question it is asked and the `limit`
/// of every read, can answer "not found" or fail for any (question, name), can report a stat
/// size other than the content's, can compare names case-insensitively on stat and read (as a
/// case-insensitive host does) while listing the exact spelling, and can ignore the read limit
/// (as a file system that expands a file as it reads it may).
#[derive(Default)]
pub struct MemFs {
    nodes: BTreeMap<Vec<u8>, Node>,
    faults: HashMap<(Op, Vec<u8>), Fault>,
    case_insensitive: bool,
    ignore_limit: bool,
    calls: Mutex<Vec<(Op, Vec<u8>)>>,
    limits: Mutex<Vec<(Vec<u8>, u64)>>,
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

impl MemFs {
    pub fn new() -> Self {
        let mut fs = Self::default();
        fs.nodes.insert(b".".to_vec(), Node::Dir);
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

    /// Reads return the whole content, however small the limit.
    pub fn ignoring_limit(mut self) -> Self {
        self.ignore_limit = true;
        self
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

    /// How many times `name` was read.
    pub fn reads_of(&self, name: &str) -> usize {
        self.asked(Op::Read).iter().filter(|n| *n == name).count()
    }

    /// The (name, limit) of every read, in order.
    pub fn limits(&self) -> Vec<(String, u64)> {
        self.limits
            .lock()
            .unwrap()
            .iter()
            .map(|(name, limit)| (text(name), *limit))
            .collect()
    }

    /// Records the question and answers a fault, if one is set: `Some(answer)` to return.
    fn ask<T>(&self, op: Op, name: &[u8]) -> Option<Result<Option<T>, Error>> {
        self.calls.lock().unwrap().push((op, name.to_vec()));
        let what = match op {
            Op::List => "list",
            Op::Stat => "stat",
            Op::Read => "read",
        };
        match self.faults.get(&(op, name.to_vec()))? {
            Fault::NotFound => Some(Ok(None)),
            Fault::Fail(message) => Some(Err(Error::fs(what, name, message))),
        }
    }

    fn node(&self, name: &[u8]) -> Option<&Node> {
        if !self.case_insensitive {
            return self.nodes.get(name);
        }
        self.nodes
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, node)| node)
    }
}

impl FileSystem for MemFs {
    fn list(&self, dir: &[u8]) -> Result<Option<Vec<Vec<u8>>>, Error> {
        if let Some(answer) = self.ask(Op::List, dir) {
            return answer;
        }
        match self.node(dir) {
            None => Ok(None),
            Some(Node::Dir) => Ok(Some(
                self.nodes
                    .keys()
                    .filter(|name| name.as_slice() != b"." && parent(name) == dir)
                    .map(|name| base(name).to_vec())
                    .collect(),
            )),
            Some(_) => Err(Error::fs("list", dir, "not a directory")),
        }
    }

    fn stat(&self, path: &[u8]) -> Result<Option<Metadata>, Error> {
        if let Some(answer) = self.ask(Op::Stat, path) {
            return answer;
        }
        Ok(self.node(path).map(|node| match node {
            Node::Dir => Metadata {
                kind: Kind::Dir,
                size: 4096,
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

    fn read(&self, path: &[u8], _size_hint: u64, limit: u64) -> Result<Option<Vec<u8>>, Error> {
        self.limits.lock().unwrap().push((path.to_vec(), limit));
        if let Some(answer) = self.ask(Op::Read, path) {
            return answer;
        }
        match self.node(path) {
            None => Ok(None),
            Some(Node::File { content, .. }) => {
                let take = if self.ignore_limit {
                    content.len()
                } else {
                    content
                        .len()
                        .min(usize::try_from(limit).unwrap_or(usize::MAX))
                };
                Ok(Some(content[..take].to_vec()))
            }
            Some(_) => Err(Error::fs("read", path, "not a regular file")),
        }
    }
}

/// A custom file system over a real directory: names are relative to it, and `.` is the
/// directory itself. Symbolic links are followed by the OS.
pub struct DirFs {
    base: PathBuf,
}

impl DirFs {
    pub fn new(base: impl AsRef<Path>) -> Self {
        Self {
            base: base.as_ref().to_path_buf(),
        }
    }

    fn os(&self, name: &[u8]) -> PathBuf {
        if name == b"." {
            self.base.clone()
        } else {
            self.base.join(OsStr::from_bytes(name))
        }
    }
}

fn not_found_is_none<T>(result: io::Result<T>) -> io::Result<Option<T>> {
    match result {
        Ok(value) => Ok(Some(value)),
        Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(err) => Err(err),
    }
}

impl DirFs {
    /// `result` of resolving `name`, with "not found" as `None`, and so a symbolic link on the
    /// way that loops or runs through a non-directory (SPEC.md §1): the first name on the way
    /// that is no directory fails to resolve. A non-directory used as a directory stays an
    /// error.
    fn missing_is_none<T>(&self, name: &[u8], result: io::Result<T>) -> io::Result<Option<T>> {
        let err = match result {
            Err(err) if matches!(err.raw_os_error(), Some(libc::ELOOP | libc::ENOTDIR)) => err,
            other => return not_found_is_none(other),
        };
        let mut at = self.base.clone();
        for element in name.split(|&b| b == b'/').filter(|e| *e != b".") {
            at.push(OsStr::from_bytes(element));
            match fs::metadata(&at) {
                Ok(metadata) if metadata.is_dir() => {}
                Err(nowhere)
                    if matches!(nowhere.raw_os_error(), Some(libc::ELOOP | libc::ENOTDIR)) =>
                {
                    return Ok(None)
                }
                _ => break,
            }
        }
        Err(err)
    }
}

impl FileSystem for DirFs {
    fn list(&self, dir: &[u8]) -> Result<Option<Vec<Vec<u8>>>, Error> {
        let fail = |err: io::Error| Error::io("list", dir, &err);
        let Some(entries) = self
            .missing_is_none(dir, fs::read_dir(self.os(dir)))
            .map_err(fail)?
        else {
            return Ok(None);
        };
        let names = entries
            .map(|entry| entry.map(|entry| entry.file_name().into_vec()))
            .collect::<io::Result<Vec<_>>>()
            .map_err(fail)?;
        Ok(Some(names))
    }

    fn stat(&self, path: &[u8]) -> Result<Option<Metadata>, Error> {
        let metadata = self
            .missing_is_none(path, fs::metadata(self.os(path)))
            .map_err(|err| Error::io("stat", path, &err))?;
        Ok(metadata.map(|m| Metadata {
            kind: if m.is_file() {
                Kind::File
            } else if m.is_dir() {
                Kind::Dir
            } else {
                Kind::Other
            },
            size: m.len(),
        }))
    }

    fn read(&self, path: &[u8], _size_hint: u64, limit: u64) -> Result<Option<Vec<u8>>, Error> {
        let fail = |err: io::Error| Error::io("read", path, &err);
        let Some(file) = not_found_is_none(fs::File::open(self.os(path))).map_err(fail)? else {
            return Ok(None);
        };
        let mut content = Vec::new();
        file.take(limit).read_to_end(&mut content).map_err(fail)?;
        Ok(Some(content))
    }
}
