//! The work of an async export (`chain`, `parse`, `parseNearest`), off the main thread, and its
//! outcome settling the promise the export returned.
//!
//! Two places to run it ([`Place`]). Without JavaScript callbacks, libuv's pool, as `node:fs`
//! runs its calls. With callbacks, a thread of its own: the work then waits for JavaScript —
//! for the main thread to run the callback and for the promise it may return — and a callback
//! that itself needs the pool (`fs.promises`, `zlib`, `crypto`) would deadlock a pool whose
//! four threads all wait for it.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};

use napi::bindgen_prelude::{ToNapiValue, TypeName, Unknown, ValueType};
use napi::{sys, Env, JsValue, Task};

use crate::boundary;
use crate::callback::Calls;
use crate::error::Failure;
use crate::input;
use crate::options::{self, CallOptions};

/// Where a work runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    /// libuv's thread pool: work that never waits for JavaScript.
    Pool,
    /// A thread of its own: work that calls JavaScript callbacks and waits for them.
    Thread,
}

/// The promise of an async export taking `(path, options)`: both read on the main thread (a
/// wrong one throws there), then `work(path, options)` run off it, at the place its callbacks
/// ask for, and its value settled as `settle` makes it.
pub(crate) fn at_path<'e, T, J>(
    env: &'e Env,
    path: Unknown<'e>,
    options: Option<Unknown<'e>>,
    work: impl FnOnce(PathBuf, CallOptions) -> Result<T, Failure> + Send + 'static,
    settle: fn(T) -> J,
) -> napi::Result<Unknown<'e>>
where
    T: Send + 'static,
    J: ToNapiValue + 'static,
{
    boundary::sync(env, || {
        let path = input::path(path, "path")?;
        let options = options::read(options, Calls::Threaded)?;
        let place = options.place;
        spawn(env, place, move || work(path, options), settle)
    })
}

/// Runs `work` at `place` and returns the promise its outcome settles: `settle` of its value, or
/// its failure. `settle` runs on the main thread, as JavaScript values can only be made there.
pub(crate) fn spawn<'e, T, J>(
    env: &'e Env,
    place: Place,
    work: impl FnOnce() -> Result<T, Failure> + Send + 'static,
    settle: fn(T) -> J,
) -> Result<Unknown<'e>, Failure>
where
    T: Send + 'static,
    J: ToNapiValue + 'static,
{
    match place {
        Place::Pool => {
            let task = Pooled {
                work: Some(Box::new(work)),
                settle,
            };
            let promise = env.spawn(task).map_err(Failure::napi)?;
            Ok(promise.promise_object().to_unknown())
        }
        Place::Thread => on_thread(env, work, settle),
    }
}

/// [`spawn`] on a thread of its own.
fn on_thread<'e, T, J>(
    env: &'e Env,
    work: impl FnOnce() -> Result<T, Failure> + Send + 'static,
    settle: fn(T) -> J,
) -> Result<Unknown<'e>, Failure>
where
    T: Send + 'static,
    J: ToNapiValue + 'static,
{
    let (deferred, promise) = env
        .create_deferred::<Outcome<T, J>, Resolver<T, J>>()
        .map_err(Failure::napi)?;
    // Shared, so that a thread that cannot start still settles the promise: a deferred dropped
    // unsettled leaves its promise pending, and Node's loop alive, forever.
    let slot = Arc::new(Mutex::new(Some(deferred)));
    let in_thread = Arc::clone(&slot);
    let started = std::thread::Builder::new()
        .name("agentsmd".into())
        .spawn(move || {
            let result = boundary::catch(work);
            let deferred = in_thread
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .take();
            if let Some(deferred) = deferred {
                deferred.resolve(Box::new(move |_| Ok(Outcome { result, settle })));
            }
        });
    if let Err(error) = started {
        let deferred = slot.lock().unwrap_or_else(PoisonError::into_inner).take();
        if let Some(deferred) = deferred {
            let result = Err(Failure::napi(napi::Error::from_reason(format!(
                "starting a thread failed: {error}"
            ))));
            deferred.resolve(Box::new(move |_| Ok(Outcome { result, settle })));
        }
    }
    Ok(promise.to_unknown())
}

/// What settles a work's promise on the main thread: its outcome, handed over.
type Resolver<T, J> = Box<dyn FnOnce(Env) -> napi::Result<Outcome<T, J>> + Send>;

/// A work for libuv's pool.
struct Pooled<T, J> {
    work: Option<Box<dyn FnOnce() -> Result<T, Failure> + Send>>,
    settle: fn(T) -> J,
}

impl<T: Send + 'static, J: ToNapiValue + 'static> Task for Pooled<T, J> {
    type Output = Result<T, Failure>;
    type JsValue = Outcome<T, J>;

    fn compute(&mut self) -> napi::Result<Self::Output> {
        // `compute` runs in libuv's `extern "C"` callback: nothing may unwind out of it.
        Ok(match self.work.take() {
            Some(work) => boundary::catch(work),
            None => Err(Failure::napi(napi::Error::from_reason(
                "the work ran twice",
            ))),
        })
    }

    fn resolve(&mut self, _: Env, result: Self::Output) -> napi::Result<Self::JsValue> {
        Ok(Outcome {
            result,
            settle: self.settle,
        })
    }
}

/// A work's outcome on its way to its promise, which napi settles with this value converted:
/// converted inside the panic boundary, a failure rejects the promise with its error.
struct Outcome<T, J> {
    result: Result<T, Failure>,
    settle: fn(T) -> J,
}

impl<T, J> TypeName for Outcome<T, J> {
    fn type_name() -> &'static str {
        "unknown"
    }

    fn value_type() -> ValueType {
        ValueType::Unknown
    }
}

impl<T, J: ToNapiValue> ToNapiValue for Outcome<T, J> {
    unsafe fn to_napi_value(raw: sys::napi_env, outcome: Self) -> napi::Result<sys::napi_value> {
        let env = Env::from_raw(raw);
        let Outcome { result, settle } = outcome;
        boundary::catch(|| boundary::js(&env, settle(result?)).map(|value| value.raw()))
            .map_err(|failure| failure.into_js(&env))
    }
}
