//! The directories of a walk (SPEC §1 "Paths").

use super::request::Request;
use crate::error::Error;
use crate::fs::{Files, Kind};
use crate::path::FsName;

/// The directories of a walk, from its root down: prefixes of the path's name, made one at a
/// time, so that memory stays linear in the path's length however deep it is.
pub(super) struct Dirs {
    path: FsName,
    /// The length of each directory's name in the path's; 0 for the root `.`.
    ends: Vec<usize>,
}

impl Dirs {
    /// The directories from the root of `request` down to its path, as if it were a directory.
    pub(super) fn down_to_path(files: &Files, request: &Request) -> Self {
        let root = files.name_of(&request.root);
        let path = files.name_of(&request.path);
        let name = path.as_bytes();
        let first = if root.is_root() {
            0
        } else {
            root.as_bytes().len()
        };
        let mut ends = vec![first];
        if !path.is_root() && name.len() > first {
            ends.extend((first + 1..name.len()).filter(|&at| name[at] == b'/'));
            ends.push(name.len());
        }
        Self { path, ends }
    }

    /// Down to the path if it is a directory, else to its parent, never above the root. A path
    /// that `is_dir` says is a directory (a session's earlier touch looked it up) is not asked.
    pub(super) fn down_to_start(
        mut self,
        files: &Files,
        is_dir: impl Fn(&FsName) -> bool,
    ) -> Result<Self, Error> {
        // Whether a path that leads out of root is a directory is not asked: the walk goes down
        // to it, so that it is reported as leading out.
        let dir = is_dir(&self.path)
            || matches!(files.stat(&self.path)?, Some(Kind::Dir | Kind::Escapes));
        if !dir && self.ends.len() > 1 {
            self.ends.pop();
        }
        Ok(self)
    }

    pub(super) fn len(&self) -> usize {
        self.ends.len()
    }

    /// The `i`th directory's name, the root's first.
    pub(super) fn get(&self, i: usize) -> FsName {
        match self.ends[i] {
            0 => FsName::root(),
            end => FsName::of_valid(&self.path.as_bytes()[..end]),
        }
    }
}
