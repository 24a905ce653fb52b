//! pi, npm `@mariozechner/pi-coding-agent` 0.73.1: `loadProjectContextFiles`
//! (`dist/core/resource-loader.js`) and the project context `buildSystemPrompt` appends
//! (`dist/core/system-prompt.js`).

use std::path::{Path, PathBuf};

use super::{lossy, product_dir, Loader};
use crate::chain::{File, Reason, Source};
use crate::error::Error;
use crate::options::Options;

/// The names of each directory, in order: the first that can be read stands for it.
const NAMES: [&str; 4] = ["AGENTS.md", "AGENTS.MD", "CLAUDE.md", "CLAUDE.MD"];

/// The agent directory's file (`$PI_CODING_AGENT_DIR`, else `~/.pi/agent`), then one file of
/// `cwd` and of each ancestor up to `/` (no repository stops it), farthest first, a path taken
/// already skipped; each read as UTF-8, its BOM kept, an empty one kept.
pub(super) fn load(loader: &mut Loader, cwd: &Path, options: &Options) -> Result<(), Error> {
    let mut taken = Vec::new();
    if let Some(dir) = product_dir(options, Some("PI_CODING_AGENT_DIR"), ".pi/agent") {
        if let Some(file) = in_dir(loader, &dir)? {
            taken.push((file, Source::Extra));
        }
    }
    let mut above = Vec::new();
    for dir in cwd.ancestors() {
        if let Some(file) = in_dir(loader, dir)? {
            if !taken.iter().any(|((path, _), _)| *path == file.0) {
                above.push((file, Source::Chain));
            }
        }
    }
    for ((path, size), source) in taken.into_iter().chain(above.into_iter().rev()) {
        let text = lossy(&loader.read(&path, size)?);
        loader.give(&path, text, source);
    }
    Ok(())
}

/// The file standing for `dir`, with its size: the first of [`NAMES`] that is a regular file
/// (pi skips, with a warning of its own, one it cannot read); the others shadowed.
fn in_dir(loader: &mut Loader, dir: &Path) -> Result<Option<(PathBuf, u64)>, Error> {
    let mut standing: Option<(PathBuf, u64)> = None;
    for name in NAMES {
        let path = dir.join(name);
        let Some(size) = loader.file_size(&path)? else {
            continue;
        };
        match &standing {
            Some((by, _)) => {
                let by = by.clone();
                loader.omit(&path, size, Reason::Shadowed, Some(&by));
            }
            None => standing = Some((path, size)),
        }
    }
    Ok(standing)
}

/// `# Project Context` and each file as `## PATH` and its content; nothing without a file.
pub(super) fn render(files: &[File]) -> Vec<u8> {
    if files.is_empty() {
        return Vec::new();
    }
    let mut out =
        b"\n\n# Project Context\n\nProject-specific instructions and guidelines:\n\n".to_vec();
    for file in files {
        out.extend_from_slice(b"## ");
        out.extend_from_slice(crate::path::bytes(&file.path));
        out.extend_from_slice(b"\n\n");
        out.extend_from_slice(&file.content);
        out.extend_from_slice(b"\n\n");
    }
    out
}
