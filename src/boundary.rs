//! Every crossing between C and Rust: the panic boundary of every export ([`export!`]), handles
//! tagged, values lent to callbacks, pointers checked, outputs written. The exports use these
//! and nothing else to touch a C pointer.

use std::any::Any;
use std::cell::Cell;
use std::ffi::c_char;
use std::panic::{self, AssertUnwindSafe};
use std::slice;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use agentsmd_core::ffi_support::invalid_argument;
use agentsmd_core::Error;

use crate::error::agentsmd_error;
use crate::types::{agentsmd_bytes, agentsmd_status};

/// The whole body of every export, so that no panic unwinds into C: cbindgen (on stable) reads
/// no macro's output, so each export's signature is written out where it can see it and its
/// body goes through here, as rustls-ffi's `ffi_panic_boundary!` does.
///
/// - `export!(error_out, { … })`: a fallible export. The block returns `Result<(), Error>`;
///   the export returns `AGENTSMD_STATUS_OK`, or the error's status with a new error object
///   through `error_out` (which may be NULL). A panic is `AGENTSMD_STATUS_PANIC`.
/// - `export!({ … })`: an accessor or a free function. The block's value is returned, and a
///   panic returns the [`OnPanic`] value of the export's return type.
macro_rules! export {
    ($error_out:ident, $body:block) => {
        $crate::boundary::fallible($error_out, move || -> Result<(), agentsmd_core::Error> {
            $body
        })
    };
    ($body:block) => {
        $crate::boundary::infallible(move || $body)
    };
}
pub(crate) use export;

/// What an infallible export returns when its body panics: nothing a caller could take for a
/// success.
pub(crate) trait OnPanic {
    fn on_panic() -> Self;
}

/// Implements [`OnPanic`] for each type, answering `value`.
macro_rules! on_panic {
    ($value:expr => $($type:ty),+) => {
        $(impl OnPanic for $type {
            fn on_panic() -> Self {
                $value
            }
        })+
    };
}
on_panic!(0 => usize, u64, i32);
on_panic!(() => ());
on_panic!(agentsmd_status::Panic => agentsmd_status);
on_panic!(agentsmd_bytes::NONE => agentsmd_bytes);
impl<T> OnPanic for *const T {
    fn on_panic() -> Self {
        std::ptr::null()
    }
}
impl<T> OnPanic for *mut T {
    fn on_panic() -> Self {
        std::ptr::null_mut()
    }
}

/// The empty C string, for accessors of text that never answer NULL.
pub(crate) fn empty_text() -> *const c_char {
    c"".as_ptr()
}

/// Runs the body of a fallible export; see [`export!`].
pub(crate) unsafe fn fallible(
    error_out: *mut *mut agentsmd_error,
    body: impl FnOnce() -> Result<(), Error>,
) -> agentsmd_status {
    let error = match panic::catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => return agentsmd_status::Ok,
        Ok(Err(error)) => agentsmd_error::from_core(&error),
        Err(payload) => agentsmd_error::panic(panic_text(payload.as_ref())),
    };
    let status = error.kind;
    if let Some(error_out) = error_out.as_mut() {
        *error_out = into_raw(error);
    }
    status
}

/// Runs the body of an infallible export; see [`export!`].
pub(crate) fn infallible<T: OnPanic>(body: impl FnOnce() -> T) -> T {
    panic::catch_unwind(AssertUnwindSafe(body)).unwrap_or_else(|_| T::on_panic())
}

fn panic_text(payload: &(dyn Any + Send)) -> &str {
    payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("no message")
}

/// A handle handed to C: a boxed Rust value with a tag checked on every entry, so that a NULL,
/// freed or foreign pointer is refused where the memory can still be read. (A pointer into
/// memory that was returned to the system cannot be checked; see the header's notes.)
///
/// Every handle struct is `repr(C)` with its tag first, at offset 0 ([`handle!`] checks it at
/// compile time), so that checking a handle of another type, however small, reads only the 8
/// bytes every handle starts with. The `repr(C)` is written `#[cfg_attr(all(), repr(C))]`:
/// cbindgen reads only a plain `#[repr(C)]`, and so keeps the type opaque in the header.
pub(crate) trait Handle: Sized {
    /// The tag of a live handle of this type.
    const MAGIC: u64;
    /// The handle's name in messages.
    const WHAT: &'static str;

    /// Gives this handle the tag of a live one.
    fn set_live(&mut self);
}

/// The tag of the handle at `handle`: its first 8 bytes, reached through the raw pointer, so
/// that no reference to a value that may not be there is ever made.
fn tag<T: Handle>(handle: *const T) -> *mut u64 {
    handle.cast_mut().cast()
}

/// The tag a handle carries once freed.
const DEAD: u64 = 0xdead_dead_dead_dead;

