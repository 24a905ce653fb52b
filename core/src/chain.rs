//! The walk (SPEC.md §1): which instruction files apply at a path, within the bounds, and which
//! files were found and left out. One loop: check the request, ask the file system about each
//! directory of the walk, spend the budgets.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::budget::Budget;
use crate::error::{display, Error};
use crate::fs::{ConfinedFs, Dirs, Entry, FileSystem, Lookup, OsFs};
use crate::options::Options;
use crate::path::{self, FsName, OS_ROOT};
use crate::render::Instruction;

/// Where a file of the result comes from (SPEC.md §5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Source {
    /// One of [`Options::extra`].
    Extra,
    /// A directory of the walk's file.
    Chain,
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
    /// directory of the walk (nothing in or below it was looked up). `size` is 0.
    Escapes,
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
    /// The file that took its place, for [`Reason::Shadowed`].
    pub by: Option<PathBuf>,
}

/// What [`chain`] found: the files that apply, farthest first and nearest last, and every file
/// found and left out, in the order met.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Chain {
    /// The files to include: `extra` first, then one per directory from root to the start.
    pub files: Vec<File>,
    /// The files found and not included.
    pub omitted: Vec<Omitted>,
}

/// Returns the instruction files that apply at `path`: `options.extra` first, then the first of
/// `options.names` that each directory from `options.root` down to the start directory lists,
/// within the bounds. See SPEC.md §1 for every rule.
///
/// With [`Options::fs`], `path` and `root` are names in that file system.
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
    let mut walk = Walk::new(options);
    for extra in &request.extras {
        walk.extra(extra)?;
    }
    let tree = Tree::open(&request, options)?;
    let start = match tree.fs.stat(&request.path)? {
        // Whether a path that leads out of root is a directory is not asked: the walk goes down
        // to it, so that it is reported as leading out.
        Some(Entry::Dir | Entry::Escapes) => request.path.clone(),
        _ => match request.path.parent() {
            Some(parent) if parent.is_within(&request.root) => parent,
            _ => request.root.clone(),
        },
    };
    let dirs = Dirs::new(&request.root, start);
    let lookups = tree.fs.lookup(&dirs, &request.names)?;
    for (i, lookup) in lookups.into_iter().enumerate() {
        walk.directory(&tree, &dirs.name(i), lookup, &request.names)?;
    }
    Ok(walk.chain)
}

/// A chain's arguments, checked, in the order the errors are reported.
struct Request {
    /// The names looked for, without repeats.
    names: Vec<Vec<u8>>,
    /// The root and the path as names below the tree's base (see [`Tree`]).
    root: FsName,
    path: FsName,
    /// The OS root, absolute and clean, for the OS file systems.
    os_root: Vec<u8>,
    /// The extra files, absolute and clean.
    extras: Vec<PathBuf>,
}

impl Request {
    fn new(path: &Path, options: &Options) -> Result<Self, Error> {
        let names = options.effective_names();
        for name in &names {
            path::check_element(name, "name")?;
        }
        let (os_root, root, path) = match &options.fs {
            None => {
                let os_root = match &options.root {
                    Some(root) => path::bytes(&path::absolute(root)?).to_vec(),
                    None => OS_ROOT.to_vec(),
                };
                if options.confine && os_root == OS_ROOT {
                    return Err(Error::invalid_argument(
                        "confine: the root is /, and confinement to / confines nothing; give a root",
                    ));
                }
                let path = path::bytes(&path::absolute(path)?).to_vec();
                if !path::is_below_or_at(&path, &os_root) {
                    return Err(outside(&path, &os_root));
                }
                // Confined, names are below the root; otherwise below `/`.
                let base: &[u8] = if options.confine { &os_root } else { OS_ROOT };
                let root = path::name_below(base, &os_root);
                let path = path::name_below(base, &path);
                (os_root, root, path)
            }
            Some(_) => {
                let root = match &options.root {
                    Some(root) => fs_name(path::bytes(root), "root")?,
                    None => FsName::root(),
                };
                let path = fs_name(path::bytes(path), "path")?;
                if !path.is_within(&root) {
                    return Err(outside(path.as_bytes(), root.as_bytes()));
                }
                (Vec::new(), root, path)
            }
        };
        // Every extra is checked before the first is read, so that a bad one fails the same way
        // wherever it is in the list.
        let extras = options
            .extra
            .iter()
            .map(path::absolute)
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self {
            names,
            root,
            path,
            os_root,
            extras,
        })
    }
}

fn fs_name(name: &[u8], what: &str) -> Result<FsName, Error> {
    FsName::new(name).map_err(|e| Error::invalid_argument(format!("{what} {e}")))
}

