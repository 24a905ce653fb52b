//! `agentsmd_render` of a caller's own list, and the `agentsmd_buffer` a rendering comes in.

use crate::boundary::{self, export, handle};
use crate::error::agentsmd_error;
use crate::types::{agentsmd_file, agentsmd_status};

/// Bytes the library hands out: a rendering, or a path. Freed by `agentsmd_buffer_free`.
pub struct agentsmd_buffer {
    _private: [u8; 0],
}

handle!(agentsmd_buffer => Vec<u8>, "buffer", 0x6167_6d64_6266_7201);

/// Renders `files_len` (path, content) pairs the caller built (SPEC.md §2), for a product that
/// rewrites the paths a chain returned; they are only read during the call.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_render(
    files: *const agentsmd_file,
    files_len: usize,
    buffer_out: *mut *mut agentsmd_buffer,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    export!(error_out, {
        let buffer_out = boundary::out(buffer_out, "buffer_out")?;
        let files = boundary::slice_of(files, files_len, "files")?;
        let mut pairs = Vec::with_capacity(files.len());
        for file in files {
            let path = boundary::bytes_of(&file.path, "files[].path")?;
            pairs.push((path, boundary::bytes_of(&file.content, "files[].content")?));
        }
        *buffer_out = boundary::into_raw(agentsmd_core::render(&pairs));
        Ok(())
    })
}

/// The first byte of `buffer`, not NUL-terminated: never NULL for a live buffer, even an empty
/// one; NULL when `buffer` is NULL or not a live buffer.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_buffer_data(buffer: *const agentsmd_buffer) -> *const u8 {
    export!({ boundary::borrow(buffer).map_or(std::ptr::null(), |b| b.as_ptr()) })
}

/// The number of bytes in `buffer`; 0 when `buffer` is NULL or not a live buffer.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_buffer_len(buffer: *const agentsmd_buffer) -> usize {
    export!({ boundary::borrow(buffer).map_or(0, |b| b.len()) })
}

/// Frees `buffer`.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_buffer_free(buffer: *mut agentsmd_buffer) {
    export!({ boundary::free(buffer) })
}
