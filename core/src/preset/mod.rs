//! Presets (SPEC §12): what a product at a pinned version loads at a path, in its order and with
//! its text, every file it drops, cuts or leaves unread in `omitted`, and the piece of what it
//! sends its model that holds them. Each product is read from its own source, in a file of its
//! own here; what they share — where a product's home is, the product's working directory, and
//! how a file is found, read and reported — is in this one.

mod amp;
mod claude;
mod cline;
mod codex;
mod copilot;
mod cursor;
mod documented;
mod gemini;
mod goose;
mod opencode;
mod pi;
pub(crate) mod product;
mod roo;
mod session;
mod windsurf;
mod zed;

use std::path::{Path, PathBuf};

use crate::chain::{Chain, File, Omitted, Reason, Source};
use crate::error::Error;
use crate::fs::{Files, Kind};
use crate::options::Options;
use crate::path;
pub use product::Preset;
pub(crate) use session::Loaded;

impl Preset {
    /// The product's working directory for `path` (absolute and clean): §1's start directory
    /// (the path when it is a directory, else its parent); for Zed the worktree root,
    /// [`Options::root`] when given.
    pub fn working_dir(self, path: &Path, options: &Options) -> Result<PathBuf, Error> {
        if let (Preset::Zed, Some(root)) = (self, &options.root) {
            return path::absolute(root);
        }
        let path = path::absolute(path)?;
        let loader = Loader::new(options);
        match loader.kind(&path)? {
            Some(Kind::Dir) => Ok(path),
            _ => Ok(path.parent().map_or(path.clone(), Path::to_path_buf)),
        }
    }

    /// The files the product loads at `path`, in its order and with its text, and every file it
    /// found and did not give whole (SPEC §12). For a closed product, every option given beside
    /// the preset applies as [`Preset::options`] says. A product reproduced from its source
    /// takes `names` (the names it looks for in its project's directories), `home`, `root` (its
    /// project root, which it otherwise finds itself), `max_bytes`, `budget` (spent on the
    /// texts it uses, in its order) and `cancel`; any other option is an `InvalidArgument`
    /// error naming it, as the product decides which files it loads and how it renders them.
    pub fn chain(self, path: &Path, options: &Options) -> Result<Chain, Error> {
        if let Some(documented) = self.options(path, options)? {
            return crate::chain::of(path, &documented);
        }
        Ok(Allowance::of(options).bound(self.load(path, options)?))
    }

    /// What a product reproduced from its source loads at `path`, before any budget.
    fn load(self, path: &Path, options: &Options) -> Result<Chain, Error> {
        self.refuse_beside(options)?;
        let cwd = self.working_dir(path, options)?;
        let mut loader = Loader::new(options);
        match self {
            Preset::Codex => codex::load(&mut loader, &cwd, options)?,
            Preset::Opencode => opencode::load(&mut loader, &cwd, options)?,
            Preset::Pi => pi::load(&mut loader, &cwd, options)?,
            Preset::Goose => goose::load(&mut loader, &cwd, options)?,
            Preset::Zed => zed::load(&mut loader, &cwd, options)?,
            Preset::GeminiCli => gemini::load(&mut loader, &cwd, options)?,
            Preset::Cline => cline::load(&mut loader, &cwd, options)?,
            Preset::RooCode => roo::load(&mut loader, &cwd, options)?,
            Preset::ClaudeCode
            | Preset::Cursor
            | Preset::Copilot
            | Preset::Windsurf
            | Preset::Amp => {
                unreachable!("a closed product loads as the library's own chain (Preset::options)")
            }
        }
        Ok(loader.chain)
    }

    /// Whether the product's loading is the library's own chain with the right options, as a
    /// closed product's is (Claude Code, Cursor, GitHub Copilot, Windsurf, Amp): then a session
    /// of it (SPEC §10) loads as the product does when its agent reads a file.
    pub fn is_documented(self) -> bool {
        matches!(
            self,
            Preset::ClaudeCode | Preset::Cursor | Preset::Copilot | Preset::Windsurf | Preset::Amp
        )
    }

