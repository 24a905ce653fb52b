//! What every callback shares, the file system's and the transform's (the header's conventions
//! of every callback): the userdata released once, the status, the message.

use std::ffi::c_void;

use agentsmd_core::ffi_support::invalid_argument;
use agentsmd_core::Error;

use crate::boundary::{self, export, handle};
use crate::types::agentsmd_status;

/// What a callback answers, as a `uint32_t` (the header's conventions of every callback).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum agentsmd_callback_status {
    /// The call succeeded and its outputs are written.
    Ok = 0,
    /// The name asked about does not exist: "no such file or directory" from `list`, `stat` and
    /// `open`, a failure of the callback from any other.
    NotFound = 1,
    /// Any other failure: the chain fails with `AGENTSMD_STATUS_FS`, naming the callback and
    /// what it was asked about, with the callback's message, if it set one.
    Error = 2,
}

/// The message a callback may give for its failure, set with `agentsmd_message_set`: the last
/// argument of every callback that answers, lent for the call (the header's conventions).
pub struct agentsmd_message {
    _token: [u8; 0],
}

/// The message a callback set: its own type, so that no other lent handle passes for one.
#[derive(Default)]
pub(crate) struct Message(Vec<u8>);

handle!(agentsmd_message => Message, "message");

/// Sets the message of the callback `message` was passed to, copying `text` (UTF-8 of any
/// length; a byte that is not UTF-8 is shown as U+FFFD); a later call replaces it. The chain's
/// error carries it when the callback returns `AGENTSMD_CALLBACK_STATUS_ERROR`.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_message_set(
    message: *mut agentsmd_message,
    text: *const u8,
    text_len: usize,
) -> agentsmd_status {
    export!(std::ptr::null_mut(), {
        let message = boundary::borrow_lent(message)?;
        message.0 = boundary::slice_of(text, text_len, "text")?.to_vec();
        Ok(())
    })
}

/// Calls a callback through `callback`, lending it a message, and reads its status: `Ok(true)`
/// for OK, `Ok(false)` for NOT_FOUND, else the callback's message or an account of the status.
pub(crate) fn call(callback: impl FnOnce(*mut agentsmd_message) -> u32) -> Result<bool, String> {
    let mut message = Message::default();
    match boundary::lend(&mut message, callback) {
        s if s == agentsmd_callback_status::Ok as u32 => Ok(true),
        s if s == agentsmd_callback_status::NotFound as u32 => Ok(false),
        s if s == agentsmd_callback_status::Error as u32 => Err(match message.0.is_empty() {
            true => "callback failed".to_owned(),
            false => String::from_utf8_lossy(&message.0).into_owned(),
        }),
        other => Err(format!(
            "callback returned {other}, which is no agentsmd_callback_status"
        )),
    }
}

/// The function pointer inside a nullable callback type.
pub(crate) trait Nullable {
    type Plain;
}
impl<F> Nullable for Option<F> {
    type Plain = F;
}
pub(crate) type Plain<T> = <T as Nullable>::Plain;

/// `callback`, refused when NULL; `what` names it in the message (`fs->list`).
pub(crate) fn required<F>(callback: Option<F>, what: &str) -> Result<F, Error> {
    callback.ok_or_else(|| invalid_argument(format!("{what} is NULL")))
}

/// A caller's `userdata`, with the `release` callback called once when this is dropped: when
/// the last options holding it are freed or set anew, after the last chain using it.
pub(crate) struct Userdata {
    pub(crate) ptr: *mut c_void,
    pub(crate) release: Option<unsafe extern "C" fn(userdata: *mut c_void)>,
}

// SAFETY: the header requires callbacks and their userdata to be usable from any thread, and
// from several at once when the options are shared.
unsafe impl Send for Userdata {}
unsafe impl Sync for Userdata {}

impl Drop for Userdata {
    fn drop(&mut self) {
        if let Some(release) = self.release {
            // SAFETY: called once, as the setters document.
            unsafe { release(self.ptr) }
        }
    }
}
