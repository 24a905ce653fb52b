//! The walk (SPEC.md §1, §5): which instruction files apply at a path, within the bounds, and
//! which files were found and left out. One loop: check the request, ask the file system about
//! each directory of the walk, then about each overlay, and treat every file found the same way
//! (imports, transform, bounds), in the order of SPEC.md §5.1.

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rustix::fs::FileType;
use rustix::io::Errno;

use crate::budget::Budget;
use crate::error::Error;
use crate::fs::{Appended, ConfinedFs, Dirs, Entry, FileSystem, Lookup, OsDir, OsFs};
use crate::import::{ImportTargets, Imports, State as ImportState, Target};
use crate::options::{Options, Transform};
use crate::path::{self, FsName, OS_ROOT};
use crate::path_list::Mark;
use crate::probe::{Outcome, Probes};
use crate::render::Instruction;

/// Where a file of the result comes from (SPEC.md §5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Source {
    /// One of [`Options::extra`].
    Extra,
    /// A directory of the walk's file.
    Chain,
    /// A file of a fragment directory of a directory of the walk ([`Options::fragments`]).
    Fragment,
    /// An overlay directory's file, or a file of its fragment directories
    /// ([`Options::overlays`]).
    Overlay,
}

impl Source {
    /// The word SPEC.md §5.1 and the CLI's JSON (§7) use: `extra`, `chain`, `fragment`,
    /// `overlay`.
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Extra => "extra",
            Source::Chain => "chain",
            Source::Fragment => "fragment",
            Source::Overlay => "overlay",
        }
    }
}

/// One instruction file, read verbatim.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct File {
    /// The absolute OS path, or the name in the custom file system for a file of the chain.
    pub path: PathBuf,
    /// The bytes read.
    pub content: Vec<u8>,
    /// Where it comes from.
    pub source: Source,
}

impl Instruction for File {
    fn path(&self) -> &[u8] {
        path::bytes(&self.path)
    }
    fn content(&self) -> &[u8] {
        &self.content
    }
}

/// Why a file found was left out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Reason {
    /// The file, or one before it, would have taken the files over `budget` or the rendering
    /// over `rendered_budget`.
    OverBudget,
    /// An earlier name of `names` stands for the same directory.
    Shadowed,
    /// Under [`Options::confine`]: a symbolic link that leads out of `root`, so nothing was read
    /// through it — an instruction file's name (the next name is tried for its directory), or a
    /// directory of the walk (nothing in or below it was looked up), or a fragment directory
    /// (nothing in it was listed). `size` is 0.
    Escapes,
    /// Already in the result, so not read again: with [`Options::imports`], imported into an
    /// earlier kept file by the file `by`; or a path that is already a file of the result, `by`
    /// being its own path (an overlay given twice, or one that is a directory of the walk:
    /// SPEC.md §5.3).
    Duplicate,
    /// With [`Options::nearest`]: a directory's file other than the nearest one, `by`; not read.
    Superseded,
}

impl Reason {
    /// The word the CLI's JSON uses (SPEC.md §7): `over_budget`, `shadowed`, `escapes`,
    /// `duplicate`, `superseded`.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::OverBudget => "over_budget",
            Reason::Shadowed => "shadowed",
            Reason::Escapes => "escapes",
            Reason::Duplicate => "duplicate",
            Reason::Superseded => "superseded",
        }
    }
}

/// A file found and not included.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Omitted {
    /// The file's path, its stable key.
    pub path: PathBuf,
    /// The bytes read, for a file read and then left out over budget; 0 for
    /// [`Reason::Escapes`]; otherwise the size the file system reported.
    pub size: u64,
    /// Why it was left out.
    pub reason: Reason,
    /// The file that took its place, for [`Reason::Shadowed`] and [`Reason::Superseded`]; the
    /// file whose directive imported it, or its own path when it is already a file of the
    /// result, for [`Reason::Duplicate`].
    pub by: Option<PathBuf>,
}

/// What [`chain`] found: the files that apply, farthest first and nearest last, and every file
/// found and left out, in the order met.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Chain {
    /// The files to include in the order of SPEC.md §5.1: `extra` first, then for each
    /// directory from root to the start its file and its fragments, then the overlays.
    pub files: Vec<File>,
    /// The files found and not included.
    pub omitted: Vec<Omitted>,
    /// With [`Options::imports`]: each directive expanded into a kept file, in the order met.
    pub imports: Imports,
    /// With [`Options::report`]: every place looked at, in the order looked at.
    pub probes: Probes,
}

