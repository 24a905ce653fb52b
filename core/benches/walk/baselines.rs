//! What our walk is measured against: the listing walk the seed describes, and the whole-path
//! floor.

use std::ffi::CString;
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use rustix::fs::{open, stat, FileType, Mode, OFlags};

/// The literal reading of the seed: list every directory from the root down, and stat and read
/// the first of `names` each one lists. Returns the files read.
pub fn listing_walk(dirs: &[PathBuf], names: &[&str]) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    for dir in dirs {
        let Ok(entries) = fs::read_dir(dir) else {
            continue;
        };
        let listed: Vec<_> = entries
            .filter_map(|e| e.ok().map(|e| e.file_name()))
            .collect();
        for name in names {
            if !listed.iter().any(|n| n.as_bytes() == name.as_bytes()) {
                continue;
            }
            let path = dir.join(name);
            if fs::metadata(&path).is_ok_and(|m| m.is_file()) {
                files.push((path.clone(), fs::read(&path).expect("read")));
                break;
            }
        }
    }
    files
}

/// The whole-path floor: the fewest system calls a chain needs, in a bare loop planned
/// beforehand. A `stat` of the start path; for each directory from the root down, a `stat` by
/// whole path of each `D/NAME` until one is a regular file; and per file read an `open`, one
/// `read` and the `close`: 1 + (names tried per directory) + 3 per file. Nothing is built.
pub struct Floor {
    start: CString,
    /// For each directory, the whole path of each name, in the order of the names.
    names: Vec<Vec<CString>>,
    buf: Vec<u8>,
}

impl Floor {
    /// The floor of a chain for `path`, a file below `root` that does not exist.
    pub fn new(root: &Path, path: &Path, names: &[&str]) -> Self {
        let c = |path: &Path| CString::new(path.as_os_str().as_bytes()).expect("no NUL");
        let dir = path.parent().expect("a file's directory");
        let mut dirs: Vec<&Path> = dir
            .ancestors()
            .take_while(|d| d.starts_with(root))
            .collect();
        dirs.reverse();
        Self {
            start: c(path),
            names: dirs
                .iter()
                .map(|d| names.iter().map(|n| c(&d.join(n))).collect())
                .collect(),
            buf: vec![0; 1 << 20],
        }
    }

    /// Walks once; returns the bytes of each file read.
    pub fn walk(&mut self) -> Vec<usize> {
        let mut read = Vec::new();
        let _ = stat(self.start.as_c_str());
        for dir in &self.names {
            read.extend(read_first(dir, &mut self.buf).0);
        }
        read
    }
}

/// The floor's lookup of one directory: a `stat` by whole path of each of `names` until one is
/// a regular file, then its `open`, one `read` into `buf` and `close`. Returns the bytes read,
/// if a file was, and the names tried.
pub fn read_first(names: &[CString], buf: &mut [u8]) -> (Option<usize>, usize) {
    for (i, name) in names.iter().enumerate() {
        let is_file = stat(name.as_c_str())
            .is_ok_and(|s| FileType::from_raw_mode(s.st_mode) == FileType::RegularFile);
        if is_file {
            let flags = OFlags::RDONLY | OFlags::CLOEXEC;
            let fd = open(name.as_c_str(), flags, Mode::empty()).expect("open");
            return (Some(rustix::io::read(&fd, buf).expect("read")), i + 1);
        }
    }
    (None, names.len())
}
