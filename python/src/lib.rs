use pyo3::prelude::*;
#[pymodule]
fn _agentsmd(_m: &Bound<'_, PyModule>) -> PyResult<()> { Ok(()) }
