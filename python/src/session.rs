//! `Session` (SPEC.md §10): the core's session, whose touches answer the rows of `chain`, which
//! agentsmd/_api.py turns into a `Result`.

use std::sync::{Mutex, PoisonError};

use agentsmd_core::ffi_support;
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;

use crate::chain::{rows, Rows};
use crate::error::{caught, raised, refused, Captured};
use crate::options;

/// A session over the options dict it was made with; its file system and transform, written
/// in Python, live as long as it does.
#[pyclass(frozen, module = "agentsmd._agentsmd")]
pub(crate) struct Session {
    /// The core's session, `None` once closed. A touch holds the lock until it has taken its
    /// callbacks' exception too, so that the exception is the cause of that touch's error.
    session: Mutex<Option<agentsmd_core::Session>>,
    captured: Captured,
}

#[pymethods]
impl Session {
    /// A session with `options`; `nearest` is an `InvalidArgument` error.
    #[new]
    fn new(py: Python<'_>, options: &Bound<'_, PyAny>) -> PyResult<Self> {
        let call = options::read(options)?;
        let session = agentsmd_core::Session::new(call.core).map_err(|error| refused(py, error))?;
        Ok(Self {
            session: Mutex::new(Some(session)),
            captured: call.captured,
        })
    }

    /// What newly applies at `path`, the GIL released while the session touches it: the rows
    /// of `chain`.
    fn touch(&self, py: Python<'_>, path: PyBackedBytes) -> PyResult<Rows> {
        let path = options::path(py, &path, "path")?;
        let (outcome, cause) = py.detach(|| {
            let session = self.session.lock().unwrap_or_else(PoisonError::into_inner);
            let outcome = caught(|| match &*session {
                Some(session) => session.touch(&path),
                None => Err(ffi_support::invalid_argument("touch on a closed Session")),
            });
            (outcome, self.captured.take())
        });
        raised(py, outcome, cause).map(rows)
    }

    /// Ends the session: later touches are `InvalidArgument` errors.
    fn close(&self, py: Python<'_>) {
        let session = py.detach(|| {
            let mut session = self.session.lock().unwrap_or_else(PoisonError::into_inner);
            session.take()
        });
        // Dropped here, the GIL held: the callbacks are released now.
        drop(session);
    }
}
