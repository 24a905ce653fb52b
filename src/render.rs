//! `agentsmd_render` of a caller's own list, and the `agentsmd_buffer` a rendering comes in.

use crate::boundary::{self, export, handle};
use crate::error::agentsmd_error;
use crate::types::{agentsmd_file, agentsmd_status};

/// Bytes the library hands out: a rendering. Created by `agentsmd_render` or
/// `agentsmd_result_render`, freed by `agentsmd_buffer_free`. Immutable: may be read from
/// several threads at once.
// The tag first, at offset 0: see `boundary::Handle`.
#[cfg_attr(all(), repr(C))]
pub struct agentsmd_buffer {
    magic: u64,
    bytes: Vec<u8>,
}

handle!(agentsmd_buffer, "buffer", 0x6167_6d64_6266_7201);

/// A rendering handed to C.
pub(crate) fn buffer(bytes: Vec<u8>) -> *mut agentsmd_buffer {
    boundary::into_raw(agentsmd_buffer { magic: 0, bytes })
}

/// Renders `files_len` (path, content) pairs the caller built (SPEC.md §2), for a product that
/// rewrites the paths a chain returned. The pairs are only read during the call. On success
/// `*buffer_out` is a new buffer the caller frees with `agentsmd_buffer_free`. A pair with a
/// NULL pointer and a non-zero length is `AGENTSMD_STATUS_INVALID_ARGUMENT`.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_render(
    files: *const agentsmd_file,
    files_len: usize,
    buffer_out: *mut *mut agentsmd_buffer,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    export!(error_out, {
        let buffer_out = boundary::out(buffer_out, "buffer_out")?;
        let pairs = boundary::slice_of(files, files_len, "files")?
            .iter()
            .map(|file| {
                Ok((
                    boundary::bytes_of(&file.path, "files[].path")?,
                    boundary::bytes_of(&file.content, "files[].content")?,
                ))
            })
            .collect::<Result<Vec<_>, _>>()?;
        *buffer_out = buffer(agentsmd_core::render(&pairs));
        Ok(())
    })
}

/// The first byte of `buffer`, borrowed until it is freed; not NUL-terminated. Never NULL for a
/// live buffer, even an empty one; NULL when `buffer` is NULL or not a live buffer.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_buffer_data(buffer: *const agentsmd_buffer) -> *const u8 {
    export!({ boundary::borrow(buffer).map_or(std::ptr::null(), |b| b.bytes.as_ptr()) })
}

/// The number of bytes in `buffer`; 0 when `buffer` is NULL or not a live buffer.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_buffer_len(buffer: *const agentsmd_buffer) -> usize {
    export!({ boundary::borrow(buffer).map_or(0, |b| b.bytes.len()) })
}

/// Frees `buffer`. NULL is accepted and does nothing.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_buffer_free(buffer: *mut agentsmd_buffer) {
    export!({ boundary::free(buffer) })
}
