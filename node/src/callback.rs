//! The JavaScript callbacks of the options (a custom `fs`, a `transform`), called from the core.
//!
//! index.js hands the addon each callback wrapped, so that what the addon calls never throws
//! and always answers the same shape, a [`Reply`]: `{ value }`, or `{ error: { message, code } }`
//! for a throw (and, in a synchronous call, for a callback that returned a Promise). The
//! wrapper of an asynchronous call returns a Promise of that reply, which the work's thread
//! waits for.
//!
//! Two ways to call ([`Calls`]): from the work's thread of `chain`, `parse` and `parseNearest`,
//! which asks the main thread (the only one that may run JavaScript) to call it and waits for the
//! answer (src/work.rs's [`Job::ask`]); or, in `chainSync` and `parseText`, directly, as the main
//! thread is the one running the call. A session's callbacks serve all its touches, each of
//! which calls them in one of these two ways ([`Binding`]).

use std::fmt;
use std::io;
use std::ptr;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::{self, ThreadId};

use napi::bindgen_prelude::{FromNapiValue, JsValuesTupleIntoVec, Object, Unknown};
use napi::{sys, Env, JsValue};

use crate::error::Failure;
use crate::work::{Job, Reference};

/// How the callbacks of one call are called.
#[derive(Clone, Copy)]
pub(crate) enum Calls<'j> {
    /// From the work's thread of the job (src/work.rs); a callback may answer with a Promise.
    Threaded(&'j Arc<Job>),
    /// Directly, on the main thread, which is running the synchronous call.
    Direct,
    /// By each touch of a session in turn (src/session.rs), which binds them to itself.
    Session(&'j Arc<Binding>),
}

/// What a callback threw, as index.js's wrapper tells it: the thrown error's message, and its
/// `code` when that is an errno name (`'EACCES'` from a `node:fs` call), which the failure's
/// `errno` then is (src/error.rs). It is the `io::Error` a file system answers with, so that
/// the core keeps it beneath its `Fs` error.
#[derive(Debug)]
pub(crate) struct Thrown {
    pub(crate) message: String,
    pub(crate) code: Option<String>,
}

impl fmt::Display for Thrown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Thrown {}

impl FromNapiValue for Thrown {
    unsafe fn from_napi_value(env: sys::napi_env, raw: sys::napi_value) -> napi::Result<Self> {
        let object = Object::from_raw(env, raw);
        Ok(Self {
            message: object.get::<String>("message")?.unwrap_or_default(),
            code: object.get::<Option<String>>("code")?.flatten(),
        })
    }
}

/// A callback's answer through index.js's wrapper: its value (`None` for `null`, "not found"),
/// or what it threw.
pub(crate) struct Reply<T> {
    value: Option<T>,
    error: Option<Thrown>,
}

impl<T: FromNapiValue> FromNapiValue for Reply<T> {
    unsafe fn from_napi_value(env: sys::napi_env, raw: sys::napi_value) -> napi::Result<Self> {
        let object = Object::from_raw(env, raw);
        Ok(Self {
            value: object.get::<Option<T>>("value")?.flatten(),
            error: object.get::<Thrown>("error")?,
        })
    }
}

/// One callback taking `A` (a value, or `FnArgs` of several) and answering a `T`.
pub(crate) enum Callback<A: JsValuesTupleIntoVec + 'static, T: FromNapiValue + 'static> {
    /// Called from the work's thread ([`Calls::Threaded`]): the function, referenced by the job.
    Threaded {
        function: Reference,
        job: Arc<Job>,
        answers: std::marker::PhantomData<fn(A) -> T>,
    },
    /// Called directly ([`Calls::Direct`]).
    Direct(Direct),
    /// A session's ([`Calls::Session`]): the function `index` of its binding, called as the
    /// touch under way calls it.
    Session {
        index: usize,
        binding: Arc<Binding>,
        answers: std::marker::PhantomData<fn(A) -> T>,
    },
}

impl<A, T> Callback<A, T>
where
    A: JsValuesTupleIntoVec + Send + 'static,
    T: FromNapiValue + Send + 'static,
{
    /// The callback `function` (a function, checked), called as `calls` says.
    pub(crate) fn new(function: Unknown, calls: Calls) -> Result<Self, Failure> {
        let (env, raw) = (function.value().env, function.raw());
        Ok(match calls {
            Calls::Threaded(job) => Callback::Threaded {
                function: job.reference(env, raw)?,
                job: Arc::clone(job),
                answers: std::marker::PhantomData,
            },
            Calls::Direct => Callback::Direct(Direct {
                env,
                function: raw,
                thread: thread::current().id(),
            }),
            Calls::Session(binding) => Callback::Session {
                index: binding.register(Reference::new(env, raw)?),
                binding: Arc::clone(binding),
                answers: std::marker::PhantomData,
            },
        })
    }

    /// Calls the callback with `args`: its value, `None` for "not found", or its failure, a
    /// throw as [`Thrown`].
    pub(crate) fn call(&self, args: A) -> io::Result<Option<T>> {
        let reply = match self {
            Callback::Threaded { function, job, .. } => threaded::<A, T>(job, *function, args)?,
            Callback::Direct(function) => function.call(args).map_err(unreadable)?,
            Callback::Session { index, binding, .. } => {
                return binding.callback::<A, T>(*index)?.call(args)
            }
        };
        match reply {
            Reply {
                error: Some(thrown),
                ..
            } => Err(io::Error::other(thrown)),
            Reply { value, .. } => Ok(value),
        }
    }
}

fn unreadable(error: napi::Error) -> io::Error {
    io::Error::other(format!(
        "the callback's answer cannot be read: {}",
        error.reason
    ))
}

/// A callback's reply read from `value`, on the main thread.
fn read<T: FromNapiValue>(env: sys::napi_env, value: sys::napi_value) -> io::Result<Reply<T>> {
    unsafe { Reply::<T>::from_napi_value(env, value) }.map_err(unreadable)
}

/// Calls `function` from the job's thread: the main thread calls it and, when index.js's wrapper
/// answers a Promise, waits for it without keeping the event loop alive (src/event_loop.rs).
fn threaded<A, T>(job: &Arc<Job>, function: Reference, args: A) -> io::Result<Reply<T>>
where
    A: JsValuesTupleIntoVec + Send + 'static,
    T: FromNapiValue + Send + 'static,
{
    job.ask::<Reply<T>>(move |env, job| {
        let raw = env.raw();
        let returned = match call_function(raw, function.value(raw), args) {
            Ok(returned) => returned,
            Err(error) => return job.answer::<Reply<T>>(Err(unreadable(error))),
        };
        let mut is_promise = false;
        unsafe { sys::napi_is_promise(raw, returned, &mut is_promise) };
        if !is_promise {
            return job.answer(read::<T>(raw, returned));
        }
        job.set_holding(env, false);
        if let Err(error) = when_settled::<T>(env, job, returned) {
            job.set_holding(env, true);
            job.answer::<Reply<T>>(Err(unreadable(error)));
        }
    })
}

/// Answers the job with what `promise` settles to (index.js's wrapper never rejects; a
/// rejection is the wrapper itself failing), keeping the loop alive again from then on.
fn when_settled<T: FromNapiValue + Send + 'static>(
    env: &Env,
    job: &Arc<Job>,
    promise: sys::napi_value,
) -> napi::Result<()> {
    let fulfilled = {
        let job = Arc::clone(job);
        env.create_function_from_closure::<(), (), _>("fulfilled", move |context| {
            job.set_holding(context.env, true);
            let value = context.get::<Unknown>(0)?;
            job.answer(read::<T>(context.env.raw(), value.raw()));
            Ok(())
        })?
    };
    let rejected = {
        let job = Arc::clone(job);
        env.create_function_from_closure::<(), (), _>("rejected", move |context| {
            job.set_holding(context.env, true);
            job.answer::<Reply<T>>(Err(io::Error::other("the callback's wrapper rejected")));
            Ok(())
        })?
    };
    let raw = env.raw();
    let mut then = ptr::null_mut();
    let status = unsafe { sys::napi_get_named_property(raw, promise, c"then".as_ptr(), &mut then) };
    if status != sys::Status::napi_ok {
        return Err(napi::Error::from_reason(format!(
            "reading then failed: {}",
            take_exception(raw)
        )));
    }
    let args = [fulfilled.raw(), rejected.raw()];
    let mut returned = ptr::null_mut();
    let status =
        unsafe { sys::napi_call_function(raw, promise, then, 2, args.as_ptr(), &mut returned) };
    if status != sys::Status::napi_ok {
        return Err(napi::Error::from_reason(format!(
            "then threw {}",
            take_exception(raw)
        )));
    }
    Ok(())
}