/// Returns the instruction files that apply at `path`: `options.extra` first, then the first of
/// `options.names` that each directory from `options.root` down to the start directory lists,
/// within the bounds. See SPEC.md §1 for every rule.
///
/// With [`Options::fs`], `path` and `root` are names in that file system.
///
/// Composition (SPEC.md §5), each opt-in: each directory's [`Options::fragments`] follow its
/// file, the [`Options::overlays`] follow the walk, [`Options::imports`] expands directives,
/// [`Options::transform`] rewrites each file read, [`Options::nearest`] keeps only the nearest
/// directory's file, and [`Options::report`] lists every place looked at.
///
/// ```
/// let dir = tempfile::tempdir()?;
/// std::fs::write(dir.path().join("AGENTS.md"), "@docs/style.md\n")?;
/// std::fs::create_dir_all(dir.path().join("docs"))?;
/// std::fs::write(dir.path().join("docs/style.md"), "Use tabs.\n")?;
/// let options = agentsmd_core::Options::new().root(dir.path()).imports(true);
/// let chain = agentsmd_core::chain(dir.path().join("main.rs"), &options)?;
/// assert_eq!(chain.files[0].content, b"Use tabs.\n");
/// assert_eq!(chain.imports.get(0).map(|import| import.line), Some(1));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// ```
/// let dir = tempfile::tempdir()?;
/// std::fs::write(dir.path().join("AGENTS.md"), "root rules\n")?;
/// std::fs::create_dir(dir.path().join("src"))?;
/// let mut options = agentsmd_core::Options::default();
/// options.root = Some(dir.path().to_path_buf());
/// let chain = agentsmd_core::chain(dir.path().join("src/main.rs"), &options)?;
/// assert_eq!(chain.files.len(), 1);
/// assert_eq!(chain.files[0].content, b"root rules\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn chain(path: impl AsRef<Path>, options: &Options) -> Result<Chain, Error> {
    let request = Request::new(path.as_ref(), options)?;
    let mut walk = Walk::new(options, &request);
    for extra in &request.extras {
        walk.extra(extra)?;
    }
    let tree = Tree::open(&request, options)?;
    let (root, name) = request.names_below();
    // The start, as the length of its name in the path's.
    let start = match tree.stat_named(name, &request.os_path)? {
        // Whether a path that leads out of root is a directory is not asked: the walk goes down
        // to it, so that it is reported as leading out.
        Some(Entry::Dir | Entry::Escapes) => name.len(),
        // Otherwise its parent, but never above the root.
        _ if name == root => root.len(),
        _ => memchr::memrchr(b'/', name).unwrap_or(0),
    };
    let dirs = Dirs::new(root, name, start);
    let lookups = tree
        .fs()
        .lookup_below(&dirs, &request.names, request.fragments)?;
    let nearest = if options.nearest {
        nearest(&tree, &dirs, &lookups.0, &request.names)
    } else {
        None
    };
    // Only imports are bounded by the scope.
    let scope = match options.imports {
        true => tree.path_of(root),
        false => Vec::new(),
    };
    let place = Place {
        tree: &tree,
        scope: &scope,
        file: Source::Chain,
        fragment: Source::Fragment,
    };
    // Without fragments to look for and probes to report, a directory that holds none of the
    // names asks nothing more.
    let quiet = request.fragments.is_empty() && !options.report;
    // The report grows with the places looked at, as they are (SPEC.md §5.8): no room is made
    // ahead for places not yet looked at.
    let (lookups, stats) = lookups;
    // At most one file per directory that has a name, one per extra and per overlay, and a
    // few per fragment directory found: room for them at once, not by doubling.
    let hits = lookups
        .iter()
        .filter(|lookup| matches!(lookup, Lookup::Names(entries) if !entries.is_empty()))
        .count();
    let fragment_dirs = stats
        .iter()
        .filter(|stat| matches!(stat, Ok(Some(Entry::Dir))))
        .count();
    let others = request.extras.len() + request.overlays.len();
    walk.chain.files.reserve(hits + others + 4 * fragment_dirs);
    let mut stats = stats.into_iter();
    let fragments = request.fragments.len();
    for (i, lookup) in lookups.into_iter().enumerate() {
        // A directory with none of the names and none of the fragment directories, the common
        // case, holds nothing: at most its probes, and it is skipped without building its name.
        let holds_nothing = match &lookup {
            Lookup::Missing => true,
            Lookup::Names(entries) => {
                let absent = |stat: &Result<Option<Entry>, Error>| matches!(stat, Ok(None));
                entries.is_empty() && (quiet || stats.as_slice().iter().take(fragments).all(absent))
            }
            Lookup::Escapes => false,
        };
        if holds_nothing {
            if !quiet {
                if let Lookup::Names(_) = lookup {
                    stats.by_ref().take(fragments).for_each(drop);
                }
                walk.enter(&tree, &dirs, i);
                walk.absent(&place);
            }
            continue;
        }
        walk.enter(&tree, &dirs, i);
        let superseded_by = nearest
            .as_ref()
            .filter(|(at, _)| *at != i)
            .map(|(_, by)| by.as_path());
        walk.directory(&place, dirs.bytes(i), lookup, &mut stats, superseded_by)?;
    }
    let os = Tree::os();
    for overlay in &request.overlays {
        // One inside a confined root is confined like the walk (SPEC.md §5.3); one outside it
        // is the host's choice, as an extra is.
        let confined = tree.confines(path::bytes(overlay));
        walk.overlay(if confined { &tree } else { &os }, overlay)?;
    }
    Ok(walk.chain)
}

