//! Claude Code, from its documentation (https://code.claude.com/docs/en/memory, read
//! 2026-12-07): a closed product, so its file set and order follow what the page says and its
//! rendering is SPEC §2's. What it loads is what the library's own chain loads with the right
//! options, so a session of it loads as Claude Code does when its agent reads a file.

use std::path::PathBuf;

use super::home;
use crate::options::Options;
use crate::rules::{Dialect, RuleDir};

/// The files of each directory, every one of them, in this order: the project's memory, its
/// other place, and the local one.
const NAMES: [&str; 3] = ["CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md"];

/// The options of a chain that loads what Claude Code loads: the user's memory
/// (`~/.claude/CLAUDE.md`) first, then each directory's memory files from the root (`/`
/// unless given) down, with their `@path` imports, and the root's `.claude/rules`.
pub(super) fn options(options: &Options) -> Options {
    let mut claude = options.clone();
    claude.preset = None;
    claude.names = NAMES.iter().map(|name| name.as_bytes().to_vec()).collect();
    claude.all_names = true;
    claude.imports = true;
    claude.rules = vec![RuleDir::new(Dialect::Claude, ".claude/rules")];
    let user: Option<PathBuf> = home(options).map(|home| home.join(".claude").join("CLAUDE.md"));
    claude.extra = user
        .into_iter()
        .chain(options.extra.iter().cloned())
        .collect();
    claude
}
