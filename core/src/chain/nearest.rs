//! The nearest file only (SPEC.md §5.6, [`Options::nearest`](crate::Options::nearest)): of the
//! files of the directories of the walk, the last one's stands, and the others are superseded.

use std::path::PathBuf;

use super::dirs::Dirs;
use crate::fs::{Files, Lookup};
use crate::path;

/// The nearest file, with its directory's index in `dirs`: the file of the last directory of
/// the walk that has one, among `lookups` of `names`. Decided from the lookups, so that no
/// file it supersedes is read.
pub(super) fn nearest(
    files: &Files,
    dirs: &Dirs,
    lookups: &[Lookup],
    names: &[Vec<u8>],
) -> Option<(usize, PathBuf)> {
    lookups.iter().enumerate().rev().find_map(|(i, lookup)| {
        let (index, _) = lookup.standing()?;
        let file = dirs.get(i).join(&names[index]);
        Some((i, path::into_path_buf(files.path_of(&file))))
    })
}
