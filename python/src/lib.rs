//! `agentsmd._agentsmd`, the extension module of the Python package `agentsmd` (the PyPI
//! distribution `agentsmd-loader`): the Rust core's calls over plain Python values — bytes for
//! every path and text, tuples for results, words for enums. The typed API that users import
//! is the pure-Python layer around it (python/agentsmd), which turns `str` and `os.PathLike`
//! paths into bytes, these tuples into dataclasses and the words into enums; `_agentsmd.pyi`
//! types this module for it.
//!
//! Every call that reads a file system runs with the GIL released (`Python::detach`): a chain
//! over the OS never holds up the interpreter's other threads. A custom file system or
//! transform written in Python takes the GIL back for each question it answers.

mod chain;
mod error;
mod fs;
mod options;
mod session;
mod structure;

use pyo3::prelude::*;

#[pymodule]
fn _agentsmd(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(chain::chain, m)?)?;
    m.add_function(wrap_pyfunction!(chain::render, m)?)?;
    m.add_function(wrap_pyfunction!(chain::overlay_dir, m)?)?;
    m.add_function(wrap_pyfunction!(structure::parse, m)?)?;
    m.add_function(wrap_pyfunction!(structure::parse_text, m)?)?;
    m.add_function(wrap_pyfunction!(structure::parse_nearest, m)?)?;
    m.add_function(wrap_pyfunction!(structure::block, m)?)?;
    m.add_class::<structure::Parsed>()?;
    m.add_class::<session::Session>()?;
    m.add("PART_ID", agentsmd_core::PART_ID)?;
    m.add("DEFAULT_NAME", agentsmd_core::DEFAULT_NAME)?;
    m.add("DEFAULT_MAX_BYTES", agentsmd_core::DEFAULT_MAX_BYTES)?;
    m.add("DEFAULT_IMPORT_DEPTH", agentsmd_core::DEFAULT_IMPORT_DEPTH)?;
    m.add("DEFAULT_MAX_IMPORTS", agentsmd_core::DEFAULT_MAX_IMPORTS)?;
    m.add("DEFAULT_CAP", agentsmd_core::structure::DEFAULT_CAP)?;
    m.add("MIN_CAP", agentsmd_core::structure::MIN_CAP)?;
    m.add(
        "DEFAULT_HEADING",
        String::from_utf8_lossy(agentsmd_core::structure::DEFAULT_HEADING).into_owned(),
    )?;
    m.add("VERSION", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
