//! A custom file system (SPEC.md §3) and a transform (§5.5) in JavaScript, as the core's
//! [`FileSystem`] and [`Transform`].
//!
//! The questions go to the callbacks as the API documents them: `list(dir)` answers an array of
//! names, `stat(name)` `{ kind, size }`, `read(name, limit)` a `Buffer` — each `null` for "not
//! found" — and `transform(path, content)` a `Buffer` or a string. A file system that answers
//! in batches (`FileSystem::batched`) has `readDirs(names)`, one listing of entries `{ name,
//! kind, size }` or `null` per name, and `readFiles(names, limit)`, one `Buffer` or `null` per
//! name; each is asked once per batch with all its names, and either may be left out, its
//! questions then asked one name at a time. index.js has checked the shape of each answer
//! (src/callback.rs); what is left to check here is what only the bytes can say.

use std::ffi::OsString;
use std::fmt;
use std::io::{self, Cursor, Read};
use std::path::Path;

use agentsmd_core::ffi_support;
use agentsmd_core::fs::{BatchFileSystem, Batches, Entry, FileSystem, Listed};
use agentsmd_core::{FsName, Transform, DEFAULT_MAX_BYTES};
use napi::bindgen_prelude::{
    FnArgs, FromNapiValue, JsObjectValue, Object, Uint8ArraySlice, Unknown, Utf16String,
};
use napi::{sys, ValueType};

use crate::buffer::Copied;
use crate::callback::{Callback, Calls};
use crate::error::Failure;
use crate::input;
use crate::text::{self, Text};

/// What `stat` answers, and what an entry of a `readDirs` listing says its name is (index.js
/// makes an entry without a kind `'link'`).
pub(crate) struct Stat {
    kind: String,
    size: Option<f64>,
}

impl Stat {
    /// What the name is, as the callback `op` said: `None` for `'link'`, which a listing answers
    /// where it does not say (index.js refuses it from `stat`).
    fn entry(&self, op: &str) -> io::Result<Option<Entry>> {
        match (self.kind.as_str(), self.size) {
            ("file", Some(size)) if size >= 0.0 && size.fract() == 0.0 => {
                Ok(Some(Entry::File { size: size as u64 }))
            }
            ("file", _) => Err(bad_answer(op, "a file's size must be a whole number")),
            ("dir", _) => Ok(Some(Entry::Dir)),
            ("other", _) => Ok(Some(Entry::Other)),
            ("link", _) => Ok(None),
            (kind, _) => Err(bad_answer(
                op,
                format!("kind {kind:?} is none of 'file', 'dir', 'other', 'link'"),
            )),
        }
    }
}

impl FromNapiValue for Stat {
    unsafe fn from_napi_value(env: sys::napi_env, raw: sys::napi_value) -> napi::Result<Self> {
        let object = Object::from_raw(env, raw);
        Ok(Self {
            kind: object.get::<String>("kind")?.unwrap_or_default(),
            size: object.get::<Option<f64>>("size")?.flatten(),
        })
    }
}

/// One entry of a listing `readDirs` answers.
pub(crate) struct DirEntry {
    name: Utf16String,
    stat: Stat,
}

impl FromNapiValue for DirEntry {
    unsafe fn from_napi_value(env: sys::napi_env, raw: sys::napi_value) -> napi::Result<Self> {
        let object = Object::from_raw(env, raw);
        Ok(Self {
            name: object.get_named_property("name")?,
            stat: unsafe { Stat::from_napi_value(env, raw) }?,
        })
    }
}

/// The bytes of a `Buffer` a callback answered, copied on the main thread: the Buffer's memory is
/// JavaScript's, which may still write to it while the work's thread reads.
pub(crate) struct Bytes(Vec<u8>);

impl FromNapiValue for Bytes {
    unsafe fn from_napi_value(env: sys::napi_env, raw: sys::napi_value) -> napi::Result<Self> {
        let slice = unsafe { Uint8ArraySlice::from_napi_value(env, raw) }?;
        Ok(Self(slice.to_vec()))
    }
}

