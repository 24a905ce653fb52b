//! Shared helpers of the integration tests: a temporary directory tree on the OS file system,
//! and [`TestFs`], the one in-memory custom file system, which records every question the walk
//! asks it, can answer "not found" or fail for any (question, name), can report a stat size
//! other than the content's (as a file system that expands a file as it reads it may), can find
//! names whatever their case (as a case-insensitive host does), records how far into each file
//! the library asked to read, and can be loaded from a real directory.

// Each test file uses the helpers it needs; the rest would be dead code there.
#![allow(dead_code)]

use std::collections::{BTreeMap, HashMap};
use std::ffi::{OsStr, OsString};
use std::fs;
use std::io::{self, Read};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::net::UnixListener;
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

use agentsmd_core::fs::{Entry, FileSystem};
use agentsmd_core::{chain, Chain, Error, FsName, Omitted, Options, Reason};

/// What has bytes to show: paths, names and contents alike.
pub trait Bytes {
    fn bytes(&self) -> &[u8];
}

impl Bytes for [u8] {
    fn bytes(&self) -> &[u8] {
        self
    }
}
impl Bytes for Vec<u8> {
    fn bytes(&self) -> &[u8] {
        self
    }
}
impl Bytes for str {
    fn bytes(&self) -> &[u8] {
        self.as_bytes()
    }
}
impl Bytes for String {
    fn bytes(&self) -> &[u8] {
        self.as_bytes()
    }
}
impl Bytes for Path {
    fn bytes(&self) -> &[u8] {
        self.as_os_str().as_bytes()
    }
}
impl Bytes for PathBuf {
    fn bytes(&self) -> &[u8] {
        self.as_os_str().as_bytes()
    }
}
impl Bytes for FsName {
    fn bytes(&self) -> &[u8] {
        self.as_bytes()
    }
}
impl<const N: usize> Bytes for [u8; N] {
    fn bytes(&self) -> &[u8] {
        self
    }
}
impl<T: Bytes + ?Sized> Bytes for &T {
    fn bytes(&self) -> &[u8] {
        (**self).bytes()
    }
}

/// Bytes as text for assertions and messages; non-UTF-8 bytes become U+FFFD.
pub fn text<T: Bytes + ?Sized>(bytes: &T) -> String {
    String::from_utf8_lossy(bytes.bytes()).into_owned()
}

/// A path from its bytes, which need not be UTF-8 and may hold what no valid path holds.
pub fn path(bytes: impl AsRef<[u8]>) -> PathBuf {
    PathBuf::from(OsStr::from_bytes(bytes.as_ref()))
}

/// The name of an absolute OS path in [`OsFs`](agentsmd_core::fs::OsFs): below `/`.
pub fn os_name(path: &Path) -> FsName {
    let bytes = path.as_os_str().as_bytes();
    match bytes.strip_prefix(b"/") {
        Some(b"") => FsName::root(),
        Some(rest) => FsName::new(rest).expect("a clean absolute path"),
        None => panic!("{} is not absolute", path.display()),
    }
}

/// The paths of a chain's files, as text.
pub fn paths(files: &[agentsmd_core::File]) -> Vec<String> {
    files.iter().map(|file| text(&file.path)).collect()
}

/// An omitted file as a tuple that compares and prints well: (path, size, reason, by), with
/// `by` empty when there is none.
pub fn omitted(omitted: &[Omitted]) -> Vec<(String, u64, Reason, String)> {
    omitted
        .iter()
        .map(|o| {
            let by = o.by.as_ref().map(text).unwrap_or_default();
            (text(&o.path), o.size, o.reason, by)
        })
        .collect()
}

/// Options for an OS walk rooted at `tree`.
pub fn os(tree: &Tree) -> Options {
    Options::new().root(tree.root())
}

/// Options for a walk of `fs`.
pub fn custom(fs: &Arc<TestFs>) -> Options {
    Options::new().fs(Arc::clone(fs) as Arc<dyn FileSystem>)
}

/// The chain of `at` (bytes, so that it may be non-UTF-8 or hold a NUL), which must succeed.
pub fn ok(at: impl Bytes, options: &Options) -> Chain {
    let at = path(at.bytes());
    chain(&at, options).unwrap_or_else(|err| panic!("chain({}): {err}", text(&at)))
}

/// The error of the chain of `at`, which must fail.
pub fn err(at: impl Bytes, options: &Options) -> Error {
    let at = path(at.bytes());
    match chain(&at, options) {
        Ok(result) => panic!("chain({}) succeeded: {result:?}", text(&at)),
        Err(err) => err,
    }
}

