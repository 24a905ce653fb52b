//! Rule directories (SPEC §11): instruction files scoped by globs, in each product's dialect.
//! The table of §11 is here ([`Dialect`]); how a rule file reads is in `rule.rs`, its globs in
//! `glob.rs`, and where the walk meets them in the chain's `rule_dir.rs`.

mod glob;
mod rule;

use std::path::PathBuf;

pub(crate) use glob::Pattern;
pub(crate) use rule::{Applies, Rule};

use crate::error::Error;
use crate::path;

/// How a rule directory's files read (SPEC §11's table): which product writes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Dialect {
    /// Claude Code's `.claude/rules/`: `paths`.
    Claude,
    /// Cursor's `.cursor/rules/`: `globs`, `alwaysApply`, `description`.
    Cursor,
    /// GitHub Copilot's `.github/instructions/`: `applyTo`.
    Copilot,
    /// Windsurf's `.windsurf/rules/`: `trigger`, `globs`, `description`.
    Windsurf,
    /// Kiro's `.kiro/steering/`: `inclusion`, `fileMatchPattern`, `description`.
    Kiro,
    /// Cline's `.clinerules/`: `paths`.
    Cline,
}

impl Dialect {
    /// Every dialect, in the order of SPEC §11's table.
    pub const ALL: [Dialect; 6] = [
        Dialect::Claude,
        Dialect::Cursor,
        Dialect::Copilot,
        Dialect::Windsurf,
        Dialect::Kiro,
        Dialect::Cline,
    ];

    /// The dialect named `name` (`claude`, `cursor`, `copilot`, `windsurf`, `kiro`, `cline`).
    ///
    /// ```
    /// use agentsmd_core::Dialect;
    /// assert_eq!(Dialect::from_name("cursor"), Some(Dialect::Cursor));
    /// assert_eq!(Dialect::from_name("Cursor"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|dialect| dialect.as_str() == name)
    }

    /// The dialect's name, as [`Dialect::from_name`] takes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::Claude => "claude",
            Dialect::Cursor => "cursor",
            Dialect::Copilot => "copilot",
            Dialect::Windsurf => "windsurf",
            Dialect::Kiro => "kiro",
            Dialect::Cline => "cline",
        }
    }

    /// Whether its rule directory is looked up in each directory of the walk, not at the root
    /// alone.
    pub(crate) fn in_each_directory(self) -> bool {
        matches!(self, Dialect::Cursor | Dialect::Windsurf)
    }

    /// The endings of the names of its rule files.
    pub(crate) fn suffixes(self) -> &'static [&'static str] {
        match self {
            Dialect::Cursor => &[".mdc", ".md"],
            Dialect::Copilot => &[".instructions.md"],
            Dialect::Cline => &[".md", ".txt"],
            Dialect::Claude | Dialect::Windsurf | Dialect::Kiro => &[".md"],
        }
    }

    /// Whether a pattern that does not begin with `/` or `**/` matches at any depth, as VS Code
    /// reads one: `**/` is put before it.
    fn matches_at_any_depth(self) -> bool {
        matches!(
            self,
            Dialect::Copilot | Dialect::Cursor | Dialect::Windsurf | Dialect::Kiro
        )
    }
}

/// A rule directory of [`Options::rules`](crate::Options::rules): where it is below a directory
/// (the root, or each directory of the walk, as its dialect says) and how its files read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleDir {
    /// How its files read.
    pub dialect: Dialect,
    /// One or more `/`-separated path elements (`.cursor/rules`), checked as a fragment
    /// directory's are when a chain starts.
    pub dir: Vec<u8>,
}

impl RuleDir {
    /// The rule directory `dir` of `dialect`.
    ///
    /// ```
    /// use agentsmd_core::{Dialect, Options, RuleDir};
    /// let dir = tempfile::tempdir()?;
    /// std::fs::create_dir_all(dir.path().join(".cursor/rules"))?;
    /// std::fs::write(dir.path().join(".cursor/rules/go.mdc"), "---\nglobs: **/*.go\n---\nGo.\n")?;
    /// let options = Options::new()
    ///     .root(dir.path())
    ///     .rules(vec![RuleDir::new(Dialect::Cursor, ".cursor/rules")]);
    /// let chain = agentsmd_core::chain(dir.path().join("cmd/main.go"), &options)?;
    /// assert_eq!(chain.files[0].content, b"Go.\n");
    /// assert!(agentsmd_core::chain(dir.path().join("README"), &options)?.files.is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(dialect: Dialect, dir: impl Into<Vec<u8>>) -> Self {
        Self {
            dialect,
            dir: dir.into(),
        }
    }

    /// The rule directory `DIALECT:DIR`, as the CLI's `--rules` takes it.
    pub fn parse(text: &[u8]) -> Result<Self, Error> {
        let colon = text.iter().position(|&b| b == b':');
        let (dialect, dir) = match colon {
            Some(colon) => (&text[..colon], &text[colon + 1..]),
            None => return Err(Error::invalid_argument("not DIALECT:DIR")),
        };
        let dialect = std::str::from_utf8(dialect)
            .ok()
            .and_then(Dialect::from_name);
        let Some(dialect) = dialect else {
            let names = Dialect::ALL.map(Dialect::as_str).join(", ");
            let message = format!("the dialect is none of {names}");
            return Err(Error::invalid_argument(message));
        };
        path::check_rule_dir(dir)?;
        Ok(Self::new(dialect, dir))
    }
}

/// A rule that applies only on request (SPEC §11 "On request"), which a product can offer the
/// model or the user, and give with [`Options::extra`](crate::Options::extra).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Available {
    /// The rule file's path.
    pub path: PathBuf,
    /// Its file name without the dialect's suffix.
    pub name: String,
    /// Its front matter's `description`; empty when it has none.
    pub description: String,
}
