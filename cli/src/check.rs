//! `agentsmd check [PATH]` (SPEC.md §12): the maintainers' view of a repository. Each product's
//! preset is run at PATH (its files, in order, with their sizes, and every file it drops, cuts
//! or leaves unread), and the repository is searched for what makes a product miss something:
//! a file one product loads and another ignores, a name in the wrong case, an import that fails,
//! a rule file whose front matter cannot be read, a glob rule that matches no file of the tree,
//! a file over a product's limit. The table and `--json` are in `check/output.rs`.

mod output;
mod tree;

use std::collections::{BTreeSet, HashMap, HashSet};
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};

use agentsmd_core::ffi_support::{self, path_to_bytes};
use agentsmd_core::{
    Chain, Dialect, ErrorKind, Omitted, Options, Outcome, Preset, Reason, RuleDir, Source,
};

use crate::args::{path, Exit, Parser};
use crate::{print, repository_root, Failure};

/// What `agentsmd check` is asked.
#[derive(Debug)]
pub struct Args {
    path: Option<PathBuf>,
    /// The presets given with `--as`, in order, each once; none means every preset.
    presets: Vec<Preset>,
    home: Option<PathBuf>,
    json: bool,
}

/// Parses the arguments after `check`.
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Args, Exit> {
    let mut parsed = Args {
        path: None,
        presets: Vec::new(),
        home: None,
        json: false,
    };
    let mut args = Parser::new(args, "check takes one PATH");
    while let Some(flag) = args.next()? {
        match flag.as_str() {
            "-h" | "--help" => return args.switch().and(Err(Exit::Help)),
            "--json" => parsed.json = args.switch()?,
            "--home" => parsed.home = Some(args.directory()?),
            "--as" => match args.value()?.as_slice() {
                b"list" => return Err(Exit::Presets),
                name => {
                    let preset = preset(name)?;
                    if !parsed.presets.contains(&preset) {
                        parsed.presets.push(preset);
                    }
                }
            },
            _ => return Err(Exit::Usage(format!("unknown option {flag} for check"))),
        }
    }
    parsed.path = args.operand.map(path);
    Ok(parsed)
}

/// The preset named `name`; another name is a usage error that lists them.
fn preset(name: &[u8]) -> Result<Preset, Exit> {
    let found = std::str::from_utf8(name).ok().and_then(Preset::from_name);
    found.ok_or_else(|| {
        let names = Preset::ALL.map(Preset::as_str).join(", ");
        let name = String::from_utf8_lossy(name);
        Exit::Usage(format!(
            "--as {name:?}: no such preset; the presets are {names} (--as list)"
        ))
    })
}

/// What one product loads at PATH.
pub struct Product {
    pub preset: Preset,
    /// The files it loads, in its order, each with the bytes of the text it gives its model.
    pub files: Vec<(PathBuf, u64)>,
    /// The files it drops, cuts or leaves unread.
    pub omitted: Vec<Omitted>,
    /// Why its loading failed, when it did.
    pub error: Option<String>,
}

/// What makes a product miss something.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// A product's loading fails with an error (other than an import's).
    Error,
    /// An import that fails: a product's error, or the comment Gemini CLI leaves in its place.
    Import,
    /// A file cut or left unread for a product's limit.
    OverLimit,
    /// A known name in another case (`agents.md`, `AGENTS.MD`), which only some products read.
    NameCase,
    /// A file some products load and others neither load nor report.
    Ignored,
    /// A rule file whose front matter cannot be read as its dialect says.
    FrontMatter,
    /// A glob rule whose globs match no file of the tree.
    UnmatchedGlob,
}

impl Kind {
    /// The word of `--json` and the table.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Error => "error",
            Kind::Import => "import",
            Kind::OverLimit => "over_limit",
            Kind::NameCase => "name_case",
            Kind::Ignored => "ignored",
            Kind::FrontMatter => "front_matter",
            Kind::UnmatchedGlob => "unmatched_glob",
        }
    }
}

