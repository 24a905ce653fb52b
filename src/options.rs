//! `agentsmd_options`: the options of a chain, built up by setters.

use std::borrow::Cow;
use std::path::PathBuf;
use std::sync::Arc;

use agentsmd_core::ffi_support::{self, invalid_argument};
use agentsmd_core::{Error, Options, Preset, RuleDir};

use crate::batch::agentsmd_fs_batch;
use crate::boundary::{self, export, handle};
use crate::error::agentsmd_error;
use crate::fs::{agentsmd_fs, CallbackFs};
use crate::render::agentsmd_buffer;
use crate::types::{agentsmd_bytes, agentsmd_dialect, agentsmd_rule_dir, agentsmd_status};

/// The options of `agentsmd_chain` (SPEC.md §1, §3, §4, §5). A new handle holds the defaults:
/// names `AGENTS.md`, root the file system's root, `max_bytes` 1 MiB, the OS file system, and
/// every other option off. Freed by `agentsmd_options_free`.
///
/// Every setter copies what it is given, and fails with `AGENTSMD_STATUS_INVALID_ARGUMENT`, the
/// options unchanged, on a value it refuses: a flag other than 0 (off, the default) or 1 (on),
/// a path holding a NUL byte, and what each setter names. A number 0 and an empty list (its
/// pointer may then be NULL) take the default.
pub struct agentsmd_options {
    _private: [u8; 0],
}

handle!(agentsmd_options => Options, "options", 0x6167_6d64_6f70_7401);

/// The body of a setter, `set!(error_out, options.FIELD = VALUE)`: `VALUE` (which may fail with
/// `?`) is made before the options are borrowed, so that a setter that fails changes nothing.
macro_rules! set {
    ($error_out:ident, $options:ident.$field:ident = $value:expr) => {
        $crate::boundary::export!($error_out, {
            let value = $value;
            $crate::boundary::borrow_mut($options)?.$field = value;
            Ok(())
        })
    };
}
pub(crate) use set;

/// A new options handle holding the defaults; NULL only if the library failed internally.
#[no_mangle]
pub extern "C" fn agentsmd_options_new() -> *mut agentsmd_options {
    export!({ boundary::into_raw(Options::default()) })
}

/// The options at `options`, or the defaults when it is NULL.
pub(crate) unsafe fn options_or_default<'a>(
    options: *const agentsmd_options,
) -> Result<Cow<'a, Options>, Error> {
    let options = boundary::borrow_optional(options)?;
    Ok(options.map_or_else(|| Cow::Owned(Options::default()), Cow::Borrowed))
}

/// Frees `options`, and with it the custom file system's reference to its userdata (its
/// `release` callback runs once no chain uses it any more).
#[no_mangle]
pub unsafe extern "C" fn agentsmd_options_free(options: *mut agentsmd_options) {
    export!({ boundary::free(options) })
}

/// `value`, or `None` for 0, the C API's "the default".
fn nonzero<T: Default + PartialEq>(value: T) -> Option<T> {
    (value != T::default()).then_some(value)
}

/// An OS path a caller gave, refused when it holds a NUL byte, which no OS path can hold.
fn os_path(bytes: &[u8], what: &str) -> Result<PathBuf, Error> {
    if bytes.contains(&0) {
        let shown = String::from_utf8_lossy(bytes);
        let why = format!("{what} {shown:?} holds a NUL byte");
        return Err(invalid_argument(why));
    }
    ffi_support::path_from_bytes(bytes.to_vec(), what)
}

/// A C boolean: 0 or 1, and any other value reserved.
fn flag(value: u32, what: &str) -> Result<bool, Error> {
    match value {
        0 => Ok(false),
        1 => Ok(true),
        other => Err(invalid_argument(format!(
            "{what} must be 0 or 1, not {other}"
        ))),
    }
}

