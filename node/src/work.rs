//! The work of an async export (`chain`, `parse`, `parseNearest`, a session's `touch`), off the
//! main thread, and the [`Job`] that settles the promise the export returned.
//!
//! Two places to run it ([`Place`]). Without JavaScript callbacks, libuv's pool, as `node:fs`
//! runs its calls. With callbacks, a thread of the addon's bounded pool (src/pool.rs): the work
//! then waits for JavaScript — for the main thread to run the callback and for the promise it
//! may return — and a callback that itself needs libuv's pool (`fs.promises`, `zlib`, `crypto`)
//! would deadlock a pool whose four threads all wait for it.
//!
//! A job may be aborted (`options.signal`, through index.js): its promise rejects at once with
//! an `Aborted` error, its thread stops waiting for JavaScript, and the references it held to
//! the callbacks are released. A job whose environment ends is abandoned the same way. A
//! session's touch is abandoned instead (src/session.rs): its thread is woken, and its promise
//! settles with what the touch then gives, which is what the session recorded.

use std::any::Any;
use std::io;
use std::path::PathBuf;
use std::ptr;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

use napi::bindgen_prelude::{ToNapiValue, Unknown};
use napi::{sys, Env, JsValue, Task};

use crate::boundary;
use crate::callback::Calls;
use crate::error::Failure;
use crate::event_loop::EventLoop;
use crate::input;
use crate::options::{self, CallOptions};
use crate::pool;

/// Where a work runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    /// libuv's thread pool: work that never waits for JavaScript.
    Pool,
    /// The addon's pool: work that calls JavaScript callbacks and waits for them.
    Thread,
}

/// The promise of an async export taking `(path, options)`: both read on the main thread (a
/// wrong one throws there), then `work(path, options)` run off it, at the place its callbacks
/// ask for, and its value settled as `settle` makes it. With `abortable` true, index.js is
/// given `{ promise, abort }`, `abort` the function that aborts the job.
pub(crate) fn at_path<'e, T, J>(
    env: &'e Env,
    path: Unknown<'e>,
    options: Option<Unknown<'e>>,
    abortable: Option<Unknown<'e>>,
    work: impl FnOnce(PathBuf, CallOptions) -> Result<T, Failure> + Send + 'static,
    settle: fn(T) -> J,
) -> napi::Result<Unknown<'e>>
where
    T: Send + 'static,
    J: ToNapiValue + 'static,
{
    boundary::sync(env, || {
        let abortable = match abortable {
            Some(flag) => input::flag(flag, "abortable")?,
            None => false,
        };
        let path = input::path(path, "path")?;
        let job = Job::new(env)?;
        let options = match options::read(options, Calls::Threaded(&job)) {
            Ok(options) => options,
            Err(failure) => {
                job.drop_unstarted(env);
                return Err(failure);
            }
        };
        let place = options.place;
        let promise = job.start(env, place, move || work(path, options), settle)?;
        if !abortable {
            return Ok(promise);
        }
        abortable_promise(env, promise, move |env| job.abort(env))
    })
}

/// `{ promise, abort }`, which index.js is given for `options.signal`: `abort` calls `abort`.
pub(crate) fn abortable_promise<'e>(
    env: &'e Env,
    promise: Unknown<'e>,
    abort: impl Fn(&Env) + 'static,
) -> Result<Unknown<'e>, Failure> {
    let abort = env
        .create_function_from_closure::<(), (), _>("abort", move |context| {
            abort(context.env);
            Ok(())
        })
        .map_err(Failure::napi)?;
    let mut object = napi::bindgen_prelude::Object::new(env).map_err(Failure::napi)?;
    object.set("promise", promise).map_err(Failure::napi)?;
    object.set("abort", abort).map_err(Failure::napi)?;
    boundary::js(env, object)
}

/// The promise of the work `bind` makes for its job (main thread), run at `place` off the main
/// thread and settled as `settle` makes it: a session's touch (src/session.rs), which binds the
/// session's callbacks to its job.
pub(crate) fn start<'e, T, J, W>(
    env: &'e Env,
    place: Place,
    bind: impl FnOnce(&Arc<Job>) -> Result<W, Failure>,
    settle: fn(T) -> J,
) -> Result<Unknown<'e>, Failure>
where
    W: FnOnce() -> Result<T, Failure> + Send + 'static,
    T: Send + 'static,
    J: ToNapiValue + 'static,
{
    let job = Job::new(env)?;
    match bind(&job) {
        Ok(work) => job.start(env, place, work, settle),
        Err(failure) => {
            job.drop_unstarted(env);
            Err(failure)
        }
    }
}

/// Runs `work` at `place` and returns the promise its outcome settles (the test hooks' way in).
#[cfg(feature = "test-hooks")]
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
    Job::new(env)?.start(env, place, work, settle)
}

