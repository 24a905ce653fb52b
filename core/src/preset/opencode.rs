//! opencode, anomalyco/opencode at 00b964bd: `packages/opencode/src/session/instruction.ts`
//! (`systemPaths`, `system`) with `AppFileSystem.findUp` (`packages/opencode/src/filesystem`).

use std::path::{Path, PathBuf};

use super::{config_dir, env_path, home, lossy, project_root, Loader};
use crate::chain::{File, Reason, Source};
use crate::code_regions::BOM;
use crate::error::Error;
use crate::options::Options;

/// The names opencode looks for, in order: the first found anywhere between the working
/// directory and the worktree is the one name of the whole tree.
const NAMES: [&str; 3] = ["AGENTS.md", "CLAUDE.md", "CONTEXT.md"];

/// The project files of one name (its files nearest first, then its `.local.md` files nearest
/// first), then the first group of global files that has one. Each is read as UTF-8 with its
/// BOM removed; one that cannot be read, or is empty, is left out.
pub(super) fn load(loader: &mut Loader, cwd: &Path, options: &Options) -> Result<(), Error> {
    let worktree = project_root(loader, cwd, options)?;
    let worktree = worktree.unwrap_or_else(|| PathBuf::from(std::path::MAIN_SEPARATOR_STR));
    let mut chosen: Vec<PathBuf> = Vec::new();
    for name in NAMES {
        let found = [find_up(loader, name, cwd, &worktree)?, {
            let local = name.replace(".md", ".local.md");
            find_up(loader, &local, cwd, &worktree)?
        }]
        .concat();
        match chosen.first().cloned() {
            None => chosen = found,
            // Another name found: the one name stands for it.
            Some(by) => {
                for path in found {
                    let size = loader.file_size(&path)?.unwrap_or(0);
                    loader.omit(&path, size, Reason::Shadowed, Some(&by));
                }
            }
        }
    }
    let mut globals: Vec<Vec<PathBuf>> = Vec::new();
    if options.home.is_none() {
        if let Some(dir) = env_path("OPENCODE_CONFIG_DIR") {
            globals.push(vec![dir.join("AGENTS.md"), dir.join("AGENTS.local.md")]);
        }
    }
    let config = config_dir(options);
    if let Some(config) = config.map(|config| config.join("opencode")) {
        globals.push(vec![
            config.join("AGENTS.md"),
            config.join("AGENTS.local.md"),
        ]);
    }
    if let Some(claude) = home(options).map(|home| home.join(".claude")) {
        globals.push(vec![
            claude.join("CLAUDE.md"),
            claude.join("CLAUDE.local.md"),
        ]);
    }
    let mut global: Vec<PathBuf> = Vec::new();
    for group in globals {
        let mut found = Vec::new();
        for path in group {
            if loader.exists(&path)? {
                found.push(path);
            }
        }
        match global.first().cloned() {
            None => global = found,
            Some(by) => {
                for path in found {
                    let size = loader.file_size(&path)?.unwrap_or(0);
                    loader.omit(&path, size, Reason::Shadowed, Some(&by));
                }
            }
        }
    }
    let mut given: Vec<PathBuf> = Vec::new();
    let chosen = chosen.into_iter().map(|path| (path, Source::Chain));
    for (path, source) in chosen.chain(global.into_iter().map(|path| (path, Source::Extra))) {
        if given.contains(&path) {
            continue;
        }
        given.push(path.clone());
        // A name that is no regular file reads as nothing, as one that is empty.
        let size = loader.file_size(&path)?;
        let content = match size {
            Some(size) => loader.read(&path, size)?,
            None => Vec::new(),
        };
        let content = content.strip_prefix(BOM).unwrap_or(&content);
        match content.is_empty() {
            true => loader.omit(&path, size.unwrap_or(0), Reason::Empty, None),
            false => loader.give(&path, lossy(content), source),
        }
    }
    Ok(())
}

/// `name` in `start` and each ancestor up to `stop`, nearest first, wherever something is.
fn find_up(loader: &Loader, name: &str, start: &Path, stop: &Path) -> Result<Vec<PathBuf>, Error> {
    let mut found = Vec::new();
    for dir in start.ancestors() {
        let path = dir.join(name);
        if loader.exists(&path)? {
            found.push(path);
        }
        if dir == stop {
            break;
        }
    }
    Ok(found)
}

/// `Instructions from: PATH` and each file's text, joined by `\n`.
pub(super) fn render(files: &[File]) -> Vec<u8> {
    let parts: Vec<Vec<u8>> = files
        .iter()
        .map(|file| {
            let head = format!("Instructions from: {}\n", file.path.display());
            [head.as_bytes(), &file.content].concat()
        })
        .collect();
    parts.join(&b"\n"[..])
}