    /// For a closed product ([`Preset::is_documented`]), the options of a chain (or a session)
    /// at `path` that loads what the product loads: its names, rule directory, imports and
    /// own files, and its walk from the project it finds for `path` (the nearest ancestor of
    /// the working directory holding `.git`, else the working directory; Amp's from the home
    /// directory). Options given beside the preset override it: `names` and `rules` given
    /// replace the product's, `all_names` and `imports` given turn them on (a product's own
    /// stay on), `root` given is where the walk stops, the caller's `extra` files come after
    /// the product's, and every other option is the caller's but `fs`, an `InvalidArgument`
    /// error: a preset reads the OS's file system, where the product finds its project and its
    /// home. `None` for the others, each loaded its own way.
    pub fn options(self, path: &Path, options: &Options) -> Result<Option<Options>, Error> {
        if !self.is_documented() {
            return Ok(None);
        }
        self.refuse_beside(options)?;
        let cwd = self.working_dir(path, options)?;
        let project = || -> Result<PathBuf, Error> {
            let found = project_root(&Loader::new(options), &cwd, options)?;
            Ok(found.unwrap_or_else(|| cwd.clone()))
        };
        let documented = match self {
            Preset::ClaudeCode => claude::documented(&project()?, options),
            Preset::Cursor => cursor::documented(&project()?),
            Preset::Copilot => copilot::documented(&project()?, options),
            Preset::Windsurf => windsurf::documented(&project()?, options),
            Preset::Amp => amp::documented(&cwd, options),
            Preset::Codex
            | Preset::Opencode
            | Preset::Pi
            | Preset::Goose
            | Preset::Zed
            | Preset::GeminiCli
            | Preset::Cline
            | Preset::RooCode => return Ok(None),
        };
        Ok(Some(documented.options(options)))
    }

    /// The piece of what the product sends its model that holds the files of `chain` (SPEC
    /// §12), exactly: empty when it loads none. `cwd` is [`Preset::working_dir`].
    ///
    /// ```
    /// use agentsmd_core::{Options, Preset};
    /// let repo = tempfile::tempdir()?;
    /// std::fs::create_dir(repo.path().join(".git"))?;
    /// std::fs::write(repo.path().join("AGENTS.md"), "Use tabs.\n")?;
    /// let home = tempfile::tempdir()?;
    /// let options = Options::new().home(home.path());
    /// let chain = Preset::Codex.chain(repo.path(), &options)?;
    /// let cwd = Preset::Codex.working_dir(repo.path(), &options)?;
    /// let rendered = Preset::Codex.render(&chain, &cwd);
    /// let expected = format!(
    ///     "# AGENTS.md instructions for {}\n\n<INSTRUCTIONS>\nUse tabs.\n\n</INSTRUCTIONS>",
    ///     cwd.display()
    /// );
    /// assert_eq!(String::from_utf8(rendered)?, expected);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn render(self, chain: &Chain, cwd: &Path) -> Vec<u8> {
        match self {
            Preset::Codex => codex::render(&chain.files, cwd),
            Preset::Opencode => opencode::render(&chain.files),
            Preset::Pi => pi::render(&chain.files),
            Preset::Goose => goose::render(&chain.files),
            Preset::Zed => zed::render(&chain.files, cwd),
            Preset::GeminiCli => gemini::render(&chain.files),
            Preset::Cline => cline::render(&chain.files),
            Preset::RooCode => roo::render(&chain.files, cwd),
            // A closed product's documentation gives no rendering of its own: SPEC §2's.
            _ => crate::render(&chain.files),
        }
    }
}

impl Preset {
    /// Refuses, naming it, an option given beside the preset that it cannot take (SPEC §12
    /// has such options override the preset): `fs` beside any, as a preset reads the OS's file
    /// system, where the product finds its project and its home; beside a product reproduced
    /// from its source, any but `names` ([`project_names`]), `root`, `home`, `max_bytes`,
    /// `budget` and `cancel`, as the product decides which files it loads and how it renders
    /// them. Refused rather than ignored: ignoring it would hide that.
    pub(crate) fn refuse_beside(self, options: &Options) -> Result<(), Error> {
        let own = !self.is_documented();
        let given = [
            ("fs", options.fs.is_some()),
            // Cline's project files are rule directories, not names.
            ("names", self == Preset::Cline && !options.names.is_empty()),
            ("all_names", own && options.all_names),
            ("extra", own && !options.extra.is_empty()),
            ("rendered_budget", own && options.rendered_budget.is_some()),
            ("confine", own && options.confine),
            ("fragments", own && !options.fragments.is_empty()),
            ("rules", own && !options.rules.is_empty()),
            ("overlays", own && !options.overlays.is_empty()),
            ("imports", own && options.imports),
            ("transform", own && options.transform.is_some()),
            ("nearest", own && options.nearest),
            ("report", own && options.report),
        ];
        let Some((option, _)) = given.into_iter().find(|(_, given)| *given) else {
            return Ok(());
        };
        let name = self.as_str();
        Err(Error::invalid_argument(match option {
            "fs" => format!(
                "preset {name}: fs is not taken beside it: a preset reads the OS's file system, \
                 where the product finds its project and its home (SPEC §12)"
            ),
            _ => format!(
                "preset {name}: {option} is not taken beside it, as the product decides which \
                 files it loads and how it renders them (SPEC §12); names, root, home, \
                 max_bytes, budget and cancel are"
            ),
        }))
    }
}

