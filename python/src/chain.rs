//! `chain`, `render` and `overlay_dir` (SPEC.md §1, §2, §5.3), answering tuples of bytes and
//! words that agentsmd/_api.py turns into dataclasses and enums.

use agentsmd_core::ffi_support;
use agentsmd_core::{Chain, Instruction};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;

use crate::error::{refused, run};
use crate::options::{self, path};

/// `(path, content, source)`.
type FileRow = (Vec<u8>, Vec<u8>, &'static str);
/// `(path, size, reason, by)`.
type OmittedRow = (Vec<u8>, u64, &'static str, Option<Vec<u8>>);
/// `(path, by, line, depth, size, duplicate)`.
type ImportRow = (Vec<u8>, Vec<u8>, u64, u32, u64, bool);
/// `(path, source, outcome)`.
type ProbeRow = (Vec<u8>, &'static str, &'static str);
/// `(path, name, description)`.
type AvailableRow = (Vec<u8>, String, String);
/// What `chain` answers: `(files, omitted, imports, probes, available, warnings, rendered)`,
/// `rendered` the preset's rendering (SPEC.md §12), `None` without a preset.
pub(crate) type Rows = (
    Vec<FileRow>,
    Vec<OmittedRow>,
    Vec<ImportRow>,
    Vec<ProbeRow>,
    Vec<AvailableRow>,
    Vec<String>,
    Option<Vec<u8>>,
);

fn bytes(path: &std::path::Path) -> Vec<u8> {
    ffi_support::path_to_bytes(path).to_vec()
}

/// The chain at `path` with `options` (the dict of agentsmd/_options.py), the GIL released
/// while it runs: its rows, with the preset's rendering of it (SPEC.md §12).
#[pyfunction]
pub(crate) fn chain(
    py: Python<'_>,
    path: PyBackedBytes,
    options: &Bound<'_, PyAny>,
) -> PyResult<Rows> {
    let call = options::read(options)?;
    let start = options::path(py, &path, "path")?;
    let (chain, rendered) = run(py, &call.captured, || {
        let chain = agentsmd_core::chain(&start, &call.core)?;
        let rendered = match call.core.preset {
            Some(preset) => {
                let cwd = preset.working_dir(&start, &call.core)?;
                Some(preset.render(&chain, &cwd))
            }
            None => None,
        };
        Ok((chain, rendered))
    })?;
    let mut rows = rows(chain);
    rows.6 = rendered;
    Ok(rows)
}

/// A chain, or a session's delta, as the rows `chain` and `Session.touch` answer (`rendered`
/// `None`).
pub(crate) fn rows(chain: Chain) -> Rows {
    (
        chain
            .files
            .into_iter()
            .map(|file| (bytes(&file.path), file.content, file.source.as_str()))
            .collect(),
        chain
            .omitted
            .iter()
            .map(|omitted| {
                (
                    bytes(&omitted.path),
                    omitted.size,
                    omitted.reason.as_str(),
                    omitted.by.as_deref().map(bytes),
                )
            })
            .collect(),
        chain
            .imports
            .iter()
            .map(|import| {
                (
                    bytes(&import.path),
                    bytes(&import.by),
                    import.line,
                    import.depth,
                    import.size,
                    import.duplicate,
                )
            })
            .collect(),
        chain
            .probes
            .iter()
            .map(|probe| {
                (
                    bytes(&probe.path),
                    probe.source.as_str(),
                    probe.outcome.as_str(),
                )
            })
            .collect(),
        chain
            .available
            .into_iter()
            .map(|rule| (bytes(&rule.path), rule.name, rule.description))
            .collect(),
        chain.warnings,
        None,
    )
}

/// One `(path, content)` pair of `render`.
struct Pair(PyBackedBytes, PyBackedBytes);

impl Instruction for Pair {
    fn path(&self) -> &[u8] {
        &self.0
    }
    fn content(&self) -> &[u8] {
        &self.1
    }
}

/// The rendering (SPEC.md §2) of `(path, content)` pairs.
#[pyfunction]
pub(crate) fn render(files: Vec<(PyBackedBytes, PyBackedBytes)>) -> Vec<u8> {
    let pairs: Vec<Pair> = files.into_iter().map(|(p, c)| Pair(p, c)).collect();
    agentsmd_core::render(&pairs)
}

/// `USERS_DIR/IDENTITY/.agents`, or `None` when either is empty (SPEC.md §5.3).
#[pyfunction]
pub(crate) fn overlay_dir(
    py: Python<'_>,
    users_dir: PyBackedBytes,
    identity: PyBackedBytes,
) -> PyResult<Option<Vec<u8>>> {
    let users_dir = path(py, &users_dir, "users_dir")?;
    let identity = path(py, &identity, "identity")?;
    agentsmd_core::overlay_dir(users_dir, identity)
        .map(|dir| dir.as_deref().map(bytes))
        .map_err(|error| refused(py, error))
}
