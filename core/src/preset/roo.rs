//! Roo Code, RooCodeInc/Roo-Code at cb83656: `src/core/prompts/sections/custom-instructions.ts`
//! (`addCustomInstructions`, `loadRuleFiles`, `loadAllAgentRulesFiles`,
//! `readTextFilesFromDirectory`) with `getRooDirectoriesForCwd` (`src/services/roo-config`),
//! for a default session: mode `code` (`defaultModeSlug`), `enableSubfolderRules` off,
//! `useAgentRules` on.

use std::cmp::Ordering;
use std::ffi::OsStr;
use std::path::{Component, Path, PathBuf};

use super::cline::{is_link, js_trim, locale_compare};
use super::{home, lossy, project_names, Loader};
use crate::chain::{File, Reason, Source};
use crate::error::Error;
use crate::fs::Kind;
use crate::options::Options;
use crate::path;

/// The rules directory of the default mode, `rules-${mode}` with mode `code`.
const MODE_DIR: &str = "rules-code";

/// The legacy files of the default mode, in order, when no `.roo/rules-code` has a file.
const MODE_FILES: [&str; 2] = [".roorules-code", ".clinerules-code"];

/// The legacy files, in order, when no `.roo/rules` has a file.
const LEGACY_FILES: [&str; 2] = [".roorules", ".clinerules"];

/// The agent rules of the working directory: the first of the standard names with text, then
/// the local file.
const AGENT_NAMES: [&str; 2] = ["AGENTS.md", "AGENT.md"];
const AGENT_LOCAL: &str = "AGENTS.local.md";

/// The depth `resolveDirectoryEntry` and `resolveSymLink` stop past (`MAX_DEPTH`): a link
/// counts one level, and the entries of a directory it leads to one more.
const MAX_DEPTH: usize = 5;

/// The endings of the files a rules directory's listing leaves out (`shouldIncludeRuleFile`).
const CACHE_ENDINGS: [&str; 20] = [
    ".DS_Store",
    ".bak",
    ".cache",
    ".crdownload",
    ".db",
    ".dmp",
    ".dump",
    ".eslintcache",
    ".lock",
    ".log",
    ".old",
    ".part",
    ".partial",
    ".pyc",
    ".pyo",
    ".stackdump",
    ".swo",
    ".swp",
    ".temp",
    ".tmp",
];

/// The mode's rules (`~/.roo/rules-code`, `CWD/.roo/rules-code`, else the first legacy mode
/// file with text), the working directory's agent rules, and the rules (`~/.roo/rules`,
/// `CWD/.roo/rules`, else the first legacy file with text), in that order. Every text is
/// trimmed; a rules directory's file is given even when empty, a legacy or agent file is not.
pub(super) fn load(loader: &mut Loader, cwd: &Path, options: &Options) -> Result<(), Error> {
    let roo_dirs: Vec<PathBuf> = home(options)
        .map(|home| home.join(".roo"))
        .into_iter()
        .chain([cwd.join(".roo")])
        .collect();
    rules_or_legacy(loader, cwd, &roo_dirs, MODE_DIR, &MODE_FILES)?;
    let mut standard: Option<PathBuf> = None;
    for name in project_names(options, &AGENT_NAMES) {
        let path = cwd.join(name);
        let Some(size) = loader.file_size(&path)? else {
            continue;
        };
        if let Some(by) = &standard {
            loader.omit(&path, size, Reason::Shadowed, Some(by));
            continue;
        }
        if give_trimmed(loader, &path, size)? {
            standard = Some(path);
        }
    }
    let local = cwd.join(AGENT_LOCAL);
    if let Some(size) = loader.file_size(&local)? {
        give_trimmed(loader, &local, size)?;
    }
    rules_or_legacy(loader, cwd, &roo_dirs, "rules", &LEGACY_FILES)?;
    Ok(())
}

/// The files of `sub` in each of `roo_dirs`, each directory's sorted by name; when there is
/// none, the first of `legacy` in `cwd` whose trimmed text is not empty.
fn rules_or_legacy(
    loader: &mut Loader,
    cwd: &Path,
    roo_dirs: &[PathBuf],
    sub: &str,
    legacy: &[&str],
) -> Result<(), Error> {
    let mut given: Option<PathBuf> = None;
    for roo in roo_dirs {
        let dir = roo.join(sub);
        if loader.kind(&dir)? != Some(Kind::Dir) {
            continue;
        }
        let mut found = Vec::new();
        collect(loader, &dir, 0, &mut found)?;
        // `filenameA.localeCompare(filenameB)` of the lowercased base names; a stable sort.
        found.sort_by(|(a, _), (b, _)| by_base_name(a, b));
        for (path, size) in found {
            let text = lossy(&loader.read(&path, size)?);
            loader.give(&path, js_trim(&text), Source::Rule);
            given.get_or_insert(path);
        }
    }
    for name in legacy {
        let path = cwd.join(name);
        let Some(size) = loader.file_size(&path)? else {
            continue;
        };
        match &given {
            Some(by) => loader.omit(&path, size, Reason::Shadowed, Some(by)),
            None => {
                if give_trimmed(loader, &path, size)? {
                    given = Some(path);
                }
            }
        }
    }
    Ok(())
}

/// Gives `path` with its text trimmed, or reports it `Empty`; whether it was given.
fn give_trimmed(loader: &mut Loader, path: &Path, size: u64) -> Result<bool, Error> {
    let text = lossy(&loader.read(path, size)?);
    match js_trim(&text) {
        "" => {
            loader.omit(path, size, Reason::Empty, None);
            Ok(false)
        }
        trimmed => {
            loader.give(path, trimmed, Source::Chain);
            Ok(true)
        }
    }
}