/// What is left of [`Options::budget`] (SPEC §1) as a product's files are charged, in the order
/// given, over every touch of a session (SPEC §10).
#[derive(Clone, Copy, Debug)]
enum Allowance {
    /// No budget.
    Unbounded,
    /// The bytes not spent yet.
    Left(u64),
    /// A file did not fit: it and every file after it are left out.
    Ended,
}

impl Allowance {
    fn of(options: &Options) -> Self {
        options.budget.map_or(Allowance::Unbounded, Allowance::Left)
    }

    /// `chain` within what is left: its files charged in its order, the first that does not
    /// fit and every one after it left out `OverBudget`, with the size of the text the product
    /// uses.
    fn bound(&mut self, mut chain: Chain) -> Chain {
        if let Allowance::Unbounded = self {
            return chain;
        }
        for file in std::mem::take(&mut chain.files) {
            let size = file.content.len() as u64;
            *self = match *self {
                Allowance::Left(left) if size <= left => Allowance::Left(left - size),
                _ => Allowance::Ended,
            };
            if let Allowance::Left(_) = self {
                chain.files.push(file);
                continue;
            }
            chain.omitted.retain(|omitted| omitted.path != file.path);
            chain.omitted.push(Omitted {
                path: file.path,
                size,
                reason: Reason::OverBudget,
                by: None,
            });
        }
        chain
    }
}

/// A product's directory of its own: `env`'s value when the product reads it and it is set
/// (never with [`Options::home`]), else `below` the home directory.
fn product_dir(options: &Options, env: Option<&str>, below: &str) -> Option<PathBuf> {
    if options.home.is_none() {
        if let Some(dir) = env.and_then(env_path) {
            return Some(dir);
        }
    }
    // One element at a time: on Windows a product joins them with `\\`.
    Some(
        below
            .split('/')
            .fold(home(options)?, |dir, name| dir.join(name)),
    )
}

/// The product's project root for its working directory `cwd`: [`Options::root`] when given,
/// else the nearest ancestor of `cwd` (itself included) holding anything named `.git`.
fn project_root(loader: &Loader, cwd: &Path, options: &Options) -> Result<Option<PathBuf>, Error> {
    if let Some(root) = &options.root {
        return path::absolute(root).map(Some);
    }
    for dir in cwd.ancestors() {
        if loader.exists(&dir.join(".git"))? {
            return Ok(Some(dir.to_path_buf()));
        }
    }
    Ok(None)
}

/// The directories from `root` down to `cwd`, as a product walks up to it (past `/` when it is
/// no ancestor); `cwd` alone without a root.
fn root_down<'a>(cwd: &'a Path, root: Option<&Path>) -> Vec<&'a Path> {
    let mut dirs = Vec::new();
    for dir in cwd.ancestors() {
        dirs.push(dir);
        if root.is_none_or(|root| dir == root) {
            break;
        }
    }
    dirs.reverse();
    dirs
}

/// The configuration directory: `$XDG_CONFIG_HOME` (never with [`Options::home`]), else
/// `.config` in the home directory.
fn config_dir(options: &Options) -> Option<PathBuf> {
    let xdg = options.home.is_none().then(|| env_path("XDG_CONFIG_HOME"));
    xdg.flatten()
        .or_else(|| home(options).map(|home| home.join(".config")))
}

/// The names a product reproduced from its source looks for in its project's directories: its
/// own, unless names are given beside its preset, which replace them (SPEC §12), as the
/// products' own settings do (Codex's `project_doc_fallback_filenames`, Gemini CLI's
/// `context.fileName`, Goose's `CONTEXT_FILE_NAMES`). Its global files keep their names.
fn project_names(options: &Options, own: &[&str]) -> Vec<String> {
    match options.names.is_empty() {
        true => own.iter().map(|name| name.to_string()).collect(),
        false => options.names.iter().map(|name| lossy(name)).collect(),
    }
}

