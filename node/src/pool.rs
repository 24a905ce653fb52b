//! The threads of the async calls whose options hold JavaScript callbacks (src/work.rs): at
//! most [`THREADS`] at once in the process, however many calls run. A call waits in line for a
//! thread, and never fails for want of one; a thread with no call left to run ends, so that no
//! thread is kept for calls that may never come. (One thread per call was 8,007 threads for
//! 8,000 calls, and most calls failed under a limit of the user's processes.)

use std::collections::VecDeque;
use std::io;
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Mutex, PoisonError};

/// The most threads the calls with callbacks use at once, in the whole process.
pub(crate) const THREADS: usize = 16;

type Work = Box<dyn FnOnce() + Send>;

struct Pool {
    /// The works waiting for a thread, first come first served.
    waiting: VecDeque<Work>,
    /// The threads running now.
    threads: usize,
}

static POOL: Mutex<Pool> = Mutex::new(Pool {
    waiting: VecDeque::new(),
    threads: 0,
});

fn lock() -> std::sync::MutexGuard<'static, Pool> {
    POOL.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Runs `work` on a thread of the pool: a new one while there are fewer than [`THREADS`], else
/// the first to be free. Fails only where no thread runs and none can be started.
pub(crate) fn run(work: Work) -> io::Result<()> {
    let mut pool = lock();
    if pool.threads >= THREADS {
        pool.waiting.push_back(work);
        return Ok(());
    }
    pool.threads += 1;
    drop(pool);
    let (sender, receiver) = std::sync::mpsc::channel::<Work>();
    let started = std::thread::Builder::new()
        .name("agentsmd".into())
        .spawn(move || {
            if let Ok(work) = receiver.recv() {
                serve(work);
            }
        });
    match started {
        Ok(_) => {
            let _ = sender.send(work);
            Ok(())
        }
        Err(error) => {
            let mut pool = lock();
            pool.threads -= 1;
            // A thread that runs will take it when it is free.
            if pool.threads > 0 {
                pool.waiting.push_back(work);
                return Ok(());
            }
            Err(error)
        }
    }
}

/// Runs `work`, then each waiting work, until none is left.
fn serve(mut work: Work) {
    loop {
        // The works catch their own panics (src/boundary.rs); this keeps the count right anyway.
        let _ = panic::catch_unwind(AssertUnwindSafe(work));
        let mut pool = lock();
        match pool.waiting.pop_front() {
            Some(next) => work = next,
            None => {
                pool.threads -= 1;
                return;
            }
        }
    }
}
