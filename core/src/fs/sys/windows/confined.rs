//! The OS file system beneath a root on Windows (SPEC §8.2): walked from the root's handle one
//! element at a time, a link followed only where its text names a place beneath the root
//! (`reparse.rs`), and read or listed through the handle the walk ended with.

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, Read};
use std::mem::offset_of;
use std::os::windows::ffi::OsStringExt;
use std::path::Path;

use windows_sys::Win32::Foundation::{ERROR_DIRECTORY, ERROR_NO_MORE_FILES};
use windows_sys::Win32::Storage::FileSystem::{
    FileFullDirectoryInfo, FileFullDirectoryRestartInfo, FILE_ATTRIBUTE_DIRECTORY,
    FILE_ATTRIBUTE_REPARSE_POINT, FILE_FULL_DIR_INFO, FILE_GENERIC_READ, FILE_LIST_DIRECTORY,
    FILE_READ_ATTRIBUTES,
};

use super::api::{self, final_path, open_beneath, reparse_point};
use super::reparse::{self, Node, Walked};
use super::{
    entry_of, leads_nowhere, nowhere_or, open_handle, regular, runs_through_a_file, to_wide,
};
use crate::error::{escaped_error, Error};
use crate::fs::sys::Backend;
use crate::fs::{not_a_regular_file, Kind, Lookup};
use crate::path::{self, os_path, FsName};

/// The OS file system beneath `root`: names are below it, and nothing outside it is opened.
#[derive(Debug)]
pub struct ConfinedFs {
    root: Vec<u8>,
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

    /// What the directory `dir` holds under `names`, each spelled as its opened entry is.
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
            let path = || os_path(&dir_path, &FsName::of_valid(name));
            let entry = self.entry_beneath(dir, handle, name, true);
            if let Some(entry) = entry.map_err(|error| Error::io("stat", &path(), error))? {
                found.push((index, entry));
            }
        }
        Ok(Lookup::Names(found))
    }

    /// What `name` is as a name its directory holds (a fragment directory).
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

    /// What `name` is, following links; ERROR_DIRECTORY where it runs through a file.
    pub(crate) fn stat_exactly(&self, name: &FsName) -> io::Result<Kind> {
        match self.walk(name, FILE_READ_ATTRIBUTES)? {
            Walked::Escapes => Ok(Kind::Escapes),
            Walked::At(None) => Ok(Kind::Dir),
            Walked::At(Some(handle)) => Ok(entry_of(&handle.metadata()?).into()),
        }
    }

    pub(crate) fn open_name(&self, name: &FsName, _size: Option<u64>) -> io::Result<File> {
        match self.walk(name, FILE_GENERIC_READ).map_err(nowhere_or)? {
            Walked::Escapes => Err(escaped_error()),
            Walked::At(None) => Err(not_a_regular_file()),
            Walked::At(Some(file)) => regular(file),
        }
    }

    /// What the name `name` of the directory `dir`, open as `handle`, is: `None` where there is
    /// none (or, `spelled`, where it is spelled otherwise).
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
        if !reparse::is_beneath(&opened_final, &self.root_final) {
            return Ok(Some(Kind::Escapes));
        }
        if spelled && !opened_final.ends_with(&[&[u16::from(b'\\')], &wide[..]].concat()) {
            return Ok(None);
        }
        Ok(Some(match node(opened)? {
            Node::Dir(_) => Kind::Dir,
            Node::Other(file) => entry_of(&file.metadata()?).into(),
            // As on Unix, a link out is `Escapes`, even where it leads nowhere.
            Node::Link(_) => match self.stat_exactly(&dir.join(name)) {
                Err(error) if leads_nowhere(&error) || runs_through_a_file(&error) => Kind::Other,
                kind => kind?,
            },
        }))
    }

    /// Walks `name` from the root's handle, its last element opened with `access`.
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
            Walked::At(Some(handle))
                if !reparse::is_beneath(&final_path(&handle)?, &self.root_final) =>
            {
                Ok(Walked::Escapes)
            }
            walked => Ok(walked),
        }
    }
}

