//! Windsurf, from its documentation (https://docs.windsurf.com/windsurf/cascade/memories and
//! https://docs.windsurf.com/windsurf/cascade/agents-md, read 2026-12-07): the global rules
//! (`~/.codeium/windsurf/memories/global_rules.md`), the project's legacy `.windsurfrules`,
//! then in each directory from the git root down to the working directory its `AGENTS.md` (or
//! `agents.md`) and its `.windsurf/rules`. An `AGENTS.md` below the root applies to the files
//! of its directory, so every one of the walk applies at the working directory.

use std::path::Path;

use super::documented::Documented;
use super::home;
use crate::options::Options;
use crate::rules::Dialect;

pub(super) fn documented(project: &Path, options: &Options) -> Documented {
    let global = home(options).map(|home| {
        let memories = [".codeium", "windsurf", "memories", "global_rules.md"];
        memories.iter().fold(home, |path, name| path.join(name))
    });
    Documented {
        names: &["AGENTS.md", "agents.md"],
        all_names: false,
        imports: false,
        rules: Some((Dialect::Windsurf, ".windsurf/rules")),
        extra: global
            .into_iter()
            .chain([project.join(".windsurfrules")])
            .collect(),
        root: Some(project.to_path_buf()),
    }
}
