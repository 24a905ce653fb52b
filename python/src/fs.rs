//! A custom file system (SPEC.md §3) and a transform (§5.5) written in Python, as the core's
//! [`FileSystem`] and [`Transform`].
//!
//! The file system is the adapter agentsmd/_fs.py puts around the caller's object: it has
//! checked the shape of each answer and speaks bytes — `list(dir)` answers a list of names,
//! `stat(name)` `(kind, size)`, `read(name, limit)` the bytes, each `None` for "not found";
//! `read_dirs(names)` a listing of `(name, kind, size)` or `None` per name, `read_files(names,
//! limit)` bytes or `None` per name. What is left to check here is what only the bytes can say.
//! Each question takes the GIL for its call; an exception is the chain's `Fs` error, with the
//! exception as its `__cause__`.

use std::ffi::OsString;
use std::io::{self, Cursor, Read};
use std::path::{Path, PathBuf};

use agentsmd_core::ffi_support;
use agentsmd_core::fs::{BatchFileSystem, Batches, Entry, FileSystem, Listed};
use agentsmd_core::{FsName, Transform};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::PyBytes;

use crate::error::Captured;

/// The adapter of the options' `fs`.
pub(crate) struct PyFs {
    adapter: Py<PyAny>,
    /// Whether the caller's object has `read_dirs` / `read_files`.
    batches: Batches,
    /// The `limit` `read` is given: the most bytes the core reads of a file, `max_bytes + 1`.
    limit: u64,
    captured: Captured,
}

/// A failure of the file system's `op`, said by `detail`.
fn failed(op: &str, detail: impl std::fmt::Display) -> io::Error {
    io::Error::other(format!("fs.{op}: {detail}"))
}

fn not_found() -> io::Error {
    io::ErrorKind::NotFound.into()
}

/// A name a listing holds: one path element (the refusal of C's agentsmd_listing_push and
/// every binding's), WTF-8 on Windows.
fn listed_name(op: &str, name: &[u8]) -> io::Result<OsString> {
    if name.is_empty() || name.contains(&b'/') || name.contains(&0) {
        return Err(failed(
            op,
            format!(
                "listed {:?}, which is not one path element",
                String::from_utf8_lossy(name)
            ),
        ));
    }
    ffi_support::path_from_bytes(name.to_vec(), "listed name")
        .map(PathBuf::into_os_string)
        .map_err(|error| failed(op, error))
}

/// What a kind word of the adapter says a name is: `None` where a listing does not say.
fn entry(op: &str, kind: Option<&str>, size: u64) -> io::Result<Option<Entry>> {
    match kind {
        Some("file") => Ok(Some(Entry::File { size })),
        Some("dir") => Ok(Some(Entry::Dir)),
        Some("other") => Ok(Some(Entry::Other)),
        Some("link") | None => Ok(None),
        Some(kind) => Err(failed(op, format!("kind {kind:?} is no kind"))),
    }
}

impl PyFs {
    pub(crate) fn new(
        adapter: Py<PyAny>,
        lists: bool,
        reads: bool,
        limit: u64,
        captured: Captured,
    ) -> Self {
        Self {
            adapter,
            batches: Batches { lists, reads },
            limit,
            captured,
        }
    }

    /// Calls the adapter's `op` with the GIL held; an exception is kept for the error's cause
    /// and answered as the failure of `op`, with its text.
    fn call<T>(
        &self,
        op: &str,
        question: impl FnOnce(Python<'_>, &Bound<'_, PyAny>) -> PyResult<T>,
    ) -> io::Result<T> {
        Python::attach(|py| {
            question(py, self.adapter.bind(py)).map_err(|error| {
                let text = error.to_string();
                self.captured.keep(error);
                failed(op, text)
            })
        })
    }
}

fn names_of<'py>(py: Python<'py>, names: &[FsName]) -> Vec<Bound<'py, PyBytes>> {
    names
        .iter()
        .map(|name| PyBytes::new(py, name.as_bytes()))
        .collect()
}

/// At most `limit` bytes of `bytes`: the core never uses more.
fn within(bytes: &[u8], limit: u64) -> Vec<u8> {
    let limit = usize::try_from(limit).unwrap_or(usize::MAX);
    bytes[..bytes.len().min(limit)].to_vec()
}