/// What `transform` answers: a `Buffer`'s bytes, or the bytes a string names (text.rs).
pub(crate) struct Content(Vec<u8>);

impl FromNapiValue for Content {
    unsafe fn from_napi_value(env: sys::napi_env, raw: sys::napi_value) -> napi::Result<Self> {
        let value = unsafe { Unknown::from_raw_unchecked(env, raw) };
        if value.get_type()? != ValueType::String {
            return Ok(Self(unsafe { Bytes::from_napi_value(env, raw) }?.0));
        }
        let units = unsafe { Utf16String::from_napi_value(env, raw) }?;
        text::from_utf16(&units).map(Self).map_err(|unit| {
            napi::Error::from_reason(format!(
                "the string returned holds the lone surrogate U+{unit:04X}, which names no byte"
            ))
        })
    }
}

/// `readDirs(names)`: per name, its listing, or `None` where there is no such directory.
type ReadDirs = Callback<Vec<Text>, Vec<Option<Vec<DirEntry>>>>;

/// `readFiles(names, limit)`: per name, its bytes, or `None` where it is not found.
type ReadFiles = Callback<FnArgs<(Vec<Text>, f64)>, Vec<Option<Bytes>>>;

/// The options' `fs`: three callbacks, and the two batched ones where it has them.
pub(crate) struct JsFs {
    list: Callback<Text, Vec<Utf16String>>,
    stat: Callback<Text, Stat>,
    read: Callback<FnArgs<(Text, f64)>, Bytes>,
    /// `None` where the file system lists one directory at a time.
    read_dirs: Option<ReadDirs>,
    /// `None` where the file system reads one file at a time.
    read_files: Option<ReadFiles>,
    /// The `limit` `read` is given: the most bytes the core reads of a file, `maxBytes + 1`, so
    /// that a callback need not read more of a large file than tells that it is too large.
    limit: u64,
}

impl JsFs {
    /// The file system of the object `fs` (`options.fs`), for a chain whose `max_bytes` is
    /// `max_bytes`.
    pub(crate) fn new(fs: &Object, max_bytes: Option<u64>, calls: Calls) -> Result<Self, Failure> {
        let given = |name: &str| {
            let what = format!("options.fs.{name}");
            input::function(input::field(fs, name, "options.fs")?, &what)
        };
        let required = |name: &str| {
            given(name)?
                .ok_or_else(|| Failure::invalid(format!("options.fs.{name}: expected a function")))
        };
        let limit = max_bytes.unwrap_or(DEFAULT_MAX_BYTES).saturating_add(1);
        Ok(Self {
            list: Callback::new(required("list")?, calls)?,
            stat: Callback::new(required("stat")?, calls)?,
            read: Callback::new(required("read")?, calls)?,
            read_dirs: given("readDirs")?
                .map(|f| Callback::new(f, calls))
                .transpose()?,
            read_files: given("readFiles")?
                .map(|f| Callback::new(f, calls))
                .transpose()?,
            limit,
        })
    }
}

/// "Not found", as the core takes it.
fn not_found() -> io::Error {
    io::ErrorKind::NotFound.into()
}

/// A failure of the callback `op`, said by `detail`, for an answer it should not have given.
fn bad_answer(op: &str, detail: impl fmt::Display) -> io::Error {
    io::Error::other(format!("fs.{op}: {detail}"))
}

/// The name a directory's listing holds, as the callback `op` answered it: a string by the rule
/// of text.rs, one path element.
fn listed_name(op: &str, name: &[u16]) -> io::Result<OsString> {
    let bytes = text::from_utf16(name)
        .map_err(|unit| bad_answer(op, format!("a name holds the lone surrogate U+{unit:04X}")))?;
    // The refusal of C's agentsmd_listing_push and Go's, in their words; `.` and `..` are
    // accepted, and never match.
    if bytes.is_empty() || bytes.contains(&b'/') || bytes.contains(&0) {
        return Err(bad_answer(
            op,
            format!(
                "listed {:?}, which is not one path element",
                String::from_utf8_lossy(&bytes)
            ),
        ));
    }
    // On Windows a name must be WTF-8; the core's message says which one is not.
    ffi_support::path_from_bytes(bytes, "listed name")
        .map(|name| name.into_os_string())
        .map_err(|error| bad_answer(op, error))
}

