//! Rule directories (SPEC §11): instruction files scoped by globs, in each product's dialect.

mod glob;

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
    /// Whether a pattern that does not begin with `/` or `**/` matches at any depth, as VS Code
    /// reads one: `**/` is put before it.
    fn matches_at_any_depth(self) -> bool {
        matches!(
            self,
            Dialect::Copilot | Dialect::Cursor | Dialect::Windsurf | Dialect::Kiro
        )
    }
}
