//! Goose, block/goose at 0086ae65: `crates/goose/src/hints/load_hints.rs` (`load_hint_files`,
//! `find_git_root`, `get_local_directories`) with its default names.

use std::path::Path;

use super::{env_path, home, Loader};
use crate::chain::{File, Reason, Source};
use crate::error::Error;
use crate::options::Options;

/// The hints files Goose reads by default, every one of each directory, in this order.
const NAMES: [&str; 2] = [".goosehints", "AGENTS.md"];

const GLOBAL_HEAD: &str = "\n### Global Hints\nThese are my global goose hints.\n";
const PROJECT_HEAD: &str =
    "### Project Hints\nThese are hints for working on the project in this directory.\n";

/// Each name in Goose's configuration directory (`~/.config/goose`), then each name of each
/// directory from the git root (the nearest ancestor holding `.git`) down to `cwd`, or of `cwd`
/// alone; each read as it is, one that is not UTF-8 or is empty left out.
pub(super) fn load(loader: &mut Loader, cwd: &Path, options: &Options) -> Result<(), Error> {
    let config = match options
        .home
        .is_none()
        .then(|| env_path("XDG_CONFIG_HOME"))
        .flatten()
    {
        Some(config) => Some(config),
        None => home(options).map(|home| home.join(".config")),
    };
    if let Some(dir) = config.map(|config| config.join("goose")) {
        for name in NAMES {
            hint(loader, &dir.join(name), Source::Extra)?;
        }
    }
    let root = match &options.root {
        Some(root) => Some(crate::path::absolute(root)?),
        None => {
            let mut found = None;
            for dir in cwd.ancestors() {
                if loader.exists(&dir.join(".git"))? {
                    found = Some(dir.to_path_buf());
                    break;
                }
            }
            found
        }
    };
    let mut dirs = Vec::new();
    for dir in cwd.ancestors() {
        dirs.push(dir);
        if root.as_deref().is_none_or(|root| dir == root) {
            break;
        }
    }
    for dir in dirs.into_iter().rev() {
        for name in NAMES {
            hint(loader, &dir.join(name), Source::Chain)?;
        }
    }
    Ok(())
}

/// The hints file `path` of `source`, when it is a regular file that reads as UTF-8 and is
/// not empty.
fn hint(loader: &mut Loader, path: &Path, source: Source) -> Result<(), Error> {
    let Some(size) = loader.file_size(path)? else {
        return Ok(());
    };
    let content = loader.read(path, size)?;
    match std::str::from_utf8(&content) {
        Ok(text) if !text.is_empty() => loader.give(path, content, source),
        _ => loader.omit(path, size, Reason::Empty, None),
    }
    Ok(())
}

/// The global hints under their heading, then the project hints under theirs.
pub(super) fn render(files: &[File]) -> Vec<u8> {
    let texts = |source| {
        let parts: Vec<&[u8]> = files
            .iter()
            .filter(|file| file.source == source)
            .map(|file| &file.content[..])
            .collect();
        parts.join(&b"\n"[..])
    };
    let (global, project) = (texts(Source::Extra), texts(Source::Chain));
    let mut out = Vec::new();
    if files.iter().any(|file| file.source == Source::Extra) {
        out.extend_from_slice(GLOBAL_HEAD.as_bytes());
        out.extend_from_slice(&global);
    }
    if files.iter().any(|file| file.source == Source::Chain) {
        if !out.is_empty() {
            out.extend_from_slice(b"\n\n");
        }
        out.extend_from_slice(PROJECT_HEAD.as_bytes());
        out.extend_from_slice(&project);
    }
    out
}
