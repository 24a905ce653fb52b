//! Cursor, from its documentation (https://cursor.com/docs/rules, read 2026-12-07): the
//! project's legacy `.cursorrules`, then each directory's `AGENTS.md` from the project down to
//! the working directory, each with the rules of its `.cursor/rules` (nested rule directories
//! apply to their folder). User and team rules live in Cursor's settings, not in files.

use std::path::Path;

use super::documented::Documented;
use crate::rules::Dialect;

pub(super) fn documented(project: &Path) -> Documented {
    Documented {
        names: &["AGENTS.md"],
        all_names: false,
        imports: false,
        rules: Some((Dialect::Cursor, ".cursor/rules")),
        extra: vec![project.join(".cursorrules")],
        root: Some(project.to_path_buf()),
    }
}