impl Backend for ConfinedFs {
    fn base(&self) -> Option<&[u8]> {
        Some(&self.root)
    }

    fn confined(&self) -> bool {
        true
    }

    fn stat(&self, name: &FsName) -> io::Result<Kind> {
        ConfinedFs::stat_exactly(self, name).map_err(nowhere_or)
    }

    fn stat_exactly(&self, name: &FsName) -> io::Result<Kind> {
        ConfinedFs::stat_exactly(self, name)
    }

    fn entry(&self, name: &FsName) -> Result<Option<Kind>, Error> {
        ConfinedFs::entry(self, name)
    }

    // Only whether to enter a directory turns on it, after `entry` found it beneath the root,
    // and nothing of it is opened: its attributes by path are enough.
    fn is_link(&self, name: &FsName) -> Result<bool, Error> {
        super::is_link(&os_path(&self.root, name))
    }

    fn list(&self, dir: &FsName) -> io::Result<Vec<OsString>> {
        let access = FILE_READ_ATTRIBUTES | FILE_LIST_DIRECTORY;
        match self.walk(dir, access).map_err(nowhere_or)? {
            Walked::Escapes => Err(escaped_error()),
            Walked::At(handle) => list_handle(handle.as_ref().unwrap_or(&self.dir)),
        }
    }

    fn lookup(&self, dir: &FsName, names: &[Vec<u8>]) -> Option<Result<Lookup, Error>> {
        Some(ConfinedFs::lookup(self, dir, names))
    }

    fn open(&self, name: &FsName, size: Option<u64>) -> io::Result<Box<dyn Read + '_>> {
        Ok(Box::new(self.open_name(name, size)?))
    }
}

/// What the element opened as `handle` is, a link's target read.
fn node(handle: File) -> io::Result<Node<File>> {
    let info = api::attribute_tag(&handle)?;
    let is_reparse = info.FileAttributes & FILE_ATTRIBUTE_REPARSE_POINT != 0;
    Ok(match info.FileAttributes & FILE_ATTRIBUTE_DIRECTORY != 0 {
        _ if is_reparse && reparse::is_link(info.ReparseTag) => {
            Node::Link(reparse::link_of(&reparse_point(&handle)?))
        }
        true => Node::Dir(handle),
        false => Node::Other(handle),
    })
}

/// The names the directory open as `dir` lists (its FILE_FULL_DIR_INFO records, `.` and `..`
/// left out); ERROR_DIRECTORY where it is no directory.
fn list_handle(dir: &File) -> io::Result<Vec<OsString>> {
    if !dir.metadata()?.is_dir() {
        return Err(io::Error::from_raw_os_error(ERROR_DIRECTORY as i32));
    }
    // u64s: the records are 8-byte aligned.
    let mut buffer = vec![0u64; 8 << 10];
    let mut names = Vec::new();
    let mut class = FileFullDirectoryRestartInfo;
    loop {
        if let Err(error) = api::directory_info(dir, class, &mut buffer) {
            return match error.raw_os_error() == Some(ERROR_NO_MORE_FILES as i32) {
                true => Ok(names),
                false => Err(error),
            };
        }
        class = FileFullDirectoryInfo;
        let records: Vec<u8> = buffer.iter().flat_map(|word| word.to_ne_bytes()).collect();
        let u32_at = |at: usize| Some(u32::from_ne_bytes(*records.get(at..)?.first_chunk()?));
        let mut at = 0;
        while let (Some(next), Some(len)) = (
            u32_at(at + offset_of!(FILE_FULL_DIR_INFO, NextEntryOffset)),
            u32_at(at + offset_of!(FILE_FULL_DIR_INFO, FileNameLength)),
        ) {
            let start = at + offset_of!(FILE_FULL_DIR_INFO, FileName);
            let Some(name) = records.get(start..start + len as usize) else {
                break;
            };
            let name = OsString::from_wide(&reparse::units(name));
            if name != "." && name != ".." {
                names.push(name);
            }
            if next == 0 {
                break;
            }
            at += next as usize;
        }
    }
}
