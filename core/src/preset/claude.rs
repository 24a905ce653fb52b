//! Claude Code, from its documentation (https://code.claude.com/docs/en/memory, read
//! 2026-12-07): the user's memory, then each directory's memory files from the file system's
//! root down to the working directory, with their `@path` imports, and the project's
//! `.claude/rules`.

use std::path::Path;

use super::documented::Documented;
use super::home;
use crate::options::Options;
use crate::rules::Dialect;

/// The files of each directory, every one of them, in this order: the project's memory, its
/// other place, and the local one.
const NAMES: [&str; 3] = ["CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md"];

/// The walk runs from the project (`project`, where `.claude/rules` is) down; the memory files
/// of the directories above it, which Claude Code also reads, come before it as the user's
/// memory does, unless the caller's root says where the walk stops.
pub(super) fn documented(project: &Path, options: &Options) -> Documented {
    let user = home(options).map(|home| home.join(".claude").join("CLAUDE.md"));
    let above = match options.root {
        Some(_) => Vec::new(),
        None => project.ancestors().skip(1).collect(),
    };
    let above = above.into_iter().rev().flat_map(|dir| {
        NAMES.map(|name| {
            name.split('/')
                .fold(dir.to_path_buf(), |path, name| path.join(name))
        })
    });
    Documented {
        names: &NAMES,
        all_names: true,
        imports: true,
        rules: Some((Dialect::Claude, ".claude/rules")),
        extra: user.into_iter().chain(above).collect(),
        root: Some(project.to_path_buf()),
    }
}
