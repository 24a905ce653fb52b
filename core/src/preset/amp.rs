//! Amp, from its manual (https://ampcode.com/manual#AGENTS.md, read 2026-12-07): the user's
//! `~/.config/amp/AGENTS.md` and `~/.config/AGENTS.md`, then in the working directory and
//! each parent up to the home directory its `AGENTS.md`, else its `AGENT.md`, else its
//! `CLAUDE.md`, with the files they `@`-mention. The manual gives no order; these come as SPEC
//! §2 orders a chain, the farthest first.

use std::path::Path;

use super::documented::Documented;
use super::{home, is_within};
use crate::options::Options;

pub(super) fn documented(cwd: &Path, options: &Options) -> Documented {
    let home = home(options);
    let config = home.as_ref().map(|home| home.join(".config"));
    let user = config.map(|config| {
        [
            config.join("amp").join("AGENTS.md"),
            config.join("AGENTS.md"),
        ]
    });
    Documented {
        names: &["AGENTS.md", "AGENT.md", "CLAUDE.md"],
        all_names: false,
        imports: true,
        rules: None,
        extra: user.into_iter().flatten().collect(),
        // Up to the home directory; from a working directory elsewhere, up to the root.
        root: home.filter(|home| is_within(cwd, home)),
    }
}
