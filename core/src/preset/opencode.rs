//! opencode, anomalyco/opencode at 00b964bd: `packages/opencode/src/session/instruction.ts`
//! (`systemPaths`, `system`) with `AppFileSystem.findUp` (`packages/opencode/src/filesystem`).

use std::path::{Path, PathBuf};

use super::{config_dir, env_path, home, lossy, project_names, project_root, Loaded, Loader};
use crate::chain::{File, Reason, Source};
use crate::code_regions::BOM;
use crate::error::Error;
use crate::options::Options;
use crate::path;

/// The names opencode looks for, in order: the first found anywhere between the working
/// directory and the worktree is the one name of the whole tree.
const NAMES: [&str; 3] = ["AGENTS.md", "CLAUDE.md", "CONTEXT.md"];

/// The project files of one name (its files nearest first, then its `.local.md` files nearest
/// first), then the first group of global files that has one. Each is read as UTF-8 with its
/// BOM removed; one that cannot be read, or is empty, is left out.
pub(super) fn load(loader: &mut Loader, cwd: &Path, options: &Options) -> Result<(), Error> {
    let mut given: Vec<PathBuf> = Vec::new();
    for (path, source) in system(loader, cwd, options)? {
        if given.contains(&path) {
            continue;
        }
        given.push(path.clone());
        let (size, content) = read(loader, &path)?;
        match content.is_empty() {
            true => loader.omit(&path, size, Reason::Empty, None),
            false => loader.give(&path, lossy(&content), source),
        }
    }
    Ok(())
}

/// The system prompt's files (`systemPaths`): the project files of the one name, then the first
/// group of global files that has one; the files of the other names reported `Shadowed`.
fn system(
    loader: &mut Loader,
    cwd: &Path,
    options: &Options,
) -> Result<Vec<(PathBuf, Source)>, Error> {
    let worktree = project_root(loader, cwd, options)?;
    let worktree = worktree.unwrap_or_else(|| PathBuf::from(std::path::MAIN_SEPARATOR_STR));
    let mut chosen: Vec<PathBuf> = Vec::new();
    for name in project_names(options, &NAMES) {
        let mut found = find_up(loader, &name, cwd, &worktree)?;
        if let Some(local) = local(&name) {
            found.extend(find_up(loader, &local, cwd, &worktree)?);
        }
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
    let chosen = chosen.into_iter().map(|path| (path, Source::Chain));
    Ok(chosen
        .chain(global.into_iter().map(|path| (path, Source::Extra)))
        .collect())
}

/// The size and text of `path` as the product reads an instruction file: UTF-8 with its BOM
/// removed; a name that is no regular file reads as nothing, as one that is empty.
fn read(loader: &Loader, path: &Path) -> Result<(u64, Vec<u8>), Error> {
    let size = loader.file_size(path)?;
    let content = match size {
        Some(size) => loader.read(path, size)?,
        None => Vec::new(),
    };
    let content = content.strip_prefix(BOM).unwrap_or(&content).to_vec();
    Ok((size.unwrap_or(0), content))
}

/// Loads the instruction files the read tool attaches when its agent reads `target` (absolute
/// and clean), as `Instruction.resolve` finds them: in each directory from the file's up to,
/// not including, the directory opencode runs in (a string prefix, as the product compares: a
/// sibling whose name begins with that directory's is walked too), the files of the first of
/// its names that directory has (that name's file, then its `.local.md`), nearest first;
/// skipping the file read, the system prompt's files and those an earlier read attached. An
/// empty one is skipped and not marked attached.
pub(super) fn read_touch(
    loader: &mut Loader,
    loaded: &mut Loaded,
    target: &Path,
    options: &Options,
) -> Result<(), Error> {
    // Recomputed at each read, as the product does, with what it says left unsaid here.
    let system = system(&mut Loader::new(options), &loaded.cwd, options)?;
    let names = project_names(options, &NAMES);
    let root = path::bytes(&loaded.cwd).to_vec();
    let mut current = target.parent();
    while let Some(dir) = current.filter(|dir| path::bytes(dir).starts_with(&root)) {
        if dir == loaded.cwd {
            break;
        }
        for found in find(loader, dir, &names)? {
            let attached = loaded.attached.contains(&found);
            if found == target || attached || system.iter().any(|(path, _)| *path == found) {
                continue;
            }
            let (size, content) = read(loader, &found)?;
            if content.is_empty() {
                loader.omit(&found, size, Reason::Empty, None);
                continue;
            }
            loaded.attached.insert(found.clone());
            loader.give(&found, lossy(&content), Source::Chain);
        }
        current = dir.parent();
    }
    Ok(())
}

/// The files of the first of `names` that `dir` has: the name's file, then its `.local.md`.
fn find(loader: &Loader, dir: &Path, names: &[String]) -> Result<Vec<PathBuf>, Error> {
    for name in names {
        let mut found = Vec::new();
        let local = local(name).map(|local| dir.join(local));
        for path in std::iter::once(dir.join(name)).chain(local) {
            if loader.exists(&path)? {
                found.push(path);
            }
        }
        if !found.is_empty() {
            return Ok(found);
        }
    }
    Ok(Vec::new())
}

/// The local variant of the name `name`: `AGENTS.local.md` of `AGENTS.md`.
fn local(name: &str) -> Option<String> {
    name.strip_suffix(".md")
        .map(|stem| format!("{stem}.local.md"))
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
    let parts: Vec<Vec<u8>> = files.iter().map(item).collect();
    parts.join(&b"\n"[..])
}

/// What the read tool adds to its output for the files a read attached: each `Instructions from:
/// PATH` and its text, joined by a blank line, inside `<system-reminder>`; empty without a file.
pub(super) fn render_touch(files: &[File]) -> Vec<u8> {
    if files.is_empty() {
        return Vec::new();
    }
    let items: Vec<Vec<u8>> = files.iter().map(item).collect();
    [
        &b"\n\n<system-reminder>\n"[..],
        &items.join(&b"\n\n"[..]),
        b"\n</system-reminder>",
    ]
    .concat()
}

/// `Instructions from: PATH`, a newline and the file's text.
fn item(file: &File) -> Vec<u8> {
    let head = format!("Instructions from: {}\n", file.path.display());
    [head.as_bytes(), &file.content].concat()
}
