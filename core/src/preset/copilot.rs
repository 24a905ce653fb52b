//! GitHub Copilot, from its documentation (https://docs.github.com/en/copilot/how-tos/copilot-cli/customize-copilot/add-custom-instructions
//! and https://docs.github.com/en/copilot/how-tos/configure-custom-instructions/add-repository-instructions,
//! read 2026-12-07): the user's `~/.copilot/copilot-instructions.md`, the single `CLAUDE.md`
//! or `GEMINI.md` the repository's root may hold instead, then in each directory from the
//! repository's root down to the working directory its `.github/copilot-instructions.md` and
//! `AGENTS.md`, and the root's `.github/instructions` by their `applyTo`.

use std::path::Path;

use super::documented::Documented;
use super::home;
use crate::options::Options;
use crate::rules::Dialect;

pub(super) fn documented(project: &Path, options: &Options) -> Documented {
    let user = home(options).map(|home| home.join(".copilot").join("copilot-instructions.md"));
    let root_only = ["CLAUDE.md", "GEMINI.md"].map(|name| project.join(name));
    Documented {
        names: &[".github/copilot-instructions.md", "AGENTS.md"],
        all_names: true,
        imports: false,
        rules: Some((Dialect::Copilot, ".github/instructions")),
        extra: user.into_iter().chain(root_only).collect(),
        root: Some(project.to_path_buf()),
    }
}
