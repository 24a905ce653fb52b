//! `agentsmd_chain` and the `agentsmd_result` it hands out.

use agentsmd_core::Chain;

use crate::boundary::{self, entry, export, handle};
use crate::error::agentsmd_error;
use crate::options::{agentsmd_options, options_or_default};
use crate::render::agentsmd_buffer;
use crate::types::{
    agentsmd_available, agentsmd_bytes, agentsmd_file, agentsmd_import, agentsmd_omitted,
    agentsmd_probe, agentsmd_source, agentsmd_status,
};

/// What `agentsmd_chain` found: the files that apply, farthest first and nearest last, and the
/// files found and left out, in the order met. Freed by `agentsmd_result_free`.
pub struct agentsmd_result {
    _private: [u8; 0],
}

handle!(agentsmd_result => Chain, "result", 0x6167_6d64_7273_7401);

/// Finds the instruction files that apply at `path` (an OS path, or a name in the custom file
/// system of `options`, NULL for the defaults), as SPEC.md §1 defines. Re-entrant: a custom
/// file system's callback may itself call `agentsmd_chain`.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_chain(
    path: *const u8,
    path_len: usize,
    options: *const agentsmd_options,
    result_out: *mut *mut agentsmd_result,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    export!(error_out, {
        let result_out = boundary::out(result_out, "result_out")?;
        let path = boundary::path_of(path, path_len, "path")?;
        let chain = agentsmd_core::chain(path, options_or_default(options)?.as_ref())?;
        *result_out = boundary::into_raw(chain);
        Ok(())
    })
}

/// The number of files in `result`.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_result_file_count(result: *const agentsmd_result) -> usize {
    export!({ boundary::count(result, |c| &c.files) })
}

/// Writes file `index` of `result` (0 is the farthest, `extra` first) to `*file_out`.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_result_file(
    result: *const agentsmd_result,
    index: usize,
    file_out: *mut agentsmd_file,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    entry!(error_out, result.files, index, file_out)
}

/// Writes the source of file `index` of `result` (SPEC.md §5.1) to `*source_out`.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_result_file_source(
    result: *const agentsmd_result,
    index: usize,
    source_out: *mut agentsmd_source,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    entry!(error_out, result.files, index, source_out)
}

/// The number of files found and left out in `result`.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_result_omitted_count(result: *const agentsmd_result) -> usize {
    export!({ boundary::count(result, |c| &c.omitted) })
}

/// Writes omitted file `index` of `result` (in the order met) to `*omitted_out`.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_result_omitted(
    result: *const agentsmd_result,
    index: usize,
    omitted_out: *mut agentsmd_omitted,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    entry!(error_out, result.omitted, index, omitted_out)
}

/// The number of import directives expanded into the files of `result` (SPEC.md §5.4); 0 with
/// imports off.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_result_import_count(result: *const agentsmd_result) -> usize {
    export!({ boundary::count(result, |c| &c.imports) })
}

/// Writes import `index` of `result` (an import before the imports inside it) to `*import_out`.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_result_import(
    result: *const agentsmd_result,
    index: usize,
    import_out: *mut agentsmd_import,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    entry!(error_out, result.imports, index, import_out)
}

/// The number of places the chain of `result` looked at (SPEC.md §5.7); 0 with the report off
/// (`agentsmd_options_set_report`).
#[no_mangle]
pub unsafe extern "C" fn agentsmd_result_probe_count(result: *const agentsmd_result) -> usize {
    export!({ boundary::count(result, |c| &c.probes) })
}

/// Writes probe `index` of `result` (in the order looked at) to `*probe_out`.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_result_probe(
    result: *const agentsmd_result,
    index: usize,
    probe_out: *mut agentsmd_probe,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    entry!(error_out, result.probes, index, probe_out)
}

/// The number of rules of `result` that apply only on request (SPEC.md §11); 0 without rule
/// directories (`agentsmd_options_set_rules`).
#[no_mangle]
pub unsafe extern "C" fn agentsmd_result_available_count(result: *const agentsmd_result) -> usize {
    export!({ boundary::count(result, |c| &c.available) })
}

/// Writes available rule `index` of `result` (in the order met) to `*available_out`.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_result_available(
    result: *const agentsmd_result,
    index: usize,
    available_out: *mut agentsmd_available,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    entry!(error_out, result.available, index, available_out)
}

/// The number of warnings of `result` (SPEC.md §11): what a rule file could not be read as,
/// each `PATH: message`; 0 without rule directories.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_result_warning_count(result: *const agentsmd_result) -> usize {
    export!({ boundary::count(result, |c| &c.warnings) })
}

/// Writes warning `index` of `result` to `*warning_out`, borrowed from `result`.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_result_warning(
    result: *const agentsmd_result,
    index: usize,
    warning_out: *mut agentsmd_bytes,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    entry!(error_out, result.warnings, index, warning_out)
}

/// Renders the files of `result` (SPEC.md §2) into a new buffer, empty for no files.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_result_render(
    result: *const agentsmd_result,
    buffer_out: *mut *mut agentsmd_buffer,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    export!(error_out, {
        let buffer_out = boundary::out(buffer_out, "buffer_out")?;
        let files = &boundary::borrow(result)?.files;
        *buffer_out = boundary::into_raw(agentsmd_core::render(files));
        Ok(())
    })
}

/// Renders the files of `result` as the preset of `options` (`agentsmd_options_set_preset`)
/// renders them (SPEC.md §12): the piece of what its product sends its model that holds them,
/// for `path`, the path `result` was made for (the product's working directory is found from
/// it); empty when the product loads nothing. Without a preset (or with NULL options), what
/// `agentsmd_result_render` gives.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_preset_render(
    options: *const agentsmd_options,
    path: *const u8,
    path_len: usize,
    result: *const agentsmd_result,
    buffer_out: *mut *mut agentsmd_buffer,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    export!(error_out, {
        let buffer_out = boundary::out(buffer_out, "buffer_out")?;
        let options = options_or_default(options)?;
        let path = boundary::path_of(path, path_len, "path")?;
        let chain = boundary::borrow(result)?;
        let rendered = match options.preset {
            Some(preset) => {
                let cwd = preset.working_dir(&path, &options)?;
                preset.render(chain, &cwd)
            }
            None => agentsmd_core::render(&chain.files),
        };
        *buffer_out = boundary::into_raw(rendered);
        Ok(())
    })
}

/// Frees `result`.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_result_free(result: *mut agentsmd_result) {
    export!({ boundary::free(result) })
}
