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

/// The floor of a new walker asked each file of a project once: the system calls the walker's
/// design cannot do without, in a bare loop planned beforehand, with nothing built and nothing
/// kept but descriptors. Per call: a `poll` of the inotify queue, an `fstatat` of the path in
/// its directory (is it one?) and an `fstat` of each instruction file of the chain not read
/// during the call. Per directory, the first time: an `openat` relative to its parent, an
/// `inotify_add_watch` (by its path, which is cheaper than the walker's `/proc` link) and an
/// `fstatat` per name. Per instruction file, the first time: `openat`, `fstat` and one `read`.
/// It watches no directory above the root, and closes nothing while timed.
pub struct WalkerFloor {
    names: Vec<CString>,
    /// Every directory, in the order the calls first meet them, the root first.
    dirs: Vec<PlannedDir>,
    calls: Vec<PlannedCall>,
}

struct PlannedDir {
    /// Its index in `dirs`, `None` for the root.
    parent: Option<usize>,
    /// Its last element (the root: its whole path), and its whole path.
    element: CString,
    path: CString,
}

struct PlannedCall {
    /// The directories met first by this call, in `dirs`.
    new: std::ops::Range<usize>,
    /// The directories of its chain, the root first.
    chain: Vec<usize>,
    /// The path's last element, looked up in the last directory of `chain`.
    name: CString,
}

impl WalkerFloor {
    pub fn new(root: &Path, files: &[PathBuf], names: &[&str]) -> Self {
        let c = |bytes: &[u8]| CString::new(bytes).expect("no NUL");
        let mut dirs = vec![PlannedDir {
            parent: None,
            element: c(root.as_os_str().as_bytes()),
            path: c(root.as_os_str().as_bytes()),
        }];
        let mut index: std::collections::HashMap<PathBuf, usize> =
            [(root.to_path_buf(), 0)].into_iter().collect();
        let calls = files
            .iter()
            .enumerate()
            .map(|(call, file)| {
                let first = if call == 0 { 0 } else { dirs.len() };
                let mut chain = vec![0];
                let mut dir = root.to_path_buf();
                let below = file.parent().expect("a directory").strip_prefix(root);
                for element in below.expect("below the root").iter() {
                    dir.push(element);
                    let parent = *chain.last().expect("the root");
                    let at = *index.entry(dir.clone()).or_insert_with(|| {
                        dirs.push(PlannedDir {
                            parent: Some(parent),
                            element: c(element.as_bytes()),
                            path: c(dir.as_os_str().as_bytes()),
                        });
                        dirs.len() - 1
                    });
                    chain.push(at);
                }
                PlannedCall {
                    new: first..dirs.len(),
                    chain,
                    name: c(file.file_name().expect("a name").as_bytes()),
                }
            })
            .collect();
        Self {
            names: names.iter().map(|n| c(n.as_bytes())).collect(),
            dirs,
            calls,
        }
    }

    /// Makes every call once; returns how many instruction files the chains held, and the
    /// descriptors to close once the clock has stopped, the inotify instance first.
    pub fn walk(&self) -> (usize, Vec<i32>) {
        let mut found = 0;
        let mut dir_fds = vec![-1; self.dirs.len()];
        let mut file_fds = vec![-1; self.dirs.len()];
        let mut buf = vec![0u8; 64 << 10];
        // SAFETY: every string is NUL-terminated, `st` and `pfd` are plain data, each read
        // fits `buf`, and every descriptor is returned to be closed once.
        unsafe {
            let inotify = libc::inotify_init1(libc::IN_NONBLOCK | libc::IN_CLOEXEC);
            let mask = libc::IN_CREATE
                | libc::IN_DELETE
                | libc::IN_MOVED_FROM
                | libc::IN_MOVED_TO
                | libc::IN_ATTRIB
                | libc::IN_MODIFY
                | libc::IN_DELETE_SELF
                | libc::IN_MOVE_SELF;
            let mut st: libc::stat = std::mem::zeroed();
            for call in &self.calls {
                let mut pfd = libc::pollfd {
                    fd: inotify,
                    events: libc::POLLIN,
                    revents: 0,
                };
                libc::poll(&mut pfd, 1, 0);
                let mut read_now = Vec::new();
                for at in call.new.clone() {
                    let dir = &self.dirs[at];
                    let flags = libc::O_PATH | libc::O_DIRECTORY | libc::O_CLOEXEC;
                    dir_fds[at] = match dir.parent {
                        None => libc::open(dir.element.as_ptr(), flags),
                        Some(up) => libc::openat(dir_fds[up], dir.element.as_ptr(), flags),
                    };
                    libc::inotify_add_watch(inotify, dir.path.as_ptr(), mask);
                    for name in &self.names {
                        let hit = libc::fstatat(dir_fds[at], name.as_ptr(), &mut st, 0) == 0;
                        if hit && file_fds[at] < 0 {
                            let fd = libc::openat(dir_fds[at], name.as_ptr(), libc::O_RDONLY);
                            libc::fstat(fd, &mut st);
                            libc::read(fd, buf.as_mut_ptr().cast(), buf.len());
                            file_fds[at] = fd;
                            read_now.push(at);
                        }
                    }
                }
                let last = *call.chain.last().expect("the root");
                libc::fstatat(dir_fds[last], call.name.as_ptr(), &mut st, 0);
                for &at in &call.chain {
                    if file_fds[at] >= 0 {
                        found += 1;
                        if !read_now.contains(&at) {
                            libc::fstat(file_fds[at], &mut st);
                        }
                    }
                }
            }
            let mut open = vec![inotify];
            open.extend(dir_fds.into_iter().chain(file_fds).filter(|&fd| fd >= 0));
            (found, open)
        }
    }
}
