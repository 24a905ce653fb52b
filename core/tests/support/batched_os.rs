//! The suites through a file system that answers in batches (SPEC.md §3.1): a run with
//! `AGENTSMD_TEST_BATCHED=1` (`super::rerun_through_batches`) asks every chain a test asks of
//! the OS file system a second time through [`BatchedOs`], the OS answering in batches, and the
//! two results must be one. (A [`TestFs`](super::TestFs) test checks the single questions it
//! asks; `tests/batched.rs` checks the batched ones.)

use std::ffi::OsString;
use std::io::{self, Read};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use agentsmd_core::fs::{BatchFileSystem, Entry, FileSystem, Listed, OsFs};
use agentsmd_core::{Chain, FsName, Options};

/// Whether this run asks its chains in batches too.
fn through_batches() -> bool {
    std::env::var_os("AGENTSMD_TEST_BATCHED").is_some_and(|v| v == "1")
}

/// The OS, names below `/` ([`OsFs`]), answering in batches: each listing says what each name
/// is but for a symbolic link, which the walk then stats on its own.
struct BatchedOs;

impl FileSystem for BatchedOs {
    fn list(&self, dir: &FsName) -> io::Result<Vec<OsString>> {
        OsFs.list(dir)
    }

    /// As [`OsFs`] answers, but for a link that leads nowhere: a name that exists, and no file
    /// ([`Entry::Other`]), as the trait says.
    fn stat(&self, name: &FsName) -> io::Result<Entry> {
        match OsFs.stat(name) {
            Err(error) if std::fs::symlink_metadata(os_path(name)).is_ok() => {
                let dangling = error.kind() == io::ErrorKind::NotFound;
                dangling.then_some(Entry::Other).ok_or(error)
            }
            stat => stat,
        }
    }

    fn open(&self, name: &FsName) -> io::Result<Box<dyn Read + '_>> {
        OsFs.open(name)
    }

    fn batched(&self) -> Option<&dyn BatchFileSystem> {
        Some(self)
    }
}

impl BatchFileSystem for BatchedOs {
    fn list_many(&self, dirs: &[FsName]) -> io::Result<Vec<Option<Vec<Listed>>>> {
        let listing = |dir: &FsName| {
            // A batch answers a name that is no directory as a missing one.
            if !matches!(OsFs.stat(dir), Ok(Entry::Dir)) {
                return Ok(None);
            }
            let listed = OsFs.list(dir)?.into_iter().map(|name| {
                let path = os_path(&dir.join(name.as_bytes()));
                let entry = match std::fs::symlink_metadata(&path) {
                    Ok(meta) if meta.file_type().is_symlink() => None,
                    _ => self.stat(&dir.join(name.as_bytes())).ok(),
                };
                Listed { name, entry }
            });
            Ok(Some(listed.collect()))
        };
        dirs.iter().map(listing).collect()
    }

    // `read_many` as the trait gives it: each file stat'ed and read, in one call.
}

/// The OS path of a name below `/`.
fn os_path(name: &FsName) -> PathBuf {
    match name.as_bytes() {
        b"." => PathBuf::from("/"),
        name => Path::new("/").join(std::ffi::OsStr::from_bytes(name)),
    }
}

/// The name below `/` of the absolute path `path`.
fn name_of(path: &Path) -> Option<FsName> {
    let below = path.strip_prefix("/").ok()?;
    Some(match below.as_os_str().is_empty() {
        true => FsName::root(),
        false => FsName::new(below.as_os_str().as_bytes()).ok()?,
    })
}

/// A name as the path a custom file system is asked under.
fn as_path(name: &FsName) -> PathBuf {
    PathBuf::from(std::ffi::OsStr::from_bytes(name.as_bytes()))
}

/// The chain of `at` with `options` asked again in batches, with its paths as the OS gives
/// them: only for a run through batches, of a chain on the OS file system, unconfined, whose
/// path and root are absolute.
pub fn in_batches(at: &Path, options: &Options) -> Option<Result<Chain, agentsmd_core::Error>> {
    // A name is one byte shorter than its path: one at the length limit is left out.
    let long = |path: &Path| path.as_os_str().len() > 4000;
    if !through_batches() || options.fs.is_some() || options.confine || long(at) {
        return None;
    }
    let mut options = options.clone();
    if let Some(root) = &options.root {
        options.root = Some(as_path(&name_of(root)?));
    }
    let at = as_path(&name_of(at)?);
    let fs: std::sync::Arc<dyn FileSystem> = std::sync::Arc::new(BatchedOs);
    Some(agentsmd_core::chain(at, &options.fs(fs)).map(with_os_paths))
}

/// `chain` with each name of the file system written as its OS path.
fn with_os_paths(mut chain: Chain) -> Chain {
    let os = |path: &mut PathBuf| {
        if path.is_relative() {
            *path = os_path(&FsName::new(path.as_os_str().as_bytes()).expect("a name"));
        }
    };
    chain.files.iter_mut().for_each(|file| os(&mut file.path));
    for omitted in &mut chain.omitted {
        os(&mut omitted.path);
        omitted.by.iter_mut().for_each(os);
    }
    for import in &mut chain.imports {
        os(&mut import.path);
        os(&mut import.by);
    }
    chain
        .probes
        .iter_mut()
        .for_each(|probe| os(&mut probe.path));
    chain
        .available
        .iter_mut()
        .for_each(|available| os(&mut available.path));
    // A warning starts with its rule file's path: a name, relative, below `/`.
    for warning in &mut chain.warnings {
        if !warning.starts_with('/') {
            warning.insert(0, '/');
        }
    }
    chain
}
