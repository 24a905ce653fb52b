//! `Session` (SPEC.md §10): what newly applies as an agent touches paths, each file given once.
//!
//! The core's session holds the options, a custom `fs` and a `transform` included, for all its
//! touches; their JavaScript functions are the session's (src/callback.rs's [`Binding`]), kept
//! referenced until it is closed or collected, and each touch binds them to itself as a call
//! of its own: `touch` to its job, whose thread calls them on the main thread and waits for
//! each answer, as `chain` does, and `touchSync` directly. index.js runs a session's `touch`es
//! one after another, in the order they were called.

use std::cell::Cell;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, TryLockError};

use agentsmd_core::Cancel;
use napi::bindgen_prelude::{ObjectFinalize, Unknown};
use napi::Env;
use napi_derive::napi;

use crate::boundary;
use crate::callback::{Binding, Calls};
use crate::chain::JsChain;
use crate::error::Failure;
use crate::input;
use crate::options;
use crate::work::{self, Place};

/// What the session's touches share, on any thread.
struct Shared {
    core: agentsmd_core::Session,
    binding: Arc<Binding>,
    /// Held by the touch under way, which the binding is bound to.
    turn: Mutex<()>,
}

impl Shared {
    fn turn(&self) -> MutexGuard<'_, ()> {
        self.turn.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A session (SPEC.md §10): the options of a chain and a record of what it has given. Each
/// touch answers what newly applies at a path (a file, a directory or a path about to be
/// created) — the files of `chain(path, options)` no earlier touch gave, and what was left out
/// that no earlier touch reported — and records it; the first touch gives exactly
/// `chain(path, options)`, a path outside `root` nothing. `options.nearest` is an
/// `AgentsmdError` of kind `InvalidArgument`. A custom `fs` and a `transform` serve every
/// touch, and stay referenced until the session is closed or collected.
#[napi(custom_finalize)]
pub struct Session {
    shared: Arc<Shared>,
    closed: Cell<bool>,
}

#[napi]
impl Session {
    /// A session with `options`.
    #[napi(constructor, catch_unwind, ts_args_type = "options?: Options")]
    pub fn new(env: &Env, options: Option<Unknown>) -> napi::Result<Self> {
        let binding = Arc::new(Binding::default());
        let made = boundary::catch(|| {
            let options = options::read(options, Calls::Session(&binding))?;
            Ok(agentsmd_core::Session::new(options.core)?)
        });
        let core = made.map_err(|failure| {
            binding.release(env.raw());
            failure.throw(env)
        })?;
        let turn = Mutex::new(());
        Ok(Self {
            shared: Arc::new(Shared {
                core,
                binding,
                turn,
            }),
            closed: Cell::new(false),
        })
    }

    /// What newly applies at `path`, found off the main thread (a custom `fs` and `transform`
    /// called on the main thread, each of which may return a Promise, as with `chain`). The
    /// promise rejects with an `AgentsmdError`, and the session is then as it was before the
    /// touch. Touches take effect one at a time, in the order they were called.
    /// `options.signal` aborts the touch: it rejects with an `AgentsmdError` of kind `Aborted`
    /// (the session as it was), unless it had found its delta already, which it then gives.
    // With `abortable`, which index.js passes for `options.signal`, it answers
    // `{ promise, abort }`; `abort` stops the core's touch and the waits for JavaScript, and the
    // promise settles with what the touch then gives, so that it is always what was recorded.
    #[napi(
        catch_unwind,
        ts_args_type = "path: string, options?: TouchOptions",
        ts_return_type = "Promise<Result>"
    )]
    pub fn touch<'e>(
        &self,
        env: &'e Env,
        path: Unknown<'e>,
        abortable: Option<Unknown<'e>>,
    ) -> napi::Result<Unknown<'e>> {
        boundary::sync(env, || {
            let abortable = match abortable {
                Some(flag) => input::flag(flag, "abortable")?,
                None => false,
            };
            let path = input::path(path, "path")?;
            let shared = Arc::clone(self.open()?);
            let place = match shared.binding.calls_javascript() {
                true => Place::Thread,
                false => Place::Pool,
            };
            let cancel = Cancel::new();
            let mut started = None;
            let bind = |job: &Arc<work::Job>| {
                started = Some(Arc::clone(job));
                let bound = shared.binding.threaded(env, job)?;
                let cancel = cancel.clone();
                Ok(move || {
                    let _turn = shared.turn();
                    let _bound = shared.binding.bind(bound);
                    Ok(match abortable {
                        true => shared.core.touch_cancellable(&path, &cancel),
                        false => shared.core.touch(&path),
                    }?)
                })
            };
            let promise = work::start(env, place, bind, JsChain::from)?;
            match (abortable, started) {
                (true, Some(job)) => work::abortable_promise(env, promise, move |_| {
                    cancel.cancel();
                    job.abandon();
                }),
                _ => Ok(promise),
            }
        })
    }

    /// `touch` on the calling thread: the callbacks of `options.fs` and `options.transform` must
    /// answer a value, as with `chainSync`. While a `touch` of a session with callbacks is under
    /// way (it calls them on this thread), `touchSync` is an error of kind `InvalidArgument`.
    #[napi(
        js_name = "touchSync",
        catch_unwind,
        ts_args_type = "path: string",
        ts_return_type = "Result"
    )]
    pub fn touch_sync<'e>(&self, env: &'e Env, path: Unknown<'e>) -> napi::Result<Unknown<'e>> {
        boundary::sync(env, || {
            let path = input::path(path, "path")?;
            let shared = self.open()?;
            let _turn = match shared.turn.try_lock() {
                Ok(turn) => turn,
                Err(TryLockError::Poisoned(turn)) => turn.into_inner(),
                // A touch without callbacks ends without this thread.
                Err(TryLockError::WouldBlock) if !shared.binding.calls_javascript() => {
                    shared.turn()
                }
                Err(TryLockError::WouldBlock) => {
                    return Err(Failure::invalid(
                        "touchSync: a touch of this session is under way, and it calls the \
                         session's callbacks on this thread; await it first",
                    ))
                }
            };
            let _bound = shared.binding.bind(shared.binding.direct(env));
            let delta = shared.core.touch(&path)?;
            boundary::js(env, JsChain::from(delta))
        })
    }

    /// Releases the session's `fs` and `transform` (a touch under way finishes); a touch
    /// afterwards is an error of kind `InvalidArgument`. Closing twice is no error.
    #[napi(catch_unwind)]
    pub fn close(&self, env: &Env) {
        if !self.closed.replace(true) {
            self.shared.binding.release(env.raw());
        }
    }

    fn open(&self) -> Result<&Arc<Shared>, Failure> {
        match self.closed.get() {
            true => Err(Failure::invalid("the session is closed")),
            false => Ok(&self.shared),
        }
    }
}

impl ObjectFinalize for Session {
    fn finalize(self, env: Env) -> napi::Result<()> {
        self.close(&env);
        Ok(())
    }
}