/// One thing that makes a product miss something.
pub struct Problem {
    pub kind: Kind,
    /// The file it is about; `None` for an error that names none.
    pub path: Option<PathBuf>,
    pub message: String,
    /// The products that miss something: presets' names, or for a rule its dialect's.
    pub products: Vec<&'static str>,
}

/// What `agentsmd check` found.
pub struct Report {
    /// PATH, absolute and clean.
    pub path: PathBuf,
    /// The repository: the nearest directory holding `.git` on the way to PATH, else PATH's
    /// directory. Its tree is walked; paths in the table are shown relative to it.
    pub root: PathBuf,
    pub products: Vec<Product>,
    pub problems: Vec<Problem>,
}

impl Report {
    /// Whether a product drops, cuts or fails anything, or a problem was found (exit status 1).
    pub fn failed(&self) -> bool {
        let dropped = |product: &Product| !product.omitted.is_empty() || product.error.is_some();
        !self.problems.is_empty() || self.products.iter().any(dropped)
    }
}

/// Checks `args.path` and prints the table, or `--json`'s object; a product that drops, cuts or
/// fails anything, or a problem found, ends the run with exit status 1 and a line saying so.
pub fn run(args: &Args) -> Result<(), Failure> {
    let path = ffi_support::absolute(args.path.as_deref().unwrap_or(Path::new(".")))?;
    let dir = match fs::metadata(&path) {
        Ok(metadata) if metadata.is_dir() => path.clone(),
        Ok(_) => path.parent().map_or(path.clone(), Path::to_path_buf),
        Err(e) => {
            let why = e.to_string();
            let message = [b"check ", path_to_bytes(&path), b": ", why.as_bytes()];
            return Err(Failure::Error(message.concat()));
        }
    };
    let root = match repository_root(&dir) {
        found if found.parent().is_none() => dir.clone(),
        found => found,
    };
    let presets = match args.presets.is_empty() {
        true => Preset::ALL.to_vec(),
        false => args.presets.clone(),
    };
    let mut options = Options::new();
    options.home = args.home.clone();
    let report = check(path, root, &presets, &options)?;
    match args.json {
        true => print(output::json(&report).as_bytes())?,
        false => print(output::table(&report, output::colour()).as_bytes())?,
    }
    if !report.failed() {
        return Ok(());
    }
    let failing = report.products.iter();
    let failing = failing.filter(|p| !p.omitted.is_empty() || p.error.is_some());
    let message = format!(
        "check: {} of {} products drop, cut or fail something; {} problems",
        failing.count(),
        report.products.len(),
        report.problems.len()
    );
    Err(Failure::Error(message.into_bytes()))
}

/// The names a product reads as instruction files (SPEC §9, §12), as written. A file of the
/// tree named as one of them in another case is a [`Kind::NameCase`] problem; a directory
/// holding one, in any case, is one each product is run at too.
const NAMES: [&str; 9] = [
    "AGENTS.md",
    "AGENTS.override.md",
    "AGENTS.local.md",
    "AGENT.md",
    "CLAUDE.md",
    "CLAUDE.local.md",
    "GEMINI.md",
    "CONTEXT.md",
    "CONTEXT.local.md",
];

/// Names that only mark a directory a product reads files in (Goose's hints, the root files of
/// the editors Zed reads): run there, never checked for their case.
const OTHER_NAMES: [&str; 6] = [
    ".goosehints",
    ".rules",
    ".cursorrules",
    ".windsurfrules",
    ".clinerules",
    "copilot-instructions.md",
];

/// The rule directories checked, each at its dialect's usual place (SPEC §11).
const RULE_DIRS: [(Dialect, &str); 6] = [
    (Dialect::Claude, ".claude/rules"),
    (Dialect::Cursor, ".cursor/rules"),
    (Dialect::Copilot, ".github/instructions"),
    (Dialect::Windsurf, ".windsurf/rules"),
    (Dialect::Kiro, ".kiro/steering"),
    (Dialect::Cline, ".clinerules"),
];

