//! `parse`, `parse_text`, `parse_nearest` and `block` (SPEC.md §6). A parsed file stays in
//! Rust as a [`Parsed`], which agentsmd/_structure.py keeps out of sight in its `Document`
//! dataclass: what `block` renders (the body's units, the skills' texts) is never copied into
//! Python.

use agentsmd_core::structure::{self, BlockOptions, Document, SkillOptions, Skills};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;

use crate::error::{run, Captured};
use crate::options::{self, CallOptions};

/// A parsed file with its skills resolved.
#[pyclass(frozen, module = "agentsmd._agentsmd")]
pub(crate) struct Parsed {
    document: Document,
    skills: Skills,
}

#[pymethods]
impl Parsed {
    /// The skill names requested, repeats removed.
    #[getter]
    fn requested(&self) -> Vec<Vec<u8>> {
        self.skills.requested.clone()
    }

    /// The requested skills that resolved: `(name, source)`, source `inline` or `file`.
    #[getter]
    fn skills(&self) -> Vec<(Vec<u8>, &'static str)> {
        self.skills
            .resolved
            .iter()
            .map(|skill| (skill.name.clone(), skill.source.as_str()))
            .collect()
    }

    /// The requested names nothing defines.
    #[getter]
    fn unknown(&self) -> Vec<Vec<u8>> {
        self.skills.unknown.clone()
    }

    /// The text's warnings, then those of resolving its skills, each `line N: …`.
    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.document
            .warnings
            .iter()
            .chain(&self.skills.warnings)
            .map(ToString::to_string)
            .collect()
    }
}

/// `document` with its skills resolved as `options` say (SPEC.md §6.2).
fn resolved(document: Document, options: &CallOptions) -> Result<Parsed, agentsmd_core::Error> {
    let mut requested = SkillOptions::default();
    requested.requested.clone_from(&options.skills);
    let skills = document.resolve_skills(&requested, &options.core)?;
    Ok(Parsed { document, skills })
}

/// The file at `path`, read through the options' file system and parsed.
#[pyfunction]
pub(crate) fn parse(
    py: Python<'_>,
    path: PyBackedBytes,
    options: &Bound<'_, PyAny>,
) -> PyResult<Parsed> {
    let call = options::read(options)?;
    let path = options::path(py, &path, "path")?;
    run(py, &call.captured, || {
        resolved(structure::read(&path, &call.core)?, &call)
    })
}

/// `text`, parsed: text of no file, so only inline skills resolve.
#[pyfunction]
pub(crate) fn parse_text(
    py: Python<'_>,
    text: PyBackedBytes,
    options: &Bound<'_, PyAny>,
) -> PyResult<Parsed> {
    let call = options::read(options)?;
    run(py, &call.captured, || {
        resolved(structure::parse(&text), &call)
    })
}

/// The document of the nearest file of the chain at `path` (SPEC.md §6.5), or `None`.
#[pyfunction]
pub(crate) fn parse_nearest(
    py: Python<'_>,
    path: PyBackedBytes,
    options: &Bound<'_, PyAny>,
) -> PyResult<Option<Parsed>> {
    let call = options::read(options)?;
    let path = options::path(py, &path, "path")?;
    run(py, &call.captured, || {
        structure::parse_nearest(&path, &call.core)?
            .map(|document| resolved(document, &call))
            .transpose()
    })
}

/// What `block` answers: `(block, cap, dropped)`, each dropped unit `(title, bytes)`.
type BlockRow = (Vec<u8>, usize, Vec<(Vec<u8>, usize)>);

/// The bounded rendering (SPEC.md §6.3) of `parsed`: `(block, cap, dropped)`, each dropped unit
/// `(title, bytes)`. `None` is each option's default; `heading` `b""` is kept as given.
#[pyfunction]
#[pyo3(signature = (parsed, cap, heading, preamble, name, location))]
pub(crate) fn block(
    py: Python<'_>,
    parsed: &Bound<'_, Parsed>,
    cap: Option<usize>,
    heading: Option<PyBackedBytes>,
    preamble: Option<PyBackedBytes>,
    name: Option<PyBackedBytes>,
    location: Option<PyBackedBytes>,
) -> PyResult<BlockRow> {
    let mut options = BlockOptions::default();
    options.cap = cap.filter(|&cap| cap != 0);
    if let Some(heading) = heading {
        options.heading = heading.to_vec();
    }
    options.preamble = preamble.map(|p| p.to_vec()).unwrap_or_default();
    options.name = name.map(|n| n.to_vec()).filter(|n| !n.is_empty());
    options.location = location.map(|l| l.to_vec()).filter(|l| !l.is_empty());
    let parsed = parsed.get();
    let block = run(py, &Captured::default(), || {
        structure::block(&parsed.document, &parsed.skills, &options)
    })?;
    Ok((
        block.text,
        block.cap,
        block
            .dropped
            .into_iter()
            .map(|dropped| (dropped.title, dropped.bytes))
            .collect(),
    ))
}
