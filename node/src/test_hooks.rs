//! `__testPanic`, built only with the `test-hooks` feature: a panic where no correct input
//! makes one, so that the package's tests can show that each place the addon runs Rust catches
//! it as an `AgentsmdError` of kind `Panic` and Node carries on.

use napi::bindgen_prelude::Unknown;
use napi::Env;
use napi_derive::napi;

use crate::boundary;
use crate::error::Failure;
use crate::input;
use crate::work::{self, Place};

/// Panics in the place `where` names: `'sync'` (or nothing), in a synchronous export's body
/// (throws);
/// `'pool'` and `'thread'`, in the work of an async export on libuv's pool or on a thread of
/// its own (rejects); `'settle'`, on the main thread, while an async export's outcome is made a
/// JavaScript value (rejects).
#[napi(
    js_name = "__testPanic",
    catch_unwind,
    ts_args_type = "where?: 'sync' | 'pool' | 'thread' | 'settle'",
    ts_return_type = "Promise<never> | never"
)]
pub fn test_panic<'e>(env: &'e Env, place: Option<Unknown<'e>>) -> napi::Result<Unknown<'e>> {
    boundary::sync(env, || {
        let place = match place {
            Some(place) => input::string(place, "where")?,
            None => b"sync".to_vec(),
        };
        let panics = || -> Result<(), Failure> { panic!("__testPanic was called") };
        match &place[..] {
            b"sync" => panics().and_then(|()| boundary::js(env, ())),
            b"pool" => work::spawn(env, Place::Pool, panics, |()| ()),
            b"thread" => work::spawn(env, Place::Thread, panics, |()| ()),
            b"settle" => work::spawn(
                env,
                Place::Thread,
                || Ok(()),
                |()| -> () { panic!("__testPanic was called") },
            ),
            _ => Err(Failure::invalid(
                "where: expected 'sync', 'pool', 'thread' or 'settle'",
            )),
        }
    })
}
