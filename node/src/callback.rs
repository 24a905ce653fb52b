//! The JavaScript callbacks of the options (a custom `fs`, a `transform`), called from the core.
//!
//! index.js hands the addon each callback wrapped, so that what the addon calls never throws
//! and always answers the same shape, a [`Reply`]: `{ value }`, or `{ error: { message, code } }`
//! for a throw (and, in a synchronous call, for a callback that returned a Promise). The
//! wrapper of an asynchronous call returns a Promise of that reply, which the work's thread
//! waits for.
//!
//! Two ways to call ([`Calls`]): from the work's thread of `chain`, `parse` and `parseNearest`
//! through a threadsafe function, which queues the call for the main thread (the only one that
//! may run JavaScript); or, in `chainSync` and `parseText`, directly, as the main thread is the
//! one running the call.

use std::fmt;
use std::io;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread::{self, ThreadId};
use std::time::Duration;

use napi::bindgen_prelude::{
    FromNapiValue, Function, JsValuesTupleIntoVec, Object, Promise, Unknown,
};
use napi::threadsafe_function::{ThreadsafeFunction, ThreadsafeFunctionCallMode};
use napi::{sys, Env, JsValue, Status};

use crate::error::Failure;

/// How the callbacks of one call are called.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Calls {
    /// From the work's own thread (src/work.rs), through threadsafe functions; a callback may
    /// answer with a Promise.
    Threaded,
    /// Directly, on the main thread, which is running the synchronous call.
    Direct,
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

/// A callback called from the work's thread: its wrapper answers a Promise of a [`Reply`].
/// `CalleeHandled = false`: the function is called with the arguments alone, not Node's
/// error-first `(null, ...args)`.
type Threadsafe<A, T> = ThreadsafeFunction<A, Promise<Reply<T>>, A, Status, false>;

/// One callback taking `A` (a value, or `FnArgs` of several) and answering a `T`.
pub(crate) enum Callback<A: JsValuesTupleIntoVec + 'static, T: FromNapiValue + 'static> {
    /// Called from the work's thread ([`Calls::Threaded`]).
    Threaded(Threadsafe<A, T>),
    /// Called directly ([`Calls::Direct`]).
    Direct(Direct),
}

impl<A, T> Callback<A, T>
where
    A: JsValuesTupleIntoVec + 'static,
    T: FromNapiValue + Send + 'static,
{
    /// The callback `function` (a function, checked), called as `calls` says.
    pub(crate) fn new(function: Unknown, calls: Calls) -> Result<Self, Failure> {
        let (env, raw) = (function.value().env, function.raw());
        Ok(match calls {
            Calls::Threaded => Callback::Threaded(
                unsafe { Threadsafe::<A, T>::from_napi_value(env, raw) }.map_err(Failure::napi)?,
            ),
            Calls::Direct => Callback::Direct(Direct {
                env,
                function: raw,
                thread: thread::current().id(),
            }),
        })
    }

    /// Calls the callback with `args`: its value, `None` for "not found", or its failure, a
    /// throw as [`Thrown`].
    pub(crate) fn call(&self, args: A) -> io::Result<Option<T>> {
        let reply = match self {
            Callback::Threaded(function) => threaded(function, args),
            Callback::Direct(function) => function.call(args),
        };
        match reply {
            Ok(Reply {
                error: Some(thrown),
                ..
            }) => Err(io::Error::other(thrown)),
            Ok(Reply { value, .. }) => Ok(value),
            Err(error) => Err(io::Error::other(format!(
                "the callback's answer cannot be read: {}",
                error.reason
            ))),
        }
    }
}

/// How long the work's thread waits for a queued call before it looks whether the environment
/// went away: a call still queued when Node tears the environment down (a worker thread ended)
/// is never run, and nothing else would say so.
const STILL_THERE: Duration = Duration::from_millis(200);

/// Calls `function` from the work's thread and waits for its Promise's reply.
fn threaded<A, T>(function: &Threadsafe<A, T>, args: A) -> napi::Result<Reply<T>>
where
    A: JsValuesTupleIntoVec + 'static,
    T: FromNapiValue + Send + 'static,
{
    let gone = || napi::Error::from_reason("the JavaScript environment is shutting down");
    let (sender, receiver) = mpsc::sync_channel(1);
    // The callback given the returned value runs on the main thread: it only hands the value
    // over (an `Err` from it would be raised in Node as an uncaught exception).
    let status = function.call_with_return_value(
        args,
        ThreadsafeFunctionCallMode::Blocking,
        move |returned, _| {
            let _ = sender.send(returned);
            Ok(())
        },
    );
    if status != Status::Ok {
        return Err(gone());
    }
    let promise = loop {
        match receiver.recv_timeout(STILL_THERE) {
            Ok(returned) => break returned?,
            Err(RecvTimeoutError::Timeout) if !function.aborted() => {}
            Err(_) => return Err(gone()),
        }
    };
    futures::executor::block_on(promise)
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
            let function =
                unsafe { Function::<A, Reply<T>>::from_napi_value(self.env, self.function) }?;
            function.call(args)
        })
    }
}