/// What the presets read, over every directory they were run at.
#[derive(Default)]
struct Seen {
    /// Per preset, every file it loads, imports, drops, cuts or leaves unread somewhere.
    read: HashMap<Preset, HashSet<PathBuf>>,
    /// Per file loaded by some preset (not a rule), the presets that load it, in the order met.
    loaded: Vec<(PathBuf, Vec<Preset>)>,
    /// The presets whose loading failed somewhere: what they would have read is not known, so
    /// none is said to ignore a file (its error is the problem).
    failed: HashSet<Preset>,
}

impl Seen {
    fn add(&mut self, preset: Preset, chain: &Chain) {
        let read = self.read.entry(preset).or_default();
        read.extend(chain.files.iter().map(|file| file.path.clone()));
        read.extend(chain.omitted.iter().map(|omitted| omitted.path.clone()));
        read.extend(chain.imports.iter().map(|import| import.path.clone()));
        for file in &chain.files {
            read.extend(imported(preset, &file.path, &file.content));
        }
        for file in chain
            .files
            .iter()
            .filter(|file| file.source != Source::Rule)
        {
            match self.loaded.iter_mut().find(|(path, _)| *path == file.path) {
                Some((_, presets)) if !presets.contains(&preset) => presets.push(preset),
                Some(_) => {}
                None => self.loaded.push((file.path.clone(), vec![preset])),
            }
        }
    }

    /// Whether `preset` reads `path` somewhere, or cannot be said not to.
    fn reads(&self, preset: Preset, path: &Path) -> bool {
        let read = self.read.get(&preset);
        self.failed.contains(&preset) || read.is_some_and(|read| read.contains(path))
    }

    fn loads(&self, preset: Preset, path: &Path) -> bool {
        let found = self.loaded.iter().find(|(loaded, _)| loaded == path);
        found.is_some_and(|(_, presets)| presets.contains(&preset))
    }
}

/// Runs each of `presets` at `path` and at each directory of the tree holding an instruction
/// file, walks the tree for the rules, and gathers what they miss.
fn check(
    path: PathBuf,
    root: PathBuf,
    presets: &[Preset],
    options: &Options,
) -> Result<Report, Failure> {
    let mut problems = Problems::default();
    let tree = tree::walk(&root, &mut problems);
    let mut seen = Seen::default();
    let mut products = Vec::new();
    for &preset in presets {
        let found = load(preset, &path, options, &mut problems, &mut seen);
        let (files, omitted, error) = match found {
            Ok(chain) => {
                let files = chain.files.iter();
                let files = files.map(|file| (file.path.clone(), file.content.len() as u64));
                (files.collect(), chain.omitted, None)
            }
            Err(error) => (Vec::new(), Vec::new(), Some(error)),
        };
        products.push(Product {
            preset,
            files,
            omitted,
            error,
        });
    }
    // Each other directory holding an instruction file, as a product working there sees it;
    // but Zed, which reads the worktree root (PATH) alone, whatever file is open.
    let start = match path.is_dir() {
        true => path.clone(),
        false => path.parent().map_or(path.clone(), Path::to_path_buf),
    };
    let dirs: BTreeSet<PathBuf> = tree.iter().filter_map(|file| holder(file)).collect();
    for dir in dirs.into_iter().filter(|dir| *dir != start) {
        for &preset in presets.iter().filter(|&&preset| preset != Preset::Zed) {
            let _ = load(preset, &dir, options, &mut problems, &mut seen);
        }
    }
    names(&tree, presets, &seen, &mut problems);
    ignored(&root, presets, &seen, &mut problems);
    tree::rules(&root, &tree, &mut problems);
    Ok(Report {
        path,
        root,
        products,
        problems: problems.list,
    })
}

