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
mod windsurf;
mod zed;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::chain::{Chain, File, Omitted, Reason, Source};
use crate::error::Error;
use crate::fs::{Files, Kind};
use crate::options::Options;
use crate::path;
pub use product::Preset;

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
    /// takes `home`, `root` (its project root, which it otherwise finds itself), `max_bytes`,
    /// `budget` (spent on the texts it uses, in its order) and `cancel`; `report` gives no
    /// probes, and an option that would change which files it loads (`names`, `extra`, `rules`,
    /// `fs`, …) is an `InvalidArgument` error naming it.
    pub fn chain(self, path: &Path, options: &Options) -> Result<Chain, Error> {
        if let Some(documented) = self.options(path, options)? {
            return crate::chain::of(path, &documented);
        }
        refuse_beside(self, options)?;
        let cwd = self.working_dir(path, options)?;
        let mut loader = Loader::new(options);
        match self {
            Preset::Codex => codex::load(&mut loader, &cwd, options)?,
            Preset::Opencode => opencode::load(&mut loader, &cwd, options)?,
            Preset::Pi => pi::load(&mut loader, &cwd, options)?,
            Preset::Goose => goose::load(&mut loader, &cwd, options)?,
            Preset::Zed => zed::load(&mut loader, &cwd)?,
            Preset::GeminiCli => gemini::load(&mut loader, &cwd, options)?,
            Preset::Cline => cline::load(&mut loader, &cwd, options)?,
            Preset::RooCode => roo::load(&mut loader, &cwd, options)?,
            _ => unreachable!("a closed product loads as the library's chain"),
        }
        Ok(within_budget(loader.chain, options.budget))
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
    /// replace the product's, `root` given is where the walk stops, `imports` given turns
    /// them on, the caller's `extra` files come after the product's, and every other option
    /// is the caller's. `None` for the others, each loaded its own way.
    pub fn options(self, path: &Path, options: &Options) -> Result<Option<Options>, Error> {
        if !self.is_documented() {
            return Ok(None);
        }
        let cwd = self.working_dir(path, options)?;
        let loader = Loader::new(options);
        let project = project_root(&loader, &cwd, options)?.unwrap_or_else(|| cwd.clone());
        let documented = match self {
            Preset::ClaudeCode => claude::documented(&project, options),
            Preset::Cursor => cursor::documented(&project),
            Preset::Copilot => copilot::documented(&project, options),
            Preset::Windsurf => windsurf::documented(&project, options),
            _ => amp::documented(&cwd, options)?,
        };
        Ok(Some(documented.options(options)))
    }

    /// The first touch of a session of a product reproduced from its source (not
    /// [`Preset::is_documented`]): what the product loads when it starts at `path`, and what
    /// the session remembers of it.
    pub(crate) fn start(self, path: &Path, options: &Options) -> Result<(Chain, Loaded), Error> {
        let chain = self.chain(path, options)?;
        let cwd = self.working_dir(path, options)?;
        let loaded = match self {
            Preset::GeminiCli => gemini::start(&chain, &cwd),
            _ => Loaded {
                cwd,
                seen: HashSet::new(),
            },
        };
        Ok((chain, loaded))
    }

    /// A later touch of that session: what the product newly loads when its agent reads `path`
    /// — Gemini CLI the `GEMINI.md` files between the path and its project root it has not
    /// loaded, opencode those of the directories between the path and where it runs; the
    /// others nothing, as they load their files when they start (Cline and Roo Code build
    /// their instructions anew for each request of the model, from the same files).
    pub(crate) fn touch(
        self,
        loaded: &mut Loaded,
        path: &Path,
        options: &Options,
    ) -> Result<Chain, Error> {
        let path = path::absolute(path)?;
        let mut loader = Loader::new(options);
        match self {
            Preset::GeminiCli => gemini::read(&mut loader, loaded, &path, options)?,
            Preset::Opencode => opencode::read_touch(&mut loader, loaded, &path, options)?,
            _ => {}
        }
        Ok(loader.chain)
    }

    /// The piece the product adds to what its model is given when its agent reads a file,
    /// for the files a later touch of a session gave (SPEC §12 with §10): Gemini CLI's
    /// `--- Newly Discovered Project Context ---` block after the tool's result, opencode's
    /// `<system-reminder>` after the file's text; SPEC §2's rendering for a closed product.
    /// The first touch's files are the product's start, which [`Preset::render`] renders.
    pub fn render_touch(self, files: &[File]) -> Vec<u8> {
        match self {
            Preset::GeminiCli => gemini::render_touch(files),
            Preset::Opencode => opencode::render_touch(files),
            _ => crate::render(files),
        }
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

/// Refuses, naming it, an option given beside the preset of a product reproduced from its
/// source that would change which files it loads: the product decides that itself, so the
/// option cannot override it (SPEC §12), and ignoring it would hide that.
fn refuse_beside(preset: Preset, options: &Options) -> Result<(), Error> {
    let given = [
        ("names", !options.names.is_empty() || options.all_names),
        ("extra", !options.extra.is_empty()),
        ("rendered_budget", options.rendered_budget.is_some()),
        ("fs", options.fs.is_some()),
        ("confine", options.confine),
        ("fragments", !options.fragments.is_empty()),
        ("rules", !options.rules.is_empty()),
        ("overlays", !options.overlays.is_empty()),
        ("imports", options.imports),
        ("transform", options.transform.is_some()),
        ("nearest", options.nearest),
    ];
    match given.into_iter().find(|(_, given)| *given) {
        None => Ok(()),
        Some((option, _)) => Err(Error::invalid_argument(format!(
            "preset {}: {option} cannot be given beside it, as the product decides what it \
             loads (SPEC §12); root, home, max_bytes, budget and cancel can",
            preset.as_str()
        ))),
    }
}

/// `chain` within `budget` (SPEC §1): its files spent in its order, the first that does not
/// fit and every one after it left out `OverBudget`, with the size of the text the product
/// uses.
fn within_budget(mut chain: Chain, budget: Option<u64>) -> Chain {
    let Some(budget) = budget else {
        return chain;
    };
    let mut left = Some(budget);
    let files = std::mem::take(&mut chain.files);
    for file in files {
        let size = file.content.len() as u64;
        left = left.and_then(|left| left.checked_sub(size));
        if left.is_some() {
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

/// The home directory: [`Options::home`], else the caller's (`HOME`, on Windows `USERPROFILE`).
fn home(options: &Options) -> Option<PathBuf> {
    let name = if cfg!(windows) { "USERPROFILE" } else { "HOME" };
    options.home.clone().or_else(|| env_path(name))
}

/// The environment variable `name` as a path, when it is set and not empty.
fn env_path(name: &str) -> Option<PathBuf> {
    std::env::var_os(name)
        .filter(|value| !value.is_empty())
        .map(PathBuf::from)
}

/// What a session of a product reproduced from its source remembers (SPEC §12 with §10): the
/// directory the product started in, and what it has loaded since as the product keys it
/// (Gemini CLI by file identity, opencode by path).
#[derive(Clone, Debug)]
pub(crate) struct Loaded {
    cwd: PathBuf,
    seen: HashSet<Vec<u8>>,
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