/// `tree.path(rel)` as text, for comparing with [`paths`] and [`omitted`].
pub fn at(tree: &Tree, rel: &str) -> String {
    text(&tree.path(rel))
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
/// path relative to the tree's root (bytes, so that it may be non-UTF-8) and returns the
/// absolute path.
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
    pub fn root(&self) -> PathBuf {
        self.dir.path().to_path_buf()
    }

    /// The absolute path of `rel`, whether or not it exists; `""` is the root. Joined as bytes,
    /// so that `..` and `.` in it stay as written.
    pub fn path(&self, rel: impl AsRef<[u8]>) -> PathBuf {
        let rel = rel.as_ref();
        if rel.is_empty() {
            return self.root();
        }
        let mut bytes = self.root().as_os_str().as_bytes().to_vec();
        bytes.push(b'/');
        bytes.extend_from_slice(rel);
        path(bytes)
    }

    /// Creates the parents of `rel`, which must stay inside the tree: a test writes nothing
    /// outside its temporary directory (an empty directory name once made one write `/keep`).
    fn parents(&self, rel: &[u8]) {
        assert!(
            !rel.starts_with(b"/") && !rel.split(|&b| b == b'/').any(|e| e == b".."),
            "{:?} would be written outside the tree",
            String::from_utf8_lossy(rel)
        );
        if let Some(parent) = self.path(rel).parent() {
            fs::create_dir_all(parent).expect("create parents");
        }
    }

    /// A regular file with `content`, and its parents.
    pub fn file(&self, rel: impl AsRef<[u8]>, content: impl AsRef<[u8]>) -> PathBuf {
        let rel = rel.as_ref();
        self.parents(rel);
        fs::write(self.path(rel), content).expect("write file");
        self.path(rel)
    }

    /// A directory and its parents.
    pub fn dir(&self, rel: impl AsRef<[u8]>) -> PathBuf {
        self.parents(rel.as_ref());
        fs::create_dir_all(self.path(rel.as_ref())).expect("create directory");
        self.path(rel)
    }

    /// A symbolic link at `rel` to `target` (taken as is: relative to the link's directory, or
    /// absolute).
    pub fn symlink(&self, rel: impl AsRef<[u8]>, target: impl AsRef<[u8]>) -> PathBuf {
        let rel = rel.as_ref();
        self.parents(rel);
        std::os::unix::fs::symlink(OsStr::from_bytes(target.as_ref()), self.path(rel))
            .expect("create symbolic link");
        self.path(rel)
    }

    /// A FIFO: opening it for reading would block until a writer came.
    pub fn fifo(&self, rel: impl AsRef<[u8]>) -> PathBuf {
        let rel = rel.as_ref();
        self.parents(rel);
        mkfifo(&self.path(rel));
        self.path(rel)
    }

    /// A Unix socket, listening for as long as the returned listener lives.
    pub fn socket(&self, rel: impl AsRef<[u8]>) -> UnixListener {
        let rel = rel.as_ref();
        self.parents(rel);
        UnixListener::bind(self.path(rel)).expect("bind socket")
    }
}

/// A FIFO at `path`.
#[cfg(not(target_vendor = "apple"))]
pub fn mkfifo(path: &Path) {
    use rustix::fs::{mkfifoat, Mode, CWD};
    mkfifoat(CWD, path, Mode::from_raw_mode(0o644))
        .unwrap_or_else(|e| panic!("mkfifo {}: {e}", path.display()));
}

/// A FIFO at `path`, by mkfifo(1): macOS has no `mkfifoat`.
#[cfg(target_vendor = "apple")]
pub fn mkfifo(path: &Path) {
    let made = std::process::Command::new("mkfifo").arg(path).status();
    assert!(
        made.is_ok_and(|status| status.success()),
        "mkfifo {}",
        path.display()
    );
}

/// The name of the test each suite has that runs the suite again on the portable path.
pub const ON_THE_PORTABLE_PATH: &str = "every_rule_here_holds_on_the_portable_path";

/// Runs this test binary again, every test but [`ON_THE_PORTABLE_PATH`] and `skip`, with the
/// portable OS layer selected (`AGENTSMD_TEST_PORTABLE=1`, which the library reads in the tests'
/// builds: feature `test-portable`), and fails with its output where a test fails there: every
/// rule the suite checks through Linux's own calls is checked through the calls every other Unix
/// makes too. Linux only: elsewhere the portable path is the only one.
#[cfg(target_os = "linux")]
pub fn rerun_on_the_portable_path(skip: &[&str]) {
    let mut rerun = std::process::Command::new(std::env::current_exe().expect("this test binary"));
    rerun.env("AGENTSMD_TEST_PORTABLE", "1");
    for name in [ON_THE_PORTABLE_PATH].iter().chain(skip) {
        rerun.args(["--skip", name]);
    }
    let run = rerun.output().expect("the test binary runs again");
    let out = format!(
        "{}{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(run.status.success(), "on the portable path:\n{out}");
    // Not a pass with nothing run.
    assert!(
        !out.contains("test result: ok. 0 passed"),
        "nothing ran on the portable path:\n{out}"
    );
}

/// One of the three questions a file system answers (SPEC.md §3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    List,
    Stat,
    /// Open a file to read it.
    Read,
}

/// What [`TestFs`] answers instead of the truth for one (question, name).
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
                let child = if name == b"." {
                    element.as_bytes().to_vec()
                } else {
                    [name, b"/", element.as_bytes()].concat()
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
                .map(|name| OsStr::from_bytes(base(name)).to_owned())
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