/// The nearest file (SPEC.md §5.6), with its directory's index: the file of the last directory
/// of the walk that has one. Decided from the lookups, so that no file it supersedes is read.
fn nearest(
    tree: &Tree,
    dirs: &Dirs<'_>,
    lookups: &[Lookup],
    names: &[Vec<u8>],
) -> Option<(usize, PathBuf)> {
    lookups.iter().enumerate().rev().find_map(|(i, lookup)| {
        let Lookup::Names(entries) = lookup else {
            return None;
        };
        let (index, _) = entries
            .iter()
            .find(|(_, entry)| matches!(entry, Entry::File { .. }))?;
        let file = tree.path_of_child(dirs.bytes(i), &names[*index]);
        Some((i, path::into_path_buf(file)))
    })
}

/// A chain's arguments, checked, in the order the errors are reported; borrowed from the
/// options and the path wherever they are already in the form the walk needs.
struct Request<'a> {
    /// The names looked for, without repeats.
    names: Cow<'a, [Vec<u8>]>,
    /// The fragment directories, each checked.
    fragments: &'a [Vec<u8>],
    /// With a custom file system: the root and the path, checked names of it.
    fs_names: Option<(&'a [u8], &'a [u8])>,
    /// Confined: the OS names are below the root rather than below `/`.
    confine: bool,
    /// The path, absolute and clean, for the OS file systems.
    os_path: Cow<'a, [u8]>,
    /// The OS root, absolute and clean, for the OS file systems.
    os_root: Cow<'a, [u8]>,
    /// The extra files, absolute and clean.
    extras: Vec<PathBuf>,
    /// The overlay directories, absolute and clean.
    overlays: Vec<PathBuf>,
}

impl<'a> Request<'a> {
    fn new(path: &'a Path, options: &'a Options) -> Result<Self, Error> {
        let names = options.effective_names();
        for name in names.iter() {
            path::check_name(name)?;
        }
        for fragment in &options.fragments {
            path::check_fragment(fragment)?;
        }
        let (os_root, os_path, fs_names) = match &options.fs {
            None => {
                let os_root = match &options.root {
                    Some(root) => path::absolute_bytes(root)?,
                    None => Cow::Borrowed(OS_ROOT),
                };
                path::check_length(&os_root, "root")?;
                if options.confine && *os_root == *OS_ROOT {
                    return Err(Error::confined_to_slash());
                }
                let path = path::absolute_bytes(path)?;
                path::check_length(&path, "path")?;
                if !path::is_below_or_at(&path, &os_root) {
                    return Err(outside(&path, &os_root));
                }
                (os_root, path, None)
            }
            Some(_) => {
                // The names as given, their length checked before their elements.
                let root = match &options.root {
                    Some(root) => {
                        path::check_length(path::bytes(root), "root")?;
                        fs_name(path::bytes(root), "root")?
                    }
                    None => ROOT_NAME,
                };
                path::check_length(path::bytes(path), "path")?;
                let path = fs_name(path::bytes(path), "path")?;
                if !path::is_within(path, root) {
                    return Err(outside(path, root));
                }
                let none = Cow::Borrowed(&b""[..]);
                (none.clone(), none, Some((root, path)))
            }
        };
        // Every extra is checked before the first is read, so that a bad one fails the same way
        // wherever it is in the list.
        let extras = absolute_all(&options.extra)?;
        let overlays = absolute_all(&options.overlays)?;
        Ok(Self {
            names,
            fragments: &options.fragments,
            fs_names,
            confine: options.confine,
            os_root,
            os_path,
            extras,
            overlays,
        })
    }

    /// The root and the path as names below the tree's base (see [`Tree`]), borrowed: on the
    /// OS, each is its path's bytes below the base (the root, confined; otherwise `/`).
    fn names_below(&self) -> (&[u8], &[u8]) {
        if let Some(names) = self.fs_names {
            return names;
        }
        let base: &[u8] = if self.confine { &self.os_root } else { OS_ROOT };
        (
            path::below(base, &self.os_root),
            path::below(base, &self.os_path),
        )
    }
}

/// Each of `paths` made absolute and clean; the first that cannot be is the error.
fn absolute_all(paths: &[PathBuf]) -> Result<Vec<PathBuf>, Error> {
    let mut all = Vec::with_capacity(paths.len());
    for path in paths {
        all.push(path::absolute(path)?);
    }
    Ok(all)
}

fn fs_name<'n>(name: &'n [u8], what: &str) -> Result<&'n [u8], Error> {
    path::check_fs_name(name).map_err(|e| Error::invalid_argument(format!("{what} {e}")))?;
    Ok(name)
}

fn outside(path: &[u8], root: &[u8]) -> Error {
    Error::invalid_argument([&b"path "[..], path, b" is outside root ", root].concat())
}

/// The file system a walk reads, and the OS path its names are below (`None`: a custom file
/// system, whose names are the paths).
pub(crate) struct Tree<'a> {
    fs: TreeFs<'a>,
    base: Option<&'a [u8]>,
}

/// The file system of a [`Tree`]: the OS's needs no allocation, a custom one is borrowed from
/// the options.
enum TreeFs<'a> {
    Os,
    Confined(ConfinedFs),
    Custom(&'a dyn FileSystem),
}

