//! [`Cancel`]: how a caller stops a chain it started (SPEC §4).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A cancellation token: once [`Cancel::cancel`] is called, a chain given it by
/// [`Options::cancel`](crate::Options::cancel) stops before its next question to its file
/// system, with an [`Aborted`](crate::ErrorKind::Aborted) error. Clones share one state.
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

    /// Cancels every chain given this token or a clone of it, from any thread, at any time.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether [`Cancel::cancel`] has been called on this token or a clone of it.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}
