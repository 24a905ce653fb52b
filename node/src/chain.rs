//! `chain` and `chainSync` (SPEC.md §1, §5), and the `Result` they give: the fields and the
//! words of the command line's `--json` (§7), `by` `null` where that has none, and `imports`
//! and `probes` empty arrays when their option is off.

use std::path::PathBuf;

use agentsmd_core::{Chain, File, Import, Omitted, Probe};
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

/// The instruction files that apply at `path`, found off the main thread: on libuv's pool, or
/// on a thread of its own when the options hold callbacks (src/work.rs).
#[napi(
    catch_unwind,
    ts_args_type = "path: string, options?: object, abortable?: boolean",
    ts_return_type = "Promise<object> | { promise: Promise<object>; abort: () => void }"
)]
pub fn chain<'e>(
    env: &'e Env,
    path: Unknown<'e>,
    options: Option<Unknown<'e>>,
    abortable: Option<Unknown<'e>>,
) -> napi::Result<Unknown<'e>> {
    let work =
        |path: PathBuf, options: CallOptions| Ok(agentsmd_core::chain(&path, &options.core)?);
    work::at_path(env, path, options, abortable, work, JsChain::from)
}

/// [`chain`] on the main thread, its callbacks called directly.
#[napi(
    js_name = "chainSync",
    catch_unwind,
    ts_args_type = "path: string, options?: object",
    ts_return_type = "object"
)]
pub fn chain_sync<'e>(
    env: &'e Env,
    path: Unknown<'e>,
    options: Option<Unknown<'e>>,
) -> napi::Result<Unknown<'e>> {
    boundary::sync(env, || {
        let path = input::path(path, "path")?;
        let options = options::read(options, Calls::Direct)?;
        let chain = agentsmd_core::chain(&path, &options.core)?;
        boundary::js(env, JsChain::from(chain))
    })
}

/// `Result`.
#[napi(object, object_from_js = false)]
pub struct JsChain {
    /// The files that apply, in the order of §5.1.
    pub files: Vec<JsFile>,
    /// Every file found and left out, in the order met.
    pub omitted: Vec<JsOmitted>,
    /// With `imports`: each directive expanded; else empty.
    pub imports: Vec<JsImport>,
    /// With `report`: every place looked at; else empty.
    pub probes: Vec<JsProbe>,
}

/// `Result.files[]`.
#[napi(object, object_from_js = false)]
pub struct JsFile {
    /// Its absolute OS path, or its name in the custom file system.
    #[napi(ts_type = "string")]
    pub path: Text,
    /// Its bytes, as read (imports expanded, transformed).
    #[napi(ts_type = "Buffer")]
    pub content: Copied,
    /// `extra`, `chain`, `fragment` or `overlay`.
    pub source: &'static str,
}

/// `Result.omitted[]`.
#[napi(object, object_from_js = false)]
pub struct JsOmitted {
    /// Its path, the stable key of the file.
    #[napi(ts_type = "string")]
    pub path: Text,
    /// The bytes read, or the size reported (0 for `escapes`).
    pub size: f64,
    /// The word of `--json`: `over_budget`, `shadowed`, `escapes`, `duplicate`, `superseded`.
    pub reason: &'static str,
    /// The file that took its place, or `null`.
    #[napi(ts_type = "string | null")]
    pub by: TextOrNull,
}

/// `Result.imports[]` (§5.4).
#[napi(object, object_from_js = false)]
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
    /// Whether the target was already in the result.
    pub duplicate: bool,
}

/// `Result.probes[]` (§5.7).
#[napi(object, object_from_js = false)]
pub struct JsProbe {
    /// The place looked at.
    #[napi(ts_type = "string")]
    pub path: Text,
    /// The source a file found there has.
    pub source: &'static str,
    /// What was found: the words of §5.7.
    pub outcome: &'static str,
}

/// A path's bytes as text.
fn path(path: &std::path::Path) -> Text {
    Text::of(agentsmd_core::path_to_bytes(path))
}

impl From<Chain> for JsChain {
    fn from(chain: Chain) -> Self {
        Self {
            files: chain.files.into_iter().map(JsFile::from).collect(),
            omitted: chain.omitted.iter().map(JsOmitted::from).collect(),
            imports: chain.imports.iter().map(JsImport::from).collect(),
            probes: chain.probes.iter().map(JsProbe::from).collect(),
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

impl From<&Probe> for JsProbe {
    fn from(probe: &Probe) -> Self {
        Self {
            path: path(&probe.path),
            source: probe.source.as_str(),
            outcome: probe.outcome.as_str(),
        }
    }
}