/// The OS file system, shared by every walk.
static OS: OsFs = OsFs;

/// The bytes of [`FsName::root`].
const ROOT_NAME: &[u8] = b".";

impl<'a> Tree<'a> {
    fn open(request: &'a Request, options: &'a Options) -> Result<Self, Error> {
        Ok(match &options.fs {
            Some(fs) => Self {
                fs: TreeFs::Custom(&**fs),
                base: None,
            },
            None if options.confine => Self {
                fs: TreeFs::Confined(ConfinedFs::open(&path::to_path_buf(&request.os_root))?),
                base: Some(&request.os_root),
            },
            None => Self::os(),
        })
    }

    /// The OS file system, names below `/`.
    pub(crate) fn os() -> Self {
        Self {
            fs: TreeFs::Os,
            base: Some(OS_ROOT),
        }
    }

    pub(crate) fn fs(&self) -> &dyn FileSystem {
        match &self.fs {
            TreeFs::Os => &OS,
            TreeFs::Confined(fs) => fs,
            TreeFs::Custom(fs) => *fs,
        }
    }

    /// The path the name of this tree whose bytes are `name` is reported under.
    pub(crate) fn path_of(&self, name: &[u8]) -> Vec<u8> {
        let base = self.base.map_or(0, <[u8]>::len);
        let mut path = Vec::with_capacity(base + 1 + name.len());
        self.write_path(name, &mut path);
        path
    }

    /// Appends [`Tree::path_of`] of the name whose bytes are `name` to `out`.
    fn write_path(&self, name: &[u8], out: &mut Vec<u8>) {
        match self.base {
            Some(base) => {
                out.extend_from_slice(base);
                if name != ROOT_NAME {
                    if base != OS_ROOT {
                        out.push(b'/');
                    }
                    out.extend_from_slice(name);
                }
            }
            None => out.extend_from_slice(name),
        }
    }

    /// Sets `out` to what [`Tree::path_of`] of each child of the directory whose name's bytes
    /// are `dir` starts with: its path and a `/`, or nothing for a custom file system's root.
    fn child_prefix(&self, dir: &[u8], out: &mut Vec<u8>) {
        out.clear();
        if self.base.is_some() || dir != ROOT_NAME {
            self.write_path(dir, out);
            if !out.ends_with(b"/") {
                out.push(b'/');
            }
        }
    }

    /// [`Tree::path_of`] of `element` in the directory whose name's bytes are `dir`, without
    /// the joined name.
    fn path_of_child(&self, dir: &[u8], element: &[u8]) -> Vec<u8> {
        // Sized at once: the path is a file's of the result, kept as it is built.
        let base = self.base.map_or(0, <[u8]>::len);
        let mut path = Vec::with_capacity(base + dir.len() + element.len() + 2);
        self.child_prefix(dir, &mut path);
        path.extend_from_slice(element);
        path
    }

    /// [`FileSystem::stat`] of the name whose bytes are `name` and whose [`Tree::path_of`] is
    /// `path`: on the OS by that path, with no copy of either.
    fn stat_named(&self, name: &[u8], path: &[u8]) -> Result<Option<Entry>, Error> {
        match self.fs {
            TreeFs::Os => OS.stat_path(path),
            _ => self.fs().stat(&FsName::prefix_of(name, name.len())),
        }
    }

    /// Whether the OS path `path` is this tree's confined root or below it, so that read from
    /// this tree it is confined.
    fn confines(&self, path: &[u8]) -> bool {
        match (&self.fs, self.base) {
            (TreeFs::Confined(_), Some(base)) => path::is_below_or_at(path, base),
            _ => false,
        }
    }

    /// `stat(2)` of the name whose bytes are `name` and whose [`Tree::path_of`] is `path`,
    /// following links, for a caller that tells "not found" from every other failure: by that
    /// path on the OS, beneath the root when confined (a link that leads out is `EXDEV`). Asked
    /// only of an OS tree.
    fn stat_os(&self, name: &[u8], path: &[u8]) -> Result<rustix::fs::Stat, Errno> {
        match &self.fs {
            TreeFs::Confined(fs) => fs.stat_beneath(name),
            _ => rustix::fs::stat(path),
        }
    }

    /// [`FileSystem::list`] of the directory `dir`, kept open on the OS so that its entries are
    /// asked about and read by their names in it.
    fn list(&self, dir: &FsName) -> Result<Option<Listed>, Error> {
        if let TreeFs::Os = self.fs {
            let path = self.path_of(dir.as_bytes());
            let Some(open) = OsDir::open(&path)? else {
                return Ok(None);
            };
            let names = open.names(&path)?;
            return Ok(Some(Listed {
                names,
                dir: Some(open),
            }));
        }
        let names = self.fs().list(dir)?;
        Ok(names.map(|names| Listed { names, dir: None }))
    }

    /// The name of a path of this tree, the inverse of [`Tree::path_of`]: an import target,
    /// which is within the scope and so within the tree.
    fn name_of(&self, path: &[u8]) -> Result<FsName, Error> {
        match self.base {
            Some(base) => Ok(path::name_below(base, path)),
            None => FsName::new(path),
        }
    }
}

