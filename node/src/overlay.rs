//! `overlayDir` (SPEC.md §5.3): seed 003's per-caller overlay directory.

use agentsmd_core::ffi_support;
use napi::bindgen_prelude::Unknown;
use napi::Env;
use napi_derive::napi;

use crate::boundary;
use crate::input;
use crate::text::Text;

/// Seed 003's per-caller overlay directory, `USERS_DIR/IDENTITY/.agents` (SPEC.md §5.3), to
/// give in `overlays`; `null` when either argument is empty (no overlay, no error). An identity
/// that is `.` or holds `/`, `\`, a NUL or `..` is an `InvalidArgument` error whose message
/// contains `caller identity`.
#[napi(
    js_name = "overlayDir",
    catch_unwind,
    ts_args_type = "usersDir: string, identity: string",
    ts_return_type = "string | null"
)]
pub fn overlay_dir<'e>(
    env: &'e Env,
    users_dir: Unknown<'e>,
    identity: Unknown<'e>,
) -> napi::Result<Unknown<'e>> {
    boundary::sync(env, || {
        let users_dir = input::path(users_dir, "usersDir")?;
        let identity = input::path(identity, "identity")?;
        let dir = agentsmd_core::overlay_dir(users_dir, identity)?;
        boundary::js(
            env,
            dir.map(|dir| Text::of(ffi_support::path_to_bytes(&dir))),
        )
    })
}
