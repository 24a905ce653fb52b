//! The OS file systems on Windows (SPEC.md §8.2), by std and, for what it cannot ask, `api.rs`
//! (the crate's only unsafe code). Windows opens whole paths, so the OS answers by path, and a
//! name counts only where its directory's entry is spelled exactly so, since NTFS folds case.

mod api;
mod confined;
mod reparse;

pub use confined::ConfinedFs;

use std::ffi::OsString;
use std::fs::{self, File, Metadata, OpenOptions};
use std::io::{self, Read};
use std::os::windows::ffi::OsStrExt;
use std::os::windows::fs::{MetadataExt, OpenOptionsExt};

use windows_sys::Win32::Foundation::{
    ERROR_CANT_RESOLVE_FILENAME, ERROR_DIRECTORY, ERROR_INVALID_NAME, ERROR_PATH_NOT_FOUND,
};
use windows_sys::Win32::Storage::FileSystem::{
    FILE_ATTRIBUTE_DIRECTORY, FILE_ATTRIBUTE_REPARSE_POINT, FILE_FLAG_BACKUP_SEMANTICS,
    FILE_SHARE_DELETE, FILE_SHARE_READ, FILE_SHARE_WRITE,
};

use crate::error::Error;
use crate::fs::{not_a_regular_file, not_found, Entry, FileSystem, Kind, Lookup};
use crate::path::{os_path, to_path_buf as to_path, FsName, Syntax, OS_ROOT};
use api::find;
// What the unit tests reach of the other files.
#[cfg(test)]
use {
    crate::path, api::final_path, std::path::PathBuf,
    windows_sys::Win32::Storage::FileSystem::FILE_READ_ATTRIBUTES,
};

/// The OS file system. A name's first element is its path's prefix (`C:/repo/AGENTS.md` for
/// `C:\repo\AGENTS.md`), its other elements `/`-separated.
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

/// The OS as a chain asks it: by OS path, nothing held between questions.
pub(crate) type Os = OsFs;

impl super::Backend for OsFs {
    fn base(&self) -> Option<&[u8]> {
        Some(OS_ROOT)
    }

    fn stat(&self, name: &FsName) -> io::Result<Kind> {
        stat(&os_path(OS_ROOT, name)).map(Kind::from)
    }

    fn stat_exactly(&self, name: &FsName) -> io::Result<Kind> {
        stat_exactly(&os_path(OS_ROOT, name)).map(Kind::from)
    }

    fn entry(&self, name: &FsName) -> Result<Option<Kind>, Error> {
        let path = os_path(OS_ROOT, name);
        let entry = entry(&path).map_err(|error| Error::io("stat", &path, error))?;
        Ok(entry.map(Kind::from))
    }

    fn list(&self, dir: &FsName) -> io::Result<Vec<OsString>> {
        list(&os_path(OS_ROOT, dir))
    }

    fn is_link(&self, name: &FsName) -> Result<bool, Error> {
        is_link(&os_path(OS_ROOT, name))
    }

    fn lookup(&self, dir: &FsName, names: &[Vec<u8>]) -> Option<Result<Lookup, Error>> {
        let dir = os_path(OS_ROOT, dir);
        Some(names_in(&dir, names, |_, entry| Ok(entry)))
    }

    fn open(&self, name: &FsName, _size: Option<u64>) -> io::Result<Box<dyn Read + '_>> {
        Ok(Box::new(open_file(&os_path(OS_ROOT, name))?))
    }
}

/// Whether the OS error `code` says a path ran through a non-directory (`ENOTDIR`'s counterpart).
pub(crate) fn is_not_a_directory(code: i32) -> bool {
    code == ERROR_DIRECTORY as i32
}

/// Whether an error means the path leads nowhere: none, or a link that dangles or loops.
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

