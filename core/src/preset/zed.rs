//! Zed v1.21.0: the project rules of `crates/prompt_store/src/prompts.rs` and the system
//! prompt template that shows them.

use std::path::Path;

use super::{lossy, project_names, Loader};
use crate::chain::{File, Reason, Source};
use crate::error::Error;
use crate::options::Options;

/// The names Zed looks for at a worktree's root, in order: the first regular file is its rules.
const NAMES: [&str; 9] = [
    ".rules",
    ".cursorrules",
    ".windsurfrules",
    ".clinerules",
    ".github/copilot-instructions.md",
    "AGENT.md",
    "AGENTS.md",
    "CLAUDE.md",
    "GEMINI.md",
];

/// The first of [`NAMES`] at the worktree root `root` that is a regular file, its line endings
/// made `\n` and trimmed; the others found are shadowed.
pub(super) fn load(loader: &mut Loader, root: &Path, options: &Options) -> Result<(), Error> {
    let mut standing: Option<std::path::PathBuf> = None;
    for name in project_names(options, &NAMES) {
        let path = root.join(name);
        let Some(size) = loader.file_size(&path)? else {
            continue;
        };
        if let Some(by) = &standing {
            loader.omit(&path, size, Reason::Shadowed, Some(by));
            continue;
        }
        let text = lossy(&loader.read(&path, size)?);
        let text = text.replace("\r\n", "\n").replace('\r', "\n");
        loader.give(&path, text.trim(), Source::Chain);
        standing = Some(path);
    }
    Ok(())
}

/// The rules under `There are project rules that apply to these root directories:`, named
/// `WORKTREE/NAME`, in a fence of six backticks; nothing without a file.
pub(super) fn render(files: &[File], root: &Path) -> Vec<u8> {
    let Some(file) = files.first() else {
        return Vec::new();
    };
    let worktree = root
        .file_name()
        .unwrap_or(root.as_os_str())
        .to_string_lossy();
    let name = file.path.strip_prefix(root).unwrap_or(&file.path);
    let name = name.to_string_lossy().replace('\\', "/");
    let head = format!(
        "There are project rules that apply to these root directories:\n`{worktree}/{name}`:\n``````\n"
    );
    [head.as_bytes(), &file.content, b"\n``````\n"].concat()
}
