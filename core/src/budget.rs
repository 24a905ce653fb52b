//! The bounds of SPEC §1 "Bounds": `budget` and `rendered_budget`, spent in result order. The
//! first file over either ends the chain.

use crate::render::{self, WRAPPER_LEN};

/// What the two budgets have spent, and whether the chain has ended.
#[derive(Clone, Default)]
pub(crate) struct Budget {
    budget: Option<u64>,
    rendered_budget: Option<u64>,
    /// Bytes of the files kept.
    spent: u64,
    /// Bytes of the rendered elements of the files kept, the wrapper around them aside.
    elements: u64,
    /// Bytes of a session's earlier deltas' renderings, wrappers included (SPEC §10).
    rendered_before: u64,
    /// Set by the first file over a budget: every file after it is left out unread.
    pub(crate) ended: bool,
}

impl Budget {
    pub(crate) fn new(budget: Option<u64>, rendered_budget: Option<u64>) -> Self {
        Self {
            budget,
            rendered_budget,
            ..Self::default()
        }
    }

    /// Whether a file at `path` whose stat reported `size` may be read: the least it could add
    /// fits both budgets.
    pub(crate) fn fits_unread(&self, path: &[u8], size: u64) -> bool {
        !self.ended && self.fits(path, size, true)
    }

    /// Starts a session's next delta: what the last one kept was rendered on its own, wrapper
    /// and all (SPEC §10).
    pub(crate) fn next_delta(&mut self) {
        if self.elements > 0 {
            let rendering = WRAPPER_LEN.saturating_add(self.elements);
            self.rendered_before = self.rendered_before.saturating_add(rendering);
            self.elements = 0;
        }
    }

    /// Whether either budget is set: only then may a file be left out.
    pub(crate) fn is_limited(&self) -> bool {
        self.budget.is_some() || self.rendered_budget.is_some()
    }

    /// Charges a file read whole, keeping it when it fits; `false` when it does not.
    pub(crate) fn spend(&mut self, path: &[u8], content: &[u8]) -> bool {
        self.spend_len(path, content.len() as u64, content.ends_with(b"\n"))
    }

    /// Charges a file of `len` bytes; `false` when it does not fit.
    pub(crate) fn spend_len(&mut self, path: &[u8], len: u64, ends_in_newline: bool) -> bool {
        if !self.fits(path, len, ends_in_newline) {
            return false;
        }
        self.spent += len;
        // The rendering is measured only for a rendered budget: it scans the path.
        if self.rendered_budget.is_some() {
            let element = render::element_len(path, len, ends_in_newline);
            self.elements = self.elements.saturating_add(element);
        }
        true
    }

    fn fits(&self, path: &[u8], len: u64, ends_in_newline: bool) -> bool {
        // Summed in u128: a sum saturated at u64::MAX would fit a budget of u64::MAX, and a
        // reported size of u64::MAX must fit no budget once anything is spent.
        let files_fit = self
            .budget
            .is_none_or(|b| u128::from(self.spent) + u128::from(len) <= u128::from(b));
        let rendering_fits = self.rendered_budget.is_none_or(|b| {
            let rendering = WRAPPER_LEN
                .saturating_add(self.rendered_before)
                .saturating_add(self.elements)
                .saturating_add(render::element_len(path, 0, ends_in_newline));
            u128::from(rendering) + u128::from(len) <= u128::from(b)
        });
        files_fit && rendering_fits
    }
}
