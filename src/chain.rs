//! The walk (SPEC.md §1): which instruction files apply at a path, within the bounds, and which
//! files were found and left out.

use crate::error::Error;
use crate::fs::{FileSystem, Found, Kind, OsFs};
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
}

/// A file found and not included.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Omitted {
    /// The file's path, its stable key.
    pub path: Vec<u8>,
    /// The bytes read, for a file read and then left out over budget; otherwise the size the
    /// file system reported.
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
    let names = options.effective_names();
    for name in &names {
        path::check_element(name, "name")?;
    }
    let os = OsFs;
    let (fs, root, path): (&dyn FileSystem, Vec<u8>, Vec<u8>) = match &options.fs {
        None => {
            let root = if options.root.is_empty() {
                path::OS_ROOT
            } else {
                &options.root
            };
            (&os, absolute(root)?, absolute(path.as_ref())?)
        }
        Some(fs) => {
            let root = if options.root.is_empty() {
                path::FS_ROOT
            } else {
                &options.root
            };
            path::check_fs_name(path.as_ref(), "path")?;
            path::check_fs_name(root, "root")?;
            (fs.as_ref(), root.to_vec(), path.as_ref().to_vec())
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
    let mut walk = Walk::new(options);
    for extra in extras {
        match os.stat(&extra)? {
            None => {}
            Some(metadata) if metadata.kind == Kind::File => {
                walk.consider(&os, extra, metadata.size)?;
            }
            Some(_) => {
                return Err(Error::invalid_argument(format!(
                    "extra {}: not a regular file",
                    crate::error::display(&extra)
                )))
            }
        }
    }
    let start = start_directory(fs, &path, &root)?;
    let dirs = path::directories(&root, &start);
    for found in fs.lookup(&dirs, &names)?.into_iter().flatten() {
        walk.directory(fs, found)?;
    }
    Ok(walk.chain)
}

/// An OS path as [`chain`] sees it: made absolute against the current directory and cleaned
/// lexically (`.` and `..` resolved as text, no symbolic link resolved).
///
/// A NUL byte cannot be in an OS path: it is an invalid argument, caught here rather than by the
/// OS, whose refusal would be an `Io` error with no OS code.
pub fn absolute(path: &[u8]) -> Result<Vec<u8>, Error> {
    if path.contains(&0) {
        return Err(Error::invalid_argument(format!(
            "path {:?}: an OS path cannot hold a NUL byte",
            crate::error::display(path)
        )));
    }
    if path.starts_with(b"/") {
        return Ok(path::os_clean(path, path::OS_ROOT));
    }
    use std::os::unix::ffi::OsStrExt;
    let cwd = std::env::current_dir().map_err(|e| Error::io("getcwd", b".", &e))?;
    Ok(path::os_clean(path, cwd.as_os_str().as_bytes()))
}

/// `path` itself if it is a directory; otherwise (an existing non-directory, or nothing yet)
/// its parent, but never above `root`.
fn start_directory(fs: &dyn FileSystem, path: &[u8], root: &[u8]) -> Result<Vec<u8>, Error> {
    if let Some(metadata) = fs.stat(path)? {
        if metadata.kind == Kind::Dir {
            return Ok(path.to_vec());
        }
    }
    Ok(match path::parent(path) {
        Some(parent) if path::is_within(parent, root) => parent.to_vec(),
        _ => root.to_vec(),
    })
}

/// The state of one walk: what it has kept and left out, and what the bounds have left.
struct Walk {
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
    fn new(options: &Options) -> Self {
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

    /// One directory's regular files under the names, in `names` order: the first that can be
    /// read stands for the directory, and the rest are shadowed by it.
    fn directory(&mut self, fs: &dyn FileSystem, found: Vec<Found>) -> Result<(), Error> {
        let mut chosen: Option<Vec<u8>> = None;
        for file in found {
            match &chosen {
                Some(by) => self.chain.omitted.push(Omitted {
                    path: file.path,
                    size: file.size,
                    reason: Reason::Shadowed,
                    by: by.clone(),
                }),
                None => {
                    let path = file.path.clone();
                    if self.consider(fs, file.path, file.size)? {
                        chosen = Some(path);
                    }
                }
            }
        }
        Ok(())
    }

    /// Keeps the file at `path` or leaves it out over budget. Returns false when the file
    /// turned out not to exist when read, so that it is no file at all.
    fn consider(&mut self, fs: &dyn FileSystem, path: Vec<u8>, size: u64) -> Result<bool, Error> {
        if self.ended || !self.fits(&path, size, true) {
            self.over_budget(path, size);
            return Ok(true);
        }
        let Some(content) = fs.read(&path, size, self.max_bytes.saturating_add(1))? else {
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
        let files_fit = self.budget == 0 || self.spent.saturating_add(len) <= self.budget;
        let rendering_fits = self.rendered_budget == 0
            || self.rendered_with(path, len, ends_in_newline) <= self.rendered_budget;
        files_fit && rendering_fits
    }
}
