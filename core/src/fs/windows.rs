//! The OS file systems on Windows (SPEC.md §8.2), by the standard library and, for the two
//! questions it cannot ask, by `windows-sys`: a directory's entry as it is spelled
//! (`FindFirstFileW` on the exact name, no wildcard: one entry, not the whole listing) and the
//! final path of an open handle (`GetFinalPathNameByHandleW`).
//!
//! Windows opens whole paths, so nothing is anchored on the walk's way down: a chain's questions
//! are answered by path. A name counts only where its directory's entry is spelled exactly so,
//! since NTFS folds case. A file is opened with every sharing mode (read, write, delete), so that
//! no editor is stopped from saving, renaming or deleting it, and read only after its handle says
//! it is a regular file. Confined, every name is opened and its handle's final path checked to
//! lie beneath the root's before anything is read from that same handle.

use std::collections::HashSet;
use std::ffi::OsString;
use std::fs::{self, File, Metadata, OpenOptions};
use std::io::{self, Read};
use std::os::windows::ffi::{OsStrExt, OsStringExt};
use std::os::windows::fs::{MetadataExt, OpenOptionsExt};
use std::os::windows::io::AsRawHandle;
use std::path::{Path, PathBuf};

use windows_sys::Win32::Foundation::{
    ERROR_CANT_RESOLVE_FILENAME, ERROR_DIRECTORY, ERROR_FILE_NOT_FOUND, ERROR_INVALID_NAME,
    ERROR_PATH_NOT_FOUND, INVALID_HANDLE_VALUE,
};
use windows_sys::Win32::Storage::FileSystem::{
    FindClose, FindFirstFileW, GetFileType, GetFinalPathNameByHandleW, FILE_ATTRIBUTE_DIRECTORY,
    FILE_ATTRIBUTE_REPARSE_POINT, FILE_FLAG_BACKUP_SEMANTICS, FILE_NAME_NORMALIZED,
    FILE_READ_ATTRIBUTES, FILE_SHARE_DELETE, FILE_SHARE_READ, FILE_SHARE_WRITE, FILE_TYPE_DISK,
    VOLUME_NAME_DOS, WIN32_FIND_DATAW,
};

use super::{escaped_error, not_found, Entry, FileSystem, Lookup};
use crate::error::Error;
use crate::path::{self, FsName, Syntax, OS_ROOT};

/// The OS file system. A name's first element is its path's prefix (`C:/repo/AGENTS.md` for
/// `C:\repo\AGENTS.md`, `\\server\share/x` for `\\server\share\x`), its other elements
/// `/`-separated; a name counts only under the spelling its directory's entry has.
#[derive(Clone, Copy, Debug, Default)]
pub struct OsFs;

impl FileSystem for OsFs {
    fn list(&self, dir: &FsName) -> io::Result<Vec<OsString>> {
        list(&os_name(dir)?)
    }

    fn stat(&self, name: &FsName) -> io::Result<Entry> {
        stat(&os_name(name)?)
    }

    fn open(&self, name: &FsName) -> io::Result<Box<dyn Read + '_>> {
        Ok(Box::new(open_file(&os_name(name)?)?))
    }
}

/// The OS path of `name` of [`OsFs`]; `.`, above every prefix, is nothing the OS can open.
fn os_name(name: &FsName) -> io::Result<Vec<u8>> {
    match name.is_root() {
        true => Err(not_found()),
        false => Ok(os_path(OS_ROOT, name)),
    }
}

/// The OS file system as a chain asks it, by OS path; Windows has no `openat`, so nothing is
/// held between questions (Unix keeps directories open here).
#[derive(Default)]
pub(crate) struct Anchors;

impl Anchors {
    /// What the directory whose OS path is `dir` holds under `names`.
    pub(crate) fn lookup(&mut self, dir: &[u8], names: &[Vec<u8>]) -> Result<Lookup, Error> {
        names_in(dir, names, |_, entry| Ok(entry))
    }

    /// What the name whose OS path is `path` is, as a name its directory holds: a link that
    /// leads nowhere is [`Entry::Other`].
    pub(crate) fn entry(&self, path: &[u8]) -> Result<Option<Entry>, Error> {
        entry(path).map_err(|error| Error::io("stat", path, error))
    }

    /// [`FileSystem::stat`] of the OS path `path`.
    pub(crate) fn stat(&self, path: &[u8]) -> io::Result<Entry> {
        stat(path)
    }