/// The callbacks of a session (SPEC.md §10): the functions, which the session references while
/// it is open, and how the touch under way calls them. Each touch is a call of its own: an
/// async one references the functions for its job (which releases them when it settles), a
/// synchronous one calls their values directly.
#[derive(Default)]
pub(crate) struct Binding {
    /// The session's references, in the order the options' callbacks were read (main thread).
    functions: Mutex<Vec<Reference>>,
    /// The touch under way, for as long as it runs.
    bound: Mutex<Option<Bound>>,
}

/// How the touch under way calls the session's functions.
pub(crate) enum Bound {
    /// From its job's thread: the functions, referenced by the job.
    Threaded {
        job: Arc<Job>,
        functions: Vec<Reference>,
    },
    /// Directly (`touchSync`): the functions' values, held by the synchronous call's scope.
    Direct {
        env: sys::napi_env,
        functions: Vec<sys::napi_value>,
        thread: ThreadId,
    },
}

// SAFETY: as `Direct`'s: the values are used on the main thread only, by `Direct::call`'s check.
unsafe impl Send for Bound {}

impl Binding {
    fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
        mutex.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn register(&self, function: Reference) -> usize {
        let mut functions = Self::lock(&self.functions);
        functions.push(function);
        functions.len() - 1
    }

    /// Whether the session has callbacks: its touches then wait for JavaScript.
    pub(crate) fn calls_javascript(&self) -> bool {
        !Self::lock(&self.functions).is_empty()
    }

