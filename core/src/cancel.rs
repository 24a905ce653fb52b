//! [`Cancel`]: how a caller stops a chain it started (SPEC.md §4, `Aborted`), from another thread
//! or from inside its own file system's answer, as Go's `context.Context` or Node's `AbortSignal`
//! asks.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A cancellation token: given to a chain with [`Options::cancel`](crate::Options::cancel), it
/// stops the chain before the next question to its file system once [`Cancel::cancel`] is
/// called, with an error of kind [`Aborted`](crate::ErrorKind::Aborted) naming the path it was
/// at. A question already asked is answered first: a chain is stopped between questions, never
/// in one. Clones share one state and are cheap, so the caller keeps one and the options another.
///
/// ```
/// let cancel = agentsmd_core::Cancel::new();
/// let options = agentsmd_core::Options::new().cancel(cancel.clone());
/// cancel.cancel();
/// let error = agentsmd_core::chain(".", &options).unwrap_err();
/// assert_eq!(error.kind(), agentsmd_core::ErrorKind::Aborted);
/// ```
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A token not cancelled yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Cancels every chain given this token or a clone of it, from any thread, at any time;
    /// cancelling again does nothing more.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether [`Cancel::cancel`] has been called on this token or a clone of it.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}
