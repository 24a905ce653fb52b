//! The OS file systems on Windows (SPEC.md §8.2), by the standard library and, for what it
//! cannot ask, by `windows-sys`: a directory's entry as it is spelled (`FindFirstFileW` on the
//! exact name, no wildcard: one entry, not the whole listing), the final path of an open handle
//! (`GetFinalPathNameByHandleW`), and for confinement the calls below.
//!
//! Windows opens whole paths, so the OS file system answers a chain's questions by path. A name
//! counts only where its directory's entry is spelled exactly so, since NTFS folds case. A file
//! is opened with every sharing mode (read, write, delete), so that no editor is stopped from
//! saving, renaming or deleting it, and read only after its handle says it is a regular file.
//!
//! Confined, nothing outside the root is opened (SPEC.md §1): a name is walked from the root's
//! handle one element at a time, each opened beneath its directory's handle (`NtCreateFile`
//! relative to it, Windows's `openat`) with a reparse point itself opened, never what it leads
//! to; a symbolic link or junction is read (`FSCTL_GET_REPARSE_POINT`) and followed from its
//! text only where that names a place beneath the root (`reparse.rs` decides, without I/O); and
//! what is read or listed is read or listed through the handle the walk ended with
//! (`GetFileInformationByHandleEx` for a listing). The unsafe calls are this file's alone, each
//! with what makes it sound.

use std::collections::HashSet;
use std::ffi::OsString;
use std::fs::{self, File, Metadata, OpenOptions};
use std::io::{self, Read};
use std::mem::offset_of;
use std::os::windows::ffi::{OsStrExt, OsStringExt};
use std::os::windows::fs::{MetadataExt, OpenOptionsExt};
use std::os::windows::io::{AsRawHandle, FromRawHandle};
use std::path::{Path, PathBuf};

use windows_sys::Wdk::Foundation::OBJECT_ATTRIBUTES;
use windows_sys::Wdk::Storage::FileSystem::{
    NtCreateFile, FILE_OPEN, FILE_OPEN_REPARSE_POINT, FILE_SYNCHRONOUS_IO_NONALERT,
};
use windows_sys::Win32::Foundation::{
    RtlNtStatusToDosError, ERROR_CANT_RESOLVE_FILENAME, ERROR_DIRECTORY,
    ERROR_FILENAME_EXCED_RANGE, ERROR_FILE_NOT_FOUND, ERROR_INVALID_NAME, ERROR_NO_MORE_FILES,
    ERROR_PATH_NOT_FOUND, HANDLE, INVALID_HANDLE_VALUE, OBJ_CASE_INSENSITIVE, UNICODE_STRING,
};
use windows_sys::Win32::Storage::FileSystem::{
    FileAttributeTagInfo, FileFullDirectoryInfo, FileFullDirectoryRestartInfo, FindClose,
    FindFirstFileW, GetFileInformationByHandleEx, GetFileType, GetFinalPathNameByHandleW,
    ReOpenFile, FILE_ATTRIBUTE_DIRECTORY, FILE_ATTRIBUTE_REPARSE_POINT, FILE_ATTRIBUTE_TAG_INFO,
    FILE_FLAG_BACKUP_SEMANTICS, FILE_FULL_DIR_INFO, FILE_GENERIC_READ, FILE_LIST_DIRECTORY,
    FILE_NAME_NORMALIZED, FILE_READ_ATTRIBUTES, FILE_SHARE_DELETE, FILE_SHARE_READ,
    FILE_SHARE_WRITE, FILE_TYPE_DISK, MAXIMUM_REPARSE_DATA_BUFFER_SIZE, SYNCHRONIZE,
    VOLUME_NAME_DOS, WIN32_FIND_DATAW,
};
use windows_sys::Win32::System::Ioctl::FSCTL_GET_REPARSE_POINT;
use windows_sys::Win32::System::IO::{DeviceIoControl, IO_STATUS_BLOCK};

