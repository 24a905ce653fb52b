//! The walk (SPEC.md §1): which instruction files apply at a path, within the bounds, and which
//! files were found and left out.

use crate::error::Error;
use crate::fs::os_confined::{Confined, Entry, Level, Resolved};
use crate::fs::{FileSystem, Found, Kind, Metadata, OsFs};
use crate::options::Options;
use crate::path;
use crate::render::{self, Instruction};

/// One instruction file, read verbatim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct File {
    /// The absolute OS path, or the name in the custom file system for a file of the chain.
    pub path: Vec<u8>,
    /// The bytes read.
    pub content: Vec<u8>,
}

impl Instruction for File {
    fn path(&self) -> &[u8] {
        &self.path
    }
    fn content(&self) -> &[u8] {
        &self.content
    }
}

/// Why a file found was left out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The file, or one before it, would have taken the files over `budget` or the rendering
    /// over `rendered_budget`.
    OverBudget,
    /// An earlier name of `names` stands for the same directory.
    Shadowed,
    /// Under [`Options::confine`]: a symbolic link that leads out of `root`, so nothing was read
    /// through it. Either an instruction file's name (the next name is tried for its
    /// directory), or a directory of the walk (its files and the directories below it were not
    /// looked up). `size` is 0: what lies outside is not asked.
    Escapes,
}

/// A file found and not included.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Omitted {
    /// The file's path, its stable key.
    pub path: Vec<u8>,
    /// The bytes read, for a file read and then left out over budget; 0 for
    /// [`Reason::Escapes`]; otherwise the size the file system reported.
    pub size: u64,
    /// Why it was left out.
    pub reason: Reason,
    /// The path of the file that took its place, for [`Reason::Shadowed`]; empty otherwise.
    pub by: Vec<u8>,
}

/// What [`chain`] found: the files that apply, farthest first and nearest last, and every file
/// found and left out, in the order met.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Chain {
    /// The files to include: `extra` first, then one per directory from root to the start.
    pub files: Vec<File>,
    /// The files found and not included.
    pub omitted: Vec<Omitted>,
}

/// Returns the instruction files that apply at `path`: `options.extra` first, then the first of
/// `options.names` that each directory from `options.root` down to the start directory lists,
/// within the bounds. See SPEC.md §1 for every rule.
pub fn chain(path: impl AsRef<[u8]>, options: &Options) -> Result<Chain, Error> {
    let request = Request::new(path.as_ref(), options)?;
    let os = OsFs;
    let fs: &dyn FileSystem = options.fs.as_deref().unwrap_or(&os);
    let mut walk = Walk::new(options);
    for extra in request.extras {
        let metadata = os.stat(&extra)?;
        walk.extra(extra, metadata, &mut |path, size, limit| {
            os.read(path, size, limit)
        })?;
    }
    if options.confine && options.fs.is_none() {
        confined(&request.root, &request.path, &request.names, &mut walk)?;
        return Ok(walk.chain);
    }
    let is_dir = fs.stat(&request.path)?.is_some_and(|m| m.kind == Kind::Dir);
    let start = start_directory(&request.path, &request.root, is_dir);
    let dirs = path::directories(&request.root, &start);
    for found in fs.lookup(&dirs, &request.names)?.into_iter().flatten() {
        walk.directory(found, &mut |path, size, limit| fs.read(path, size, limit))?;
    }
    Ok(walk.chain)
}

/// The walk of [`chain`] under [`Options::confine`]: the same steps on the OS file system, with
/// every name below `root` resolved beneath it, and what leads out reported as
/// [`Reason::Escapes`] rather than followed.
fn confined(root: &[u8], path: &[u8], names: &[Vec<u8>], walk: &mut Walk) -> Result<(), Error> {
    let confined = Confined::open(root)?;
    // Whether a path that leads out of root is a directory is not asked: the walk goes down to
    // it, so that it is reported as leading out.
    let is_dir = match confined.stat(path)? {
        Resolved::Inside(metadata) => metadata.kind == Kind::Dir,
        Resolved::Missing => false,
        Resolved::Escapes => true,
    };
    let start = start_directory(path, root, is_dir);
    let dirs = path::directories(root, &start);
    for level in confined.lookup(&dirs, names)? {
        match level {
            Level::Missing => {}
            Level::Escapes(dir) => walk.escapes(dir),
            Level::Entries(entries) => {
                walk.entries(entries, &mut |path, _, limit| confined.read(path, limit))?
            }
        }
    }
    Ok(())
}