/// What [`Tree::list`] answers: the names a directory lists, and on the OS the directory, open.
struct Listed {
    names: Vec<Vec<u8>>,
    dir: Option<OsDir>,
}

/// Import targets are files of the tree their top-level file is read from: under confinement a
/// link out of root is [`Entry::Escapes`], so imports stay confined with no code of their own.
impl ImportTargets for Tree<'_> {
    fn stat(&self, path: &[u8]) -> Result<Target, Error> {
        // On the OS, the target's path is the name's OS path: asked as it is.
        let stat = match self.fs {
            TreeFs::Os => OS.stat_path(path),
            _ => self.fs().stat(&self.name_of(path)?),
        };
        Ok(match stat {
            Ok(Some(Entry::File { size })) => Target::File { size },
            Ok(Some(Entry::Escapes)) => Target::Escapes,
            Ok(Some(Entry::Dir | Entry::Other)) => Target::NotAFile,
            Ok(None) => Target::NotFound,
            // A `P` through a file names nothing: it is not found, as in a custom file system.
            Err(error) if runs_through_a_file(&error) => Target::NotFound,
            Err(error) => return Err(error),
        })
    }

    fn read(&self, path: &[u8], size_hint: u64, limit: u64, out: &mut Vec<u8>) -> Appended {
        if let TreeFs::Os = self.fs {
            return OS.read_path(path, size_hint, limit, out);
        }
        // The trait's file system answers with bytes of their own: appended as they are, if
        // there is memory for them (SPEC.md §4).
        let Some(bytes) = self.fs().read(&self.name_of(path)?, size_hint, limit)? else {
            return Ok(None);
        };
        out.try_reserve(bytes.len())
            .map_err(|_| Error::io("read", path, crate::fs::out_of_memory()))?;
        out.extend_from_slice(&bytes);
        Ok(Some(bytes.len()))
    }
}

/// Whether an OS error is `ENOTDIR`: a path that names a non-directory as a directory.
pub(crate) fn runs_through_a_file(error: &Error) -> bool {
    error.os_code() == Some(Errno::NOTDIR.raw_os_error())
}

/// Where the files of a directory come from: the tree they are read from, their sources, and
/// the scope of their imports (SPEC.md §5.4 "Paths", §5.8).
struct Place<'t> {
    tree: &'t Tree<'t>,
    scope: &'t [u8],
    /// The source of the directory's own file.
    file: Source,
    /// The source of the files of its fragment directories.
    fragment: Source,
}

/// The state of one walk: what it has kept and left out, and what the bounds have left.
struct Walk<'a> {
    request: &'a Request<'a>,
    chain: Chain,
    max_bytes: u64,
    budget: Budget,
    /// One per chain, with [`Options::imports`]: duplicates and `max_imports` count across it.
    imports: Option<ImportState>,
    /// With fragments or overlays, which can give a path the result already holds (SPEC.md
    /// §5.3): the path of each file kept, with its source.
    kept: Option<HashMap<Vec<u8>, Source>>,
    transform: Option<&'a Transform>,
    report: bool,
    /// What the paths of the children of the directory being probed start with (see
    /// [`Walk::set_prefix`]).
    prefix: Vec<u8>,
    /// The directory of the walk whose children's paths `prefix` starts (see [`Walk::enter`]).
    entered: Option<usize>,
}

impl<'a> Walk<'a> {
    fn new(options: &'a Options, request: &'a Request<'a>) -> Self {
        let imports = options.imports.then(|| {
            ImportState::new(
                options.import_depth.unwrap_or(0),
                options.max_imports.unwrap_or(0),
            )
        });
        Self {
            request,
            chain: Chain::default(),
            max_bytes: options.effective_max_bytes(),
            budget: Budget::new(options.budget, options.rendered_budget),
            imports,
            kept: (!request.fragments.is_empty() || !request.overlays.is_empty())
                .then(HashMap::new),
            transform: options.transform.as_ref(),
            report: options.report,
            prefix: Vec::new(),
            entered: None,
        }
    }

    /// An extra file: skipped when it does not exist, an error when it is no regular file.
    fn extra(&mut self, extra: &Path) -> Result<(), Error> {
        let tree = Tree::os();
        let bytes = path::bytes(extra);
        match OS.stat_path(bytes)? {
            None => {
                self.probe(bytes, Source::Extra, Outcome::NotFound);
                Ok(())
            }
            Some(Entry::File { size }) => {
                let scope = path::parent(bytes).unwrap_or(OS_ROOT);
                self.consider(&tree, bytes.to_vec(), size, Source::Extra, scope, None)
                    .map(drop)
            }
            Some(_) => Err(Error::invalid_argument(
                [&b"extra "[..], bytes, b": not a regular file"].concat(),
            )),
        }
    }

