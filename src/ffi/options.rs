//! `agentsmd_options`: the options of a chain, built up by setters.

use std::borrow::Cow;
use std::sync::Arc;

use super::boundary::{self, handle};
use super::error::agentsmd_error;
use super::fs::{agentsmd_fs, CallbackFs};
use super::types::{agentsmd_bytes, agentsmd_status};
use crate::error::Error;
use crate::path;
use crate::Options;

/// The options of `agentsmd_chain`. A new handle holds the defaults: names `AGENTS.md`, root
/// the file system's root, no extra files, `max_bytes` 1 MiB, no budgets, the OS file system,
/// confinement off.
/// Created by `agentsmd_options_new`, freed by `agentsmd_options_free`.
///
/// Threads: any number of `agentsmd_chain` calls may read one options handle at once; a setter
/// or `agentsmd_options_free` must not run while any other call uses the handle.
// The tag first, at offset 0: see `boundary::Handle`.
#[cfg_attr(all(), repr(C))]
pub struct agentsmd_options {
    magic: u64,
    pub(crate) options: Options,
}

handle!(agentsmd_options, "options", 0x6167_6d64_6f70_7401);

/// A new options handle holding the defaults. The caller owns it and frees it with
/// `agentsmd_options_free`. Returns NULL only if the library failed internally.
#[no_mangle]
pub extern "C" fn agentsmd_options_new() -> *mut agentsmd_options {
    boundary::value(std::ptr::null_mut(), || {
        boundary::into_raw(agentsmd_options {
            magic: 0,
            options: Options::default(),
        })
    })
}

/// The options at `options`, or the defaults when it is NULL, as every function taking an
/// optional options handle reads them.
pub(crate) unsafe fn options_or_default<'a>(
    options: *const agentsmd_options,
) -> Result<Cow<'a, Options>, Error> {
    if options.is_null() {
        Ok(Cow::Owned(Options::default()))
    } else {
        Ok(Cow::Borrowed(&boundary::borrow(options)?.options))
    }
}

/// Frees `options`, and with it the custom file system's reference to its userdata (its
/// `release` callback runs once no chain uses it any more). NULL is accepted and does nothing.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_options_free(options: *mut agentsmd_options) {
    boundary::value((), || boundary::free(options))
}

/// Runs `set` on the options at `options` when the handle is live.
unsafe fn set(
    options: *mut agentsmd_options,
    error_out: *mut *mut agentsmd_error,
    set: impl FnOnce(&mut Options) -> Result<(), Error>,
) -> agentsmd_status {
    boundary::status(error_out, || {
        let handle = boundary::borrow_mut(options)?;
        set(&mut handle.options)
    })
}

/// Copies `len` byte strings from `items`, each checked with `check`.
unsafe fn byte_strings(
    items: *const agentsmd_bytes,
    len: usize,
    what: &str,
    check: impl Fn(&[u8]) -> Result<(), Error>,
) -> Result<Vec<Vec<u8>>, Error> {
    boundary::slice_of(items, len, what)?
        .iter()
        .map(|item| {
            let bytes = boundary::bytes_of(item, what)?;
            check(bytes)?;
            Ok(bytes.to_vec())
        })
        .collect()
}

/// Sets the file names looked for in each directory, in order of preference, copying them.
/// Each must be one path element (non-empty, no `/`, no NUL, not `.` or `..`); otherwise the
/// call fails with `AGENTSMD_STATUS_INVALID_ARGUMENT` and the options are unchanged. An empty
/// list (`names_len` 0, `names` may be NULL) restores the default, `AGENTS.md`.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_options_set_names(
    options: *mut agentsmd_options,
    names: *const agentsmd_bytes,
    names_len: usize,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    set(options, error_out, |options| {
        options.names = byte_strings(names, names_len, "names", |name| {
            path::check_element(name, "name")
        })?;
        Ok(())
    })
}

