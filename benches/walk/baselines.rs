//! What our walk is measured against: the listing walk the seed describes, and the floor.

use std::ffi::CString;
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

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

/// The floor of any walk that resolves each directory relative to its parent: one `openat`
/// per level, one `fstatat` per name, and the `close`, with nothing read and nothing built.
pub struct Floor {
    root: CString,
    elements: Vec<CString>,
    names: Vec<CString>,
}

impl Floor {
    pub fn new(root: &Path, dirs: &[PathBuf], names: &[&str]) -> Self {
        let c = |bytes: &[u8]| CString::new(bytes).expect("no NUL");
        Self {
            root: c(root.as_os_str().as_bytes()),
            elements: dirs[1..]
                .iter()
                .map(|d| c(d.file_name().expect("an element").as_bytes()))
                .collect(),
            names: names.iter().map(|n| c(n.as_bytes())).collect(),
        }
    }

    /// Walks once; returns how many names were found.
    pub fn walk(&self) -> usize {
        let mut found = 0;
        // SAFETY: every string is NUL-terminated, `st` is plain data, every descriptor opened
        // is closed once.
        unsafe {
            let flags = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC;
            let mut fd = libc::open(self.root.as_ptr(), flags);
            let mut st: libc::stat = std::mem::zeroed();
            for level in 0..=self.elements.len() {
                for name in &self.names {
                    if libc::fstatat(fd, name.as_ptr(), &mut st, 0) == 0 {
                        found += 1;
                    }
                }
                if let Some(element) = self.elements.get(level) {
                    let next = libc::openat(fd, element.as_ptr(), flags);
                    libc::close(fd);
                    fd = next;
                }
            }
            libc::close(fd);
        }
        found
    }
}