/// A chain's arguments, checked and made absolute (OS) or checked as FS names (custom FS), in
/// the order the errors are reported.
pub(crate) struct Request {
    /// The names looked for, without repeats.
    pub(crate) names: Vec<Vec<u8>>,
    /// The root, absolute and clean (OS) or an FS name.
    pub(crate) root: Vec<u8>,
    /// The path, absolute and clean (OS) or an FS name; within `root`.
    pub(crate) path: Vec<u8>,
    /// The extra files, absolute and clean.
    pub(crate) extras: Vec<Vec<u8>>,
}

impl Request {
    /// Checks `path` and `options` as [`chain`] does before any I/O, with the same errors.
    pub(crate) fn new(path: &[u8], options: &Options) -> Result<Self, Error> {
        let names = options.effective_names();
        for name in &names {
            check_name(name)?;
        }
        let (root, path) = match &options.fs {
            None => {
                let root = if options.root.is_empty() {
                    path::OS_ROOT
                } else {
                    &options.root
                };
                let root = absolute(root)?;
                // Every link leads inside `/`: a confinement to it would read a repository's
                // `AGENTS.md -> ../../../etc/passwd` and call that confined.
                if options.confine && root == path::OS_ROOT {
                    return Err(Error::invalid_argument(
                        "confine with the root /: confinement to / confines nothing; set a root",
                    ));
                }
                (root, absolute(path)?)
            }
            Some(_) => {
                let root = if options.root.is_empty() {
                    path::FS_ROOT
                } else {
                    &options.root
                };
                path::check_fs_name(path, "path")?;
                path::check_fs_name(root, "root")?;
                (root.to_vec(), path.to_vec())
            }
        };
        if !path::is_within(&path, &root) {
            return Err(Error::invalid_argument(format!(
                "path {} is outside root {}",
                crate::error::display(&path),
                crate::error::display(&root)
            )));
        }
        // Every extra is checked before the first is read, so that a bad one fails the same way
        // wherever it is in the list.
        let extras = options
            .extra
            .iter()
            .map(|extra| absolute(extra))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self {
            names,
            root,
            path,
            extras,
        })
    }
}

/// Checks one name of [`Options::names`] as [`chain`] does before any I/O: one path element
/// (non-empty, no `/`, no NUL, not `.` or `..`), else an `InvalidArgument` error. For a host
/// that takes names from a user and refuses a bad one where it was given, as the CLI does.
pub fn check_name(name: &[u8]) -> Result<(), Error> {
    path::check_element(name, "name")
}

/// Reads a file for the walk: `(path, size_hint, limit)`, as [`FileSystem::read`] answers.
pub(crate) type Reader<'a> = dyn FnMut(&[u8], u64, u64) -> Result<Option<Vec<u8>>, Error> + 'a;

/// An OS path as [`chain`] sees it: made absolute against the current directory and cleaned
/// lexically (`.` and `..` resolved as text, no symbolic link resolved).
///
/// A NUL byte cannot be in an OS path: it is an invalid argument, caught here rather than by the
/// OS, whose refusal would be an `Io` error with no OS code.
pub fn absolute(path: &[u8]) -> Result<Vec<u8>, Error> {
    path::check_no_nul(path, "path")?;
    if path.starts_with(b"/") {
        return Ok(path::os_clean(path, path::OS_ROOT));
    }
    use std::os::unix::ffi::OsStrExt;
    let cwd = std::env::current_dir().map_err(|e| Error::io("getcwd", b".", &e))?;
    Ok(path::os_clean(path, cwd.as_os_str().as_bytes()))
}

/// `path` itself if it is a directory; otherwise (an existing non-directory, or nothing yet)
/// its parent, but never above `root`.
pub(crate) fn start_directory(path: &[u8], root: &[u8], is_dir: bool) -> Vec<u8> {
    if is_dir {
        return path.to_vec();
    }
    match path::parent(path) {
        Some(parent) if path::is_within(parent, root) => parent.to_vec(),
        _ => root.to_vec(),
    }
}

/// The state of one walk: what it has kept and left out, and what the bounds have left.
pub(crate) struct Walk {
    chain: Chain,
    max_bytes: u64,
    budget: u64,
    rendered_budget: u64,
    /// Bytes of the files kept.
    spent: u64,
    /// Bytes of the rendering of the files kept; zero while none is.
    rendered: u64,
    /// Set by the first file over a budget: every file after it is left out unread.
    ended: bool,
}

impl Walk {
    pub(crate) fn new(options: &Options) -> Self {
        Self {
            chain: Chain::default(),
            max_bytes: options.effective_max_bytes(),
            budget: options.budget,
            rendered_budget: options.rendered_budget,
            spent: 0,
            rendered: 0,
            ended: false,
        }
    }

    /// The chain found so far.
    pub(crate) fn finish(self) -> Chain {
        self.chain
    }

