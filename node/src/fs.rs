//! A custom file system (SPEC.md §3) and a transform (§5.5) in JavaScript, as the core's
//! [`FileSystem`] and [`Transform`].
//!
//! The questions go to the callbacks as the API documents them: `list(dir)` answers an array of
//! names, `stat(name)` `{ kind, size }`, `read(name, limit)` a `Buffer` — each `null` for "not
//! found" — and `transform(path, content)` a `Buffer` or a string. index.js has checked the
//! shape of each answer (src/callback.rs); what is left to check here is what only the bytes
//! can say.

use std::ffi::OsString;
use std::fmt;
use std::io::{self, Cursor, Read};
use std::path::Path;

use agentsmd_core::fs::{Entry, FileSystem};
use agentsmd_core::{FsName, Transform, DEFAULT_MAX_BYTES};
use napi::bindgen_prelude::{
    Buffer, FnArgs, FromNapiValue, Object, Uint8ArraySlice, Unknown, Utf16String,
};
use napi::{sys, ValueType};

use crate::callback::{Callback, Calls};
use crate::error::Failure;
use crate::input;
use crate::text::{self, Text};

/// What `stat` answers.
pub(crate) struct Stat {
    kind: String,
    size: Option<f64>,
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

/// The options' `fs`: three callbacks.
pub(crate) struct JsFs {
    list: Callback<Text, Vec<Utf16String>>,
    stat: Callback<Text, Stat>,
    read: Callback<FnArgs<(Text, f64)>, Bytes>,
    /// The `limit` `read` is given: the most bytes the core reads of a file, `maxBytes + 1`, so
    /// that a callback need not read more of a large file than tells that it is too large.
    limit: u64,
}

impl JsFs {
    /// The file system of the object `fs` (`options.fs`), for a chain whose `max_bytes` is
    /// `max_bytes`.
    pub(crate) fn new(fs: &Object, max_bytes: Option<u64>, calls: Calls) -> Result<Self, Failure> {
        let callback = |name: &str| {
            let what = format!("options.fs.{name}");
            let function = input::function(input::field(fs, name, "options.fs")?, &what)?
                .ok_or_else(|| Failure::invalid(format!("{what}: expected a function")))?;
            Ok::<_, Failure>(function)
        };
        let limit = max_bytes.unwrap_or(DEFAULT_MAX_BYTES).saturating_add(1);
        Ok(Self {
            list: Callback::new(callback("list")?, calls)?,
            stat: Callback::new(callback("stat")?, calls)?,
            read: Callback::new(callback("read")?, calls)?,
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

impl FileSystem for JsFs {
    fn list(&self, dir: &FsName) -> io::Result<Vec<OsString>> {
        let names = self
            .list
            .call(Text::of(dir.as_bytes()))?
            .ok_or_else(not_found)?;
        names
            .iter()
            .map(|name| {
                let bytes = text::from_utf16(name).map_err(|unit| {
                    bad_answer(
                        "list",
                        format!("a name holds the lone surrogate U+{unit:04X}"),
                    )
                })?;
                // On Windows a name must be WTF-8; the core's message says which one is not.
                agentsmd_core::path_from_bytes(bytes, "listed name")
                    .map(|name| name.into_os_string())
                    .map_err(|error| bad_answer("list", error))
            })
            .collect()
    }

    fn stat(&self, name: &FsName) -> io::Result<Entry> {
        let stat = self
            .stat
            .call(Text::of(name.as_bytes()))?
            .ok_or_else(not_found)?;
        match (stat.kind.as_str(), stat.size) {
            ("file", Some(size)) if size >= 0.0 && size.fract() == 0.0 => {
                Ok(Entry::File { size: size as u64 })
            }
            ("file", _) => Err(bad_answer("stat", "a file's size must be a whole number")),
            ("dir", _) => Ok(Entry::Dir),
            ("other", _) => Ok(Entry::Other),
            (kind, _) => Err(bad_answer(
                "stat",
                format!("kind {kind:?} is none of 'file', 'dir', 'other'"),
            )),
        }
    }

    fn open(&self, name: &FsName) -> io::Result<Box<dyn Read + '_>> {
        let args = (Text::of(name.as_bytes()), self.limit as f64).into();
        // index.js gives at most `limit` bytes of the Buffer, which `Bytes` copied.
        let content = self.read.call(args)?.ok_or_else(not_found)?;
        Ok(Box::new(Cursor::new(content.0)))
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
    let callback: Callback<FnArgs<(Text, Buffer, f64)>, Content> = Callback::new(function, calls)?;
    Ok(Transform::new(move |path: &Path, content: Vec<u8>| {
        let args = (
            Text::of(agentsmd_core::path_to_bytes(path)),
            Buffer::from(content),
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