use super::reparse::{self, Node, Walked};
use super::{escaped_error, is_not_a_directory, not_found, Entry, FileSystem, Kind, Lookup};

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
    /// leads nowhere is [`Kind::Other`].
    pub(crate) fn entry(&self, path: &[u8]) -> Result<Option<Kind>, Error> {
        match entry(path) {
            Ok(entry) => Ok(entry.map(Kind::from)),
            Err(error) => Err(Error::io("stat", path, error)),
        }
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

/// The OS file system beneath `root`: names are below it, and nothing outside it is opened
/// (SPEC.md §1 `confine`). Each name is walked from the root's handle one element at a time,
/// each opened beneath its directory's handle with a link itself opened, never what it leads
/// to; a symbolic link or junction is followed from its text (`reparse.rs`) only where it names
/// a place beneath the root, and one that leads elsewhere is [`Kind::Escapes`], or, opened to
/// be read, the error [`escaped_error`]. What is read or listed is read or listed through the
/// handle the walk ended with.
#[derive(Debug)]
pub struct ConfinedFs {
    root: Vec<u8>,
    /// The root, open: every walk starts beneath it.
    dir: File,
    /// The final path of the root, which a link's absolute target must lie beneath.
    root_final: Vec<u16>,
}

impl ConfinedFs {
    /// Opens the directory `root` (absolute and clean; resolved as given: the host chose it).
    pub fn open(root: &Path) -> Result<Self, Error> {
        let root = path::bytes(root).to_vec();
        let failed = |error| Error::io("open root", &root, error);
        let dir = open_handle(&root, FILE_READ_ATTRIBUTES | FILE_LIST_DIRECTORY).map_err(failed)?;
        let root_final = final_path(&dir).map_err(failed)?;
        Ok(Self {
            root,
            dir,
            root_final,
        })
    }

    /// The OS path names are below.
    pub(crate) fn root(&self) -> &[u8] {
        &self.root
    }

    /// What the directory `dir` holds under `names`: nothing is looked up in a directory that
    /// leads out of the root ([`Lookup::Escapes`]), and a link among the names is followed only
    /// as far as the root. A name counts only where the opened entry's own name is spelled so.
    pub(crate) fn lookup(&self, dir: &FsName, names: &[Vec<u8>]) -> Result<Lookup, Error> {
        let dir_path = os_path(&self.root, dir);
        let failed = |error| Error::io("open", &dir_path, error);
        let handle = match self.walk(dir, FILE_READ_ATTRIBUTES) {
            Ok(Walked::At(handle)) => handle,
            Ok(Walked::Escapes) => return Ok(Lookup::Escapes),
            Err(error) if leads_nowhere(&error) => return Ok(Lookup::Missing),
            Err(error) => return Err(failed(error)),
        };
        let handle = handle.as_ref().unwrap_or(&self.dir);
        if !handle.metadata().map_err(failed)?.is_dir() {
            return Err(failed(io::Error::from_raw_os_error(ERROR_DIRECTORY as i32)));
        }
        let mut found = Vec::new();
        for (index, name) in names.iter().enumerate() {
            let entry = self
                .entry_beneath(dir, handle, name, true)
                .map_err(|error| {
                    Error::io("stat", &os_path(&dir_path, &FsName::of_valid(name)), error)
                })?;
            if let Some(entry) = entry {
                found.push((index, entry));
            }
        }
        Ok(Lookup::Names(found))
    }

    /// What `name` is, as a name its directory holds (a fragment directory): `None` where there
    /// is none, [`Kind::Other`] for a link that leads nowhere.
    pub(crate) fn entry(&self, name: &FsName) -> Result<Option<Kind>, Error> {
        let path = os_path(&self.root, name);
        let failed = |error| Error::io("stat", &path, error);
        let (Some(dir), Some(last)) =
            (name.parent(), name.as_bytes().rsplit(|&b| b == b'/').next())
        else {
            return Ok(Some(Kind::Dir));
        };
        let handle = match self.walk(&dir, FILE_READ_ATTRIBUTES) {
            Ok(Walked::At(handle)) => handle,
            Ok(Walked::Escapes) => return Ok(Some(Kind::Escapes)),
            Err(error) if leads_nowhere(&error) || runs_through_a_file(&error) => return Ok(None),
            Err(error) => return Err(failed(error)),
        };
        let handle = handle.as_ref().unwrap_or(&self.dir);
        self.entry_beneath(&dir, handle, last, false)
            .map_err(failed)
    }

    /// What `name` is, following links: [`Kind::Escapes`] where it leads out of the root,
    /// "not found" only where the OS says so, and ERROR_DIRECTORY where it runs through a file.
    pub(crate) fn stat_exactly(&self, name: &FsName) -> io::Result<Kind> {
        match self.walk(name, FILE_READ_ATTRIBUTES)? {
            Walked::Escapes => Ok(Kind::Escapes),
            Walked::At(None) => Ok(Kind::Dir),
            Walked::At(Some(handle)) => Ok(entry_of(&handle.metadata()?).into()),
        }
    }

    /// [`FileSystem::stat`] as the walk asks it (`Files::stat`): "not found" where `name` leads
    /// nowhere, and a link leading out of the root is [`Kind::Escapes`].
    pub(crate) fn kind(&self, name: &FsName) -> io::Result<Kind> {
        self.stat_exactly(name).map_err(nowhere_or)
    }

    /// The file `name`, opened to read beneath the root; [`escaped_error`] where a link on the
    /// way leads out, before anything outside is opened.
    pub(crate) fn open_name(&self, name: &FsName, _size: Option<u64>) -> io::Result<File> {
        match self.walk(name, FILE_GENERIC_READ).map_err(nowhere_or)? {
            Walked::Escapes => Err(escaped_error()),
            Walked::At(None) => Err(not_a_regular_file()),
            Walked::At(Some(file)) => regular(file),
        }
    }

    /// The name `name` of the directory `dir`, open as `handle`, opened itself: `None` where
    /// there is none (or, `spelled`, where its own name is spelled otherwise), and what it is,
    /// a link followed from the root.
    fn entry_beneath(
        &self,
        dir: &FsName,
        handle: &File,
        name: &[u8],
        spelled: bool,
    ) -> io::Result<Option<Kind>> {
        let wide = to_wide(name);
        let opened = match open_beneath(handle, &wide, FILE_READ_ATTRIBUTES) {
            Err(error) if leads_nowhere(&error) => return Ok(None),
            opened => opened?,
        };
        let opened_final = final_path(&opened)?;
        if !self.holds(&opened_final) {
            return Ok(Some(Kind::Escapes));
        }
        if spelled && !opened_final.ends_with(&[&[u16::from(b'\\')], &wide[..]].concat()) {
            return Ok(None);
        }
        Ok(Some(match node(opened)? {
            Node::Dir(_) => Kind::Dir,
            Node::Other(file) => entry_of(&file.metadata()?).into(),
            // A link out is told as Unix tells it: `Escapes`, even where it leads nowhere or to
            // no file.
            Node::Link(_) => match self.walk(&dir.join(name), FILE_READ_ATTRIBUTES) {
                Ok(Walked::Escapes) => Kind::Escapes,
                Ok(Walked::At(None)) => Kind::Dir,
                Ok(Walked::At(Some(file))) => entry_of(&file.metadata()?).into(),
                Err(error) if leads_nowhere(&error) || runs_through_a_file(&error) => Kind::Other,
                Err(error) => return Err(error),
            },
        }))
    }

    /// Walks `name` from the root's handle ([`reparse::walk`]), its last element opened with
    /// `access`, every other for its attributes alone.
    fn walk(&self, name: &FsName, access: u32) -> io::Result<Walked<File>> {
        let elements = match name.is_root() {
            true => Vec::new(),
            false => name.as_bytes().split(|&b| b == b'/').map(to_wide).collect(),
        };
        let walked = reparse::walk(&self.root_final, elements, |dir, element, last| {
            let access = if last { access } else { FILE_READ_ATTRIBUTES };
            node(open_beneath(dir.unwrap_or(&self.dir), element, access)?)
        })?;
        match walked {
            Walked::At(Some(handle)) if !self.holds(&final_path(&handle)?) => Ok(Walked::Escapes),
            walked => Ok(walked),
        }
    }

    /// Whether the final path `path` of a handle a walk opened lies beneath the root's
    /// ([`reparse::is_beneath`]).
    fn holds(&self, path: &[u16]) -> bool {
        reparse::is_beneath(path, &self.root_final)
    }
}

impl FileSystem for ConfinedFs {
    fn list(&self, dir: &FsName) -> io::Result<Vec<OsString>> {
        let access = FILE_READ_ATTRIBUTES | FILE_LIST_DIRECTORY;
        match self.walk(dir, access).map_err(nowhere_or)? {
            Walked::Escapes => Err(escaped_error()),
            Walked::At(handle) => list_handle(handle.as_ref().unwrap_or(&self.dir)),
        }
    }

    fn stat(&self, name: &FsName) -> io::Result<Entry> {
        self.kind(name).map(Kind::entry)
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
        found.push((index, check(&path, entry)?.into()));
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
/// leads nowhere, and an error without a byte read where it is no regular file ([`regular`]).
fn open_file(path: &[u8]) -> io::Result<File> {
    let file = OpenOptions::new()
        .read(true)
        .share_mode(FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE)
        .open(to_path(path))
        .map_err(nowhere_or)?;
    regular(file)
}

/// The final path of the open `handle`, in UTF-16: links and junctions resolved, as
/// `\\?\C:\...`.
fn final_path(handle: &File) -> io::Result<Vec<u16>> {
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
                buf.truncate(len);
                return Ok(buf);
            }
        }
    }
}

