//! The presets' names (SPEC §12): which products there are, what each is called, and the
//! version of it each reproduces; what each loads is the module's.

/// A product whose loading a chain reproduces (SPEC §12), byte for byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Preset {
    /// OpenAI's Codex CLI, openai/codex at 0cf644af (`codex-rs/core/src/agents_md.rs`).
    Codex,
    /// opencode, anomalyco/opencode at 00b964bd (`packages/opencode/src/session/instruction.ts`).
    Opencode,
    /// pi, npm `@mariozechner/pi-coding-agent` 0.73.1 (`loadProjectContextFiles`).
    Pi,
    /// Goose, block/goose at 0086ae65 (`crates/goose/src/hints/load_hints.rs`).
    Goose,
    /// Zed, release v1.21.0 (`crates/prompt_store/src/prompts.rs`).
    Zed,
    /// Gemini CLI, npm `@google/gemini-cli-core` 0.61.0 (`MemoryContextManager.refresh`).
    GeminiCli,
    /// Claude Code, from its documentation (a closed product): its memory files, rendered as
    /// SPEC §2 renders a chain.
    ClaudeCode,
    /// Cline, cline/cline at 21cb8d2 (the VS Code extension's rules, read by its SDK's
    /// user-instruction watcher).
    Cline,
    /// Roo Code, RooCodeInc/Roo-Code at cb83656
    /// (`src/core/prompts/sections/custom-instructions.ts`).
    RooCode,
    /// Cursor, from its documentation (a closed product).
    Cursor,
    /// GitHub Copilot, from its documentation (a closed product).
    Copilot,
    /// Windsurf, from its documentation (a closed product).
    Windsurf,
    /// Amp, from its manual (a closed product).
    Amp,
}

impl Preset {
    /// Every preset, in the order `agentsmd --as list` prints them.
    pub const ALL: [Preset; 13] = [
        Preset::Codex,
        Preset::Opencode,
        Preset::Pi,
        Preset::Goose,
        Preset::Zed,
        Preset::GeminiCli,
        Preset::ClaudeCode,
        Preset::Cline,
        Preset::RooCode,
        Preset::Cursor,
        Preset::Copilot,
        Preset::Windsurf,
        Preset::Amp,
    ];

    /// The preset named `name` (`codex`, `opencode`, `pi`, `goose`, `zed`, `gemini`, `claude`, `cline`,
    /// `roo`, `cursor`, `copilot`, `windsurf`, `amp`).
    ///
    /// ```
    /// use agentsmd_core::Preset;
    /// assert_eq!(Preset::from_name("codex"), Some(Preset::Codex));
    /// assert_eq!(Preset::from_name("Codex"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|preset| preset.as_str() == name)
    }

    /// The preset's name, as [`Preset::from_name`] takes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Preset::Codex => "codex",
            Preset::Opencode => "opencode",
            Preset::Pi => "pi",
            Preset::Goose => "goose",
            Preset::Zed => "zed",
            Preset::GeminiCli => "gemini",
            Preset::ClaudeCode => "claude",
            Preset::Cline => "cline",
            Preset::RooCode => "roo",
            Preset::Cursor => "cursor",
            Preset::Copilot => "copilot",
            Preset::Windsurf => "windsurf",
            Preset::Amp => "amp",
        }
    }

    /// The product and the version of it the preset reproduces.
    pub fn product(self) -> &'static str {
        match self {
            Preset::Codex => "Codex CLI, openai/codex at 0cf644af",
            Preset::Opencode => "opencode, anomalyco/opencode at 00b964bd",
            Preset::Pi => "pi, @mariozechner/pi-coding-agent 0.73.1",
            Preset::Goose => "Goose, block/goose at 0086ae65",
            Preset::Zed => "Zed v1.21.0",
            Preset::GeminiCli => "Gemini CLI, @google/gemini-cli-core 0.61.0",
            Preset::ClaudeCode => "Claude Code, code.claude.com/docs/en/memory read 2026-12-07",
            Preset::Cline => "Cline, cline/cline at 21cb8d2",
            Preset::RooCode => "Roo Code, RooCodeInc/Roo-Code at cb83656",
            Preset::Cursor => "Cursor, cursor.com/docs/rules read 2026-12-07",
            Preset::Copilot => {
                "GitHub Copilot, docs.github.com custom instructions read 2026-12-07"
            }
            Preset::Windsurf => {
                "Windsurf, docs.windsurf.com memories and AGENTS.md read 2026-12-07"
            }
            Preset::Amp => "Amp, ampcode.com/manual read 2026-12-07",
        }
    }
}
