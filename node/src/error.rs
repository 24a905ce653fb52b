//! Failures as JavaScript sees them. Every error of the core, every argument refused and every
//! panic becomes one [`Failure`], thrown or rejected as an `Error` object marked with the code
//! [`MARK`], which index.js turns into an `AgentsmdError` (the class lives there, so that sync
//! and async calls give the same class and `instanceof` holds).

use std::any::Any;
use std::io;
use std::ptr;

use agentsmd_core::ffi_support;
use agentsmd_core::ErrorKind;
use std::ffi::CStr;

use napi::bindgen_prelude::ToNapiValue;
use napi::{sys, Env, Status};

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
    Aborted,
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
            Kind::Aborted => "Aborted",
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

    /// The caller aborted the call (`options.signal`), or its environment ended first.
    pub(crate) fn aborted() -> Self {
        Self::of(Kind::Aborted, b"the call was aborted".to_vec())
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

    /// Throws this failure's error object, for a synchronous export to return the error napi-rs
    /// then leaves pending (it throws nothing of its own over a pending exception).
    pub(crate) fn throw(self, env: &Env) -> napi::Error {
        let value = self.into_value(env);
        unsafe { sys::napi_throw(env.raw(), value) };
        napi::Error::new(Status::PendingException, "")
    }

    /// The error object of this failure, to throw or to reject with. Where JavaScript has thrown
    /// and its throw is pending (an option's getter, a Proxy's trap, met reading the arguments),
    /// that throw is taken and kept as the object's `cause`, so that the caller sees an
    /// `AgentsmdError` and not its own throw.
    ///
    /// Built with Node-API's own calls, each failure looked at here: at the end of the JavaScript
    /// stack a call may throw, and napi-rs would read that throw by running JavaScript, which
    /// throws again, and so on until the native stack overflows. A throw met here is the value
    /// given instead: the `RangeError` of the stack running out, which the caller can catch.
    pub(crate) fn into_value(self, env: &Env) -> sys::napi_value {
        let env = env.raw();
        let mut cause = ptr::null_mut();
        let mut pending = false;
        unsafe { sys::napi_is_exception_pending(env, &mut pending) };
        if pending {
            unsafe { sys::napi_get_and_clear_last_exception(env, &mut cause) };
        }
        match self.build(env, cause) {
            Ok(object) => object,
            Err(status) => {
                let mut thrown = ptr::null_mut();
                if status == sys::Status::napi_pending_exception {
                    unsafe { sys::napi_get_and_clear_last_exception(env, &mut thrown) };
                }
                if thrown.is_null() {
                    unsafe { sys::napi_get_undefined(env, &mut thrown) };
                }
                thrown
            }
        }
    }

    fn build(self, env: sys::napi_env, cause: sys::napi_value) -> Result<sys::napi_value, i32> {
        let ok = |status| match status {
            sys::Status::napi_ok => Ok(()),
            status => Err(status),
        };
        let text = |bytes: Vec<u8>| {
            // A message naming a path that is not UTF-8 holds lone surrogates (text.rs).
            unsafe { Text::to_napi_value(env, Text(bytes)) }
                .map_err(|_| sys::Status::napi_generic_failure)
        };
        let null = || {
            let mut null = ptr::null_mut();
            unsafe { sys::napi_get_null(env, &mut null) };
            null
        };
        let mut object = ptr::null_mut();
        ok(unsafe {
            sys::napi_create_error(env, ptr::null_mut(), text(self.message)?, &mut object)
        })?;
        let set = |name: &CStr, value: sys::napi_value| {
            ok(unsafe { sys::napi_set_named_property(env, object, name.as_ptr(), value) })
        };
        set(c"code", text(MARK.as_bytes().to_vec())?)?;
        set(c"kind", text(self.kind.as_str().as_bytes().to_vec())?)?;
        set(
            c"path",
            match self.path {
                Some(path) => text(path)?,
                None => null(),
            },
        )?;
        set(
            c"errno",
            match self.errno {
                Some(errno) => text(errno.into_bytes())?,
                None => null(),
            },
        )?;
        set(
            c"osCode",
            match self.os_code {
                Some(code) => {
                    let mut value = ptr::null_mut();
                    ok(unsafe { sys::napi_create_int32(env, code, &mut value) })?;
                    value
                }
                None => null(),
            },
        )?;
        if !cause.is_null() {
            set(c"cause", cause)?;
        }
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
            ErrorKind::Aborted => Kind::Aborted,
            // `Io`, and any kind a later core adds: a failure to get at files.
            _ => Kind::Io,
        };
        let mut failure = Self::of(kind, error.message().to_vec());
        failure.path = error
            .path()
            .map(|path| ffi_support::path_to_bytes(path).to_vec());
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