    /// What the OS answers for `path`, following links, "not found" only where it says so, and
    /// ERROR_DIRECTORY where it runs through a file ([`through_a_file_or`]), as `stat(2)` says
    /// `ENOTDIR` (an overlay directory, `Files::stat_exactly`).
    pub(crate) fn stat_exactly(&self, path: &[u8]) -> io::Result<Entry> {
        stat_exactly(path)
    }

    /// [`FileSystem::list`] of the directory whose OS path is `path`.
    pub(crate) fn list(&self, path: &[u8]) -> io::Result<Vec<OsString>> {
        list(path)
    }

    /// The file whose OS path is `path`, opened to read.
    pub(crate) fn open(&self, path: &[u8], _size: Option<u64>) -> io::Result<File> {
        open_file(path)
    }
}

/// The OS file system beneath `root`: names are below it, and nothing outside it is read. Each
/// name is opened and its handle's final path (`GetFinalPathNameByHandleW`, links and junctions
/// resolved) checked to lie beneath the root's; one outside is [`Entry::Escapes`], or, opened
/// to be read, the error [`escaped_error`], before a byte is read.
#[derive(Debug)]
pub struct ConfinedFs {
    root: Vec<u8>,
    /// The final path of the root, which every final path beneath it starts with.
    root_final: Vec<u8>,
}

impl ConfinedFs {
    /// Opens the directory `root` (absolute and clean; resolved as given: the host chose it).
    pub fn open(root: &Path) -> Result<Self, Error> {
        let root = path::bytes(root).to_vec();
        let failed = |error| Error::io("open root", &root, error);
        let dir = open_handle(&root, FILE_READ_ATTRIBUTES).map_err(failed)?;
        let root_final = final_path(&dir).map_err(failed)?;
        Ok(Self { root, root_final })
    }

    /// The OS path names are below.
    pub(crate) fn root(&self) -> &[u8] {
        &self.root
    }

    /// What the directory `dir` holds under `names`: nothing is looked up in a directory that
    /// leads out of the root ([`Lookup::Escapes`]), and a link among the names is followed only
    /// as far as the root.
    pub(crate) fn lookup(&self, dir: &FsName, names: &[Vec<u8>]) -> Result<Lookup, Error> {
        let dir_path = os_path(&self.root, dir);
        match self.beneath(&dir_path) {
            Ok(true) => {}
            Ok(false) => return Ok(Lookup::Escapes),
            Err(error) if leads_nowhere(&error) => return Ok(Lookup::Missing),
            Err(error) => return Err(Error::io("open", &dir_path, error)),
        }
        // A link out is told as Unix tells it: `Escapes`, even where it leads nowhere or to
        // no file.
        names_in(&dir_path, names, |path, entry| match self.beneath(path) {
            Ok(true) => Ok(entry),
            Ok(false) => Ok(Entry::Escapes),
            Err(error) if leads_nowhere(&error) => Ok(Entry::Other),
            Err(error) => Err(Error::io("open", path, error)),
        })
    }

    /// What `name` is, as a name its directory holds (a fragment directory).
    pub(crate) fn entry(&self, name: &FsName) -> Result<Option<Entry>, Error> {
        let path = os_path(&self.root, name);
        let failed = |error| Error::io("stat", &path, error);
        match entry(&path).map_err(failed)? {
            found @ (None | Some(Entry::Other)) => Ok(found),
            Some(found) => match self.beneath(&path) {
                Ok(true) => Ok(Some(found)),
                Ok(false) => Ok(Some(Entry::Escapes)),
                Err(error) if leads_nowhere(&error) => Ok(Some(Entry::Other)),
                Err(error) => Err(failed(error)),
            },
        }
    }

    /// What `name` is, following links: [`Entry::Escapes`] where it leads out of the root,
    /// "not found" only where the OS says so, and ERROR_DIRECTORY where it runs through a file
    /// ([`through_a_file_or`]).
    pub(crate) fn stat_exactly(&self, name: &FsName) -> io::Result<Entry> {
        let path = os_path(&self.root, name);
        let handle = open_handle(&path, FILE_READ_ATTRIBUTES)
            .map_err(|error| through_a_file_or(&path, false, error))?;
        match self.holds(&handle)? {
            true => Ok(entry_of(&handle.metadata()?)),
            false => Ok(Entry::Escapes),
        }
    }