    /// An overlay directory (SPEC.md §5.3): one more directory of the walk, on the OS, read from
    /// `tree`: the confined root's for an overlay inside it, so that it is confined as the walk
    /// is (its file, its fragments and its imports), otherwise the OS's.
    fn overlay(&mut self, tree: &Tree, overlay: &Path) -> Result<(), Error> {
        let bytes = path::bytes(overlay);
        let dir = path::below(tree.base.unwrap_or(OS_ROOT), bytes);
        let place = Place {
            tree,
            scope: bytes,
            file: Source::Overlay,
            fragment: Source::Overlay,
        };
        // Only "not found" skips an overlay: a link that loops or a path through a file is the
        // host's mistake, said rather than taken for an overlay that is not there.
        match tree.stat_os(dir, bytes) {
            Ok(stat) if FileType::from_raw_mode(stat.st_mode) == FileType::Directory => {}
            Ok(_) => {
                return Err(Error::invalid_argument(
                    [&b"overlay "[..], bytes, b": not a directory"].concat(),
                ))
            }
            Err(Errno::NOENT) => {
                self.set_prefix(tree, dir);
                self.absent(&place);
                return Ok(());
            }
            // Confined, a link that leads out of root: as a directory of the walk that does.
            Err(errno) if errno == Errno::XDEV => {
                let none = &mut std::iter::empty();
                return self.directory(&place, dir, Lookup::Escapes, none, None);
            }
            Err(errno) => return Err(Error::io("stat", bytes, errno.into())),
        }
        let dirs = Dirs::new(dir, dir, dir.len());
        let request = self.request;
        let lookup = tree
            .fs()
            .lookup_below(&dirs, &request.names, request.fragments)?;
        let (lookups, stats) = lookup;
        let lookup = lookups.into_iter().next().unwrap_or(Lookup::Missing);
        self.set_prefix(tree, dir);
        self.directory(&place, dir, lookup, &mut stats.into_iter(), None)
    }

    /// One directory of the walk or overlay, the one [`Walk::probe_child`] probes in: the first
    /// of its names that is a regular file stands for it, and the rest are shadowed by it; then
    /// its fragments, whose directories' stats are the next of `stats` (one per fragment
    /// directory, for a directory found). With `superseded_by` (SPEC.md §5.6) the file that
    /// stands for it is superseded, unread.
    fn directory(
        &mut self,
        place: &Place,
        dir: &[u8],
        lookup: Lookup,
        stats: &mut impl Iterator<Item = Result<Option<Entry>, Error>>,
        superseded_by: Option<&Path>,
    ) -> Result<(), Error> {
        let entries = match lookup {
            Lookup::Missing => {
                self.absent(place);
                return Ok(());
            }
            Lookup::Escapes => {
                let path = place.tree.path_of(dir);
                self.probe(&path, place.file, Outcome::Escapes);
                self.escapes(path);
                return Ok(());
            }
            Lookup::Names(entries) => entries,
        };
        let request = self.request;
        let mut entries = entries.into_iter().peekable();
        // The file standing for the directory, once one does; its path is kept only when a
        // later name was found, which it then shadows.
        let mut standing: Option<Option<PathBuf>> = None;
        for (index, name) in request.names.iter().enumerate() {
            let Some((_, entry)) = entries.next_if(|(at, _)| *at == index) else {
                self.probe_child(name, place.file, Outcome::NotFound);
                continue;
            };
            match entry {
                Entry::File { size } => {
                    let path = place.tree.path_of_child(dir, name);
                    let later = entries.peek().is_some();
                    let by_later = || later.then(|| path::to_path_buf(&path));
                    // A file both superseded and a duplicate is a duplicate (SPEC.md §5.8): its
                    // text is in the result already.
                    let superseded_by =
                        superseded_by.filter(|_| self.duplicate_by(&path, place.file).is_none());
                    if let Some(by) = &standing {
                        self.omit(&path, size, Reason::Shadowed, by.clone(), place.file);
                    } else if let Some(by) = superseded_by {
                        let kept = by_later();
                        self.omit(
                            &path,
                            size,
                            Reason::Superseded,
                            Some(by.to_path_buf()),
                            place.file,
                        );
                        standing = Some(kept);
                    } else {
                        let kept = by_later();
                        let tree = place.tree;
                        if self.consider(tree, path, size, place.file, place.scope, None)? {
                            standing = Some(kept);
                        }
                    }
                }
                Entry::Escapes => {
                    let path = place.tree.path_of_child(dir, name);
                    self.probe(&path, place.file, Outcome::Escapes);
                    self.escapes(path);
                }
                Entry::Dir | Entry::Other => self.probe_child(name, place.file, Outcome::NotAFile),
            }
        }
        for (fragment, stat) in request.fragments.iter().zip(stats) {
            // Absent and not reported, the common case: nothing more to do, no name to build.
            // Reported, its path is built in one buffer, without the joined name.
            if matches!(stat, Ok(None)) {
                self.probe_child(fragment, place.fragment, Outcome::NotFound);
                continue;
            }
            self.fragments(place, &FsName::child_of(dir, fragment), stat)?;
        }
        Ok(())
    }

