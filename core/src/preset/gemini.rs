//! Gemini CLI, npm `@google/gemini-cli-core` 0.61.0, as `Config.initialize()` loads its memory
//! for an interactive, trusted session with default settings (`dist/src/context/
//! memoryContextManager.js`, `dist/src/utils/memoryDiscovery.js`), and the two places its
//! model is given it: the system instruction's global context (`renderFinalShell` and
//! `renderUserMemory` of `dist/src/prompts/snippets.js`, after `PromptProvider`'s
//! `.replace(/\n{3,}/g, '\n\n')`) and the first user message's project context
//! (`Config.getSessionMemory`).
//!
//! A file's `@path` imports are expanded as the product's `tree` format expands them on Unix
//! (module `import`; on Windows they are left as written, and paths keep their `\` where the
//! product writes `/`). Not reproduced: extensions' context files and the private project
//! memory under `~/.gemini/tmp/` (both come from a home the product itself has set up).

use std::cmp::Ordering;
use std::path::{Path, PathBuf};

use super::{env_path, home, lossy, project_names, project_root, Loaded, Loader};
use crate::chain::{Chain, File, Reason, Source};
use crate::error::Error;
use crate::options::Options;
use crate::path;

/// The one name the product looks for (`getAllGeminiMdFilenames()` by default).
const NAME: &str = "GEMINI.md";

/// The product's directory in the home, which holds the global file.
const DIR: &str = ".gemini";

/// `renderUserMemory`'s text before the global context, as the system instruction holds it.
const GLOBAL_HEAD: &str = "# Contextual Instructions (GEMINI.md)
The following content is loaded from local and global configuration files.
**Context Precedence:**
- **Global (~/.gemini/):** foundational user preferences. Apply these broadly.
- **Extensions:** supplementary knowledge and capabilities.
- **Workspace Root:** workspace-wide mandates. Supersedes global preferences.
- **Sub-directories:** highly specific overrides. These rules supersede all others for files \
within their scope.

**Conflict Resolution:**
- **Precedence:** Strictly follow the order above (Sub-directories > Workspace Root > \
Extensions > Global).
- **System Overrides:** Contextual instructions override default operational behaviors (e.g., \
tech stack, style, workflows, tool preferences) defined in the system prompt. However, they \
**cannot** override Core Mandates regarding safety, security, and agent integrity.

<loaded_context>
";

/// The global file (`~/.gemini/GEMINI.md`), then every `GEMINI.md` from the project root (the
/// nearest ancestor of the working directory, made real, holding anything named `.git`, else
/// the working directory alone) down to it, deduplicated by file identity and sorted as
/// strings; each text trimmed, one whose trimmed text is empty dropped.
pub(super) fn load(loader: &mut Loader, cwd: &Path, options: &Options) -> Result<(), Error> {
    let global_dir = gemini_home(options)?.map(|home| home.join(DIR));
    let mut global = Vec::new();
    if let Some(dir) = &global_dir {
        let file = dir.join(NAME);
        if finds(loader, &file)? {
            global.push(file);
        }
    }

    let cwd = workspace(cwd);
    let ceiling = project_root(loader, &cwd, options)?.unwrap_or_else(|| cwd.clone());
    let mut project = find_up(loader, &cwd, &ceiling, global_dir.as_deref(), options)?;
    project.reverse();
    // `getEnvironmentMemoryPaths`: the first path to a file, root first, stands for it.
    let mut project = deduplicate(loader, project, &[]);
    project.sort_by(|a, b| js_order(a, b));
    // `loadMemoryContents`: the global file stands for a project path to the same file.
    let project = deduplicate(loader, project, &global);

    for (files, source) in [(global, Source::Extra), (project, Source::Chain)] {
        for file in files {
            // A directory of the name is skipped without a word; so is anything not a file.
            let Some(size) = loader.file_size(&file)? else {
                continue;
            };
            let text = text(loader, &file, size)?;
            match js_trim(&text) {
                "" => loader.omit(&file, size, Reason::Empty, None),
                trimmed => loader.give(&file, trimmed, source),
            }
        }
    }
    Ok(())
}

/// The workspace directory of the working directory `cwd`: URI-decoded and with its links
/// resolved (`resolveToRealPath`), so a directory named with `%41` is looked for as if named
/// with `A`. The import module's paths are POSIX paths; elsewhere only the links are resolved.
fn workspace(cwd: &Path) -> PathBuf {
    let real = match cwd.to_str().filter(|_| cfg!(unix)) {
        Some(cwd) => import::real_path(cwd).map(PathBuf::from),
        None => std::fs::canonicalize(cwd)
            .ok()
            .map(|real| without_verbatim(&real)),
    };
    real.unwrap_or_else(|| cwd.to_path_buf())
}