    /// The functions referenced anew for `job`, a touch's (main thread).
    pub(crate) fn threaded(&self, env: &Env, job: &Arc<Job>) -> Result<Bound, Failure> {
        let functions = Self::lock(&self.functions)
            .iter()
            .map(|function| job.reference(env.raw(), function.value(env.raw())))
            .collect::<Result<_, _>>()?;
        let job = Arc::clone(job);
        Ok(Bound::Threaded { job, functions })
    }

    /// The functions' values, for a synchronous touch on the main thread.
    pub(crate) fn direct(&self, env: &Env) -> Bound {
        let functions = Self::lock(&self.functions)
            .iter()
            .map(|function| function.value(env.raw()))
            .collect();
        let thread = thread::current().id();
        let env = env.raw();
        Bound::Direct {
            env,
            functions,
            thread,
        }
    }

    /// Binds the functions to the touch `bound` until the guard is dropped.
    pub(crate) fn bind(&self, bound: Bound) -> impl Drop + '_ {
        struct Unbind<'b>(&'b Binding);
        impl Drop for Unbind<'_> {
            fn drop(&mut self) {
                Binding::lock(&self.0.bound).take();
            }
        }
        *Self::lock(&self.bound) = Some(bound);
        Unbind(self)
    }

    /// Deletes the session's references (main thread): touches under way hold their own.
    pub(crate) fn release(&self, env: sys::napi_env) {
        for function in std::mem::take(&mut *Self::lock(&self.functions)) {
            function.delete(env);
        }
    }

    /// The function `index` as the touch under way calls it.
    fn callback<A, T>(&self, index: usize) -> io::Result<Callback<A, T>>
    where
        A: JsValuesTupleIntoVec + 'static,
        T: FromNapiValue + 'static,
    {
        let unbound = || io::Error::other("a callback of a session was called outside a touch");
        match Self::lock(&self.bound).as_ref().ok_or_else(unbound)? {
            Bound::Threaded { job, functions } => Ok(Callback::Threaded {
                function: *functions.get(index).ok_or_else(unbound)?,
                job: Arc::clone(job),
                answers: std::marker::PhantomData,
            }),
            Bound::Direct {
                env,
                functions,
                thread,
            } => Ok(Callback::Direct(Direct {
                env: *env,
                function: *functions.get(index).ok_or_else(unbound)?,
                thread: *thread,
            })),
        }
    }
}