/// The UTF-16 of the WTF-8 `path` (a path or one element of it).
fn to_wide(path: &[u8]) -> Vec<u16> {
    to_path(path).as_os_str().encode_wide().collect()
}

/// Whether `error` says a path ran through a file: it leads nowhere, as on Unix `ENOTDIR`.
fn runs_through_a_file(error: &io::Error) -> bool {
    error.raw_os_error().is_some_and(is_not_a_directory)
}

fn not_a_regular_file() -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        "not a regular file (it changed after its stat); nothing was read",
    )
}

/// `file`, open to read, where it is a regular file: on disk (`GetFileType`; a link could lead
/// to a device or pipe, which a read could block on, as a FIFO on Unix) and no directory; an
/// error without a byte read otherwise.
fn regular(file: File) -> io::Result<File> {
    // SAFETY: the handle is open for the call's length.
    #[allow(unsafe_code)]
    let on_disk = unsafe { GetFileType(file.as_raw_handle()) } == FILE_TYPE_DISK;
    let metadata = file.metadata()?;
    if !(on_disk && metadata.is_file()) {
        return Err(not_a_regular_file());
    }
    match is_reparse(&metadata) {
        // A reparse point that is no link (a deduplicated or cloud file) opened as itself holds
        // its driver's data: the same file opened again, without FILE_OPEN_REPARSE_POINT, is
        // read as its driver serves it.
        true => reopened(&file),
        false => Ok(file),
    }
}

