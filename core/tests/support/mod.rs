//! Shared helpers of the integration tests: a temporary directory tree on the OS file system,
//! and [`TestFs`], the one in-memory custom file system, which records every question the walk
//! asks it, can answer "not found" or fail for any (question, name), can report a stat size
//! other than the content's (as a file system that expands a file as it reads it may), can find
//! names whatever their case (as a case-insensitive host does), records how far into each file
//! the library asked to read, and can be loaded from a real directory.

// Each test file uses the helpers it needs; the rest would be dead code there.
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::ffi::{OsStr, OsString};
use std::fs;
use std::io::{self, Read};
#[cfg(unix)]
use std::os::unix::ffi::OsStrExt;
#[cfg(unix)]
use std::os::unix::net::UnixListener;
use std::path::{Component, Path, PathBuf};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

use agentsmd_core::fs::{Entry, FileSystem, Listed};
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
impl Bytes for OsStr {
    fn bytes(&self) -> &[u8] {
        self.as_encoded_bytes()
    }
}
impl Bytes for Path {
    fn bytes(&self) -> &[u8] {
        agentsmd_core::path_to_bytes(self)
    }
}
impl Bytes for PathBuf {
    fn bytes(&self) -> &[u8] {
        agentsmd_core::path_to_bytes(self)
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

/// A path from its bytes ([`agentsmd_core::path_to_bytes`]), which may hold what no valid path
/// holds (a NUL) and need not be UTF-8: any bytes on Unix, WTF-8 on Windows (SPEC.md §8.2).
pub fn path(bytes: impl AsRef<[u8]>) -> PathBuf {
    PathBuf::from(os_string(bytes.as_ref()))
}

/// An OS string from its bytes, as [`path`] takes them.
pub fn os_string(bytes: &[u8]) -> OsString {
    #[cfg(unix)]
    return OsStr::from_bytes(bytes).to_owned();
    #[cfg(windows)]
    return agentsmd_core::path_from_bytes(bytes.to_vec(), "test path")
        .unwrap_or_else(|e| panic!("{e}"))
        .into_os_string();
}

/// A path element that is not UTF-8: a byte that is not, on Unix; on Windows, where a path is
/// UTF-16, an unpaired surrogate, which WTF-8 holds (SPEC.md §8.2).
#[cfg(unix)]
pub const NOT_UTF8: &[u8] = b"\xff";
#[cfg(windows)]
pub const NOT_UTF8: &[u8] = b"\xed\xa0\x80";

/// The name of an absolute OS path in [`OsFs`](agentsmd_core::fs::OsFs): below `/` on Unix; on
/// Windows its first element is the path's prefix (`C:/repo/AGENTS.md` for `C:\repo\AGENTS.md`).
pub fn os_name(path: &Path) -> FsName {
    assert!(path.is_absolute(), "{} is not absolute", path.display());
    let mut name: Vec<u8> = Vec::new();
    for component in path.components() {
        let element = match component {
            Component::RootDir => continue,
            Component::Prefix(prefix) => prefix.as_os_str(),
            Component::Normal(element) => element,
            Component::CurDir | Component::ParentDir => panic!("{} is not clean", path.display()),
        };
        if !name.is_empty() {
            name.push(b'/');
        }
        name.extend_from_slice(element.as_encoded_bytes());
    }
    match name.is_empty() {
        true => FsName::root(),
        false => FsName::new(name).expect("a clean absolute path"),
    }
}

/// The root of the file system holding the absolute `path`, a chain's default root (SPEC.md
/// §1, §8.2): `/` on Unix; on Windows the path's prefix root (`C:\`, `\\server\share\`).
pub fn fs_root(path: &Path) -> PathBuf {
    assert!(path.is_absolute(), "{} is not absolute", path.display());
    path.components()
        .take_while(|c| matches!(c, Component::Prefix(_) | Component::RootDir))
        .collect()
}

/// The OS error code of a path that runs through a non-directory: `ENOTDIR` (Windows:
/// `ERROR_DIRECTORY`, 267, which the library takes for it).
pub fn not_a_directory() -> i32 {
    #[cfg(unix)]
    return rustix::io::Errno::NOTDIR.raw_os_error();
    #[cfg(windows)]
    return 267;
}

/// `rel`, `/`-separated as the tests write it, as an OS path: its elements joined with the OS's
/// separator (`\` on Windows, where SPEC.md §8.2 writes every OS path so), kept as written
/// (`.`, `..` and empty elements alike).
fn os_relative(rel: &[u8]) -> Vec<u8> {
    let sep = std::path::MAIN_SEPARATOR_STR.as_bytes();
    rel.split(|&b| b == b'/').collect::<Vec<_>>().join(sep)
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

    /// The absolute path of `rel` (`/`-separated), whether or not it exists; `""` is the root.
    /// Joined as bytes, so that `..` and `.` in it stay as written, with the OS's separator.
    pub fn path(&self, rel: impl AsRef<[u8]>) -> PathBuf {
        let rel = rel.as_ref();
        if rel.is_empty() {
            return self.root();
        }
        let mut bytes = self.root().bytes().to_vec();
        bytes.extend_from_slice(std::path::MAIN_SEPARATOR_STR.as_bytes());
        bytes.extend_from_slice(&os_relative(rel));
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
    /// absolute; `/`-separated, written with the OS's separator).
    pub fn symlink(&self, rel: impl AsRef<[u8]>, target: impl AsRef<[u8]>) -> PathBuf {
        let rel = rel.as_ref();
        self.parents(rel);
        let link = self.path(rel);
        let target = path(os_relative(target.as_ref()));
        #[cfg(unix)]
        std::os::unix::fs::symlink(&target, &link).expect("create symbolic link");
        // Windows tells a link to a directory from a link to a file: the kind of what the target
        // is now (a file for one that dangles or loops).
        #[cfg(windows)]
        {
            let resolved = link.parent().expect("a link in the tree").join(&target);
            let made = match fs::metadata(resolved).is_ok_and(|m| m.is_dir()) {
                true => std::os::windows::fs::symlink_dir(&target, &link),
                false => std::os::windows::fs::symlink_file(&target, &link),
            };
            made.unwrap_or_else(|e| panic!("symbolic link {}: {e}", link.display()));
            assert!(
                fs::symlink_metadata(&link).is_ok(),
                "no symbolic link was made at {} (ask `symlinks()` first)",
                link.display()
            );
        }
        link
    }

    /// A FIFO: opening it for reading would block until a writer came.
    #[cfg(unix)]
    pub fn fifo(&self, rel: impl AsRef<[u8]>) -> PathBuf {
        let rel = rel.as_ref();
        self.parents(rel);
        mkfifo(&self.path(rel));
        self.path(rel)
    }

    /// A Unix socket, listening for as long as the returned listener lives.
    #[cfg(unix)]
    pub fn socket(&self, rel: impl AsRef<[u8]>) -> UnixListener {
        let rel = rel.as_ref();
        self.parents(rel);
        UnixListener::bind(self.path(rel)).expect("bind socket")
    }
}

/// Whether this host makes symbolic links ([`Tree::symlink`]); where it does not, says so on
/// stderr, for a test of links to return without checking anything. Unix always does; Windows
/// only with the privilege (Developer Mode, an elevated process), and Wine 8 never: its
/// `CreateSymbolicLinkW` reports success and makes nothing.
pub fn symlinks() -> bool {
    #[cfg(unix)]
    return true;
    #[cfg(windows)]
    {
        static MADE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        let made = *MADE.get_or_init(|| {
            let tree = Tree::new();
            tree.file("target.md", "x");
            let link = tree.path("link.md");
            std::os::windows::fs::symlink_file("target.md", &link).is_ok()
                && fs::symlink_metadata(&link).is_ok_and(|m| m.file_type().is_symlink())
        });
        if !made {
            eprintln!("skipped: this host makes no symbolic links");
        }
        made
    }
}

/// Whether this host's file system holds names that are not UTF-8 (on Windows, not valid
/// UTF-16: an unpaired surrogate, which WTF-8 holds); where it does not, says so on stderr, for
/// a test of such names to return without checking anything. Unix always does, and NTFS; Wine
/// does not (it keeps names as UTF-8 on the Unix file system below).
pub fn names_not_utf8() -> bool {
    #[cfg(unix)]
    return true;
    #[cfg(windows)]
    {
        static HELD: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        let held = *HELD.get_or_init(|| {
            let tree = Tree::new();
            let name = tree.path(b"x\xed\xa0\x80");
            fs::write(&name, "x").is_ok()
                && fs::read_dir(tree.root()).is_ok_and(|mut entries| {
                    entries.any(|e| e.is_ok_and(|e| e.path().bytes() == name.bytes()))
                })
        });
        if !held {
            eprintln!("skipped: this host's file system holds no name that is not UTF-16");
        }
        held
    }
}

/// A FIFO at `path`.
#[cfg(all(unix, not(target_vendor = "apple")))]
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
    batched: bool,
    /// Names whose batched listing does not say what they are, as a symbolic link's.
    unsaid: HashSet<Vec<u8>>,
    /// The names of each batch asked, in order.
    batches: Mutex<Vec<(Op, Vec<String>)>>,
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

    /// Answers in batches ([`FileSystem::batched`]), counting each batch as one call.
    pub fn batched(mut self) -> Self {
        self.batched = true;
        self
    }

    /// `name`'s batched listing does not say what it is, as a symbolic link's does not.
    pub fn unsaid(mut self, name: &str) -> Self {
        self.unsaid.insert(name.as_bytes().to_vec());
        self
    }

    /// The names of each batch asked, in order.
    pub fn batches(&self) -> Vec<(Op, Vec<String>)> {
        self.batches.lock().unwrap().clone()
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
        self.batches.lock().unwrap().push((op, texts));
        let faults = names
            .iter()
            .filter_map(|n| self.faults.get(&(op, n.as_bytes().to_vec())));
        match faults.into_iter().next() {
            Some(Fault::Fail(message)) => Err(io::Error::other(message.clone())),
            Some(Fault::NotFound) => Err(io::ErrorKind::NotFound.into()),
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

    fn batched(&self) -> bool {
        self.batched
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