impl FileSystem for PyFs {
    fn list(&self, dir: &FsName) -> io::Result<Vec<OsString>> {
        let names: Option<Vec<PyBackedBytes>> = self.call("list", |py, fs| {
            fs.call_method1("list", (PyBytes::new(py, dir.as_bytes()),))?
                .extract()
        })?;
        names
            .ok_or_else(not_found)?
            .iter()
            .map(|name| listed_name("list", name))
            .collect()
    }

    fn stat(&self, name: &FsName) -> io::Result<Entry> {
        let stat: Option<(String, u64)> = self.call("stat", |py, fs| {
            fs.call_method1("stat", (PyBytes::new(py, name.as_bytes()),))?
                .extract()
        })?;
        let (kind, size) = stat.ok_or_else(not_found)?;
        entry("stat", Some(&kind), size)?
            .ok_or_else(|| failed("stat", "kind 'link' answers only in a listing"))
    }

    fn open(&self, name: &FsName) -> io::Result<Box<dyn Read + '_>> {
        let content: Option<Vec<u8>> = self.call("read", |py, fs| {
            let bytes: Option<PyBackedBytes> = fs
                .call_method1("read", (PyBytes::new(py, name.as_bytes()), self.limit))?
                .extract()?;
            Ok(bytes.map(|bytes| within(&bytes, self.limit)))
        })?;
        Ok(Box::new(Cursor::new(content.ok_or_else(not_found)?)))
    }

    fn batched(&self) -> Option<&dyn BatchFileSystem> {
        (self.batches.lists || self.batches.reads).then_some(self)
    }
}

impl BatchFileSystem for PyFs {
    fn batches(&self) -> Batches {
        self.batches
    }

    fn list_many(&self, dirs: &[FsName]) -> io::Result<Vec<Option<Vec<Listed>>>> {
        // A chain asks only the batches `batches` names.
        if !self.batches.lists {
            return Err(ffi_support::not_batched("read_dirs"));
        }
        type Listing = Option<Vec<(PyBackedBytes, Option<String>, u64)>>;
        let listings: Vec<Listing> = self.call("read_dirs", |py, fs| {
            fs.call_method1("read_dirs", (names_of(py, dirs),))?
                .extract()
        })?;
        let listed = |(name, kind, size): (PyBackedBytes, Option<String>, u64)| {
            Ok(Listed {
                name: listed_name("read_dirs", &name)?,
                entry: entry("read_dirs", kind.as_deref(), size)?,
            })
        };
        listings
            .into_iter()
            .map(|listing| {
                listing
                    .map(|entries| entries.into_iter().map(listed).collect())
                    .transpose()
            })
            .collect()
    }

    fn read_many(&self, names: &[FsName], limit: u64) -> io::Result<Vec<Option<Vec<u8>>>> {
        if !self.batches.reads {
            return Err(ffi_support::not_batched("read_files"));
        }
        self.call("read_files", |py, fs| {
            let contents: Vec<Option<PyBackedBytes>> = fs
                .call_method1("read_files", (names_of(py, names), limit))?
                .extract()?;
            Ok(contents
                .into_iter()
                .map(|content| content.map(|bytes| within(&bytes, limit)))
                .collect())
        })
    }
}

/// The options' `transform`: `function(path, content)`, the Python layer's wrapper of the
/// caller's function, which answers bytes. An exception is the chain's `Fs` error.
pub(crate) fn transform(function: Py<PyAny>, captured: Captured) -> Transform {
    Transform::new(move |path: &Path, content: Vec<u8>| {
        Python::attach(|py| {
            let answer = function
                .call1(
                    py,
                    (
                        PyBytes::new(py, ffi_support::path_to_bytes(path)),
                        PyBytes::new(py, &content),
                    ),
                )
                .and_then(|answer| Ok(answer.extract::<PyBackedBytes>(py)?));
            match answer {
                Ok(bytes) => Ok(bytes.to_vec()),
                Err(error) => {
                    let text = format!("transform: {error}");
                    captured.keep(error);
                    Err(text)
                }
            }
        })
    })
}