/// Sets the directory the walk stops after, copying it: an OS path, or a name in the custom
/// file system. Empty (`root_len` 0, `root` may be NULL) restores the default, the file
/// system's root (`/`, or `.` with a custom file system). A root holding a NUL byte, which no
/// path can hold, fails with `AGENTSMD_STATUS_INVALID_ARGUMENT` and the options are unchanged.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_options_set_root(
    options: *mut agentsmd_options,
    root: *const u8,
    root_len: usize,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    set(options, error_out, |options| {
        let root = boundary::slice_of(root, root_len, "root")?;
        path::check_no_nul(root, "root")?;
        options.root = root.to_vec();
        Ok(())
    })
}

/// Sets the OS paths included before the chain, in order, copying them. Missing ones are
/// skipped when the chain runs; one that is not a regular file is an error then. An empty list
/// (`extra_len` 0, `extra` may be NULL) clears them. A path holding a NUL byte, which no OS
/// path can hold, fails with `AGENTSMD_STATUS_INVALID_ARGUMENT` and the options are unchanged.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_options_set_extra(
    options: *mut agentsmd_options,
    extra: *const agentsmd_bytes,
    extra_len: usize,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    set(options, error_out, |options| {
        options.extra = byte_strings(extra, extra_len, "extra", |extra| {
            path::check_no_nul(extra, "extra")
        })?;
        Ok(())
    })
}

/// Sets the most bytes one file may read; a file that reads more is an
/// `AGENTSMD_STATUS_TOO_LARGE` error. 0 restores the default, `AGENTSMD_DEFAULT_MAX_BYTES`.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_options_set_max_bytes(
    options: *mut agentsmd_options,
    max_bytes: u64,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    set(options, error_out, |options| {
        options.max_bytes = max_bytes;
        Ok(())
    })
}

/// Sets the total bytes of the files returned; 0 means no budget.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_options_set_budget(
    options: *mut agentsmd_options,
    budget: u64,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    set(options, error_out, |options| {
        options.budget = budget;
        Ok(())
    })
}

/// Sets the total bytes of the rendering (`agentsmd_result_render`'s output, wrapper and paths
/// included); 0 means no rendered budget.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_options_set_rendered_budget(
    options: *mut agentsmd_options,
    rendered_budget: u64,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    set(options, error_out, |options| {
        options.rendered_budget = rendered_budget;
        Ok(())
    })
}

/// Turns confinement on (`confine` 1) or off (0, the default): with it on, no file outside the
/// root is opened or read on the OS file system. A symbolic link below the root that leads out
/// of it (an instruction file's, a directory's on the way, or the path's own) is not followed
/// and is reported in the result's omitted list as `AGENTSMD_REASON_ESCAPES`; links that stay
/// inside are followed, except absolute ones. The root itself is resolved as given. A custom
/// file system is confined by its own answers, and extra files are read as given. Any other
/// value of `confine` is reserved: the call fails with `AGENTSMD_STATUS_INVALID_ARGUMENT` and
/// the options are unchanged.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_options_set_confine(
    options: *mut agentsmd_options,
    confine: u32,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    set(options, error_out, |options| {
        options.confine = match confine {
            0 => false,
            1 => true,
            other => {
                return Err(Error::invalid_argument(format!(
                    "confine must be 0 or 1, not {other}"
                )))
            }
        };
        Ok(())
    })
}

/// Sets a custom file system for the path, the root and the chain (extra files stay OS paths),
/// copying the callback struct; NULL restores the OS file system. `list`, `stat`, `open` and
/// `read` are required; `close` and `release` may be NULL.
///
/// On success the options hold `fs->userdata` until they are freed or another file system is
/// set, and then call `fs->release(fs->userdata)` once, after the last chain using it has
/// returned. On failure nothing is kept and `release` is not called.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_options_set_fs(
    options: *mut agentsmd_options,
    fs: *const agentsmd_fs,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    set(options, error_out, |options| {
        options.fs = match fs.as_ref() {
            None => None,
            Some(fs) => Some(Arc::new(CallbackFs::new(fs)?)),
        };
        Ok(())
    })
}
