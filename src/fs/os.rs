//! The OS file system, through `std::fs`.

use std::ffi::OsStr;
use std::fs;
use std::io::{self, Read};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::OpenOptionsExt;

use super::{FileSystem, Kind, Metadata};
use crate::error::Error;

/// The OS file system. Paths are absolute and clean; names are compared byte for byte, so
/// exact spelling holds on a case-insensitive host too.
#[derive(Clone, Copy, Debug, Default)]
pub struct OsFs;

fn os_path(path: &[u8]) -> &std::path::Path {
    std::path::Path::new(OsStr::from_bytes(path))
}

fn not_found_is_none<T>(result: io::Result<T>) -> io::Result<Option<T>> {
    match result {
        Ok(value) => Ok(Some(value)),
        Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(err) => Err(err),
    }
}

fn kind_of(file_type: fs::FileType) -> Kind {
    if file_type.is_file() {
        Kind::File
    } else if file_type.is_dir() {
        Kind::Dir
    } else {
        Kind::Other
    }
}

impl FileSystem for OsFs {
    fn list(&self, dir: &[u8]) -> Result<Option<Vec<Vec<u8>>>, Error> {
        let fail = |err: &io::Error| Error::io("list", dir, err);
        let Some(entries) = not_found_is_none(fs::read_dir(os_path(dir))).map_err(|e| fail(&e))?
        else {
            return Ok(None);
        };
        let names = entries
            .map(|entry| entry.map(|entry| entry.file_name().into_vec()))
            .collect::<io::Result<Vec<_>>>()
            .map_err(|e| fail(&e))?;
        Ok(Some(names))
    }

    fn stat(&self, path: &[u8]) -> Result<Option<Metadata>, Error> {
        let metadata = not_found_is_none(fs::metadata(os_path(path)))
            .map_err(|e| Error::io("stat", path, &e))?;
        Ok(metadata.map(|m| Metadata {
            kind: kind_of(m.file_type()),
            size: m.len(),
        }))
    }

    fn read(&self, path: &[u8], size_hint: u64, limit: u64) -> Result<Option<Vec<u8>>, Error> {
        let fail = |op: &str, err: &io::Error| Error::io(op, path, err);
        // O_NONBLOCK: a FIFO swapped in after the stat must not block the open.
        let file = fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(os_path(path));
        let Some(file) = not_found_is_none(file).map_err(|e| fail("open", &e))? else {
            return Ok(None);
        };
        let metadata = file.metadata().map_err(|e| fail("stat", &e))?;
        if !metadata.file_type().is_file() {
            return Err(fail(
                "open",
                &io::Error::new(io::ErrorKind::InvalidInput, "not a regular file"),
            ));
        }
        // One byte past the hint, so that a file of the size its stat reported is read without
        // growing the buffer.
        let capacity = size_hint.saturating_add(1).min(limit);
        let mut content = Vec::with_capacity(usize::try_from(capacity).unwrap_or(usize::MAX));
        file.take(limit)
            .read_to_end(&mut content)
            .map_err(|e| fail("read", &e))?;
        Ok(Some(content))
    }
}