    /// The file `name`, opened to read, once its handle's final path is beneath the root.
    pub(crate) fn open_name(&self, name: &FsName, _size: Option<u64>) -> io::Result<File> {
        let path = os_path(&self.root, name);
        let file = open_file(&path)?;
        match self.holds(&file)? {
            true => Ok(file),
            false => Err(escaped_error()),
        }
    }

    /// Whether what the OS path `path` leads to lies beneath the root.
    fn beneath(&self, path: &[u8]) -> io::Result<bool> {
        self.holds(&open_handle(path, FILE_READ_ATTRIBUTES)?)
    }

    /// Whether the open `handle`'s final path lies beneath the root's.
    fn holds(&self, handle: &File) -> io::Result<bool> {
        Ok(Syntax::OS.is_within_exactly(&final_path(handle)?, &self.root_final))
    }
}

impl FileSystem for ConfinedFs {
    fn list(&self, dir: &FsName) -> io::Result<Vec<OsString>> {
        let path = os_path(&self.root, dir);
        match self.beneath(&path) {
            Ok(true) => list(&path),
            Ok(false) => Err(escaped_error()),
            Err(error) => Err(nowhere_or(error)),
        }
    }

    fn stat(&self, name: &FsName) -> io::Result<Entry> {
        self.stat_exactly(name).map_err(nowhere_or)
    }

    fn open(&self, name: &FsName) -> io::Result<Box<dyn Read + '_>> {
        Ok(Box::new(self.open_name(name, None)?))
    }
}

/// The OS path of `name` below `base`.
fn os_path(base: &[u8], name: &FsName) -> Vec<u8> {
    path::os_path(base, name)
}

fn to_path(path: &[u8]) -> PathBuf {
    path::to_path_buf(path)
}

/// Whether an error means the path leads nowhere: it does not exist (a path through a file
/// among them), or a link on the way dangles or loops.
fn leads_nowhere(error: &io::Error) -> bool {
    error.kind() == io::ErrorKind::NotFound
        || error.raw_os_error() == Some(ERROR_CANT_RESOLVE_FILENAME as i32)
}

/// `error`, or "not found" where it means the path leads nowhere.
fn nowhere_or(error: io::Error) -> io::Error {
    match leads_nowhere(&error) {
        true => not_found(),
        false => error,
    }
}

/// `error` of opening the OS path `path` (or of listing it, `listing`), ERROR_DIRECTORY
/// (`ENOTDIR`'s counterpart) where the OS said ERROR_PATH_NOT_FOUND because the path runs
/// through a non-directory: the nearest of its directories (`path` too, listing it) that leads
/// somewhere, links followed, is no directory. SPEC.md §1: `file\x`, or a link to a file used
/// as a directory, is an error, not "not found"; Windows says ERROR_PATH_NOT_FOUND for it as for
/// a missing directory. A link on the way that dangles or loops leads nowhere, and the next
/// directory up tells, as on Unix (`lookup::leads_nowhere_at`).
fn through_a_file_or(path: &[u8], listing: bool, error: io::Error) -> io::Error {
    if error.raw_os_error() != Some(ERROR_PATH_NOT_FOUND as i32) {
        return error;
    }
    let mut dir = match listing {
        true => Some(path),
        false => Syntax::OS.parent(path),
    };
    while let Some(at) = dir {
        match fs::metadata(to_path(at)) {
            Ok(metadata) if metadata.is_dir() => break,
            Ok(_) => return io::Error::from_raw_os_error(ERROR_DIRECTORY as i32),
            Err(_) => dir = Syntax::OS.parent(at),
        }
    }
    error
}

/// `error` of searching the directory `dir` (`FindFirstFileW`, a listing), ERROR_DIRECTORY
/// where `dir` is no directory: Windows says so, and Wine says ERROR_INVALID_NAME.
fn searched_a_file_or(dir: &[u8], error: io::Error) -> io::Error {
    let is_file = || fs::metadata(to_path(dir)).is_ok_and(|metadata| !metadata.is_dir());
    match error.raw_os_error() == Some(ERROR_INVALID_NAME as i32) && is_file() {
        true => io::Error::from_raw_os_error(ERROR_DIRECTORY as i32),
        false => error,
    }
}

/// What metadata of a name, links followed, says it is.
fn entry_of(metadata: &Metadata) -> Entry {
    match metadata.is_dir() {
        true => Entry::Dir,
        false if metadata.is_file() => Entry::File {
            size: metadata.len(),
        },
        false => Entry::Other,
    }
}