/// Copies `len` byte strings from `items`, each checked and converted by `check`.
unsafe fn byte_strings<T>(
    items: *const agentsmd_bytes,
    len: usize,
    what: &str,
    check: impl Fn(&[u8]) -> Result<T, Error>,
) -> Result<Vec<T>, Error> {
    boundary::slice_of(items, len, what)?
        .iter()
        .map(|item| check(boundary::bytes_of(item, what)?))
        .collect()
}

/// Sets the file names looked for in each directory, in order of preference (default
/// `AGENTS.md`). Each must be one path element, as SPEC.md §1 "Names" and §8.2 define.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_options_set_names(
    options: *mut agentsmd_options,
    names: *const agentsmd_bytes,
    names_len: usize,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    let name = |name: &[u8]| ffi_support::check_name(name).map(|()| name.to_vec());
    set!(
        error_out,
        options.names = byte_strings(names, names_len, "name", name)?
    )
}

/// Sets the directory the walk stops after: an OS path, or a name in the custom file system.
/// Empty restores the default, the file system's root (`/`; on Windows the path's own, `C:\`
/// or `\\server\share\`; `.` with a custom file system).
#[no_mangle]
pub unsafe extern "C" fn agentsmd_options_set_root(
    options: *mut agentsmd_options,
    root: *const u8,
    root_len: usize,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    set!(
        error_out,
        options.root = {
            let root = nonzero(boundary::slice_of(root, root_len, "root")?);
            root.map(|root| os_path(root, "root")).transpose()?
        }
    )
}

/// Sets the OS paths included before the chain, in order (default none); missing ones are
/// skipped when the chain runs, and one that is not a regular file is an error then.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_options_set_extra(
    options: *mut agentsmd_options,
    extra: *const agentsmd_bytes,
    extra_len: usize,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    let path = |path: &[u8]| os_path(path, "extra");
    set!(
        error_out,
        options.extra = byte_strings(extra, extra_len, "extra", path)?
    )
}

/// Sets the most bytes one file may read (default `AGENTSMD_DEFAULT_MAX_BYTES`); a file that
/// reads more is an `AGENTSMD_STATUS_TOO_LARGE` error.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_options_set_max_bytes(
    options: *mut agentsmd_options,
    max_bytes: u64,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    set!(error_out, options.max_bytes = nonzero(max_bytes))
}

/// Sets the total bytes of the files returned; 0 means no budget.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_options_set_budget(
    options: *mut agentsmd_options,
    budget: u64,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    set!(error_out, options.budget = nonzero(budget))
}

/// Sets the total bytes of the rendering (`agentsmd_result_render`'s output, wrapper and paths
/// included); 0 means no rendered budget.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_options_set_rendered_budget(
    options: *mut agentsmd_options,
    rendered_budget: u64,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    set!(
        error_out,
        options.rendered_budget = nonzero(rendered_budget)
    )
}

/// Turns confinement on or off (SPEC.md §1, §5.8): with it on, no file outside the root is
/// opened or read on the OS file system, and a link below the root that leads out of it is
/// omitted as `AGENTSMD_REASON_ESCAPES`. A custom file system is confined by its own answers,
/// and extra files are read as given.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_options_set_confine(
    options: *mut agentsmd_options,
    confine: u32,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    set!(error_out, options.confine = flag(confine, "confine")?)
}

/// Sets a custom file system for the path, the root and the chain (extra files stay OS paths);
/// NULL restores the OS file system. `list`, `stat`, `open` and `read` are required; `close`
/// and `release` may be NULL. On success the options hold `fs->userdata` until they are freed
/// or another file system is set, and then call `fs->release(fs->userdata)` once, after the
/// last chain using it has returned; on failure nothing is kept and `release` is not called.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_options_set_fs(
    options: *mut agentsmd_options,
    fs: *const agentsmd_fs,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    agentsmd_options_set_batched_fs(options, fs, std::ptr::null(), error_out)
}