/// `error` of opening (or, `listing`, listing) `path`, ERROR_DIRECTORY where Windows said
/// ERROR_PATH_NOT_FOUND for a path through a file (SPEC §1: an error, not "not found").
fn through_a_file_or(path: &[u8], listing: bool, error: io::Error) -> io::Error {
    // Wine says ERROR_INVALID_NAME where Windows says ERROR_DIRECTORY listing a file.
    let code = error.raw_os_error();
    if code != Some(ERROR_PATH_NOT_FOUND as i32)
        && !(listing && code == Some(ERROR_INVALID_NAME as i32))
    {
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

fn entry_of(metadata: &Metadata) -> Entry {
    match metadata.is_dir() {
        true => Entry::Dir,
        false if metadata.is_file() => Entry::File {
            size: metadata.len(),
        },
        false => Entry::Other,
    }
}

/// What the OS path `path` is, following links; "not found" where it leads nowhere.
fn stat(path: &[u8]) -> io::Result<Entry> {
    stat_exactly(path).map_err(nowhere_or)
}

/// What the OS path `path` is, following links; ERROR_DIRECTORY where it runs through a file.
fn stat_exactly(path: &[u8]) -> io::Result<Entry> {
    fs::metadata(to_path(path))
        .map(|metadata| entry_of(&metadata))
        .map_err(|error| through_a_file_or(path, false, error))
}

/// What the name at `path` is: `None` where there is none.
fn entry(path: &[u8]) -> io::Result<Option<Entry>> {
    match fs::symlink_metadata(to_path(path)) {
        Ok(metadata) if is_reparse(&metadata) => followed(path).map(Some),
        Ok(metadata) => Ok(Some(entry_of(&metadata))),
        Err(error) if leads_nowhere(&error) => Ok(None),
        Err(error) => Err(error),
    }
}

/// Whether the OS path `path` is a link (a reparse point); "not found" is none.
pub(super) fn is_link(path: &[u8]) -> Result<bool, Error> {
    match fs::symlink_metadata(to_path(path)) {
        Ok(metadata) => Ok(is_reparse(&metadata)),
        Err(error) if leads_nowhere(&error) => Ok(false),
        Err(error) => Err(Error::io("stat", path, error)),
    }
}

fn is_reparse(metadata: &Metadata) -> bool {
    metadata.file_attributes() & FILE_ATTRIBUTE_REPARSE_POINT != 0
}

/// What the link at `path` leads to: [`Entry::Other`] where it leads nowhere.
fn followed(path: &[u8]) -> io::Result<Entry> {
    match stat(path) {
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(Entry::Other),
        followed => followed,
    }
}

/// The names the directory at `path` lists; "not found" where it leads nowhere.
fn list(path: &[u8]) -> io::Result<Vec<OsString>> {
    let entries = fs::read_dir(to_path(path))
        .map_err(|error| nowhere_or(through_a_file_or(path, true, error)))?;
    entries.map(|entry| Ok(entry?.file_name())).collect()
}

/// What the directory `dir` holds under `names`, each found by its entry spelled exactly so, a
/// link followed, and each hit then told by `check(path, entry)`.
fn names_in(
    dir: &[u8],
    names: &[Vec<u8>],
    check: impl Fn(&[u8], Entry) -> Result<Entry, Error>,
) -> Result<Lookup, Error> {
    let mut found = Vec::new();
    let mut listed: Option<Vec<OsString>> = None;
    for (index, name) in names.iter().enumerate() {
        let path = os_path(dir, &FsName::of_valid(name));
        let entry = match find(&path) {
            Ok(None) => continue,
            Ok(Some((spelled, attributes, size))) if spelled == *name => match attributes {
                _ if attributes & FILE_ATTRIBUTE_REPARSE_POINT != 0 => followed(&path),
                _ if attributes & FILE_ATTRIBUTE_DIRECTORY != 0 => Ok(Entry::Dir),
                _ => Ok(Entry::File { size }),
            },
            // Another spelling came first (a case-sensitive directory, a short name), or the
            // entry could not be described: the directory's listing, read once, decides.
            _ => {
                let listed = match &mut listed {
                    Some(listed) => listed,
                    None => match list(dir) {
                        Ok(names) => listed.insert(names),
                        Err(error) if error.kind() == io::ErrorKind::NotFound => {
                            return Ok(Lookup::Missing)
                        }
                        Err(error) => return Err(Error::io("list", dir, error)),
                    },
                };
                if !listed.iter().any(|n| n.as_encoded_bytes() == name) {
                    continue;
                }
                match entry(&path).transpose() {
                    Some(entry) => entry,
                    None => continue,
                }
            }
        };
        let entry = entry.map_err(|error| Error::io("stat", &path, error))?;
        found.push((index, check(&path, entry)?.into()));
    }
    Ok(Lookup::Names(found))
}

/// Every sharing mode: no other opener is stopped from reading, writing, renaming or deleting.
const SHARE_ALL: u32 = FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE;

/// `path` opened with `access` (links and junctions followed, a directory opened too).
fn open_handle(path: &[u8], access: u32) -> io::Result<File> {
    OpenOptions::new()
        .access_mode(access)
        .share_mode(SHARE_ALL)
        .custom_flags(FILE_FLAG_BACKUP_SEMANTICS)
        .open(to_path(path))
}

/// The regular file at `path`, opened to read ([`regular`]); "not found" where it leads nowhere.
fn open_file(path: &[u8]) -> io::Result<File> {
    let file = OpenOptions::new()
        .read(true)
        .share_mode(SHARE_ALL)
        .open(to_path(path))
        .map_err(nowhere_or)?;
    regular(file)
}

fn to_wide(path: &[u8]) -> Vec<u16> {
    to_path(path).as_os_str().encode_wide().collect()
}

/// Whether `error` says a path ran through a file (`ENOTDIR`'s counterpart).
fn runs_through_a_file(error: &io::Error) -> bool {
    error.raw_os_error().is_some_and(is_not_a_directory)
}

/// `file`, open to read, where it is a regular file on disk (a link could lead to a device or
/// pipe, which a read could block on); an error without a byte read otherwise.
fn regular(file: File) -> io::Result<File> {
    let on_disk = api::is_on_disk(&file);
    let metadata = file.metadata()?;
    if !(on_disk && metadata.is_file()) {
        return Err(not_a_regular_file());
    }
    match is_reparse(&metadata) {
        // A reparse point that is no link (a deduplicated or cloud file), opened as itself, is
        // read as its driver serves it only when opened again.
        true => api::reopened(&file),
        false => Ok(file),
    }
}

#[cfg(test)]
#[path = "../../../../tests/unit/fs_windows.rs"]
mod tests;