    /// The directory [`Walk::probe_child`] probes in, when it does not exist or holds none of
    /// the names and none of the fragment directories: every place in it is probed as not
    /// found, and nothing more is asked of the file system.
    fn absent(&mut self, place: &Place) {
        if !self.report {
            return;
        }
        let request = self.request;
        for name in request.names.iter() {
            self.probe_child(name, place.file, Outcome::NotFound);
        }
        for fragment in request.fragments {
            self.probe_child(fragment, place.fragment, Outcome::NotFound);
        }
    }

    /// A fragment directory (SPEC.md §5.2), whose stat is `stat`: its `.md` regular files not
    /// beginning with `.`, in byte order. The stat alone answers where it is absent, the common
    /// case.
    fn fragments(
        &mut self,
        place: &Place,
        fragments: &FsName,
        stat: Result<Option<Entry>, Error>,
    ) -> Result<(), Error> {
        let tree = place.tree;
        let entry = match stat {
            // `.agents/AGENTS.d` where `.agents` is a file: no fragment directory (SPEC.md §5.8).
            Err(error) if runs_through_a_file(&error) => None,
            entry => entry?,
        };
        let listed = match entry {
            Some(Entry::Dir) => tree.list(fragments)?,
            Some(Entry::Escapes) => {
                let path = tree.path_of(fragments.as_bytes());
                self.probe(&path, place.fragment, Outcome::Escapes);
                self.escapes(path);
                return Ok(());
            }
            Some(Entry::File { .. } | Entry::Other) => {
                self.probe_name(tree, fragments, place.fragment, Outcome::NotAFile);
                return Ok(());
            }
            None => None,
        };
        let Some(listed) = listed else {
            self.probe_name(tree, fragments, place.fragment, Outcome::NotFound);
            return Ok(());
        };
        self.probe_name(tree, fragments, place.fragment, Outcome::Listed);
        let mut files = listed.names;
        files.retain(|name| {
            name.ends_with(b".md") && !name.starts_with(b".") && path::is_element(name)
        });
        files.sort_unstable();
        files.dedup();
        for file in files {
            let path = tree.path_of_child(fragments.as_bytes(), &file);
            let stat = match &listed.dir {
                Some(dir) => dir.stat(&file, &path),
                None => tree.fs().stat(&fragments.join(&file)),
            };
            match stat? {
                Some(Entry::File { size }) => {
                    let in_dir = listed.dir.as_ref().map(|dir| (dir, &file[..]));
                    self.consider(tree, path, size, place.fragment, place.scope, in_dir)?;
                }
                Some(Entry::Escapes) => {
                    self.probe(&path, place.fragment, Outcome::Escapes);
                    self.escapes(path);
                }
                // Listed but leading nowhere: a dangling link, no file.
                Some(Entry::Dir | Entry::Other) | None => {
                    self.probe(&path, place.fragment, Outcome::NotAFile)
                }
            }
        }
        Ok(())
    }

    fn escapes(&mut self, path: Vec<u8>) {
        self.chain.omitted.push(Omitted {
            path: path::to_path_buf(&path),
            size: 0,
            reason: Reason::Escapes,
            by: None,
        });
    }

    /// Leaves out a file decided without reading it, probed with the outcome of its reason.
    fn omit(
        &mut self,
        path: &[u8],
        size: u64,
        reason: Reason,
        by: Option<PathBuf>,
        source: Source,
    ) {
        let outcome = match reason {
            Reason::Shadowed => Outcome::Shadowed,
            Reason::Superseded => Outcome::Superseded,
            Reason::Duplicate => Outcome::Duplicate,
            Reason::OverBudget => Outcome::OverBudget,
            Reason::Escapes => Outcome::Escapes,
        };
        self.probe(path, source, outcome);
        self.chain.omitted.push(Omitted {
            path: path::to_path_buf(path),
            size,
            reason,
            by,
        });
    }

    /// Keeps the file at `path` (a [`Tree::path_of`]), or leaves it out (a duplicate, over
    /// budget); `scope` bounds its imports. It is read by its path, or as the entry of an open
    /// directory (`in_dir`: the directory and the entry's name). `false` when it turned out not
    /// to exist when read, so that it is no file at all.
    fn consider(
        &mut self,
        tree: &Tree,
        path: Vec<u8>,
        size: u64,
        source: Source,
        scope: &[u8],
        in_dir: Option<(&OsDir, &[u8])>,
    ) -> Result<bool, Error> {
        if let Some(by) = self.duplicate_by(&path, source) {
            self.omit(&path, size, Reason::Duplicate, Some(by), source);
            return Ok(true);
        }
        if !self.budget.fits_unread(&path, size) {
            let no_imports = self.chain.imports.mark();
            self.over_budget(&path, size, source, no_imports);
            return Ok(true);
        }
        let limit = self.max_bytes.saturating_add(1);
        let mut content = Vec::new();
        let read = match in_dir {
            Some((dir, name)) => dir.read(name, &path, size, limit, &mut content)?,
            None => ImportTargets::read(tree, &path, size, limit, &mut content)?,
        };
        if read.is_none() {
            self.probe(&path, source, Outcome::NotFound);
            return Ok(false);
        }
        if content.len() as u64 > self.max_bytes {
            return Err(Error::too_large(&path, self.max_bytes));
        }
        // The imports met are added to the chain's list as they are met, and taken back if
        // the file is left out.
        let imports_from = self.chain.imports.mark();
        let (content, before) = match &mut self.imports {
            Some(state) => {
                let imports = &mut self.chain.imports;
                let expansion =
                    state.expand(&path, content, scope, tree, self.max_bytes, imports)?;
                (expansion.content, Some(expansion.before))
            }
            None => (content, None),
        };
        let content = match self.transform {
            Some(transform) => transform.apply_within(&path, content, self.max_bytes)?,
            None => content,
        };
        // Bounds count the expanded, transformed text, and name the top-level file.
        if content.len() as u64 > self.max_bytes {
            return Err(Error::too_large(&path, self.max_bytes));
        }
        if !self.budget.spend(&path, &content) {
            if let (Some(state), Some(before)) = (&mut self.imports, before) {
                state.leave_out(before);
            }
            self.over_budget(&path, content.len() as u64, source, imports_from);
            self.chain.imports.truncate(imports_from);
            return Ok(true);
        }
        if let Some(state) = &mut self.imports {
            state.keep(&path);
        }
        if let Some(kept) = &mut self.kept {
            kept.insert(path.clone(), source);
        }
        self.probe(&path, source, Outcome::Included);
        self.probe_imports(imports_from, source);
        self.chain.files.push(File {
            path: path::into_path_buf(path),
            content,
            source,
        });
        Ok(true)
    }