/// One async call: its promise, its thread's questions to JavaScript, and what it holds.
pub(crate) struct Job {
    event_loop: Arc<EventLoop>,
    state: Mutex<State>,
    answered: Condvar,
}

struct State {
    /// The promise's resolver, until it is settled (main thread only).
    deferred: Option<Deferred>,
    /// Aborted, or abandoned with its environment: the thread waits for nothing more.
    aborted: bool,
    /// The answer of the question asked now.
    answer: Option<Box<dyn Any + Send>>,
    /// Whether the job keeps the event loop alive now.
    holding: bool,
    /// The references to the callbacks, released on the main thread when the job settles.
    references: Vec<Reference>,
}

struct Deferred(sys::napi_deferred);
/// A reference to a JavaScript value, made and released on the main thread.
#[derive(Clone, Copy)]
pub(crate) struct Reference(sys::napi_ref);

impl Reference {
    /// A reference to `value`, which keeps it alive until [`Reference::delete`] (main thread).
    pub(crate) fn new(env: sys::napi_env, value: sys::napi_value) -> Result<Self, Failure> {
        let mut reference = ptr::null_mut();
        if unsafe { sys::napi_create_reference(env, value, 1, &mut reference) }
            != sys::Status::napi_ok
        {
            return Err(Failure::napi(napi::Error::from_reason(
                "creating a reference failed",
            )));
        }
        Ok(Self(reference))
    }

    /// Deletes the reference (main thread), which nothing may use afterwards.
    pub(crate) fn delete(self, env: sys::napi_env) {
        unsafe { sys::napi_delete_reference(env, self.0) };
    }

    /// The value referenced (main thread).
    pub(crate) fn value(self, env: sys::napi_env) -> sys::napi_value {
        let mut value = ptr::null_mut();
        unsafe { sys::napi_get_reference_value(env, self.0, &mut value) };
        value
    }
}

// SAFETY: both are used on the main thread only; the work's thread only carries them.
unsafe impl Send for Deferred {}
unsafe impl Send for Reference {}
unsafe impl Sync for Reference {}

/// What a thread is told when the job it works for was aborted.
#[derive(Debug)]
pub(crate) struct Aborted;

impl std::fmt::Display for Aborted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the call was aborted")
    }
}

impl std::error::Error for Aborted {}

impl Job {
    fn new(env: &Env) -> Result<Arc<Job>, Failure> {
        Ok(Arc::new(Job {
            event_loop: EventLoop::of(env)?,
            state: Mutex::new(State {
                deferred: None,
                aborted: false,
                answer: None,
                holding: false,
                references: Vec::new(),
            }),
            answered: Condvar::new(),
        }))
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A reference the job holds to `value` until it settles.
    pub(crate) fn reference(
        &self,
        env: sys::napi_env,
        value: sys::napi_value,
    ) -> Result<Reference, Failure> {
        let reference = Reference::new(env, value)?;
        self.state().references.push(reference);
        Ok(reference)
    }

    /// The job's options were refused: what it referenced is released.
    fn drop_unstarted(&self, env: &Env) {
        release(env, std::mem::take(&mut self.state().references));
    }

    /// Starts `work` at `place`: the promise it settles.
    fn start<'e, T, J>(
        self: &Arc<Self>,
        env: &'e Env,
        place: Place,
        work: impl FnOnce() -> Result<T, Failure> + Send + 'static,
        settle: fn(T) -> J,
    ) -> Result<Unknown<'e>, Failure>
    where
        T: Send + 'static,
        J: ToNapiValue + 'static,
    {
        let (mut deferred, mut promise) = (ptr::null_mut(), ptr::null_mut());
        if unsafe { sys::napi_create_promise(env.raw(), &mut deferred, &mut promise) }
            != sys::Status::napi_ok
        {
            self.drop_unstarted(env);
            return Err(Failure::napi(napi::Error::from_reason(
                "creating a promise failed",
            )));
        }
        self.state().deferred = Some(Deferred(deferred));
        self.set_holding(env, true);
        self.event_loop.enlist(self);
        match place {
            Place::Pool => {
                let task = Pooled {
                    work: Some(Box::new(work)),
                    job: Arc::clone(self),
                    settle,
                };
                env.spawn(task).map_err(Failure::napi)?;
            }
            Place::Thread => {
                let job = Arc::clone(self);
                let run = Box::new(move || {
                    let result = match job.is_aborted() {
                        true => Err(Failure::aborted()),
                        false => boundary::catch(work),
                    };
                    let finished = Arc::clone(&job);
                    job.event_loop
                        .send(Box::new(move |env| finished.finish(env, result, settle)));
                });
                if let Err(error) = pool::run(run) {
                    self.finish(
                        env,
                        Err(Failure::napi(napi::Error::from_reason(format!(
                            "starting a thread failed: {error}"
                        )))),
                        settle,
                    );
                }
            }
        }
        Ok(unsafe { Unknown::from_raw_unchecked(env.raw(), promise) })
    }

