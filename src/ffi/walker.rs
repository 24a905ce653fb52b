//! `agentsmd_walker`: the chains of many paths under one set of options, sharing what was looked
//! up and read between calls.

use super::boundary::{self, handle};
use super::chain::{agentsmd_result, result};
use super::error::agentsmd_error;
use super::options::{agentsmd_options, options_or_default};
use super::types::agentsmd_status;
use crate::Walker;

/// A walker: answers `agentsmd_walker_chain` for many paths under the options it was created
/// with, sharing directory lookups and file contents between calls, and never answering from a
/// stale cache: each call returns what `agentsmd_chain` with the same options would return at
/// that moment. On Linux it watches the directories it has looked into with inotify (one
/// inotify instance per walker, one watch per directory) and keeps open the descriptors of up
/// to 128 instruction files it has read, to re-stat them cheaply, and of up to 128 directories
/// whose chains it keeps, to look new paths up there (they count against the process's
/// open-file limit until the walker is freed, or a change makes it forget them); elsewhere,
/// and on network or FUSE file systems, it revalidates them by stat. With a custom file system, or with confinement
/// on, it runs a plain chain on every call. Created by `agentsmd_walker_new`, freed by
/// `agentsmd_walker_free`.
///
/// Threads: any number of `agentsmd_walker_chain` calls may use one walker at once (they take
/// turns on its cache); `agentsmd_walker_free` must not run while any other call uses it.
// The tag first, at offset 0: see `boundary::Handle`.
#[cfg_attr(all(), repr(C))]
pub struct agentsmd_walker {
    magic: u64,
    walker: Walker,
}

handle!(agentsmd_walker, "walker", 0x6167_6d64_776b_7201);

/// Creates a walker with a copy of `options` (NULL for the defaults); later changes to
/// `options` do not reach it, and `options` may be freed at once. A custom file system set on
/// `options` is shared: its `release` callback runs once both the options and every walker
/// created from them are freed.
///
/// `walker_out` is required; on success `*walker_out` is a new walker the caller owns and
/// frees with `agentsmd_walker_free`. On failure nothing is written to `*walker_out`, and, if
/// `error_out` is not NULL, `*error_out` is a new error the caller frees.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_walker_new(
    options: *const agentsmd_options,
    walker_out: *mut *mut agentsmd_walker,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    boundary::status(error_out, || {
        let walker_out = boundary::out(walker_out, "walker_out")?;
        *walker_out = boundary::into_raw(agentsmd_walker {
            magic: 0,
            walker: Walker::new(options_or_default(options)?.into_owned()),
        });
        Ok(())
    })
}

/// Finds the instruction files that apply at `path` (`path_len` bytes, not NUL-terminated) with
/// the walker's options: exactly what `agentsmd_chain` would return now, errors included.
///
/// `result_out` is required; on success `*result_out` is a new result the caller owns and frees
/// with `agentsmd_result_free`. On failure nothing is written to `*result_out`, the status says
/// why, and, if `error_out` is not NULL, `*error_out` is a new error the caller frees.
///
/// May be called from several threads at once on one walker. Re-entrant: a custom file
/// system's callback may itself call `agentsmd_chain` or `agentsmd_walker_chain` (a walker holds
/// its cache only while it reads the OS file system, which calls no callback).
#[no_mangle]
pub unsafe extern "C" fn agentsmd_walker_chain(
    walker: *const agentsmd_walker,
    path: *const u8,
    path_len: usize,
    result_out: *mut *mut agentsmd_result,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    boundary::status(error_out, || {
        let result_out = boundary::out(result_out, "result_out")?;
        let path = boundary::slice_of(path, path_len, "path")?;
        let chain = boundary::borrow(walker)?.walker.chain(path)?;
        *result_out = result(chain);
        Ok(())
    })
}

/// Frees `walker`, its cache and its watches. Results it returned stay valid. NULL is accepted
/// and does nothing.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_walker_free(walker: *mut agentsmd_walker) {
    boundary::value((), || boundary::free(walker))
}