/// Implements [`Handle`] for a `repr(C)` struct whose first field is `magic: u64`.
macro_rules! handle {
    ($type:ident, $what:literal, $magic:literal) => {
        const _: () = assert!(std::mem::offset_of!($type, magic) == 0);
        impl $crate::boundary::Handle for $type {
            const MAGIC: u64 = $magic;
            const WHAT: &'static str = $what;

            fn set_live(&mut self) {
                self.magic = $magic;
            }
        }
    };
}
pub(crate) use handle;

/// Moves `value` to the heap, tagged live, and hands it to C.
pub(crate) fn into_raw<T: Handle>(mut value: T) -> *mut T {
    value.set_live();
    Box::into_raw(Box::new(value))
}

/// Borrows the handle at `handle`, refusing NULL and a wrong tag.
pub(crate) unsafe fn borrow<'a, T: Handle>(handle: *const T) -> Result<&'a T, Error> {
    if handle.is_null() {
        return Err(invalid_argument(format!("{} is NULL", T::WHAT)));
    }
    if tag(handle).read() != T::MAGIC {
        return Err(invalid_argument(format!(
            "{} is not a live {} handle (freed, or another type)",
            T::WHAT,
            T::WHAT
        )));
    }
    Ok(&*handle)
}

/// Borrows the handle at `handle` mutably, refusing NULL and a wrong tag.
pub(crate) unsafe fn borrow_mut<'a, T: Handle>(handle: *mut T) -> Result<&'a mut T, Error> {
    borrow(handle)?;
    Ok(&mut *handle)
}

/// Frees the handle at `handle`: NULL is nothing to do, and a pointer without the live tag is
/// left alone rather than freed twice.
pub(crate) unsafe fn free<T: Handle>(handle: *mut T) {
    if borrow(handle).is_ok() {
        tag(handle).write(DEAD);
        drop(Box::from_raw(handle));
    }
}

/// A value lent to one C callback (the listing of `list`, the content of a transform), which C
/// reaches through a handle of the opaque type implementing this, valid until the callback
/// returns. A tag cannot tell such a handle stale: the value lives in the frame that calls the
/// callback, whose stack slot a later callback reuses, tag and all. So the handle is no pointer
/// to the value but a token: the address of a slot of [`TOKENS`], static memory never written
/// nor freed. A token is live while this thread's list of loans holds it, from [`lend`] until
/// the callback returns; [`borrow_lent`] looks it up there and never reads through it, so a
/// stale one is refused whatever became of the callback's frame.
pub(crate) trait Lent: 'static {
    /// The Rust value the handle stands for.
    type Value: Any;
    /// The handle's name in messages.
    const WHAT: &'static str;
}

/// How many tokens there are. Each loan takes the next one in turn, across every thread,
/// skipping those this thread still has lent: a stale token is refused until 65,536 loans
/// later, when it may be lent again and is then that loan's handle while its callback runs
/// (memory safe still, as a freed handle whose memory now holds a new one is that one).
const TOKEN_COUNT: usize = 1 << 16;

/// The tokens: 8-byte aligned and zero, so that another type's check reads a whole tag from any
/// of them, and one that is no type's. Atomic only so that the static is writable memory, which
/// is `.bss` (no page until read), not half a megabyte of zeros in the library file.
static TOKENS: [AtomicU64; TOKEN_COUNT] = [const { AtomicU64::new(0) }; TOKEN_COUNT];

/// Where the next loan starts looking for a token.
static NEXT_TOKEN: AtomicUsize = AtomicUsize::new(0);

/// A value lent to a callback running on this thread, living in the frame of [`lend`].
struct Loan {
    /// The address of its token.
    token: usize,
    value: *mut dyn Any,
    /// The loan of the callback that this one's callback runs within (having called back into
    /// the library), or NULL.
    outer: *const Loan,
}

thread_local! {
    /// This thread's innermost loan. A `Cell` of a pointer needs no destructor, so the library
    /// registers no thread-local destructor (which could run after `dlclose`).
    static LOANS: Cell<*const Loan> = const { Cell::new(std::ptr::null()) };
}

/// The value this thread lent with the token at address `token`, if it is live.
fn lent_value(token: usize) -> Option<*mut dyn Any> {
    let mut loan = LOANS.get();
    // SAFETY: every loan in the list lives in a frame of `lend` still running on this thread.
    while let Some(live) = unsafe { loan.as_ref() } {
        if live.token == token {
            return Some(live.value);
        }
        loan = live.outer;
    }
    None
}

/// Takes this thread's loans back to the ones before when dropped: when the callback returns,
/// or when the Rust code around it panics.
struct Returned(*const Loan);

impl Drop for Returned {
    fn drop(&mut self) {
        LOANS.set(self.0);
    }
}

