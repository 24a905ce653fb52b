//! Codex CLI, openai/codex at 0cf644af: `codex-rs/core/src/agents_md.rs` (`read_agents_md`,
//! `agents_md_paths`, `LoadedAgentsMd::legacy_text`) and the wrapper of its user instructions.

use std::path::Path;

use super::{lossy, product_dir, project_names, project_root, root_down, Loader};
use crate::chain::{File, Reason, Source};
use crate::error::Error;
use crate::options::Options;

/// The names of each directory, in order: the first that is a regular file stands for it.
const NAMES: [&str; 2] = ["AGENTS.override.md", "AGENTS.md"];

/// `project_doc_max_bytes`' default: the project files' budget, spent root first.
const PROJECT_DOC_MAX_BYTES: u64 = 32 * 1024;

/// Put between the global text and the first project file.
const SEPARATOR: &str = "\n\n--- project-doc ---\n\n";

/// The global file (`$CODEX_HOME` or `~/.codex`: the first of [`NAMES`] whose trimmed text is
/// not empty, trimmed, outside the budget), then the project files from the root (the nearest
/// ancestor holding anything named `.git`, else the working directory alone) down to `cwd`.
pub(super) fn load(loader: &mut Loader, cwd: &Path, options: &Options) -> Result<(), Error> {
    if let Some(home) = product_dir(options, Some("CODEX_HOME"), ".codex") {
        let mut standing: Option<std::path::PathBuf> = None;
        for name in NAMES {
            let path = home.join(name);
            let Some(size) = loader.file_size(&path)? else {
                continue;
            };
            if let Some(by) = &standing {
                loader.omit(&path, size, Reason::Shadowed, Some(by));
                continue;
            }
            let text = lossy(&loader.read(&path, size)?);
            match text.trim() {
                "" => loader.omit(&path, size, Reason::Empty, None),
                trimmed => {
                    loader.give(&path, trimmed, Source::Extra);
                    standing = Some(path);
                }
            }
        }
    }
    let root = project_root(loader, cwd, options)?;
    let names = project_names(options, &NAMES);
    // Each directory's standing file, its other names shadowed.
    let mut found = Vec::new();
    for dir in root_down(cwd, root.as_deref()) {
        let mut standing: Option<std::path::PathBuf> = None;
        for name in &names {
            let path = dir.join(name);
            let Some(size) = loader.file_size(&path)? else {
                continue;
            };
            match &standing {
                Some(by) => loader.omit(&path, size, Reason::Shadowed, Some(by)),
                None => {
                    found.push((path.clone(), size));
                    standing = Some(path);
                }
            }
        }
    }
    let mut remaining = PROJECT_DOC_MAX_BYTES;
    for (path, size) in found {
        if remaining == 0 {
            loader.omit(&path, size, Reason::OverBudget, None);
            continue;
        }
        // Codex reads the whole file and cuts it to what remains: only that much is read here.
        let data = loader.read_start(&path, size, remaining)?;
        let cut = size.saturating_sub(data.len() as u64);
        let text = lossy(&data);
        if text.trim().is_empty() {
            // Dropped, and nothing charged for it.
            loader.omit(&path, size, Reason::Empty, None);
            continue;
        }
        remaining -= data.len() as u64;
        loader.give(&path, text, Source::Chain);
        if cut > 0 && remaining == 0 {
            loader.omit(&path, cut, Reason::Truncated, None);
        }
    }
    Ok(())
}

/// `# AGENTS.md instructions for CWD`, then the global text and the project files, the first
/// project file after `--- project-doc ---`, in `<INSTRUCTIONS>`; nothing without a file.
pub(super) fn render(files: &[File], cwd: &Path) -> Vec<u8> {
    if files.is_empty() {
        return Vec::new();
    }
    let mut text = Vec::new();
    let mut previous_was_project: Option<bool> = None;
    for file in files {
        let is_project = file.source == Source::Chain;
        if let Some(previous_was_project) = previous_was_project {
            let separator = match is_project && !previous_was_project {
                true => SEPARATOR,
                false => "\n\n",
            };
            text.extend_from_slice(separator.as_bytes());
        }
        text.extend_from_slice(&file.content);
        previous_was_project = Some(is_project);
    }
    let head = format!(
        "# AGENTS.md instructions for {}\n\n<INSTRUCTIONS>\n",
        cwd.display()
    );
    [head.as_bytes(), &text, b"\n</INSTRUCTIONS>"].concat()
}
