//! The event loop of one JavaScript environment (the main thread's, or a worker's), as the
//! threads of its async calls reach it: [`EventLoop::send`] runs a task on its thread, the only
//! one that may touch JavaScript values.
//!
//! The loop is kept alive while a call of it has work to do ([`EventLoop::hold`]), and not while
//! every call waits for a Promise of JavaScript's: a callback whose Promise never settles keeps
//! the process alive no more than a pending plain Promise does. When the environment ends (a
//! worker ended, the process exiting), every call still running is aborted, so that its thread
//! goes back to the pool (src/pool.rs) rather than wait for ever.

use std::ffi::c_void;
use std::panic::{self, AssertUnwindSafe};
use std::ptr;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};

use napi::{sys, Env};

use crate::error::Failure;
use crate::work::Job;

/// A task for the environment's thread.
pub(crate) type Task = Box<dyn FnOnce(&Env) + Send>;

/// One environment's loop.
pub(crate) struct EventLoop {
    state: Mutex<State>,
}

struct State {
    /// The threadsafe function that carries the tasks; `None` once the environment ends.
    carrier: Option<Carrier>,
    /// The calls that keep the loop alive now.
    holds: usize,
    /// The calls not yet settled, aborted if the environment ends first.
    jobs: Vec<Weak<Job>>,
}

struct Carrier(sys::napi_threadsafe_function);

// SAFETY: a threadsafe function is made to be called from any thread; it is referenced and
// unreferenced only on the environment's thread (`hold`, `release`).
unsafe impl Send for Carrier {}

impl EventLoop {
    /// The loop of `env`, made the first time a call asks.
    pub(crate) fn of(env: &Env) -> Result<Arc<EventLoop>, Failure> {
        if let Ok(Some(found)) = env.get_instance_data::<Arc<EventLoop>>() {
            return Ok(Arc::clone(found));
        }
        let event_loop = Arc::new(EventLoop {
            state: Mutex::new(State {
                carrier: None,
                holds: 0,
                jobs: Vec::new(),
            }),
        });
        let raw = env.raw();
        let mut name = ptr::null_mut();
        let mut carrier = ptr::null_mut();
        let context = Arc::into_raw(Arc::clone(&event_loop)) as *mut c_void;
        let status = unsafe {
            sys::napi_create_string_utf8(raw, c"agentsmd".as_ptr(), 8, &mut name);
            sys::napi_create_threadsafe_function(
                raw,
                ptr::null_mut(),
                ptr::null_mut(),
                name,
                0,
                1,
                context,
                Some(finalized),
                context,
                Some(run),
                &mut carrier,
            )
        };
        if status != sys::Status::napi_ok {
            drop(unsafe { Arc::from_raw(context as *const EventLoop) });
            return Err(Failure::napi(napi::Error::from_reason(
                "creating a threadsafe function failed",
            )));
        }
        // Kept alive only while a call holds it.
        unsafe { sys::napi_unref_threadsafe_function(raw, carrier) };
        event_loop.state().carrier = Some(Carrier(carrier));
        let hook = Arc::into_raw(Arc::clone(&event_loop)) as *mut c_void;
        unsafe { sys::napi_add_env_cleanup_hook(raw, Some(ended), hook) };
        env.set_instance_data(Arc::clone(&event_loop), (), |_| {})
            .map_err(Failure::napi)?;
        Ok(event_loop)
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Queues `task` for the environment's thread; `false` when the environment has ended, and
    /// `task` is dropped unrun.
    pub(crate) fn send(&self, task: Task) -> bool {
        let state = self.state();
        let Some(carrier) = &state.carrier else {
            return false;
        };
        let data = Box::into_raw(Box::new(task));
        let status = unsafe {
            sys::napi_call_threadsafe_function(
                carrier.0,
                data.cast(),
                sys::ThreadsafeFunctionCallMode::nonblocking,
            )
        };
        if status != sys::Status::napi_ok {
            drop(unsafe { Box::from_raw(data) });
            return false;
        }
        true
    }

    /// Keeps the loop alive for one more call (on the environment's thread).
    pub(crate) fn hold(&self, env: &Env) {
        let mut state = self.state();
        state.holds += 1;
        if let (1, Some(carrier)) = (state.holds, &state.carrier) {
            unsafe { sys::napi_ref_threadsafe_function(env.raw(), carrier.0) };
        }
    }

    /// Undoes one [`EventLoop::hold`] (on the environment's thread).
    pub(crate) fn release(&self, env: &Env) {
        let mut state = self.state();
        state.holds = state.holds.saturating_sub(1);
        if let (0, Some(carrier)) = (state.holds, &state.carrier) {
            unsafe { sys::napi_unref_threadsafe_function(env.raw(), carrier.0) };
        }
    }

    /// Counts `job` among the calls to abort if the environment ends.
    pub(crate) fn enlist(&self, job: &Arc<Job>) {
        let mut state = self.state();
        state.jobs.retain(|job| job.strong_count() > 0);
        state.jobs.push(Arc::downgrade(job));
    }

    /// The environment ends: no task is carried any more, and every call still running is
    /// aborted, its thread woken.
    fn end(&self) {
        let jobs = {
            let mut state = self.state();
            state.carrier = None;
            std::mem::take(&mut state.jobs)
        };
        for job in jobs.iter().filter_map(Weak::upgrade) {
            job.abandon();
        }
    }
}

/// Runs a task on the environment's thread; a task met while the environment ends (`env` null)
/// is dropped unrun.
unsafe extern "C" fn run(
    env: sys::napi_env,
    _: sys::napi_value,
    _: *mut c_void,
    data: *mut c_void,
) {
    let task = unsafe { Box::from_raw(data as *mut Task) };
    if env.is_null() {
        return;
    }
    let env = Env::from_raw(env);
    // Nothing may unwind into Node; the tasks catch their own panics (src/boundary.rs).
    let _ = panic::catch_unwind(AssertUnwindSafe(|| task(&env)));
}

/// The threadsafe function is gone (the environment ended).
unsafe extern "C" fn finalized(_: sys::napi_env, data: *mut c_void, _: *mut c_void) {
    let event_loop = unsafe { Arc::from_raw(data as *const EventLoop) };
    event_loop.end();
}

/// The environment's cleanup hook.
unsafe extern "C" fn ended(data: *mut c_void) {
    let event_loop = unsafe { Arc::from_raw(data as *const EventLoop) };
    event_loop.end();
}