/// Sets a custom file system as `agentsmd_options_set_fs` does, with the batched questions of
/// `batch` (NULL, or both its callbacks NULL, for none), asked as SPEC.md §3.1 says. `fs` may
/// be NULL only with a NULL `batch`.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_options_set_batched_fs(
    options: *mut agentsmd_options,
    fs: *const agentsmd_fs,
    batch: *const agentsmd_fs_batch,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    export!(error_out, {
        let options = boundary::borrow_mut(options)?;
        options.fs = match (fs.as_ref(), batch.as_ref()) {
            (None, None) => None,
            (None, Some(_)) => return Err(invalid_argument("fs is NULL with a batch")),
            (Some(fs), batch) => {
                let fs = CallbackFs::new(fs, batch)?;
                // The C tests' hooks watch the callbacks from outside (src/test_hooks.rs).
                #[cfg(feature = "test-hooks")]
                let fs = crate::test_hooks::Watched(fs);
                Some(Arc::new(fs))
            }
        };
        Ok(())
    })
}

/// Sets the fragment directories (SPEC.md §5.2): names relative to each directory of the walk
/// and of each overlay, each one or more `/`-separated path elements (`.agents/AGENTS.d`).
#[no_mangle]
pub unsafe extern "C" fn agentsmd_options_set_fragments(
    options: *mut agentsmd_options,
    fragments: *const agentsmd_bytes,
    fragments_len: usize,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    let what = "fragment directory";
    let dir = |dir: &[u8]| ffi_support::check_fragment(dir).map(|()| dir.to_vec());
    set!(
        error_out,
        options.fragments = byte_strings(fragments, fragments_len, what, dir)?
    )
}

/// Sets the rule directories (SPEC.md §11): each an `agentsmd_dialect` and a directory of one
/// or more `/`-separated path elements (`.cursor/rules`), looked up at the root or in each
/// directory of the walk as its dialect says, in order.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_options_set_rules(
    options: *mut agentsmd_options,
    rules: *const agentsmd_rule_dir,
    rules_len: usize,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    let rule_dir = |rules: &agentsmd_rule_dir| {
        let dialect = agentsmd_dialect::of(rules.dialect)
            .ok_or_else(|| invalid_argument(format!("rules: dialect {} is none", rules.dialect)))?;
        let dir = boundary::bytes_of(&rules.dir, "rule directory")?;
        ffi_support::check_rule_dir(dir)?;
        Ok(RuleDir::new(dialect, dir))
    };
    set!(
        error_out,
        options.rules = {
            let rules = boundary::slice_of(rules, rules_len, "rules")?;
            rules.iter().map(rule_dir).collect::<Result<_, Error>>()?
        }
    )
}

/// Sets the overlay directories (SPEC.md §5.3): OS paths, read from the OS even with a custom
/// file system. When the chain runs, a missing one is skipped and one that is not a directory
/// is `AGENTSMD_STATUS_INVALID_ARGUMENT`.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_options_set_overlays(
    options: *mut agentsmd_options,
    overlays: *const agentsmd_bytes,
    overlays_len: usize,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    let path = |path: &[u8]| os_path(path, "overlay");
    set!(
        error_out,
        options.overlays = byte_strings(overlays, overlays_len, "overlay", path)?
    )
}

/// Turns imports on or off (SPEC.md §5.4). A directive that cannot be expanded fails the chain
/// with `AGENTSMD_STATUS_IMPORT` (a target too large with `AGENTSMD_STATUS_TOO_LARGE`).
#[no_mangle]
pub unsafe extern "C" fn agentsmd_options_set_imports(
    options: *mut agentsmd_options,
    imports: u32,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    set!(error_out, options.imports = flag(imports, "imports")?)
}

/// Sets how deep imports may nest (default `AGENTSMD_DEFAULT_IMPORT_DEPTH`): a directive of a
/// file at this depth is an `AGENTSMD_STATUS_IMPORT` error.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_options_set_import_depth(
    options: *mut agentsmd_options,
    import_depth: u32,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    set!(error_out, options.import_depth = import_depth)
}