/// Lends `value` to `callback`, which hands the handle it is given to C: the handle is live
/// until `callback` returns, and refused by [`borrow_lent`] from then on.
pub(crate) fn lend<H: Lent, R>(value: &mut H::Value, callback: impl FnOnce(*mut H) -> R) -> R {
    let token = loop {
        let slot = NEXT_TOKEN.fetch_add(1, Ordering::Relaxed) % TOKEN_COUNT;
        let token = TOKENS[slot].as_ptr().cast::<H>();
        if lent_value(token.addr()).is_none() {
            break token;
        }
    };
    let loan = Loan {
        token: token.addr(),
        value: value as &mut dyn Any,
        outer: LOANS.get(),
    };
    let _returned = Returned(loan.outer);
    LOANS.set(&loan);
    callback(token)
}

/// Borrows the value lent with the handle `handle`, refusing NULL and any handle that is not
/// this thread's live loan of an `H`: a stale one, another thread's, another type.
pub(crate) unsafe fn borrow_lent<'a, H: Lent>(handle: *mut H) -> Result<&'a mut H::Value, Error> {
    if handle.is_null() {
        return Err(invalid_argument(format!("{} is NULL", H::WHAT)));
    }
    // SAFETY: a live loan's value is in a frame below this export's on this thread's stack
    // (its callback called the export), so it outlives the borrow.
    let value = lent_value(handle.addr()).and_then(|value| unsafe { (*value).downcast_mut() });
    value.ok_or_else(|| {
        invalid_argument(format!(
            "{0} is not a live {0}: its callback has returned, runs on another thread, or this \
             is another type",
            H::WHAT
        ))
    })
}

/// Refuses `len` items at `items` that no C buffer can be: NULL with a length, or a length of
/// more bytes than any buffer has (over `isize::MAX`, as `SIZE_MAX` is), each said as what it
/// is. Checked before a caller copies only a part of them, so that a length that is a lie is
/// refused rather than trusted for the part.
pub(crate) fn check_buffer<T>(items: *const T, len: usize, what: &str) -> Result<(), Error> {
    if len == 0 {
        return Ok(());
    }
    if items.is_null() {
        return Err(invalid_argument(format!(
            "{what}: NULL with a length ({len})"
        )));
    }
    if len
        .checked_mul(std::mem::size_of::<T>())
        .is_none_or(|size| size > isize::MAX as usize)
    {
        return Err(invalid_argument(format!(
            "{what}: length {len}, larger than any buffer"
        )));
    }
    Ok(())
}

/// The `len` items at `items`, which may be NULL only when `len` is 0 ([`check_buffer`]).
pub(crate) unsafe fn slice_of<'a, T>(
    items: *const T,
    len: usize,
    what: &str,
) -> Result<&'a [T], Error> {
    check_buffer(items, len, what)?;
    if len == 0 {
        return Ok(&[]);
    }
    Ok(slice::from_raw_parts(items, len))
}

/// The bytes a C caller passed as an `agentsmd_bytes`.
pub(crate) unsafe fn bytes_of<'a>(bytes: &agentsmd_bytes, what: &str) -> Result<&'a [u8], Error> {
    slice_of(bytes.ptr, bytes.len, what)
}

/// How many entries of a list of the handle at `handle` there are, as `len` counts them; 0 when
/// it is NULL or not a live handle of its type.
pub(crate) unsafe fn count<H: Handle>(handle: *const H, len: impl FnOnce(&H) -> usize) -> usize {
    borrow(handle).map_or(0, len)
}

/// Writes entry `index` of a list of the handle at `handle` to the output `out` (with its name,
/// for the message), as C sees it: `get` answers the entry at `index` (`None` at or past the
/// end) and the list's length. An index past the end is an invalid argument, and `out` is then
/// left as it was. The output is checked before the handle, as everywhere.
pub(crate) unsafe fn entry<H: Handle, V>(
    handle: *const H,
    index: usize,
    (out, out_name): (*mut V, &str),
    get: impl FnOnce(&H, usize) -> (Option<V>, usize),
) -> Result<(), Error> {
    let out = self::out(out, out_name)?;
    let (entry, count) = get(borrow(handle)?, index);
    *out = entry.ok_or_else(|| {
        invalid_argument(format!("index {index} is out of range (count {count})"))
    })?;
    Ok(())
}

/// What [`entry`]'s `get` answers for the slice `list`: its entry `index` as C sees it, and its
/// length.
pub(crate) fn in_slice<T, V: for<'a> From<&'a T>>(list: &[T], index: usize) -> (Option<V>, usize) {
    (list.get(index).map(V::from), list.len())
}

/// An output parameter, refused when NULL. Checked before any work, and written after it.
pub(crate) unsafe fn out<'a, T>(out: *mut T, what: &str) -> Result<&'a mut T, Error> {
    out.as_mut()
        .ok_or_else(|| invalid_argument(format!("{what} is NULL")))
}