/// The names of a batch, as its callback is given them: one array of strings.
fn texts(names: &[FsName]) -> Vec<Text> {
    names.iter().map(|name| Text::of(name.as_bytes())).collect()
}

/// The answer of the batch callback `op`: index.js has refused `null`, which answers no name.
fn batch_answer<T>(op: &str, answer: Option<T>) -> io::Result<T> {
    answer.ok_or_else(|| bad_answer(op, "answered null for the whole batch"))
}

impl FileSystem for JsFs {
    fn list(&self, dir: &FsName) -> io::Result<Vec<OsString>> {
        let names = self
            .list
            .call(Text::of(dir.as_bytes()))?
            .ok_or_else(not_found)?;
        names.iter().map(|name| listed_name("list", name)).collect()
    }

    fn stat(&self, name: &FsName) -> io::Result<Entry> {
        let stat = self
            .stat
            .call(Text::of(name.as_bytes()))?
            .ok_or_else(not_found)?;
        stat.entry("stat")?
            .ok_or_else(|| bad_answer("stat", "kind 'link' answers only in a listing"))
    }

    fn open(&self, name: &FsName) -> io::Result<Box<dyn Read + '_>> {
        let args = (Text::of(name.as_bytes()), self.limit as f64).into();
        // index.js gives at most `limit` bytes of the Buffer, which `Bytes` copied.
        let content = self.read.call(args)?.ok_or_else(not_found)?;
        Ok(Box::new(Cursor::new(content.0)))
    }

    fn batched(&self) -> Option<&dyn BatchFileSystem> {
        (self.read_dirs.is_some() || self.read_files.is_some()).then_some(self)
    }
}

impl BatchFileSystem for JsFs {
    fn batches(&self) -> Batches {
        Batches {
            lists: self.read_dirs.is_some(),
            reads: self.read_files.is_some(),
        }
    }

    fn list_many(&self, dirs: &[FsName]) -> io::Result<Vec<Option<Vec<Listed>>>> {
        // A chain asks only the batches `batches` names.
        let Some(read_dirs) = &self.read_dirs else {
            return Err(ffi_support::not_batched("readDirs"));
        };
        let listings = batch_answer("readDirs", read_dirs.call(texts(dirs))?)?;
        let listed = |entry: DirEntry| {
            Ok(Listed {
                name: listed_name("readDirs", &entry.name)?,
                entry: entry.stat.entry("readDirs")?,
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
        let Some(read_files) = &self.read_files else {
            return Err(ffi_support::not_batched("readFiles"));
        };
        // index.js gives at most `limit` bytes of each Buffer, which `Bytes` copied.
        let args = (texts(names), limit as f64).into();
        let contents = batch_answer("readFiles", read_files.call(args)?)?;
        Ok(contents
            .into_iter()
            .map(|content| content.map(|bytes| bytes.0))
            .collect())
    }
}

/// The options' `transform`, the function `function`, for a chain whose `max_bytes` is
/// `max_bytes`: index.js hands back no more of its answer than the core reads of a file,
/// `max_bytes + 1` bytes (SPEC.md §4: nothing is held beyond that), which it is given.
pub(crate) fn transform(
    function: Unknown,
    max_bytes: Option<u64>,
    calls: Calls,
) -> Result<Transform, Failure> {
    let limit = max_bytes.unwrap_or(DEFAULT_MAX_BYTES).saturating_add(1) as f64;
    let callback: Callback<FnArgs<(Text, Copied, f64)>, Content> = Callback::new(function, calls)?;
    Ok(Transform::new(move |path: &Path, content: Vec<u8>| {
        let args = (
            Text::of(ffi_support::path_to_bytes(path)),
            Copied(content),
            limit,
        )
            .into();
        match callback.call(args) {
            Ok(Some(content)) => Ok(content.0),
            Ok(None) => Err("transform: returned nothing; it returns a Buffer or a string".into()),
            Err(error) => Err(error.to_string()),
        }
    }))
}