/// Runs `preset` at `path`: what it reads goes to `seen`, what it fails, cuts or leaves unread
/// for a limit to `problems`; its chain, or its error's message.
fn load(
    preset: Preset,
    path: &Path,
    options: &Options,
    problems: &mut Problems,
    seen: &mut Seen,
) -> Result<Chain, String> {
    let mut options = options.clone();
    options.preset = Some(preset);
    let chain = match agentsmd_core::chain(path, &options) {
        Ok(chain) => chain,
        Err(error) => {
            let message = String::from_utf8_lossy(error.message()).into_owned();
            let kind = match error.kind() {
                ErrorKind::Import => Kind::Import,
                _ => Kind::Error,
            };
            let file = error.path().map(Path::to_path_buf);
            problems.add(kind, file, message.clone(), preset.as_str());
            seen.failed.insert(preset);
            return Err(message);
        }
    };
    seen.add(preset, &chain);
    for omitted in &chain.omitted {
        let size = omitted.size;
        let message = match omitted.reason {
            Reason::Truncated => format!("cut at the product's limit: {size} bytes left out"),
            Reason::OverBudget => {
                format!("not read: the product's budget ran out before it ({size} bytes)")
            }
            _ => continue,
        };
        let file = Some(omitted.path.clone());
        problems.add(Kind::OverLimit, file, message, preset.as_str());
    }
    if preset == Preset::GeminiCli {
        for file in &chain.files {
            for failed in gemini_failures(&file.content) {
                problems.add(
                    Kind::Import,
                    Some(file.path.clone()),
                    failed,
                    preset.as_str(),
                );
            }
        }
    }
    Ok(chain)
}

/// The problems found, each once: a problem met again (the same kind, file and message) adds
/// its product to the first.
#[derive(Default)]
struct Problems {
    list: Vec<Problem>,
}

impl Problems {
    fn add(&mut self, kind: Kind, path: Option<PathBuf>, message: String, product: &'static str) {
        let same = |p: &&mut Problem| p.kind == kind && p.path == path && p.message == message;
        match self.list.iter_mut().find(same) {
            Some(problem) if !problem.products.contains(&product) => {
                problem.products.push(product);
            }
            Some(_) => {}
            None => self.list.push(Problem {
                kind,
                path,
                message,
                products: vec![product],
            }),
        }
    }
}

/// The directory a product working in would read `file` from, when its name is an instruction
/// file's in any case: its parent, or for `.claude/CLAUDE.md` and
/// `.github/copilot-instructions.md` the parent's.
fn holder(file: &Path) -> Option<PathBuf> {
    let name = file.file_name()?.to_str()?;
    let known = NAMES.iter().chain(&OTHER_NAMES);
    if !known
        .into_iter()
        .any(|known| known.eq_ignore_ascii_case(name))
    {
        return None;
    }
    let parent = file.parent()?;
    match parent.file_name().and_then(|name| name.to_str()) {
        Some(".claude" | ".github") => parent.parent().map(Path::to_path_buf),
        _ => Some(parent.to_path_buf()),
    }
}

/// A [`Kind::NameCase`] problem for each file of `tree` named as one of [`NAMES`] in another
/// case, naming the products that do not load it where it is.
fn names(tree: &[PathBuf], presets: &[Preset], seen: &Seen, problems: &mut Problems) {
    for file in tree {
        let Some(name) = file.file_name().and_then(|name| name.to_str()) else {
            continue;
        };
        let Some(known) = NAMES
            .iter()
            .find(|known| known.eq_ignore_ascii_case(name) && **known != name)
        else {
            continue;
        };
        let (loading, missing): (Vec<Preset>, Vec<Preset>) = presets
            .iter()
            .partition(|&&preset| seen.loads(preset, file));
        let missing: Vec<Preset> = missing
            .into_iter()
            .filter(|preset| !seen.failed.contains(preset))
            .collect();
        if missing.is_empty() {
            continue;
        }
        let loading = match loading.is_empty() {
            true => "no product".to_string(),
            false => names_of(&loading).join(", ") + " only",
        };
        let message = format!("{name} is not {known}: read by {loading}");
        for preset in missing {
            problems.add(
                Kind::NameCase,
                Some(file.clone()),
                message.clone(),
                preset.as_str(),
            );
        }
    }
}

