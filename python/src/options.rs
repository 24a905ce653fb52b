//! The options of `chain`, `Session`, `parse`, `parse_text` and `parse_nearest`, as the Python
//! layer (agentsmd/_options.py) hands them over: a dict with every key, each already checked and
//! normalized there — paths and names as bytes, absent values as `None`, the custom file system
//! as its adapter (agentsmd/_fs.py). What only the core can check (a name that is no path
//! element, a rule directory's dialect, a path that is not WTF-8 on Windows) it checks, as in
//! every binding.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use agentsmd_core::ffi_support;
use agentsmd_core::{Dialect, Options, Preset, RuleDir, Transform};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;

use crate::error::{refused, Captured};
use crate::fs::{self, PyFs};

/// The options dict, field by field.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct Raw {
    names: Vec<PyBackedBytes>,
    root: Option<PyBackedBytes>,
    extra: Vec<PyBackedBytes>,
    max_bytes: Option<u64>,
    budget: Option<u64>,
    rendered_budget: Option<u64>,
    confine: bool,
    fs: Option<Py<PyAny>>,
    batches: (bool, bool),
    fragments: Vec<PyBackedBytes>,
    overlays: Vec<PyBackedBytes>,
    imports: bool,
    import_depth: u32,
    max_imports: u32,
    env: Option<HashMap<String, PyBackedBytes>>,
    transform: Option<Py<PyAny>>,
    nearest: bool,
    all_names: bool,
    report: bool,
    rules: Vec<(String, PyBackedBytes)>,
    preset: Option<String>,
    home: Option<PyBackedBytes>,
    skills: Option<Vec<PyBackedBytes>>,
}

/// The options of one call.
pub(crate) struct CallOptions {
    /// The core's options.
    pub(crate) core: Options,
    /// The caller's skill names, or `None` for the front matter's.
    pub(crate) skills: Option<Vec<Vec<u8>>>,
    /// Where the callbacks keep the exception that ended the call.
    pub(crate) captured: Captured,
}

/// The OS path whose bytes are `bytes`, or the core's error naming it as `what`.
pub(crate) fn path(py: Python<'_>, bytes: &[u8], what: &str) -> PyResult<PathBuf> {
    ffi_support::path_from_bytes(bytes.to_vec(), what).map_err(|error| refused(py, error))
}

fn byte_strings(items: Vec<PyBackedBytes>) -> Vec<Vec<u8>> {
    items.iter().map(|item| item.to_vec()).collect()
}

fn paths(py: Python<'_>, items: Vec<PyBackedBytes>, what: &str) -> PyResult<Vec<PathBuf>> {
    items.iter().map(|item| path(py, item, what)).collect()
}

/// The rule directories of `(dialect, dir)` pairs (SPEC.md §11): a dialect the core does not
/// name is refused here; `dir` is checked by the core when a chain starts, as a fragment
/// directory is.
fn rule_dirs(py: Python<'_>, pairs: Vec<(String, PyBackedBytes)>) -> PyResult<Vec<RuleDir>> {
    let rule_dir = |(i, (dialect, dir)): (usize, (String, PyBackedBytes))| {
        let Some(dialect) = Dialect::from_name(&dialect) else {
            let names = Dialect::ALL.map(Dialect::as_str).join(", ");
            let message = format!("rules[{i}]: the dialect {dialect:?} is none of {names}");
            return Err(refused(py, ffi_support::invalid_argument(message)));
        };
        Ok(RuleDir::new(dialect, dir.to_vec()))
    };
    pairs.into_iter().enumerate().map(rule_dir).collect()
}

/// The preset named `name` (SPEC.md §12); another name is refused, naming the presets.
fn preset(py: Python<'_>, name: &str) -> PyResult<Preset> {
    Preset::from_name(name).ok_or_else(|| {
        let names = Preset::ALL.map(Preset::as_str).join(", ");
        let message = format!("preset: {name:?} is none of {names}");
        refused(py, ffi_support::invalid_argument(message))
    })
}

/// Reads the options dict `value`.
pub(crate) fn read(value: &Bound<'_, PyAny>) -> PyResult<CallOptions> {
    let py = value.py();
    let raw: Raw = value.extract()?;
    let captured = Captured::default();
    let mut core = Options::default();
    core.names = byte_strings(raw.names);
    core.root = raw.root.map(|root| path(py, &root, "root")).transpose()?;
    core.extra = paths(py, raw.extra, "extra")?;
    core.max_bytes = raw.max_bytes;
    core.budget = raw.budget;
    core.rendered_budget = raw.rendered_budget;
    core.confine = raw.confine;
    let limit = core
        .max_bytes
        .unwrap_or(agentsmd_core::DEFAULT_MAX_BYTES)
        .saturating_add(1);
    if let Some(adapter) = raw.fs {
        let (lists, reads) = raw.batches;
        core.fs = Some(Arc::new(PyFs::new(
            adapter,
            lists,
            reads,
            limit,
            captured.clone(),
        )));
    }
    core.fragments = byte_strings(raw.fragments);
    core.overlays = paths(py, raw.overlays, "overlays")?;
    core.imports = raw.imports;
    core.import_depth = raw.import_depth;
    core.max_imports = raw.max_imports;
    core.transform = match (raw.env, raw.transform) {
        (Some(env), _) => Some(Transform::interpolator(
            env.into_iter()
                .map(|(name, value)| (name, value.to_vec()))
                .collect(),
        )),
        (None, Some(function)) => Some(fs::transform(function, captured.clone())),
        (None, None) => None,
    };
    core.nearest = raw.nearest;
    core.all_names = raw.all_names;
    core.report = raw.report;
    core.rules = rule_dirs(py, raw.rules)?;
    core.preset = raw.preset.map(|name| preset(py, &name)).transpose()?;
    core.home = raw.home.map(|home| path(py, &home, "home")).transpose()?;
    Ok(CallOptions {
        core,
        skills: raw.skills.map(byte_strings),
        captured,
    })
}