/// The home directory: [`Options::home`], else the caller's (`HOME`, on Windows `USERPROFILE`).
fn home(options: &Options) -> Option<PathBuf> {
    let name = if cfg!(windows) { "USERPROFILE" } else { "HOME" };
    let home = options.home.clone().or_else(|| env_path(name))?;
    // Absolute, as every product's home is (a relative `--home` is the caller's shorthand).
    Some(path::absolute(&home).unwrap_or(home))
}

/// Whether `path` is `dir` or below it, as Node's `path.relative` tells on the platform: on
/// Windows, where file names ignore case, ignoring case.
fn is_within(path: &Path, dir: &Path) -> bool {
    match cfg!(windows) {
        true => {
            let folded = |path: &Path| PathBuf::from(path.to_string_lossy().to_lowercase());
            folded(path).starts_with(folded(dir))
        }
        false => path.starts_with(dir),
    }
}

/// The environment variable `name` as a path, when it is set and not empty.
fn env_path(name: &str) -> Option<PathBuf> {
    std::env::var_os(name)
        .filter(|value| !value.is_empty())
        .map(PathBuf::from)
}

/// What a preset reads, through the OS as a chain does, and the result it builds.
struct Loader<'a> {
    files: Files<'a>,
    max_bytes: u64,
    chain: Chain,
}

impl<'a> Loader<'a> {
    fn new(options: &'a Options) -> Self {
        Self {
            files: Files::os(options),
            max_bytes: options.effective_max_bytes(),
            chain: Chain::default(),
        }
    }

    /// What `path` is, following links; `None` when it leads nowhere.
    fn kind(&self, path: &Path) -> Result<Option<Kind>, Error> {
        self.files.find(&self.files.name_of(path::bytes(path)))
    }

    /// The size of `path` when it is a regular file (after following links).
    fn file_size(&self, path: &Path) -> Result<Option<u64>, Error> {
        Ok(match self.kind(path)? {
            Some(Kind::File { size }) => Some(size),
            _ => None,
        })
    }

    /// Whether the directory holding `path` lists its name under exactly that spelling: on a file
    /// system that ignores case, `AGENTS.MD` is found where only `AGENTS.md` is.
    fn is_listed(&self, path: &Path) -> Result<bool, Error> {
        let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
            return Ok(false);
        };
        let listed = self.files.list(&self.files.name_of(path::bytes(dir)))?;
        Ok(listed.is_some_and(|names| names.iter().any(|listed| listed == name)))
    }

    /// Whether anything is at `path` (a link that leads nowhere is nothing).
    fn exists(&self, path: &Path) -> Result<bool, Error> {
        Ok(self.kind(path)?.is_some())
    }

    /// The bytes of the regular file `path` of `size`, at most `max_bytes` (more is
    /// `TooLarge`); empty when it is gone.
    fn read(&self, path: &Path, size: u64) -> Result<Vec<u8>, Error> {
        let name = self.files.name_of(path::bytes(path));
        Ok(self
            .files
            .read(&name, size, self.max_bytes)?
            .unwrap_or_default())
    }

    /// The first `most` bytes of the regular file `path` of `size` (a product that cuts a file
    /// reads no more of it); empty when it is gone.
    fn read_start(&self, path: &Path, size: u64, most: u64) -> Result<Vec<u8>, Error> {
        let name = self.files.name_of(path::bytes(path));
        let Some(mut file) = self.files.open(&name, size)? else {
            return Ok(Vec::new());
        };
        let mut start = Vec::new();
        let expected = size.min(most);
        self.files
            .read_on(&mut *file, &name, (expected, most), &mut start)?;
        Ok(start)
    }

    /// Gives the file `path` with `content`, the text the product uses.
    fn give(&mut self, path: &Path, content: impl Into<Vec<u8>>, source: Source) {
        self.chain.files.push(File {
            path: path.to_path_buf(),
            content: content.into(),
            source,
        });
    }

    /// Reports the file `path`, of `size` bytes (the bytes left out for `Truncated`), found and
    /// not given whole for `reason`.
    /// Said once: a walk may pass a directory a product also reads on its own (pi's agent
    /// directory among the working directory's ancestors).
    fn omit(&mut self, path: &Path, size: u64, reason: Reason, by: Option<&Path>) {
        if self
            .chain
            .omitted
            .iter()
            .any(|omitted| omitted.path == path)
        {
            return;
        }
        self.chain.omitted.push(Omitted {
            path: path.to_path_buf(),
            size,
            reason,
            by: by.map(Path::to_path_buf),
        });
    }
}

/// `bytes` as UTF-8, each invalid sequence U+FFFD, as Rust's `from_utf8_lossy` and Node's
/// decoder both make it.
fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}
