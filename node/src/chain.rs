//! `chain` and `chainSync` (SPEC.md §1, §5), and the `Result` they give: the fields and the
//! words of the command line's `--json` (§7), `by` `null` where that has none, and `imports`,
//! `probes`, `available` and `warnings` empty arrays when their option is off.

use std::path::{Path, PathBuf};

use agentsmd_core::ffi_support;
use agentsmd_core::{Available, Chain, Error, File, Import, Omitted, Options, Probe};
use napi::bindgen_prelude::Unknown;
use napi::Env;
use napi_derive::napi;

use crate::boundary;
use crate::buffer::Copied;
use crate::callback::Calls;
use crate::input;
use crate::options::{self, CallOptions};
use crate::text::{Text, TextOrNull};
use crate::work;

/// The instruction files that apply at `path` (SPEC.md §1, §5), found off the main thread.
/// The promise rejects with an `AgentsmdError`. The callbacks of `options.fs` and
/// `options.transform` are called on the main thread, and may return a Promise; a call with
/// callbacks runs on one of at most `CALLBACK_THREADS` threads of the addon's, and waits for one
/// when all are taken (it never fails for lack of one). A callback's pending Promise never keeps
/// the process alive by itself, as a pending Promise does not. `options.signal` aborts the call:
/// the promise rejects with an `AgentsmdError` of kind `Aborted` (the signal's reason its
/// `cause`), and what the call held is released.
// The addon's own: on libuv's pool, or on a thread of its own when the options hold callbacks
// (src/work.rs); with `abortable`, which index.js passes for `options.signal`, it answers
// `{ promise, abort }` instead. The types are those of index.js's `chain`, which wraps it.
#[napi(
    catch_unwind,
    ts_args_type = "path: string, options?: Options",
    ts_return_type = "Promise<Result>"
)]
pub fn chain<'e>(
    env: &'e Env,
    path: Unknown<'e>,
    options: Option<Unknown<'e>>,
    abortable: Option<Unknown<'e>>,
) -> napi::Result<Unknown<'e>> {
    let work = |path: PathBuf, options: CallOptions| Ok(chained(&path, &options.core)?);
    work::at_path(env, path, options, abortable, work, JsChain::from)
}

/// `chain` on the calling thread. The callbacks of `options.fs` and `options.transform` must
/// answer a value: one that returns a Promise fails the call (an `AgentsmdError` of kind `Fs`),
/// as it could never settle while the call holds the thread.
#[napi(
    js_name = "chainSync",
    catch_unwind,
    ts_args_type = "path: string, options?: Options",
    ts_return_type = "Result"
)]
pub fn chain_sync<'e>(
    env: &'e Env,
    path: Unknown<'e>,
    options: Option<Unknown<'e>>,
) -> napi::Result<Unknown<'e>> {
    boundary::sync(env, || {
        let path = input::path(path, "path")?;
        let options = options::read(options, Calls::Direct)?;
        boundary::js(env, JsChain::from(chained(&path, &options.core)?))
    })
}

/// The chain at `path` and, with `options.preset`, its product's rendering of it (SPEC.md §12).
fn chained(path: &Path, options: &Options) -> Result<(Chain, Option<Vec<u8>>), Error> {
    let chain = agentsmd_core::chain(path, options)?;
    let rendered = match options.preset {
        Some(preset) => Some(preset.render(&chain, &preset.working_dir(path, options)?)),
        None => None,
    };
    Ok((chain, rendered))
}

/// What `chain` found: the fields of the command line's `--json` (§7).
#[napi(object, object_from_js = false, js_name = "Result")]
pub struct JsChain {
    /// The files that apply, in order: `extra`, then root to the path's directory (nearest last), then the overlays.
    #[napi(ts_type = "File[]")]
    pub files: Vec<JsFile>,
    /// Every file found and left out, in the order met.
    #[napi(ts_type = "Omitted[]")]
    pub omitted: Vec<JsOmitted>,
    /// With `imports`: each directive expanded into a file of the result, in the order met; else empty.
    #[napi(ts_type = "Import[]")]
    pub imports: Vec<JsImport>,
    /// With `report`: every place looked at, in order; else empty.
    #[napi(ts_type = "Probe[]")]
    pub probes: Vec<JsProbe>,
    /// With `rules`: the rules that apply only on request (§11), in order, which a product can
    /// offer the model or the user and give with `extra`; else empty.
    #[napi(ts_type = "Available[]")]
    pub available: Vec<JsAvailable>,
    /// With `rules`: what a rule file could not be read as, each `PATH: message` (the rule
    /// still applies, or matches nothing for an invalid glob); else empty.
    #[napi(ts_type = "string[]")]
    pub warnings: Vec<String>,
    /// With `preset`: the piece of what the product sends its model that holds `files` (§12),
    /// exactly what `agentsmd PATH --as NAME` prints (`''` when it loads nothing), as `render`
    /// gives text; `null` without a preset, and for a session's touch.
    #[napi(ts_type = "string | null")]
    pub rendered: TextOrNull,
}