/// The regular files below `dir` (a recursive listing, links to files followed, links to
/// directories entered within [`MAX_DEPTH`]), less the cache files, with sizes.
fn collect(
    loader: &Loader,
    dir: &Path,
    links: usize,
    found: &mut Vec<(PathBuf, u64)>,
) -> Result<(), Error> {
    let name = loader.files.name_of(path::bytes(dir));
    let Some(mut names) = loader.files.list(&name)? else {
        return Ok(());
    };
    names.sort();
    for name in names {
        let path = dir.join(&name);
        let is_link = is_link(loader, &path)?;
        // `resolveSymLink` counts one level for a link and one for each entry below it: the
        // third link is still read when it leads to a file, not the entries of a third
        // directory reached through links.
        let links = links + usize::from(is_link);
        let depth = 2 * links - usize::from(is_link);
        match loader.kind(&path)? {
            Some(Kind::File { size }) if kept(&name) && depth <= MAX_DEPTH => {
                found.push((path, size))
            }
            Some(Kind::Dir) if 2 * links <= MAX_DEPTH => collect(loader, &path, links, found)?,
            _ => {}
        }
    }
    Ok(())
}

/// Whether a rules directory's file named `name` is read: not a cache or system file.
fn kept(name: &OsStr) -> bool {
    let name = name.to_string_lossy();
    name != "Thumbs.db" && !CACHE_ENDINGS.iter().any(|ending| name.ends_with(ending))
}

/// The order of a rules directory's files: their base names lowercased, compared as
/// `localeCompare` compares them.
fn by_base_name(a: &Path, b: &Path) -> Ordering {
    let base = |path: &Path| {
        path.file_name()
            .map(|name| name.to_string_lossy().to_lowercase())
            .unwrap_or_default()
    };
    locale_compare(&base(a), &base(b))
}

/// What a file is to the rendering, by where it was found.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    ModeDir,
    ModeFile,
    Agent,
    RulesDir,
    RulesFile,
}

fn part(file: &File) -> Part {
    let name = file.path.file_name().unwrap_or_default();
    if file.source == Source::Rule {
        let in_mode_dir = file.path.ancestors().any(|dir| {
            dir.file_name() == Some(OsStr::new(MODE_DIR))
                && dir.parent().and_then(Path::file_name) == Some(OsStr::new(".roo"))
        });
        return match in_mode_dir {
            true => Part::ModeDir,
            false => Part::RulesDir,
        };
    }
    if MODE_FILES.iter().any(|mode| name == OsStr::new(mode)) {
        Part::ModeFile
    } else if LEGACY_FILES.iter().any(|legacy| name == OsStr::new(legacy)) {
        Part::RulesFile
    } else {
        Part::Agent
    }
}

/// The `Rules:` section of `USER'S CUSTOM INSTRUCTIONS`: the mode's rules, the agent rules and
/// the rules, each under its headers, joined by blank lines; nothing without a file.
pub(super) fn render(files: &[File], cwd: &Path) -> Vec<u8> {
    let of = |wanted: Part| files.iter().filter(move |file| part(file) == wanted);
    // `formatDirectoryContent`: `# Rules from PATH:` (relative to the working directory).
    let listed = |wanted: Part| {
        let entries: Vec<String> = of(wanted)
            .map(|file| {
                format!(
                    "# Rules from {}:\n{}",
                    relative(cwd, &file.path),
                    String::from_utf8_lossy(&file.content)
                )
            })
            .collect();
        entries.join("\n\n")
    };
    let named = |file: &File| {
        let name = file.path.file_name().unwrap_or_default().to_string_lossy();
        format!(
            "# Rules from {name}:\n{}",
            String::from_utf8_lossy(&file.content)
        )
    };
    let mut rules: Vec<String> = Vec::new();
    if of(Part::ModeDir).next().is_some() {
        // `usedRuleFile` is "rules-code directories", which never holds `.roo/rules-code`: the
        // content keeps its header and its leading newline.
        rules.push(format!(
            "# Rules from {MODE_DIR} directories:\n\n{}",
            listed(Part::ModeDir)
        ));
    } else if let Some(file) = of(Part::ModeFile).next() {
        rules.push(named(file));
    }
    let agents: Vec<String> = of(Part::Agent)
        .map(|file| {
            let name = file.path.file_name().unwrap_or_default().to_string_lossy();
            let kind = match name == AGENT_LOCAL {
                true => "Local",
                false => "Standard",
            };
            format!(
                "# Agent Rules {kind} ({name}):\n{}",
                String::from_utf8_lossy(&file.content)
            )
        })
        .collect();
    if !agents.is_empty() {
        rules.push(agents.join("\n\n"));
    }
    if of(Part::RulesDir).next().is_some() {
        let content = format!(
            "\n# Rules from .roo directories:\n\n{}",
            listed(Part::RulesDir)
        );
        rules.push(js_trim(&content).to_string());
    } else if let Some(file) = of(Part::RulesFile).next() {
        rules.push(named(file));
    }
    if rules.is_empty() {
        return Vec::new();
    }
    format!("Rules:\n\n{}", rules.join("\n\n")).into_bytes()
}

/// `path.relative(from, to)` of two absolute, clean paths, elements joined by `/`.
fn relative(from: &Path, to: &Path) -> String {
    let elements = |path: &Path| -> Vec<String> {
        path.components()
            .filter_map(|component| match component {
                Component::Normal(name) => Some(name.to_string_lossy().into_owned()),
                _ => None,
            })
            .collect()
    };
    let (from, to) = (elements(from), elements(to));
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let ups = std::iter::repeat_n("..".to_string(), from.len() - common);
    ups.chain(to[common..].iter().cloned())
        .collect::<Vec<_>>()
        .join("/")
}