/// An [`Kind::Ignored`] problem for each file of the repository that some presets load and
/// others neither load, import nor report.
fn ignored(root: &Path, presets: &[Preset], seen: &Seen, problems: &mut Problems) {
    let mut loaded: Vec<&(PathBuf, Vec<Preset>)> = seen.loaded.iter().collect();
    loaded.sort_by(|a, b| a.0.cmp(&b.0));
    for (file, loading) in loaded {
        let within = ffi_support::is_within_root(file, root);
        let reported = problems
            .list
            .iter()
            .any(|p| p.kind == Kind::NameCase && p.path.as_deref() == Some(file));
        if !within || reported {
            continue;
        }
        let missing: Vec<Preset> = presets
            .iter()
            .copied()
            .filter(|&preset| !seen.reads(preset, file))
            .collect();
        if missing.is_empty() {
            continue;
        }
        let message = format!(
            "loaded by {}; not read by {}",
            names_of(loading).join(", "),
            names_of(&missing).join(", ")
        );
        for preset in missing {
            let file = Some(file.clone());
            problems.add(Kind::Ignored, file, message.clone(), preset.as_str());
        }
    }
}

fn names_of(presets: &[Preset]) -> Vec<&'static str> {
    presets.iter().map(|preset| preset.as_str()).collect()
}

/// The files a preset read into `content`, the text it gives for the file `path`, beside those
/// the chain reports: Gemini CLI's `<!-- Imported from: P -->` and Goose's
/// `--- Content from P ---`, each `P` relative to the file that holds it.
fn imported(preset: Preset, path: &Path, content: &[u8]) -> Vec<PathBuf> {
    let (open, after, close) = match preset {
        Preset::GeminiCli => ("<!-- Imported from: ", " -->", "<!-- End of import from: "),
        Preset::Goose => ("--- Content from ", " ---", "--- End of "),
        _ => return Vec::new(),
    };
    let text = String::from_utf8_lossy(content);
    let mut holders = vec![path.to_path_buf()];
    let mut found = Vec::new();
    let mut rest = &text[..];
    loop {
        let next_open = rest.find(open);
        let next_close = rest.find(close);
        match (next_open, next_close) {
            (Some(at), close_at) if close_at.is_none_or(|close_at| at < close_at) => {
                rest = &rest[at + open.len()..];
                let Some(end) = rest.find(after) else { break };
                let name = &rest[..end];
                let dir = holders.last().and_then(|file| file.parent());
                let file = dir.map(|dir| dir.join(name));
                let Some(Ok(file)) = file.map(ffi_support::absolute) else {
                    break;
                };
                found.push(file.clone());
                holders.push(file);
                rest = &rest[end..];
            }
            (_, Some(at)) => {
                rest = &rest[at + close.len()..];
                if holders.len() > 1 {
                    holders.pop();
                }
            }
            _ => break,
        }
    }
    found
}

/// The imports that failed in a text Gemini CLI gives: each `<!-- Import failed: P - WHY -->`
/// it left in the file's place, as `Import failed: P - WHY`.
fn gemini_failures(content: &[u8]) -> Vec<String> {
    const OPEN: &str = "<!-- Import failed: ";
    let text = String::from_utf8_lossy(content);
    let mut failures = Vec::new();
    let mut rest = &text[..];
    while let Some(at) = rest.find(OPEN) {
        rest = &rest[at + "<!-- ".len()..];
        let Some(end) = rest.find(" -->") else { break };
        failures.push(rest[..end].to_string());
        rest = &rest[end..];
    }
    failures
}
