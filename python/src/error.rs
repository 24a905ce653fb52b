//! Failures as Python sees them: every error of the core, and a panic caught before it could
//! unwind into the interpreter, raised as the exception class of its kind that
//! `agentsmd._errors` defines (one class per kind under `agentsmd.Error`). An exception that a
//! custom file system or transform raised is kept and becomes the `__cause__` of the error it
//! led to.

use std::any::Any;
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Arc, Mutex};

use agentsmd_core::ffi_support;
use agentsmd_core::ErrorKind;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// The first exception a callback of one call raised, for the `__cause__` of the call's error.
#[derive(Clone, Default)]
pub(crate) struct Captured(Arc<Mutex<Option<PyErr>>>);

impl Captured {
    /// Keeps `error` unless an earlier one is kept: the first failure is what ended the call.
    pub(crate) fn keep(&self, error: PyErr) {
        let mut kept = self.0.lock().unwrap_or_else(|poison| poison.into_inner());
        kept.get_or_insert(error);
    }

    pub(crate) fn take(&self) -> Option<PyErr> {
        self.0
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
            .take()
    }
}

/// A failure on its way to Python.
pub(crate) struct Failure {
    kind: &'static str,
    message: Vec<u8>,
    path: Option<Vec<u8>>,
    line: Option<u64>,
    os_code: Option<i32>,
}

impl From<agentsmd_core::Error> for Failure {
    fn from(error: agentsmd_core::Error) -> Self {
        let kind = match error.kind() {
            ErrorKind::InvalidArgument => "InvalidArgument",
            ErrorKind::TooLarge => "TooLarge",
            ErrorKind::Io => "Io",
            ErrorKind::Fs => "Fs",
            ErrorKind::Import => "Import",
            // A kind added to the core later: its message still says what failed.
            _ => "Io",
        };
        Self {
            kind,
            message: error.message().to_vec(),
            path: error
                .path()
                .map(|path| ffi_support::path_to_bytes(path).to_vec()),
            line: error.line(),
            os_code: error.os_code(),
        }
    }
}

impl Failure {
    /// A panic whose payload is `payload`: a bug, caught.
    fn panic(payload: &(dyn Any + Send)) -> Self {
        let text = payload
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
            .unwrap_or("no message");
        Self {
            kind: "Panic",
            // The C ABI's words, so that a bug reads alike in every binding.
            message: format!("internal error (panic): {text}").into_bytes(),
            path: None,
            line: None,
            os_code: None,
        }
    }

    /// The exception of this failure, built by `agentsmd._errors._from_core`, with `cause` (a
    /// callback's exception) as its `__cause__`.
    pub(crate) fn into_pyerr(self, py: Python<'_>, cause: Option<PyErr>) -> PyErr {
        let build = || -> PyResult<PyErr> {
            let errors = py.import("agentsmd._errors")?;
            let exception = errors.getattr("_from_core")?.call1((
                self.kind,
                PyBytes::new(py, &self.message),
                self.path.as_deref().map(|path| PyBytes::new(py, path)),
                self.line,
                self.os_code,
            ))?;
            Ok(PyErr::from_value(exception))
        };
        // Where the classes cannot be had (the module imported alone), the build's own error
        // says why, which is still an exception.
        let error = build().unwrap_or_else(|error| error);
        if let Some(cause) = cause {
            error.set_cause(py, Some(cause));
        }
        error
    }
}

/// Runs `work` with the GIL released, a panic in it caught, and its error raised as the class
/// of its kind, a callback's exception (kept in `captured`) as the cause.
pub(crate) fn run<T: Send>(
    py: Python<'_>,
    captured: &Captured,
    work: impl FnOnce() -> Result<T, agentsmd_core::Error> + Send,
) -> PyResult<T> {
    let outcome = py.detach(|| caught(work));
    raised(py, outcome, captured.take())
}

/// What `work` answers, or the panic it ended in.
pub(crate) fn caught<T>(
    work: impl FnOnce() -> Result<T, agentsmd_core::Error>,
) -> std::thread::Result<Result<T, agentsmd_core::Error>> {
    panic::catch_unwind(AssertUnwindSafe(work))
}

/// The value of a [`caught`] outcome, or its error (or panic) raised as the class of its kind,
/// with `cause` (a callback's exception) as its `__cause__`.
pub(crate) fn raised<T>(
    py: Python<'_>,
    outcome: std::thread::Result<Result<T, agentsmd_core::Error>>,
    cause: Option<PyErr>,
) -> PyResult<T> {
    let failure = match outcome {
        Ok(Ok(value)) => return Ok(value),
        Ok(Err(error)) => Failure::from(error),
        Err(payload) => Failure::panic(&*payload),
    };
    Err(failure.into_pyerr(py, cause))
}

/// An argument refused before any work: the core's `InvalidArgument` error of `error`.
pub(crate) fn refused(py: Python<'_>, error: agentsmd_core::Error) -> PyErr {
    Failure::from(error).into_pyerr(py, None)
}