/// What the OS path `path` is, following links; "not found" where it leads nowhere, and
/// ERROR_DIRECTORY where it runs through a file ([`through_a_file_or`]).
fn stat(path: &[u8]) -> io::Result<Entry> {
    stat_exactly(path).map_err(nowhere_or)
}

/// [`stat`] with the OS's own "not found" alone meaning not found.
fn stat_exactly(path: &[u8]) -> io::Result<Entry> {
    fs::metadata(to_path(path))
        .map(|metadata| entry_of(&metadata))
        .map_err(|error| through_a_file_or(path, false, error))
}

/// What the name at `path` is: `None` where there is none, [`Entry::Other`] for a link that
/// leads nowhere.
fn entry(path: &[u8]) -> io::Result<Option<Entry>> {
    match fs::symlink_metadata(to_path(path)) {
        Ok(metadata) if metadata.file_type().is_symlink() || is_reparse(&metadata) => {
            match stat(path) {
                Ok(entry) => Ok(Some(entry)),
                Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(Some(Entry::Other)),
                Err(error) => Err(error),
            }
        }
        Ok(metadata) => Ok(Some(entry_of(&metadata))),
        Err(error) if leads_nowhere(&error) => Ok(None),
        Err(error) => Err(error),
    }
}

fn is_reparse(metadata: &Metadata) -> bool {
    metadata.file_attributes() & FILE_ATTRIBUTE_REPARSE_POINT != 0
}

/// The names the directory at `path` lists; "not found" where it leads nowhere, and
/// ERROR_DIRECTORY where it is, or runs through, a file ([`searched_a_file_or`],
/// [`through_a_file_or`]).
fn list(path: &[u8]) -> io::Result<Vec<OsString>> {
    let mut names = Vec::new();
    let entries = fs::read_dir(to_path(path)).map_err(|error| {
        let error = searched_a_file_or(path, error);
        nowhere_or(through_a_file_or(path, true, error))
    })?;
    for entry in entries {
        names.push(entry?.file_name());
    }
    Ok(names)
}

/// What the directory `dir` holds under `names`, each found by its directory's entry spelled
/// exactly so; a link among them followed, and each hit then told by `check(path, entry)` (the
/// confined root's say). An entry that cannot be described is looked for in the directory's
/// listing instead.
fn names_in(
    dir: &[u8],
    names: &[Vec<u8>],
    check: impl Fn(&[u8], Entry) -> Result<Entry, Error>,
) -> Result<Lookup, Error> {
    let mut found = Vec::new();
    let mut listed: Option<HashSet<Vec<u8>>> = None;
    for (index, name) in names.iter().enumerate() {
        let path = os_path(dir, &FsName::of_valid(name));
        let entry = match find(&path) {
            Ok(None) => continue,
            Ok(Some((spelled, attributes, size))) if spelled == *name => {
                described(&path, attributes, size)?
            }
            // Another spelling came first (a case-sensitive directory holding both, a short
            // name), or the entry could not be described (a path too long for the call, Wine on
            // a dangling link, a directory missing or no directory): the directory's listing,
            // read once, decides.
            _ => {
                let listed = match &mut listed {
                    Some(listed) => listed,
                    None => match list(dir) {
                        Ok(names) => listed.insert(
                            names
                                .into_iter()
                                .map(OsString::into_encoded_bytes)
                                .collect(),
                        ),
                        Err(error) if error.kind() == io::ErrorKind::NotFound => {
                            return Ok(Lookup::Missing)
                        }
                        Err(error) => return Err(Error::io("list", dir, error)),
                    },
                };
                if !listed.contains(name) {
                    continue;
                }
                match entry(&path) {
                    Ok(Some(entry)) => entry,
                    Ok(None) => continue,
                    Err(error) => return Err(Error::io("stat", &path, error)),
                }
            }
        };
        found.push((index, check(&path, entry)?));
    }
    Ok(Lookup::Names(found))
}

/// What the directory entry at `path` with `attributes` and `size` is, a link followed.
fn described(path: &[u8], attributes: u32, size: u64) -> Result<Entry, Error> {
    if attributes & FILE_ATTRIBUTE_REPARSE_POINT != 0 {
        return match stat(path) {
            Ok(entry) => Ok(entry),
            Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(Entry::Other),
            Err(error) => Err(Error::io("stat", path, error)),
        };
    }
    Ok(match attributes & FILE_ATTRIBUTE_DIRECTORY != 0 {
        true => Entry::Dir,
        false => Entry::File { size },
    })
}