/// Sets the most import reads of one chain (default `AGENTSMD_DEFAULT_MAX_IMPORTS`); one more
/// is an `AGENTSMD_STATUS_IMPORT` error.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_options_set_max_imports(
    options: *mut agentsmd_options,
    max_imports: u32,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    set!(error_out, options.max_imports = max_imports)
}

/// Turns nearest-only on or off (SPEC.md §5.6): of the directories' files only the nearest is
/// included, the others omitted unread as `AGENTSMD_REASON_SUPERSEDED`.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_options_set_nearest(
    options: *mut agentsmd_options,
    nearest: u32,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    set!(error_out, options.nearest = flag(nearest, "nearest")?)
}

/// Turns all-names on or off (SPEC.md §9): every name of the options' names a directory has is
/// included, in the names' order, none shadowing another.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_options_set_all_names(
    options: *mut agentsmd_options,
    all_names: u32,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    set!(error_out, options.all_names = flag(all_names, "all_names")?)
}

/// Sets the preset (SPEC.md §12): the product, by name (`codex`, `claude`, ... as
/// `agentsmd --as list` lists them), whose loading `agentsmd_chain` reproduces, and whose
/// rendering `agentsmd_preset_render` gives. Empty clears it; an unknown name is invalid, the
/// error naming the presets.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_options_set_preset(
    options: *mut agentsmd_options,
    name: *const u8,
    name_len: usize,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    set!(
        error_out,
        options.preset = {
            let name = nonzero(boundary::slice_of(name, name_len, "preset")?);
            name.map(preset).transpose()?
        }
    )
}

/// The preset named `name`; another name is invalid, the error naming the presets.
fn preset(name: &[u8]) -> Result<Preset, Error> {
    let found = std::str::from_utf8(name).ok().and_then(Preset::from_name);
    found.ok_or_else(|| {
        let names = Preset::ALL.map(Preset::as_str).join(", ");
        let name = String::from_utf8_lossy(name);
        invalid_argument(format!(
            "preset {name:?}: no such preset; the presets are {names}"
        ))
    })
}

/// Sets the home directory (an OS path) a preset reads a product's global files in (SPEC.md
/// §12); with it, no environment variable is read. Empty restores the default, the caller's
/// home and the product's environment variables.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_options_set_home(
    options: *mut agentsmd_options,
    home: *const u8,
    home_len: usize,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    set!(
        error_out,
        options.home = {
            let home = nonzero(boundary::slice_of(home, home_len, "home")?);
            home.map(|home| os_path(home, "home")).transpose()?
        }
    )
}

/// Turns the report on or off (SPEC.md §5.7): the result lists every place looked at, with
/// what was there (`agentsmd_result_probe`).
#[no_mangle]
pub unsafe extern "C" fn agentsmd_options_set_report(
    options: *mut agentsmd_options,
    report: u32,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    set!(error_out, options.report = flag(report, "report")?)
}

/// Builds the per-caller overlay directory `USERS_DIR/IDENTITY/.agents` (SPEC.md §5.3), for
/// `agentsmd_options_set_overlays`: `*buffer_out` is NULL (no overlay) when either argument is
/// empty. An identity that is `.` or holds `/`, `\`, NUL or `..`, and a `users_dir` holding a
/// NUL byte, are invalid, the former's message containing `caller identity`. Any thread may
/// call it.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_overlay_dir(
    users_dir: *const u8,
    users_dir_len: usize,
    identity: *const u8,
    identity_len: usize,
    buffer_out: *mut *mut agentsmd_buffer,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    export!(error_out, {
        let buffer_out = boundary::out(buffer_out, "buffer_out")?;
        let users_dir = boundary::slice_of(users_dir, users_dir_len, "users_dir")?;
        let users_dir = os_path(users_dir, "users_dir")?;
        let identity = boundary::path_of(identity, identity_len, "identity")?;
        let dir = agentsmd_core::overlay_dir(users_dir, identity)?;
        *buffer_out = dir.map_or(std::ptr::null_mut(), |dir| {
            boundary::into_raw(dir.into_os_string().into_encoded_bytes())
        });
        Ok(())
    })
}