/// A callback called directly: the function's value, valid on the main thread for as long as
/// the synchronous call that read it runs, which is as long as the options holding it live.
pub(crate) struct Direct {
    env: sys::napi_env,
    function: sys::napi_value,
    thread: ThreadId,
}

// SAFETY: the core may require its file system and transform to be `Send + Sync`, but a
// synchronous call runs them on the thread that made them; `call` refuses any other, so the
// values are only ever used where they are valid.
unsafe impl Send for Direct {}
unsafe impl Sync for Direct {}

impl Direct {
    fn call<A, T>(&self, args: A) -> napi::Result<Reply<T>>
    where
        A: JsValuesTupleIntoVec,
        T: FromNapiValue,
    {
        if thread::current().id() != self.thread {
            return Err(napi::Error::from_reason(
                "a callback of a synchronous call was called from another thread",
            ));
        }
        // A scope of its own per call, so that the values of thousands of calls (a listing of
        // a large directory each) are not all held until the synchronous call returns.
        Env::from_raw(self.env).run_in_scope(|| {
            let returned = call_function(self.env, self.function, args)?;
            unsafe { Reply::<T>::from_napi_value(self.env, returned) }
        })
    }
}

/// Calls `function` with `args` (and `this` undefined): its value, or what it threw as a
/// failure. The throw is taken and read here, running no JavaScript: napi-rs's own reading of
/// it calls its `toString`, which, when the throw is the stack running out, throws again, and
/// napi-rs reads that throw the same way, until the native stack overflows (a crash, not an
/// error). index.js's wrappers catch what a callback throws; what reaches here is what stopped
/// the wrapper itself, the stack running out foremost.
pub(crate) fn call_function<A: JsValuesTupleIntoVec>(
    env: sys::napi_env,
    function: sys::napi_value,
    args: A,
) -> napi::Result<sys::napi_value> {
    let args = args.into_vec(env)?;
    let mut this = std::ptr::null_mut();
    unsafe { sys::napi_get_undefined(env, &mut this) };
    let mut returned = std::ptr::null_mut();
    let status = unsafe {
        sys::napi_call_function(
            env,
            this,
            function,
            args.len(),
            args.as_ptr(),
            &mut returned,
        )
    };
    match status {
        sys::Status::napi_ok => Ok(returned),
        sys::Status::napi_pending_exception => Err(napi::Error::from_reason(format!(
            "calling it threw {}",
            take_exception(env)
        ))),
        status => Err(napi::Error::new(status.into(), "calling it failed")),
    }
}

/// The pending exception, cleared, as text: an Error's `message` where it can be read, else
/// what kind of value was thrown.
pub(crate) fn take_exception(env: sys::napi_env) -> String {
    let mut exception = std::ptr::null_mut();
    if unsafe { sys::napi_get_and_clear_last_exception(env, &mut exception) }
        != sys::Status::napi_ok
    {
        return "an exception that cannot be read".into();
    }
    let mut is_error = false;
    unsafe { sys::napi_is_error(env, exception, &mut is_error) };
    if !is_error {
        return "a value that is no Error".into();
    }
    let mut message = std::ptr::null_mut();
    let read =
        unsafe { sys::napi_get_named_property(env, exception, c"message".as_ptr(), &mut message) };
    if read != sys::Status::napi_ok {
        // A `message` getter that threw in turn: its throw is no one's.
        let mut again = std::ptr::null_mut();
        unsafe { sys::napi_get_and_clear_last_exception(env, &mut again) };
        return "an Error whose message cannot be read".into();
    }
    match unsafe { String::from_napi_value(env, message) } {
        Ok(message) => format!("an Error: {message}"),
        Err(_) => "an Error whose message is no string".into(),
    }
}
