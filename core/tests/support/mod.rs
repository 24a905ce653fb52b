//! Shared helpers of the integration tests: a temporary directory tree on the OS file system,
//! and [`TestFs`] (`test_fs.rs`), the one in-memory custom file system.

// Each test file uses the helpers it needs; the rest would be dead code there.
#![allow(dead_code)]

#[cfg(unix)]
mod batched_os;
mod test_fs;

#[allow(unused_imports)] // Not every test asks faults or counts questions.
pub use test_fs::{Fault, Op, TestFs};

use std::ffi::{OsStr, OsString};
use std::fs;
#[cfg(unix)]
use std::os::unix::ffi::OsStrExt;
#[cfg(unix)]
use std::os::unix::net::UnixListener;
use std::path::{Component, Path, PathBuf};
use std::sync::{mpsc, Arc};
use std::time::Duration;

use agentsmd_core::fs::FileSystem;
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
        agentsmd_core::ffi_support::path_to_bytes(self)
    }
}
impl Bytes for PathBuf {
    fn bytes(&self) -> &[u8] {
        agentsmd_core::ffi_support::path_to_bytes(self)
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

/// A path from its bytes ([`agentsmd_core::ffi_support::path_to_bytes`]), which may hold what no valid path
/// holds (a NUL) and need not be UTF-8: any bytes on Unix, WTF-8 on Windows (SPEC.md §8.2).
pub fn path(bytes: impl AsRef<[u8]>) -> PathBuf {
    PathBuf::from(os_string(bytes.as_ref()))
}

/// An OS string from its bytes, as [`path`] takes them.
pub fn os_string(bytes: &[u8]) -> OsString {
    #[cfg(unix)]
    return OsStr::from_bytes(bytes).to_owned();
    #[cfg(windows)]
    return agentsmd_core::ffi_support::path_from_bytes(bytes.to_vec(), "test path")
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
/// In a run through batches ([`rerun_through_batches`]), a chain on the OS file system is asked
/// in batches too, and must give the same result.
pub fn ok(at: impl Bytes, options: &Options) -> Chain {
    let at = path(at.bytes());
    let result = chain(&at, options).unwrap_or_else(|err| panic!("chain({}): {err}", text(&at)));
    #[cfg(unix)]
    if let Some(asked) = batched_os::in_batches(&at, options) {
        let asked = asked.unwrap_or_else(|err| panic!("chain({}) in batches: {err}", text(&at)));
        assert_eq!(asked, result, "chain({}) in batches", text(&at));
    }
    result
}

/// The error of the chain of `at`, which must fail; in a run through batches, asked in batches
/// too, with an error of the same kind (a failed batch names its first name), or none where
/// the error is a path through a file, which a batch answers as a missing directory (SPEC.md
/// §3.1).
pub fn err(at: impl Bytes, options: &Options) -> Error {
    let at = path(at.bytes());
    let err = match chain(&at, options) {
        Ok(result) => panic!("chain({}) succeeded: {result:?}", text(&at)),
        Err(err) => err,
    };
    #[cfg(unix)]
    if let Some(asked) = batched_os::in_batches(&at, options) {
        let through_a_file = err.os_code() == Some(rustix::io::Errno::NOTDIR.raw_os_error());
        match asked {
            Ok(_) if through_a_file => {}
            asked => assert_eq!(
                asked.map(|_| ()).map_err(|e| e.kind()),
                Err(err.kind()),
                "chain({}) in batches: {err}",
                text(&at)
            ),
        }
    }
    err
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
                "no symbolic link was made at {} (see `MAKES_LINKS`)",
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

/// Whether the tests make symbolic links ([`Tree::symlink`]) and names that are not UTF-8 (on
/// Windows, not valid UTF-16): on every Unix, and not on Windows, whose tests run here under
/// Wine. Wine 8's `CreateSymbolicLinkW` reports success and makes nothing, and Wine keeps names
/// as UTF-8 on the Unix file system below; Windows itself makes links only with a privilege
/// (Developer Mode, an elevated process). So on Windows the tests of links and of such names
/// are ignored, with this reason (`cargo test -- --ignored` runs them on a host that has both),
/// and the link cases of other tests are left out: no test passes there with nothing checked.
pub const MAKES_LINKS: bool = cfg!(unix);

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

/// The name of the test each suite has that runs the suite again through batches.
pub const THROUGH_BATCHES: &str = "every_rule_here_holds_through_batches";

/// Runs this test binary again, every test but [`THROUGH_BATCHES`], [`ON_THE_PORTABLE_PATH`]
/// and `skip` (tests that count the single questions asked), with `AGENTSMD_TEST_BATCHED=1`:
/// every chain on the OS is asked through a file system that answers in batches too, so that
/// each rule the suite checks on the OS holds through SPEC.md §3.1.
#[cfg(unix)]
pub fn rerun_through_batches(skip: &[&str]) {
    rerun(
        "AGENTSMD_TEST_BATCHED",
        &[THROUGH_BATCHES, ON_THE_PORTABLE_PATH],
        skip,
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
    rerun(
        "AGENTSMD_TEST_PORTABLE",
        &[ON_THE_PORTABLE_PATH, THROUGH_BATCHES],
        skip,
    );
}

/// Runs this test binary again with `switch=1`, every test but `reruns` and `skip`.
#[cfg(unix)]
fn rerun(switch: &str, reruns: &[&str], skip: &[&str]) {
    let mut rerun = std::process::Command::new(std::env::current_exe().expect("this test binary"));
    rerun.env(switch, "1");
    for name in reruns.iter().chain(skip) {
        rerun.args(["--skip", name]);
    }
    let run = rerun.output().expect("the test binary runs again");
    let out = format!(
        "{}{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(run.status.success(), "with {switch}=1:\n{out}");
    // Not a pass with nothing run.
    assert!(
        !out.contains("test result: ok. 0 passed"),
        "nothing ran with {switch}=1:\n{out}"
    );
}
