//! `render` and `renderBytes` (SPEC.md §2): any list of `{ path, content }` — a `Result`'s
//! `files`, or a product's own with rewritten paths — as the one instructions part.

use napi::bindgen_prelude::Unknown;
use napi::Env;
use napi_derive::napi;

use crate::boundary;
use crate::buffer::Copied;
use crate::error::Failure;
use crate::input;
use crate::text::Text;

/// The rendering (SPEC.md §2) of `files` — a `Result`'s, or a product's own with rewritten
/// paths — as a string: `<project_context>`, one `<project_instructions path="…">` element per
/// file, with only `&`, `<`, `>` and `"` of the path escaped. No files render as `''`. A content
/// that is not UTF-8 keeps its bytes as lone surrogates; `renderBytes` gives the bytes.
#[napi(
    catch_unwind,
    ts_args_type = "files: ReadonlyArray<{ path: string; content: Buffer | string }>",
    ts_return_type = "string"
)]
pub fn render<'e>(env: &'e Env, files: Unknown<'e>) -> napi::Result<Unknown<'e>> {
    boundary::sync(env, || boundary::js(env, Text(rendered(files)?)))
}

/// The rendering of `files`, byte for byte what the command line prints.
#[napi(
    js_name = "renderBytes",
    catch_unwind,
    ts_args_type = "files: ReadonlyArray<{ path: string; content: Buffer | string }>",
    ts_return_type = "Buffer"
)]
pub fn render_bytes<'e>(env: &'e Env, files: Unknown<'e>) -> napi::Result<Unknown<'e>> {
    boundary::sync(env, || boundary::js(env, Copied(rendered(files)?)))
}

/// The bytes of the rendering of `files`.
fn rendered(files: Unknown) -> Result<Vec<u8>, Failure> {
    let files = input::array(files, "files", |file, what| {
        let object = input::object(file, what)?
            .ok_or_else(|| Failure::invalid(format!("{what}: expected an object")))?;
        let path = input::string(
            input::field(&object, "path", what)?,
            &format!("{what}.path"),
        )?;
        let content = input::bytes(
            input::field(&object, "content", what)?,
            &format!("{what}.content"),
        )?;
        Ok((path, content))
    })?;
    Ok(agentsmd_core::render(
        files
            .iter()
            .map(|(path, content)| (&path[..], &content[..])),
    ))
}
