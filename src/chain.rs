//! `agentsmd_chain` and the `agentsmd_result` it hands out.

use agentsmd_core::ffi_support;
use agentsmd_core::{Chain, Error};

use crate::boundary::{self, export, handle};
use crate::error::agentsmd_error;
use crate::options::{agentsmd_options, options_or_default};
use crate::render::{agentsmd_buffer, buffer};
use crate::types::{
    agentsmd_file, agentsmd_import, agentsmd_omitted, agentsmd_probe, agentsmd_source,
    agentsmd_status,
};

/// What `agentsmd_chain` found: the files that apply, farthest first and nearest last, and the
/// files found and left out, in the order met. Created by `agentsmd_chain`, freed by
/// `agentsmd_result_free`; every byte string read from it is borrowed from it and valid until
/// it is freed. Immutable: may be read from several threads at once.
// The tag first, at offset 0: see `boundary::Handle`.
#[cfg_attr(all(), repr(C))]
pub struct agentsmd_result {
    magic: u64,
    chain: Chain,
}

handle!(agentsmd_result, "result", 0x6167_6d64_7273_7401);

/// Finds the instruction files that apply at `path` (`path_len` bytes, not NUL-terminated: an OS
/// path, or a name in the custom file system of `options`), as SPEC.md §1 defines.
///
/// `options` may be NULL for the defaults, and is only read: several threads may run chains on
/// one options handle at once. `result_out` is required; on success `*result_out` is a new
/// result the caller owns and frees with `agentsmd_result_free`. On failure nothing is written to
/// `*result_out`, the status says why, and, if `error_out` is not NULL, `*error_out` is a new
/// error the caller frees with `agentsmd_error_free`.
///
/// Re-entrant: a custom file system's callback may itself call `agentsmd_chain`.
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
        let path = boundary::slice_of(path, path_len, "path")?.to_vec();
        let path = ffi_support::path_from_bytes(path, "path")?;
        let chain = agentsmd_core::chain(path, options_or_default(options)?.as_ref())?;
        *result_out = boundary::into_raw(agentsmd_result { magic: 0, chain });
        Ok(())
    })
}

/// The number of files in `result`; 0 when `result` is NULL or not a live result.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_result_file_count(result: *const agentsmd_result) -> usize {
    export!({ count(result, |chain| chain.files.len()) })
}

/// Writes file `index` of `result` (0 is the farthest, `extra` first) to `*file_out`: its path
/// and content, borrowed from `result`. An index at or past `agentsmd_result_file_count` is
/// `AGENTSMD_STATUS_INVALID_ARGUMENT`.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_result_file(
    result: *const agentsmd_result,
    index: usize,
    file_out: *mut agentsmd_file,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    export!(error_out, {
        entry(result, index, (file_out, "file_out"), |chain, i| {
            boundary::in_slice(&chain.files, i)
        })
    })
}

/// Writes the source of file `index` of `result` (SPEC.md §5.1) to `*source_out`. An index at or
/// past `agentsmd_result_file_count` is `AGENTSMD_STATUS_INVALID_ARGUMENT`. Any thread may call
/// it, on a result others read at the same time.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_result_file_source(
    result: *const agentsmd_result,
    index: usize,
    source_out: *mut agentsmd_source,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    export!(error_out, {
        entry(result, index, (source_out, "source_out"), |chain, i| {
            boundary::in_slice(&chain.files, i)
        })
    })
}

/// The number of files found and left out in `result`; 0 when `result` is NULL or not a live
/// result.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_result_omitted_count(result: *const agentsmd_result) -> usize {
    export!({ count(result, |chain| chain.omitted.len()) })
}

/// Writes omitted file `index` of `result` (in the order met) to `*omitted_out`: its path, size,
/// reason and `by`, the byte strings borrowed from `result`. An index at or past
/// `agentsmd_result_omitted_count` is `AGENTSMD_STATUS_INVALID_ARGUMENT`.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_result_omitted(
    result: *const agentsmd_result,
    index: usize,
    omitted_out: *mut agentsmd_omitted,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    export!(error_out, {
        entry(result, index, (omitted_out, "omitted_out"), |chain, i| {
            boundary::in_slice(&chain.omitted, i)
        })
    })
}

/// The number of import directives expanded into the files of `result` (SPEC.md §5.4), with
/// imports on; 0 with them off, and when `result` is NULL or not a live result.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_result_import_count(result: *const agentsmd_result) -> usize {
    export!({ count(result, |chain| chain.imports.len()) })
}

/// Writes import `index` of `result` (in the order met: an import before the imports inside it)
/// to `*import_out`, the byte strings borrowed from `result`. An index at or past
/// `agentsmd_result_import_count` is `AGENTSMD_STATUS_INVALID_ARGUMENT`. Any thread may call it.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_result_import(
    result: *const agentsmd_result,
    index: usize,
    import_out: *mut agentsmd_import,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    export!(error_out, {
        entry(result, index, (import_out, "import_out"), |chain, i| {
            boundary::in_slice(&chain.imports, i)
        })
    })
}

/// The number of places the chain of `result` looked at (SPEC.md §5.7), with the report on
/// (`agentsmd_options_set_report`); 0 with it off, and when `result` is NULL or not a live
/// result.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_result_probe_count(result: *const agentsmd_result) -> usize {
    export!({ count(result, |chain| chain.probes.len()) })
}

/// Writes probe `index` of `result` (in the order looked at) to `*probe_out`, its path borrowed
/// from `result`. An index at or past `agentsmd_result_probe_count` is
/// `AGENTSMD_STATUS_INVALID_ARGUMENT`. Any thread may call it.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_result_probe(
    result: *const agentsmd_result,
    index: usize,
    probe_out: *mut agentsmd_probe,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    export!(error_out, {
        entry(result, index, (probe_out, "probe_out"), |chain, i| {
            boundary::in_slice(&chain.probes, i)
        })
    })
}

/// Renders the files of `result` (SPEC.md §2) into a new buffer the caller owns and frees with
/// `agentsmd_buffer_free`, written to `*buffer_out` on success. No files render as an empty
/// buffer.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_result_render(
    result: *const agentsmd_result,
    buffer_out: *mut *mut agentsmd_buffer,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    export!(error_out, {
        let buffer_out = boundary::out(buffer_out, "buffer_out")?;
        let files = &boundary::borrow(result)?.chain.files;
        *buffer_out = buffer(agentsmd_core::render(files));
        Ok(())
    })
}

/// Frees `result`; every byte string read from it becomes invalid. NULL is accepted and does
/// nothing.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_result_free(result: *mut agentsmd_result) {
    export!({ boundary::free(result) })
}

/// How many entries of a list of `result` there are, as `len` counts them; 0 when `result` is
/// NULL or not a live result.
unsafe fn count(result: *const agentsmd_result, len: impl FnOnce(&Chain) -> usize) -> usize {
    boundary::count(result, |result| len(&result.chain))
}

/// [`boundary::entry`] of a list of `result`'s chain: `get` answers entry `index` of the list
/// and its length.
unsafe fn entry<V>(
    result: *const agentsmd_result,
    index: usize,
    out: (*mut V, &str),
    get: impl FnOnce(&Chain, usize) -> (Option<V>, usize),
) -> Result<(), Error> {
    boundary::entry(result, index, out, |result, i| get(&result.chain, i))
}
