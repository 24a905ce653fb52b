//! The panic boundary: every export's body, every work done off the main thread and every
//! conversion of its outcome runs inside [`catch`], so that a panic — a bug — is a failure of
//! kind `Panic` and never unwinds into Node (which would abort the process). Each export is
//! also declared `#[napi(catch_unwind)]`, for napi's own conversion of its arguments, which runs
//! before the body: the exports take `Unknown` values, so that conversion cannot fail.

use std::panic::{self, AssertUnwindSafe};

use napi::bindgen_prelude::{ToNapiValue, Unknown};
use napi::Env;

use crate::error::Failure;

/// `body`, a panic in it caught as a [`Failure::panic`].
pub(crate) fn catch<T>(body: impl FnOnce() -> Result<T, Failure>) -> Result<T, Failure> {
    // AssertUnwindSafe: after a panic nothing `body` touched is used again but to be dropped.
    panic::catch_unwind(AssertUnwindSafe(body))
        .unwrap_or_else(|payload| Err(Failure::panic(payload.as_ref())))
}

/// The body of a synchronous export: its value, or its failure thrown.
pub(crate) fn sync<'e>(
    env: &'e Env,
    body: impl FnOnce() -> Result<Unknown<'e>, Failure>,
) -> napi::Result<Unknown<'e>> {
    catch(body).map_err(|failure| failure.throw(env))
}

/// `value` as a JavaScript value, inside the boundary of the export converting it.
pub(crate) fn js<'e, T: ToNapiValue>(env: &'e Env, value: T) -> Result<Unknown<'e>, Failure> {
    let raw = unsafe { T::to_napi_value(env.raw(), value) }.map_err(Failure::napi)?;
    Ok(unsafe { Unknown::from_raw_unchecked(env.raw(), raw) })
}