fn outside(path: &[u8], root: &[u8]) -> Error {
    Error::invalid_argument(format!(
        "path {} is outside root {}",
        display(path),
        display(root)
    ))
}

/// The file system a walk reads, and the OS path its names are below (`None`: a custom file
/// system, whose names are the paths).
pub(crate) struct Tree {
    pub(crate) fs: Arc<dyn FileSystem>,
    base: Option<Vec<u8>>,
}

impl Tree {
    fn open(request: &Request, options: &Options) -> Result<Self, Error> {
        Ok(match &options.fs {
            Some(fs) => Self {
                fs: Arc::clone(fs),
                base: None,
            },
            None if options.confine => Self {
                fs: Arc::new(ConfinedFs::open(&path::to_path_buf(&request.os_root))?),
                base: Some(request.os_root.clone()),
            },
            None => Self::os(),
        })
    }

    /// The OS file system, names below `/`.
    pub(crate) fn os() -> Self {
        Self {
            fs: Arc::new(OsFs),
            base: Some(OS_ROOT.to_vec()),
        }
    }

    /// The path a name of this tree is reported under.
    pub(crate) fn path_of(&self, name: &FsName) -> Vec<u8> {
        match &self.base {
            Some(base) => path::os_path(base, name),
            None => name.as_bytes().to_vec(),
        }
    }
}

/// The state of one walk: what it has kept and left out, and what the bounds have left.
struct Walk {
    chain: Chain,
    max_bytes: u64,
    budget: Budget,
}

impl Walk {
    fn new(options: &Options) -> Self {
        Self {
            chain: Chain::default(),
            max_bytes: options.effective_max_bytes(),
            budget: Budget::new(options.budget, options.rendered_budget),
        }
    }

    /// An extra file: skipped when it does not exist, an error when it is no regular file.
    fn extra(&mut self, extra: &Path) -> Result<(), Error> {
        let tree = Tree::os();
        let name = path::name_below(OS_ROOT, path::bytes(extra));
        match tree.fs.stat(&name)? {
            None => Ok(()),
            Some(Entry::File { size }) => {
                self.consider(&tree, &name, size, Source::Extra).map(drop)
            }
            Some(_) => Err(Error::invalid_argument(format!(
                "extra {}: not a regular file",
                display(path::bytes(extra))
            ))),
        }
    }

    /// One directory of the walk: the first of its names that is a regular file stands for it,
    /// and the rest are shadowed by it.
    fn directory(
        &mut self,
        tree: &Tree,
        dir: &FsName,
        lookup: Lookup,
        names: &[Vec<u8>],
    ) -> Result<(), Error> {
        let entries = match lookup {
            Lookup::Missing => return Ok(()),
            Lookup::Escapes => {
                self.escapes(tree.path_of(dir));
                return Ok(());
            }
            Lookup::Names(entries) => entries,
        };
        let mut standing: Option<PathBuf> = None;
        for (index, entry) in entries {
            let name = dir.join(&names[index]);
            match entry {
                Entry::File { size } => match &standing {
                    Some(by) => self.chain.omitted.push(Omitted {
                        path: path::to_path_buf(&tree.path_of(&name)),
                        size,
                        reason: Reason::Shadowed,
                        by: Some(by.clone()),
                    }),
                    None => {
                        if self.consider(tree, &name, size, Source::Chain)? {
                            standing = Some(path::to_path_buf(&tree.path_of(&name)));
                        }
                    }
                },
                Entry::Escapes => self.escapes(tree.path_of(&name)),
                Entry::Dir | Entry::Other => {}
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

    /// Keeps the file `name` or leaves it out over budget. `false` when it turned out not to
    /// exist when read, so that it is no file at all.
    fn consider(
        &mut self,
        tree: &Tree,
        name: &FsName,
        size: u64,
        source: Source,
    ) -> Result<bool, Error> {
        let path = tree.path_of(name);
        if !self.budget.fits_unread(&path, size) {
            self.over_budget(path, size);
            return Ok(true);
        }
        let limit = self.max_bytes.saturating_add(1);
        let Some(content) = tree.fs.read(name, size, limit)? else {
            return Ok(false);
        };
        if content.len() as u64 > self.max_bytes {
            return Err(Error::too_large(&path, self.max_bytes));
        }
        if !self.budget.spend(&path, &content) {
            self.over_budget(path, content.len() as u64);
            return Ok(true);
        }
        self.chain.files.push(File {
            path: path::to_path_buf(&path),
            content,
            source,
        });
        Ok(true)
    }

    fn over_budget(&mut self, path: Vec<u8>, size: u64) {
        self.budget.ended = true;
        self.chain.omitted.push(Omitted {
            path: path::to_path_buf(&path),
            size,
            reason: Reason::OverBudget,
            by: None,
        });
    }
}
