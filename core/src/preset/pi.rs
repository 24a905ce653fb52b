//! pi, npm `@mariozechner/pi-coding-agent` 0.73.1: `loadProjectContextFiles`
//! (`dist/core/resource-loader.js`) and the project context `buildSystemPrompt` appends
//! (`dist/core/system-prompt.js`).

use std::path::{Path, PathBuf};

use super::{home, lossy, product_dir, project_names, Loader};
use crate::chain::{File, Reason, Source};
use crate::error::{Error, ErrorKind};
use crate::options::Options;

/// The names of each directory, in order: the first that can be read stands for it.
const NAMES: [&str; 4] = ["AGENTS.md", "AGENTS.MD", "CLAUDE.md", "CLAUDE.MD"];

/// The agent directory's file (`$PI_CODING_AGENT_DIR`, else `~/.pi/agent`), then one file of
/// `cwd` and of each ancestor up to `/` (no repository stops it), farthest first, a path taken
/// already skipped; each read as UTF-8, its BOM kept, an empty one kept.
pub(super) fn load(loader: &mut Loader, cwd: &Path, options: &Options) -> Result<(), Error> {
    let mut taken: Vec<(PathBuf, Vec<u8>, Source)> = Vec::new();
    // The agent directory's names are pi's own; the project's may be given.
    let global: Vec<String> = NAMES.iter().map(|name| name.to_string()).collect();
    if let Some(dir) = agent_dir(options) {
        if let Some((path, text)) = in_dir(loader, &dir, &global)? {
            taken.push((path, text, Source::Extra));
        }
    }
    let mut above = Vec::new();
    let names = project_names(options, &NAMES);
    for dir in cwd.ancestors() {
        if let Some((path, text)) = in_dir(loader, dir, &names)? {
            if !taken.iter().any(|(taken, ..)| *taken == path) {
                above.push((path, text, Source::Chain));
            }
        }
    }
    for (path, text, source) in taken.into_iter().chain(above.into_iter().rev()) {
        loader.give(&path, lossy(&text), source);
    }
    Ok(())
}

/// pi's agent directory: `$PI_CODING_AGENT_DIR`, a leading `~` the home directory
/// (`getAgentDir`, `expandTildePath`), else `~/.pi/agent`.
fn agent_dir(options: &Options) -> Option<PathBuf> {
    let dir = product_dir(options, Some("PI_CODING_AGENT_DIR"), ".pi/agent")?;
    let expanded = match dir.to_str() {
        Some("~") => home(options),
        Some(text) => match text.strip_prefix("~/") {
            Some(rest) => home(options).map(|home| home.join(rest)),
            None => Some(dir),
        },
        None => Some(dir),
    };
    expanded
}

/// The file standing for `dir` and its bytes: the first of [`NAMES`] that is a regular file
/// pi can read (it skips, with a warning of its own, one it cannot); the others shadowed.
fn in_dir(
    loader: &mut Loader,
    dir: &Path,
    names: &[String],
) -> Result<Option<(PathBuf, Vec<u8>)>, Error> {
    let mut standing: Option<(PathBuf, Vec<u8>)> = None;
    let mut found = Vec::new();
    for name in names {
        let path = dir.join(name);
        let Some(size) = loader.file_size(&path)? else {
            continue;
        };
        // Another spelling of a name found already is no other file where it is not listed.
        let spelling = found
            .iter()
            .any(|other: &PathBuf| other.as_os_str().eq_ignore_ascii_case(path.as_os_str()));
        if spelling && !loader.is_listed(&path)? {
            continue;
        }
        found.push(path.clone());
        if let Some((by, _)) = &standing {
            let by = by.clone();
            loader.omit(&path, size, Reason::Shadowed, Some(&by));
            continue;
        }
        match loader.read(&path, size) {
            Ok(text) => standing = Some((path, text)),
            Err(error) if error.kind() == ErrorKind::Io => {}
            Err(error) => return Err(error),
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