/// The same file as `file`, opened again to read, with every sharing mode, its reparse point
/// served by its driver.
fn reopened(file: &File) -> io::Result<File> {
    // SAFETY: the handle is open for the call's length; the handle returned, when valid, is
    // owned by the `File` made of it.
    #[allow(unsafe_code)]
    let handle = unsafe {
        ReOpenFile(
            file.as_raw_handle(),
            FILE_GENERIC_READ,
            FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
            0,
        )
    };
    if handle == INVALID_HANDLE_VALUE {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `handle` is a valid handle that nothing else owns.
    #[allow(unsafe_code)]
    Ok(unsafe { File::from_raw_handle(handle) })
}

/// `name`, one element, opened with `access` and every sharing mode beneath the directory open
/// as `dir` (`NtCreateFile` relative to `dir`: Windows's `openat`), a reparse point itself
/// opened (`FILE_OPEN_REPARSE_POINT`): no link is followed, and nothing is opened beyond `dir`'s
/// own entry of that name (a name has no `\`: it is one element).
fn open_beneath(dir: &File, name: &[u16], access: u32) -> io::Result<File> {
    let too_long = || io::Error::from_raw_os_error(ERROR_FILENAME_EXCED_RANGE as i32);
    let bytes = u16::try_from(std::mem::size_of_val(name)).map_err(|_| too_long())?;
    let object_name = UNICODE_STRING {
        Length: bytes,
        MaximumLength: bytes,
        Buffer: name.as_ptr().cast_mut(),
    };
    let attributes = OBJECT_ATTRIBUTES {
        Length: std::mem::size_of::<OBJECT_ATTRIBUTES>() as u32,
        RootDirectory: dir.as_raw_handle(),
        ObjectName: &object_name,
        // As CreateFileW opens: NTFS folds case (the spelling is checked on the opened name).
        Attributes: OBJ_CASE_INSENSITIVE,
        SecurityDescriptor: std::ptr::null(),
        SecurityQualityOfService: std::ptr::null(),
    };
    let mut handle: HANDLE = std::ptr::null_mut();
    let mut status_block = IO_STATUS_BLOCK::default();
    // SAFETY: every pointer is to a live value of the type the call takes, for the call's
    // length (`object_name` borrows `name`, which it never writes); NtCreateFile writes
    // `handle` and `status_block` alone. The handle returned on success is owned below.
    #[allow(unsafe_code)]
    let status = unsafe {
        NtCreateFile(
            &mut handle,
            access | SYNCHRONIZE,
            &attributes,
            &mut status_block,
            std::ptr::null(),
            0,
            FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
            FILE_OPEN,
            FILE_OPEN_REPARSE_POINT | FILE_SYNCHRONOUS_IO_NONALERT,
            std::ptr::null(),
            0,
        )
    };
    if status < 0 {
        // SAFETY: a pure mapping of a status to its Win32 error.
        #[allow(unsafe_code)]
        let code = unsafe { RtlNtStatusToDosError(status) };
        return Err(io::Error::from_raw_os_error(code as i32));
    }
    // SAFETY: `handle` is the valid handle NtCreateFile returned, owned by nothing else.
    #[allow(unsafe_code)]
    Ok(unsafe { File::from_raw_handle(handle) })
}

/// What the element opened as `handle` is: a link (its target read), a directory, or anything
/// else.
fn node(handle: File) -> io::Result<Node<File>> {
    let mut info = FILE_ATTRIBUTE_TAG_INFO::default();
    // SAFETY: the handle is open for the call's length, and `info` is a writable
    // FILE_ATTRIBUTE_TAG_INFO of the size given.
    #[allow(unsafe_code)]
    let done = unsafe {
        GetFileInformationByHandleEx(
            handle.as_raw_handle(),
            FileAttributeTagInfo,
            (&mut info as *mut FILE_ATTRIBUTE_TAG_INFO).cast(),
            std::mem::size_of::<FILE_ATTRIBUTE_TAG_INFO>() as u32,
        )
    };
    if done == 0 {
        return Err(io::Error::last_os_error());
    }
    let is_reparse = info.FileAttributes & FILE_ATTRIBUTE_REPARSE_POINT != 0;
    Ok(match info.FileAttributes & FILE_ATTRIBUTE_DIRECTORY != 0 {
        _ if is_reparse && reparse::is_link(info.ReparseTag) => {
            Node::Link(reparse::link_of(&reparse_point(&handle)?))
        }
        true => Node::Dir(handle),
        false => Node::Other(handle),
    })
}

/// The reparse point of the open `handle`, as FSCTL_GET_REPARSE_POINT returns it.
fn reparse_point(handle: &File) -> io::Result<Vec<u8>> {
    let mut data = vec![0u8; MAXIMUM_REPARSE_DATA_BUFFER_SIZE as usize];
    let mut len = 0u32;
    // SAFETY: the handle is open for the call's length, `data` is a writable buffer of the
    // size given, and `len` a writable u32; no input buffer, no overlapped I/O.
    #[allow(unsafe_code)]
    let done = unsafe {
        DeviceIoControl(
            handle.as_raw_handle(),
            FSCTL_GET_REPARSE_POINT,
            std::ptr::null(),
            0,
            data.as_mut_ptr().cast(),
            MAXIMUM_REPARSE_DATA_BUFFER_SIZE,
            &mut len,
            std::ptr::null_mut(),
        )
    };
    if done == 0 {
        return Err(io::Error::last_os_error());
    }
    data.truncate(len as usize);
    Ok(data)
}

/// The names the directory open as `dir` lists, read through that handle
/// (`GetFileInformationByHandleEx`, FileFullDirectoryInfo), so that what was checked is what is
/// listed; ERROR_DIRECTORY where it is no directory.
fn list_handle(dir: &File) -> io::Result<Vec<OsString>> {
    if !dir.metadata()?.is_dir() {
        return Err(io::Error::from_raw_os_error(ERROR_DIRECTORY as i32));
    }
    // u64s: the records are 8-byte aligned.
    let mut buffer = vec![0u64; 8 << 10];
    let size = u32::try_from(std::mem::size_of_val(&buffer[..])).unwrap_or(u32::MAX);
    let mut names = Vec::new();
    let mut class = FileFullDirectoryRestartInfo;
    loop {
        // SAFETY: the handle is open for the call's length, and `buffer` is a writable buffer
        // of `size` bytes.
        #[allow(unsafe_code)]
        let done = unsafe {
            GetFileInformationByHandleEx(
                dir.as_raw_handle(),
                class,
                buffer.as_mut_ptr().cast(),
                size,
            )
        };
        if done == 0 {
            let error = io::Error::last_os_error();
            return match error.raw_os_error() == Some(ERROR_NO_MORE_FILES as i32) {
                true => Ok(names),
                false => Err(error),
            };
        }
        class = FileFullDirectoryInfo;
        let bytes: Vec<u8> = buffer.iter().flat_map(|word| word.to_ne_bytes()).collect();
        names.extend(
            directory_names(&bytes)
                .into_iter()
                .filter(|name| name != "." && name != ".."),
        );
    }
}

/// The names of the FILE_FULL_DIR_INFO records in `records`, each after the last at its
/// `NextEntryOffset` (0 ends them).
fn directory_names(records: &[u8]) -> Vec<OsString> {
    let u32_at = |at: usize| {
        let bytes = records.get(at..at + 4).and_then(|b| b.try_into().ok());
        bytes.map(u32::from_ne_bytes)
    };
    let mut names = Vec::new();
    let mut at = 0;
    loop {
        let next = u32_at(at + offset_of!(FILE_FULL_DIR_INFO, NextEntryOffset));
        let len = u32_at(at + offset_of!(FILE_FULL_DIR_INFO, FileNameLength));
        let (Some(next), Some(len)) = (next, len) else {
            return names;
        };
        let start = at + offset_of!(FILE_FULL_DIR_INFO, FileName);
        let Some(name) = records.get(start..start + len as usize) else {
            return names;
        };
        let wide: Vec<u16> = name
            .chunks_exact(2)
            .map(|unit| u16::from_ne_bytes([unit[0], unit[1]]))
            .collect();
        names.push(OsString::from_wide(&wide));
        if next == 0 {
            return names;
        }
        at += next as usize;
    }
}

#[cfg(test)]
#[path = "../../tests/unit/fs_windows.rs"]
mod tests;
