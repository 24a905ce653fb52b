//! Failures as JavaScript sees them. Every error of the core, every argument refused and every
//! panic becomes one [`Failure`], thrown or rejected as an `Error` object marked with the code
//! [`MARK`], which index.js turns into an `AgentsmdError` (the class lives there, so that sync
//! and async calls give the same class and `instanceof` holds).

use std::any::Any;
use std::io;
use std::ptr;

use agentsmd_core::ErrorKind;
use napi::bindgen_prelude::{JsObjectValue, Object, ToNapiValue};
use napi::{sys, Env, JsValue};

use crate::callback::Thrown;
use crate::text::Text;

/// The `code` of the error objects the addon throws, by which index.js knows them.
pub(crate) const MARK: &str = "AGENTSMD_ERROR";

/// What failed, as `AgentsmdError.kind` says it: SPEC.md §4's kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    InvalidArgument,
    TooLarge,
    Io,
    Fs,
    Import,
    Panic,
}

impl Kind {
    fn as_str(self) -> &'static str {
        match self {
            Kind::InvalidArgument => "InvalidArgument",
            Kind::TooLarge => "TooLarge",
            Kind::Io => "Io",
            Kind::Fs => "Fs",
            Kind::Import => "Import",
            Kind::Panic => "Panic",
        }
    }
}

/// One failure on its way to JavaScript.
#[derive(Debug)]
pub(crate) struct Failure {
    kind: Kind,
    /// The core's message, a path in it as its bytes.
    message: Vec<u8>,
    path: Option<Vec<u8>>,
    /// The errno name, when the addon knows it: a callback's thrown `code`, or (Windows) the
    /// name of an OS error's kind.
    errno: Option<String>,
    /// (Unix) the OS error's code, which index.js names by Node's own table.
    os_code: Option<i32>,
}

impl Failure {
    /// An argument refused, said by `message`.
    pub(crate) fn invalid(message: impl Into<String>) -> Self {
        Self::of(Kind::InvalidArgument, message.into().into_bytes())
    }

    /// A panic, whose payload is `payload`: a bug, caught before it could unwind into Node.
    pub(crate) fn panic(payload: &(dyn Any + Send)) -> Self {
        let text = payload
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
            .unwrap_or("no message");
        // The C ABI's words, so that a bug reads alike in every binding.
        Self::of(
            Kind::Panic,
            format!("internal error (panic): {text}").into_bytes(),
        )
    }

    /// Node-API itself failed (the environment shutting down, memory): the chain's `Io` error.
    pub(crate) fn napi(error: napi::Error) -> Self {
        Self::of(Kind::Io, format!("Node-API: {error}").into_bytes())
    }

    fn of(kind: Kind, message: Vec<u8>) -> Self {
        Self {
            kind,
            message,
            path: None,
            errno: None,
            os_code: None,
        }
    }

    /// The JavaScript error for this failure, to throw or to reject with; a failure to build it
    /// is Node-API's own error.
    pub(crate) fn into_js(self, env: &Env) -> napi::Error {
        match self.object(env) {
            Ok(object) => napi::Error::from(object.to_unknown()),
            Err(error) => error,
        }
    }

    fn object<'e>(self, env: &'e Env) -> napi::Result<Object<'e>> {
        // `napi_create_error` rather than `Env::create_error`, whose message is a Rust `String`:
        // a message naming a path that is not UTF-8 holds lone surrogates (text.rs).
        let message = unsafe { Text::to_napi_value(env.raw(), Text(self.message))? };
        let mut raw = ptr::null_mut();
        let status =
            unsafe { sys::napi_create_error(env.raw(), ptr::null_mut(), message, &mut raw) };
        if status != sys::Status::napi_ok {
            return Err(napi::Error::new(
                status.into(),
                "creating an Error object failed",
            ));
        }
        let mut object = Object::from_raw(env.raw(), raw);
        object.set_named_property("code", MARK)?;
        object.set_named_property("kind", self.kind.as_str())?;
        object.set_named_property("path", self.path.map(Text))?;
        object.set_named_property("errno", self.errno)?;
        object.set_named_property("osCode", self.os_code)?;
        Ok(object)
    }
}

impl From<agentsmd_core::Error> for Failure {
    fn from(error: agentsmd_core::Error) -> Self {
        let kind = match error.kind() {
            ErrorKind::InvalidArgument => Kind::InvalidArgument,
            ErrorKind::TooLarge => Kind::TooLarge,
            ErrorKind::Fs => Kind::Fs,
            ErrorKind::Import => Kind::Import,
            // `Io`, and any kind a later core adds: a failure to get at files.
            _ => Kind::Io,
        };
        let mut failure = Self::of(kind, error.message().to_vec());
        failure.path = error
            .path()
            .map(|path| agentsmd_core::path_to_bytes(path).to_vec());
        if let Some(source) = error.io_error() {
            (failure.errno, failure.os_code) = errno(source);
        }
        failure
    }
}

/// The errno of the error beneath a failure, as `(name, code)`: the `code` a callback threw
/// (`'EACCES'` from a `node:fs` call, say), else the OS error's. A Unix errno goes to index.js
/// as its code, and Node's own table names it (`util.getSystemErrorName`), so that it reads as
/// `err.code` of `node:fs` would; Windows's codes are no errnos, and are named by the
/// [`io::ErrorKind`] they map to ([`windows_name`]).
fn errno(source: &io::Error) -> (Option<String>, Option<i32>) {
    if let Some(thrown) = source.get_ref().and_then(|e| e.downcast_ref::<Thrown>()) {
        return (thrown.code.clone(), None);
    }
    match source.raw_os_error() {
        Some(_) if cfg!(windows) => (windows_name(source.kind()).map(str::to_owned), None),
        code => (None, code),
    }
}

/// The errno name of a Windows error by its kind: the names libuv gives the Win32 codes behind
/// each, for the kinds the library meets; `None` for any other.
fn windows_name(kind: io::ErrorKind) -> Option<&'static str> {
    use io::ErrorKind as K;
    Some(match kind {
        K::NotFound => "ENOENT",
        K::PermissionDenied => "EPERM",
        K::NotADirectory => "ENOTDIR",
        K::IsADirectory => "EISDIR",
        K::OutOfMemory => "ENOMEM",
        K::CrossesDevices => "EXDEV",
        K::ResourceBusy => "EBUSY",
        K::InvalidInput => "EINVAL",
        _ => return None,
    })
}