    /// The `by` of the top-level file at `path` of `source` when it is a duplicate, decided
    /// without reading it: itself, when it is already a file of the result (SPEC.md §5.3); or
    /// the file whose directive imported it (§5.4). Two files that §1 alone gives (an extra, a
    /// directory's file) are no duplicates of each other: §1 holds as it is (§5).
    fn duplicate_by(&self, path: &[u8], source: Source) -> Option<PathBuf> {
        let section_1 = |source| matches!(source, Source::Extra | Source::Chain);
        let kept = self.kept.as_ref().and_then(|kept| kept.get(path));
        if kept.is_some_and(|&earlier| !(section_1(earlier) && section_1(source))) {
            return Some(path::to_path_buf(path));
        }
        let by = self.imports.as_ref()?.imported_by(path)?;
        Some(path::to_path_buf(by))
    }

    /// Leaves out a file over budget, which ends the chain; the imports it read, the chain's
    /// since `imports_from`, are probed.
    fn over_budget(&mut self, path: &[u8], size: u64, source: Source, imports_from: Mark) {
        self.budget.ended = true;
        self.omit(path, size, Reason::OverBudget, None, source);
        self.probe_imports(imports_from, source);
    }

    /// Probes the chain's imports since `from`, met in a file of source `source`.
    fn probe_imports(&mut self, from: Mark, source: Source) {
        if !self.report {
            return;
        }
        for import in self.chain.imports.since(from) {
            let outcome = match import.duplicate {
                true => Outcome::Duplicate,
                false => Outcome::Imported,
            };
            let path = path::bytes(import.path);
            self.chain.probes.push(path, source, outcome);
        }
    }

    /// Probes the name `name` of `tree`, its path built only when probes are asked for.
    fn probe_name(&mut self, tree: &Tree, name: &FsName, source: Source, outcome: Outcome) {
        if self.report {
            let write = |paths: &mut Vec<u8>| tree.write_path(name.as_bytes(), paths);
            self.chain.probes.push_with(source, outcome, write);
        }
    }

    /// With probes asked for, makes `dir` of `tree` the directory [`Walk::probe_child`] probes
    /// in: its path is built once for all its probes.
    fn set_prefix(&mut self, tree: &Tree, dir: &[u8]) {
        if self.report {
            tree.child_prefix(dir, &mut self.prefix);
            self.entered = None;
        }
    }

    /// [`Walk::set_prefix`] of the `i`th directory of the walk `dirs` of `tree`. The walk goes
    /// down one directory at a time, so the prefix of its children's paths is its parent's and
    /// one element more, not a path built again for each directory.
    fn enter(&mut self, tree: &Tree, dirs: &Dirs, i: usize) {
        if !self.report {
            return;
        }
        match i.checked_sub(1) {
            Some(parent) if self.entered == Some(parent) => {
                self.prefix.extend_from_slice(dirs.element(i));
                self.prefix.push(b'/');
            }
            _ => tree.child_prefix(dirs.bytes(i), &mut self.prefix),
        }
        self.entered = Some(i);
    }

    /// Probes `element` in the directory of the last [`Walk::set_prefix`]: [`Walk::probe_name`]
    /// of the directory's name joined with `element`, without building that name.
    fn probe_child(&mut self, element: &[u8], source: Source, outcome: Outcome) {
        if self.report {
            let prefix = &self.prefix;
            self.chain.probes.push_with(source, outcome, |paths| {
                paths.extend_from_slice(prefix);
                paths.extend_from_slice(element);
            });
        }
    }

    fn probe(&mut self, path: &[u8], source: Source, outcome: Outcome) {
        if self.report {
            self.chain.probes.push(path, source, outcome);
        }
    }
}