    /// An extra file, with what its stat reported (`None`: it does not exist, and is skipped).
    pub(crate) fn extra(
        &mut self,
        extra: Vec<u8>,
        metadata: Option<Metadata>,
        read: &mut Reader<'_>,
    ) -> Result<(), Error> {
        match metadata {
            None => Ok(()),
            Some(metadata) if metadata.kind == Kind::File => {
                self.consider(extra, metadata.size, read).map(drop)
            }
            Some(_) => Err(Error::invalid_argument(format!(
                "extra {}: not a regular file",
                crate::error::display(&extra)
            ))),
        }
    }

    /// One directory's regular files under the names, in `names` order: the first that can be
    /// read stands for the directory, and the rest are shadowed by it.
    pub(crate) fn directory(
        &mut self,
        found: Vec<Found>,
        read: &mut Reader<'_>,
    ) -> Result<(), Error> {
        self.entries(found.into_iter().map(Entry::File), read)
    }

    /// A path that leads out of root under confinement: reported, never read.
    pub(crate) fn escapes(&mut self, path: Vec<u8>) {
        self.chain.omitted.push(Omitted {
            path,
            size: 0,
            reason: Reason::Escapes,
            by: Vec::new(),
        });
    }

    /// One directory's names, in `names` order, as [`Walk::directory`] takes its files: a name
    /// that leads out of root is reported where it stands and is no file, so the next name may
    /// stand for the directory.
    pub(crate) fn entries(
        &mut self,
        entries: impl IntoIterator<Item = Entry>,
        read: &mut Reader<'_>,
    ) -> Result<(), Error> {
        let mut chosen: Option<Vec<u8>> = None;
        for entry in entries {
            let file = match entry {
                Entry::File(file) => file,
                Entry::Escapes(path) => {
                    self.escapes(path);
                    continue;
                }
            };
            match &chosen {
                Some(by) => self.chain.omitted.push(Omitted {
                    path: file.path,
                    size: file.size,
                    reason: Reason::Shadowed,
                    by: by.clone(),
                }),
                None => {
                    let path = file.path.clone();
                    if self.consider(file.path, file.size, read)? {
                        chosen = Some(path);
                    }
                }
            }
        }
        Ok(())
    }

    /// Keeps the file at `path` or leaves it out over budget. Returns false when the file
    /// turned out not to exist when read, so that it is no file at all.
    fn consider(&mut self, path: Vec<u8>, size: u64, read: &mut Reader<'_>) -> Result<bool, Error> {
        if self.ended || !self.fits(&path, size, true) {
            self.over_budget(path, size);
            return Ok(true);
        }
        let Some(content) = read(&path, size, self.max_bytes.saturating_add(1))? else {
            return Ok(false);
        };
        let read = content.len() as u64;
        if read > self.max_bytes {
            return Err(Error::too_large(&path, self.max_bytes));
        }
        let ends_in_newline = content.ends_with(b"\n");
        if !self.fits(&path, read, ends_in_newline) {
            self.over_budget(path, read);
            return Ok(true);
        }
        self.spent += read;
        self.rendered = self.rendered_with(&path, read, ends_in_newline);
        self.chain.files.push(File { path, content });
        Ok(true)
    }

    fn over_budget(&mut self, path: Vec<u8>, size: u64) {
        self.ended = true;
        self.chain.omitted.push(Omitted {
            path,
            size,
            reason: Reason::OverBudget,
            by: Vec::new(),
        });
    }

    /// The rendering's size once a file of `len` bytes at `path` is added.
    fn rendered_with(&self, path: &[u8], len: u64, ends_in_newline: bool) -> u64 {
        let before = if self.rendered == 0 {
            render::WRAPPER_LEN
        } else {
            self.rendered
        };
        before.saturating_add(render::element_len(path, len, ends_in_newline))
    }

    /// Whether a file of `len` bytes at `path` fits both budgets. Before the read,
    /// `ends_in_newline` is true: the least the file could add to the rendering.
    fn fits(&self, path: &[u8], len: u64, ends_in_newline: bool) -> bool {
        // Summed in u128: a sum saturated at u64::MAX would fit a budget of u64::MAX, and a
        // reported size of u64::MAX must fit no budget once anything is spent (found by the
        // fuzzer, tests/model).
        let files_fit =
            self.budget == 0 || u128::from(self.spent) + u128::from(len) <= u128::from(self.budget);
        let rendered = u128::from(self.rendered_with(path, 0, ends_in_newline)) + u128::from(len);
        let rendering_fits =
            self.rendered_budget == 0 || rendered <= u128::from(self.rendered_budget);
        files_fit && rendering_fits
    }
}