/// One instruction file.
#[napi(object, object_from_js = false, js_name = "File")]
pub struct JsFile {
    /// Its absolute OS path, or its name in `fs`.
    #[napi(ts_type = "string")]
    pub path: Text,
    /// Its bytes, as read (imports expanded, transformed).
    #[napi(ts_type = "Buffer")]
    pub content: Copied,
    /// Where it comes from.
    #[napi(ts_type = "Source")]
    pub source: &'static str,
}

/// A file found and left out.
#[napi(object, object_from_js = false, js_name = "Omitted")]
pub struct JsOmitted {
    /// Its path, the stable key of the file.
    #[napi(ts_type = "string")]
    pub path: Text,
    /// The bytes read, for a file read and then left over budget; 0 for `escapes`; else the size reported.
    pub size: f64,
    /// Why it was left out.
    #[napi(ts_type = "Reason")]
    pub reason: &'static str,
    /// The file that took its place (`shadowed`, `superseded`, `duplicate`); `null` otherwise.
    #[napi(ts_type = "string | null")]
    pub by: TextOrNull,
}

/// One import directive expanded (§5.4).
#[napi(object, object_from_js = false, js_name = "Import")]
pub struct JsImport {
    /// The target.
    #[napi(ts_type = "string")]
    pub path: Text,
    /// The file holding the directive.
    #[napi(ts_type = "string")]
    pub by: Text,
    /// The directive's line in `by`, 1-based.
    pub line: f64,
    /// The target's depth: 1 for a directive of a file of the result.
    pub depth: u32,
    /// The bytes read from the target; 0 for a duplicate.
    pub size: f64,
    /// The target was already in the result, so the directive expanded to nothing.
    pub duplicate: bool,
}

/// One place looked at (§5.7).
#[napi(object, object_from_js = false, js_name = "Probe")]
pub struct JsProbe {
    /// The place looked at.
    #[napi(ts_type = "string")]
    pub path: Text,
    /// The source a file found there has.
    #[napi(ts_type = "Source")]
    pub source: &'static str,
    /// What was found.
    #[napi(ts_type = "Outcome")]
    pub outcome: &'static str,
}

/// A rule that applies only on request (§11).
#[napi(object, object_from_js = false, js_name = "Available")]
pub struct JsAvailable {
    /// The rule file's path.
    #[napi(ts_type = "string")]
    pub path: Text,
    /// Its file name without the dialect's suffix, as a user asks for it (`@name`).
    pub name: String,
    /// Its front matter's `description`; `''` when it has none.
    pub description: String,
}

/// A path's bytes as text.
fn path(path: &std::path::Path) -> Text {
    Text::of(ffi_support::path_to_bytes(path))
}

impl From<(Chain, Option<Vec<u8>>)> for JsChain {
    fn from((chain, rendered): (Chain, Option<Vec<u8>>)) -> Self {
        Self {
            rendered: TextOrNull(rendered.map(|bytes| Text::of(&bytes))),
            ..Self::from(chain)
        }
    }
}

impl From<Chain> for JsChain {
    fn from(chain: Chain) -> Self {
        Self {
            rendered: TextOrNull(None),
            files: chain.files.into_iter().map(JsFile::from).collect(),
            omitted: chain.omitted.iter().map(JsOmitted::from).collect(),
            imports: chain.imports.iter().map(JsImport::from).collect(),
            probes: chain.probes.iter().map(JsProbe::from).collect(),
            available: chain.available.into_iter().map(JsAvailable::from).collect(),
            warnings: chain.warnings,
        }
    }
}

impl From<File> for JsFile {
    fn from(file: File) -> Self {
        Self {
            path: path(&file.path),
            source: file.source.as_str(),
            content: Copied(file.content),
        }
    }
}

impl From<&Omitted> for JsOmitted {
    fn from(omitted: &Omitted) -> Self {
        Self {
            path: path(&omitted.path),
            size: omitted.size as f64,
            reason: omitted.reason.as_str(),
            by: TextOrNull(omitted.by.as_deref().map(path)),
        }
    }
}

impl From<&Import> for JsImport {
    fn from(import: &Import) -> Self {
        Self {
            path: path(&import.path),
            by: path(&import.by),
            line: import.line as f64,
            depth: import.depth,
            size: import.size as f64,
            duplicate: import.duplicate,
        }
    }
}

impl From<Available> for JsAvailable {
    fn from(available: Available) -> Self {
        Self {
            path: path(&available.path),
            name: available.name,
            description: available.description,
        }
    }
}

impl From<&Probe> for JsProbe {
    fn from(probe: &Probe) -> Self {
        Self {
            path: path(&probe.path),
            source: probe.source.as_str(),
            outcome: probe.outcome.as_str(),
        }
    }
}