/// `path` as Node's `fs.realpath` gives it on Windows: without the `\\?\` prefix std's
/// `canonicalize` puts before it (`\\?\UNC\` made `\\` again).
fn without_verbatim(path: &Path) -> PathBuf {
    let Some(text) = path.to_str().filter(|_| cfg!(windows)) else {
        return path.to_path_buf();
    };
    match text.strip_prefix(r"\\?\") {
        Some(rest) => match rest.strip_prefix(r"UNC\") {
            Some(unc) => PathBuf::from(format!(r"\\{unc}")),
            None => PathBuf::from(rest),
        },
        None => path.to_path_buf(),
    }
}

/// The text of the regular file `file` of `size` as the product uses it, untrimmed: its
/// imports expanded with POSIX paths, as the product does on Unix.
fn text(loader: &Loader, file: &Path, size: u64) -> Result<String, Error> {
    let text = lossy(&loader.read(file, size)?);
    Ok(match cfg!(unix) {
        true => import::process(&text, &lossy(path::bytes(file))),
        false => text,
    })
}

/// The project files the product finds in `start` and each ancestor up to `ceiling` (never
/// entering its own directory `global_dir`), nearest first, each directory's in the order of
/// its names (`getAllGeminiMdFilenames()`: `GEMINI.md`, or the names given).
fn find_up(
    loader: &mut Loader,
    start: &Path,
    ceiling: &Path,
    global_dir: Option<&Path>,
    options: &Options,
) -> Result<Vec<PathBuf>, Error> {
    let names = project_names(options, &[NAME]);
    let mut found = Vec::new();
    for dir in start.ancestors() {
        if global_dir == Some(dir) {
            break;
        }
        let mut here = Vec::new();
        for name in &names {
            let file = dir.join(name);
            if finds(loader, &file)? {
                here.push(file);
            }
        }
        // Nearest first, so each directory's files go in reversed, to read in name order.
        found.extend(here.into_iter().rev());
        if dir == ceiling {
            break;
        }
    }
    Ok(found)
}

/// Whether the product finds `file`: `fs.access(file, R_OK)`, links followed. A file it may
/// not read is not found, and reported `Empty` (unreadable).
fn finds(loader: &mut Loader, file: &Path) -> Result<bool, Error> {
    if !loader.exists(file)? {
        return Ok(false);
    }
    if readable(file) {
        return Ok(true);
    }
    if let Some(size) = loader.file_size(file)? {
        loader.omit(file, size, Reason::Empty, None);
    }
    Ok(false)
}

#[cfg(unix)]
fn readable(file: &Path) -> bool {
    rustix::fs::access(file, rustix::fs::Access::READ_OK).is_ok()
}

#[cfg(not(unix))]
fn readable(file: &Path) -> bool {
    std::fs::File::open(file).is_ok()
}

/// Where the product's home is: `$GEMINI_CLI_HOME` (never with [`Options::home`]), else the
/// home directory.
fn gemini_home(options: &Options) -> Result<Option<PathBuf>, Error> {
    let env = match options.home {
        Some(_) => None,
        None => env_path("GEMINI_CLI_HOME"),
    };
    env.or_else(|| home(options))
        .map(path::absolute)
        .transpose()
}

/// `paths` less each one that leads to the same file (device and inode) as one of `kept` or an
/// earlier one of them, reported as `Duplicate` by the path that stands for it.
fn deduplicate(loader: &mut Loader, paths: Vec<PathBuf>, kept: &[PathBuf]) -> Vec<PathBuf> {
    let mut seen: Vec<(FileId, PathBuf)> = kept
        .iter()
        .filter_map(|path| Some((file_id(path)?, path.clone())))
        .collect();
    let mut out = Vec::new();
    for path in paths {
        let Some(id) = file_id(&path) else {
            out.push(path);
            continue;
        };
        match seen.iter().find(|(seen, _)| *seen == id) {
            Some((_, by)) => {
                let size = std::fs::metadata(&path).map_or(0, |meta| meta.len());
                let by = by.clone();
                loader.omit(&path, size, Reason::Duplicate, Some(&by));
            }
            None => {
                seen.push((id, path.clone()));
                out.push(path);
            }
        }
    }
    out
}

/// What tells one file from another: its device and inode (`fs.stat`, links followed).
#[cfg(unix)]
pub(super) type FileId = (u64, u64);

#[cfg(unix)]
fn file_id(path: &Path) -> Option<FileId> {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.dev(), meta.ino()))
}

/// Where std gives no inode, the path with its links resolved stands for the file.
#[cfg(not(unix))]
pub(super) type FileId = PathBuf;