    fn is_aborted(&self) -> bool {
        self.state().aborted
    }

    /// Keeps the event loop alive for the job, or stops (main thread).
    pub(crate) fn set_holding(&self, env: &Env, holding: bool) {
        let mut state = self.state();
        if state.holding == holding || (holding && state.deferred.is_none()) {
            return;
        }
        state.holding = holding;
        drop(state);
        match holding {
            true => self.event_loop.hold(env),
            false => self.event_loop.release(env),
        }
    }

    /// Settles the promise with the work's outcome, unless it is settled already (main thread).
    /// A work that failed once the job was abandoned failed for that: it is `Aborted`. One that
    /// succeeded all the same (a session's touch, whose delta is then recorded) gives its value.
    fn finish<T, J: ToNapiValue>(&self, env: &Env, result: Result<T, Failure>, settle: fn(T) -> J) {
        let result = match self.is_aborted() {
            true => result.map_err(|_| Failure::aborted()),
            false => result,
        };
        let value = boundary::catch(|| boundary::js(env, settle(result?)).map(|value| value.raw()));
        self.settle(env, value);
    }

    fn settle(&self, env: &Env, value: Result<sys::napi_value, Failure>) {
        let (deferred, references) = {
            let mut state = self.state();
            (state.deferred.take(), std::mem::take(&mut state.references))
        };
        let Some(deferred) = deferred else { return };
        self.set_holding_after_settle(env);
        release(env, references);
        match value {
            Ok(value) => unsafe { sys::napi_resolve_deferred(env.raw(), deferred.0, value) },
            Err(failure) => {
                let error = failure.into_value(env);
                unsafe { sys::napi_reject_deferred(env.raw(), deferred.0, error) }
            }
        };
    }

    fn set_holding_after_settle(&self, env: &Env) {
        let mut state = self.state();
        if std::mem::replace(&mut state.holding, false) {
            drop(state);
            self.event_loop.release(env);
        }
    }

    /// Aborts the job (main thread): its promise rejects now, its thread is woken.
    pub(crate) fn abort(&self, env: &Env) {
        self.abandon();
        self.settle(env, Err(Failure::aborted()));
    }

    /// Wakes the thread, which waits for nothing more (any thread).
    pub(crate) fn abandon(&self) {
        self.state().aborted = true;
        self.answered.notify_all();
    }

    /// Asks the main thread `question`, which answers with [`Job::answer`], and waits for the
    /// answer (the work's thread).
    pub(crate) fn ask<T: Send + 'static>(
        self: &Arc<Self>,
        question: impl FnOnce(&Env, &Arc<Job>) + Send + 'static,
    ) -> io::Result<T> {
        let aborted = || io::Error::new(io::ErrorKind::Interrupted, Aborted);
        {
            let mut state = self.state();
            if state.aborted {
                return Err(aborted());
            }
            state.answer = None;
        }
        let job = Arc::clone(self);
        // An abort may come between the send and the question's turn on the main thread: the
        // references the question would use are released then, and the thread told already.
        let asked = move |env: &Env| {
            if !job.is_aborted() {
                question(env, &job);
            }
        };
        if !self.event_loop.send(Box::new(asked)) {
            return Err(io::Error::other("the JavaScript environment has ended"));
        }
        let mut state = self.state();
        loop {
            if let Some(answer) = state.answer.take() {
                return answer
                    .downcast::<io::Result<T>>()
                    .map(|answer| *answer)
                    .unwrap_or_else(|_| Err(io::Error::other("an answer of another question")));
            }
            if state.aborted {
                return Err(aborted());
            }
            state = self
                .answered
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Answers the question asked now (main thread).
    pub(crate) fn answer<T: Send + 'static>(&self, answer: io::Result<T>) {
        self.state().answer = Some(Box::new(answer));
        self.answered.notify_all();
    }
}

/// Deletes `references` (main thread), which nothing may use afterwards.
fn release(env: &Env, references: Vec<Reference>) {
    for reference in references {
        reference.delete(env.raw());
    }
}

/// A work for libuv's pool, which settles its job.
struct Pooled<T, J> {
    work: Option<Box<dyn FnOnce() -> Result<T, Failure> + Send>>,
    job: Arc<Job>,
    settle: fn(T) -> J,
}

impl<T: Send + 'static, J: ToNapiValue + 'static> Task for Pooled<T, J> {
    type Output = Result<T, Failure>;
    type JsValue = ();

    fn compute(&mut self) -> napi::Result<Self::Output> {
        // `compute` runs in libuv's `extern "C"` callback: nothing may unwind out of it.
        Ok(match self.work.take() {
            Some(work) => boundary::catch(work),
            None => Err(Failure::napi(napi::Error::from_reason(
                "the work ran twice",
            ))),
        })
    }

    fn resolve(&mut self, env: Env, result: Self::Output) -> napi::Result<()> {
        self.job.finish(&env, result, self.settle);
        Ok(())
    }
}