/// The directory entry at `path` (no wildcard in its last element: the names looked up are
/// checked): its name as spelled, its attributes and its size; `None` where its directory has
/// none, and an error for any other failure.
fn find(path: &[u8]) -> io::Result<Option<(Vec<u8>, u32, u64)>> {
    let wide = nul_terminated(path);
    // SAFETY: an all-zero WIN32_FIND_DATAW is a valid value of that plain-data struct.
    #[allow(unsafe_code)]
    let mut data: WIN32_FIND_DATAW = unsafe { std::mem::zeroed() };
    // SAFETY: `wide` is a NUL-terminated UTF-16 string that outlives the call, and `data` is a
    // writable WIN32_FIND_DATAW; the handle returned, when valid, is closed below.
    #[allow(unsafe_code)]
    let handle = unsafe { FindFirstFileW(wide.as_ptr(), &mut data) };
    if handle == INVALID_HANDLE_VALUE {
        // Only "no such file" says the directory holds none; any other failure is for the
        // directory's listing to decide.
        let error = io::Error::last_os_error();
        return match error.raw_os_error() == Some(ERROR_FILE_NOT_FOUND as i32) {
            true => Ok(None),
            false => Err(error),
        };
    }
    // SAFETY: `handle` is the valid search handle FindFirstFileW returned, closed once.
    #[allow(unsafe_code)]
    unsafe {
        FindClose(handle)
    };
    let len = data
        .cFileName
        .iter()
        .position(|&unit| unit == 0)
        .unwrap_or(data.cFileName.len());
    let spelled = OsString::from_wide(&data.cFileName[..len]);
    let size = (u64::from(data.nFileSizeHigh) << 32) | u64::from(data.nFileSizeLow);
    Ok(Some((
        spelled.as_encoded_bytes().to_vec(),
        data.dwFileAttributes,
        size,
    )))
}

fn nul_terminated(path: &[u8]) -> Vec<u16> {
    to_path(path).as_os_str().encode_wide().chain([0]).collect()
}

/// `path` opened with `access` (links and junctions followed, a directory opened too), sharing
/// it with every other opener.
fn open_handle(path: &[u8], access: u32) -> io::Result<File> {
    OpenOptions::new()
        .access_mode(access)
        .share_mode(FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE)
        .custom_flags(FILE_FLAG_BACKUP_SEMANTICS)
        .open(to_path(path))
}

/// The regular file at `path`, opened to read with every sharing mode; "not found" where it
/// leads nowhere, and an error without a byte read where it is no regular file (a directory, or
/// a device or pipe a link leads to, which a read could block on, as a FIFO on Unix): a file
/// on disk (`GetFileType`) that is no directory.
fn open_file(path: &[u8]) -> io::Result<File> {
    let file = OpenOptions::new()
        .read(true)
        .share_mode(FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE)
        .open(to_path(path))
        .map_err(nowhere_or)?;
    // SAFETY: the handle is open for the call's length.
    #[allow(unsafe_code)]
    let on_disk = unsafe { GetFileType(file.as_raw_handle()) } == FILE_TYPE_DISK;
    match on_disk && file.metadata()?.is_file() {
        true => Ok(file),
        false => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file (it changed after its stat); nothing was read",
        )),
    }
}

/// The final path of the open `handle`: links and junctions resolved, as `\\?\C:\...`.
fn final_path(handle: &File) -> io::Result<Vec<u8>> {
    let mut buf = vec![0u16; 512];
    loop {
        let capacity = u32::try_from(buf.len()).unwrap_or(u32::MAX);
        // SAFETY: the handle is open for the call's length, and `buf` is a writable buffer of
        // `capacity` UTF-16 units.
        #[allow(unsafe_code)]
        let len = unsafe {
            GetFinalPathNameByHandleW(
                handle.as_raw_handle(),
                buf.as_mut_ptr(),
                capacity,
                FILE_NAME_NORMALIZED | VOLUME_NAME_DOS,
            )
        } as usize;
        match len {
            0 => return Err(io::Error::last_os_error()),
            // Too small: `len` is the size needed, its NUL counted.
            len if len >= buf.len() => buf.resize(len, 0),
            len => {
                let path = OsString::from_wide(&buf[..len]);
                return Ok(path.as_encoded_bytes().to_vec());
            }
        }
    }
}

#[cfg(test)]
#[path = "../../tests/unit/fs_windows.rs"]
mod tests;