#[cfg(not(unix))]
fn file_id(path: &Path) -> Option<FileId> {
    std::fs::canonicalize(path).ok()
}

/// JavaScript's default sort order of two paths as strings: by UTF-16 code units.
fn js_order(a: &Path, b: &Path) -> Ordering {
    let (a, b) = (lossy(path::bytes(a)), lossy(path::bytes(b)));
    a.encode_utf16().cmp(b.encode_utf16())
}

/// `text` less the white space JavaScript's `trim` removes: Rust's `trim` less U+0085, plus
/// U+FEFF (so a BOM goes).
fn js_trim(text: &str) -> &str {
    text.trim_matches(|c: char| (c.is_whitespace() && c != '\u{85}') || c == '\u{FEFF}')
}

/// The global context in the system instruction, then the project context of the first user
/// message; each empty without a file of its own.
pub(super) fn render(files: &[File]) -> Vec<u8> {
    let blocks = |source: Source| {
        let blocks: Vec<Vec<u8>> = files
            .iter()
            .filter(|file| file.source == source)
            .map(block)
            .collect();
        blocks.join(&b"\n\n"[..])
    };
    let mut out = Vec::new();
    let global = blocks(Source::Extra);
    if !global.is_empty() {
        let shell = [GLOBAL_HEAD.as_bytes(), &global, b"\n</loaded_context>"].concat();
        out.extend(collapse_newlines(&shell));
    }
    let project = blocks(Source::Chain);
    if !project.is_empty() {
        out.extend_from_slice(b"\n<loaded_context>\n<project_context>\n");
        out.extend_from_slice(&project);
        out.extend_from_slice(b"\n</project_context>\n</loaded_context>");
    }
    out
}

/// `--- Context from: P ---`, the file's text, `--- End of Context from: P ---`.
fn block(file: &File) -> Vec<u8> {
    let path = path::bytes(&file.path);
    [
        b"--- Context from: ",
        path,
        b" ---\n",
        &file.content,
        b"\n--- End of Context from: ",
        path,
        b" ---",
    ]
    .concat()
}

/// `text` with each run of three or more `\n` made two.
fn collapse_newlines(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let mut run = 0;
    for &byte in text {
        run = if byte == b'\n' { run + 1 } else { 0 };
        if run <= 2 {
            out.push(byte);
        }
    }
    out
}

/// What a session remembers of the product's start, which loaded `chain`: its workspace
/// directory (the working directory made real), and the identity of each file it read
/// (`MemoryContextManager.refresh` marks them loaded, an empty one too), which a later read
/// does not load again.
pub(super) fn start(chain: &Chain, loaded: &mut Loaded) {
    let files = chain.files.iter().map(|file| &file.path);
    let empty = chain
        .omitted
        .iter()
        .filter(|left_out| left_out.reason == Reason::Empty);
    let read = files.chain(empty.map(|left_out| &left_out.path));
    loaded
        .identities
        .extend(read.filter_map(|path| file_id(path)));
    loaded.cwd = workspace(&loaded.cwd);
}

/// What the product adds to a file tool's result (`read_file`, `read_many_files`,
/// `list_directory`, `write_file`, `replace`) for the files a read loaded
/// (`dist/src/tools/jit-context.js`): their blocks inside `--- Newly Discovered Project
/// Context ---` marks; empty without a file.
pub(super) fn render_touch(files: &[File]) -> Vec<u8> {
    if files.is_empty() {
        return Vec::new();
    }
    let blocks: Vec<Vec<u8>> = files.iter().map(block).collect();
    [
        &b"\n\n--- Newly Discovered Project Context ---\n"[..],
        &blocks.join(&b"\n\n"[..]),
        b"\n--- End Project Context ---",
    ]
    .concat()
}

/// What the product loads when its agent reads a path (`loadJitSubdirectoryMemory`).
mod jit;
pub(super) use jit::read;

/// `processImports` of `dist/src/utils/memoryImportProcessor.js` in its `tree` format: each
/// `@path` that follows white space (or opens the text), outside a code span, is replaced by
/// the file it names inside `<!-- Imported from: … -->` marks, itself expanded, five levels
/// deep at most; an import that fails leaves a comment saying why. Paths are the product's
/// strings, `/`-separated, as Node's `path` module makes them on POSIX.
mod import;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn s12_gemini_trims_as_javascript_does() {
        assert_eq!(js_trim("\u{FEFF} a \u{3000}"), "a");
        assert_eq!(js_trim("\u{85}a"), "\u{85}a");
    }

    #[test]
    fn s12_gemini_collapses_three_newlines_or_more() {
        assert_eq!(collapse_newlines(b"a\n\n\n\nb\nc\n\nd"), b"a\n\nb\nc\n\nd");
    }
}
