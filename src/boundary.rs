//! Every crossing between C and Rust: the panic boundary of every export ([`export!`]), handles
//! ([`Handle`]) and values lent to callbacks ([`Lent`]), buffers checked, outputs written. As
//! rustls-ffi's `ffi.rs`, this module owns every cast between a C pointer and a Rust value.

use std::any::Any;
use std::cell::Cell;
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;
use std::slice;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use agentsmd_core::ffi_support::{invalid_argument, path_from_bytes};
use agentsmd_core::Error;

use crate::types::{agentsmd_bytes, agentsmd_status};

/// The whole body of every export, so that no panic unwinds into C: cbindgen (on stable) reads
/// no macro's output, so each export's signature is written out where it can see it and its
/// body goes through here, as rustls-ffi's `ffi_panic_boundary!` does.
///
/// - `export!(error_out, { … })`: a fallible export. The block returns `Result<(), Error>`, the
///   export its status, with a new error through `error_out` on failure ([`crate::error`]);
///   an export without an `error_out` passes NULL.
/// - `export!({ … })`: the block's value, or on a panic the [`OnPanic`] value of its type.
macro_rules! export {
    ($error_out:expr, $body:block) => {
        $crate::error::fallible($error_out, move || -> Result<(), agentsmd_core::Error> {
            $body
        })
    };
    ($body:block) => {
        $crate::boundary::catch(move || $body)
            .unwrap_or_else(|_| $crate::boundary::OnPanic::on_panic())
    };
}
pub(crate) use export;

/// The body of an export that writes entry `index` of a list of a handle to its output:
/// `entry!(error_out, handle.list, index, out)`, `list` a field path within the handle's value.
macro_rules! entry {
    ($error_out:ident, $handle:ident $(.$field:ident)+, $index:ident, $out:ident) => {
        $crate::boundary::export!($error_out, {
            let out = ($out, stringify!($out));
            $crate::boundary::write_entry($handle, $index, out, |value| &value$(.$field)+)
        })
    };
}
pub(crate) use entry;

/// What an infallible export returns when its body panics: nothing a caller could take for a
/// success.
pub(crate) trait OnPanic {
    fn on_panic() -> Self;
}

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

/// Runs `body`, catching a panic: its message is the error.
pub(crate) fn catch<T>(body: impl FnOnce() -> T) -> Result<T, String> {
    panic::catch_unwind(AssertUnwindSafe(body)).map_err(|payload| {
        let text = payload.downcast_ref::<&str>().copied();
        let text = text.or_else(|| payload.downcast_ref::<String>().map(String::as_str));
        text.unwrap_or("no message").to_owned()
    })
}

/// An opaque C type that stands for a boxed Rust value, tagged so that a NULL, freed or foreign
/// pointer is refused where the memory can still be read ([`Tagged`]).
pub(crate) trait Handle {
    /// The Rust value the handle stands for.
    type Value;
    /// The tag of a live handle of this type.
    const MAGIC: u64;
    /// The handle's name in messages.
    const WHAT: &'static str;
}

/// Implements [`Handle`] for the opaque C type `$type`, which stands for a `$value`; without a
/// tag, [`Lent`].
macro_rules! handle {
    ($type:ident => $value:ty, $what:literal, $magic:literal) => {
        impl $crate::boundary::Handle for $type {
            type Value = $value;
            const MAGIC: u64 = $magic;
            const WHAT: &'static str = $what;
        }
    };
    ($type:ident => $value:ty, $what:literal) => {
        impl $crate::boundary::Lent for $type {
            type Value = $value;
            const WHAT: &'static str = $what;
        }
    };
}
pub(crate) use handle;

/// What a handle points at: its 8-byte tag at offset 0, so that checking a handle of another
/// type, however small, reads only those 8 bytes; then its value.
#[repr(C)]
struct Tagged<V> {
    magic: u64,
    value: V,
}

/// The tag a handle carries once freed.
const DEAD: u64 = 0xdead_dead_dead_dead;

/// Moves `value` to the heap, tagged live, and hands it to C.
pub(crate) fn into_raw<H: Handle>(value: H::Value) -> *mut H {
    let magic = H::MAGIC;
    Box::into_raw(Box::new(Tagged { magic, value })).cast()
}

/// The handle at `handle`, refused when NULL or without the live tag, which is read through the
/// raw pointer, so that no reference to a value that may not be there is ever made.
unsafe fn tagged<H: Handle>(handle: *const H) -> Result<*mut Tagged<H::Value>, Error> {
    if handle.is_null() {
        return Err(invalid_argument(format!("{} is NULL", H::WHAT)));
    }
    if handle.cast::<u64>().read() != H::MAGIC {
        let what = H::WHAT;
        let why = format!("{what} is not a live {what} handle (freed, or another type)");
        return Err(invalid_argument(why));
    }
    Ok(handle.cast_mut().cast())
}

/// Borrows the value of the handle at `handle`, refusing NULL and a wrong tag.
pub(crate) unsafe fn borrow<'a, H: Handle>(handle: *const H) -> Result<&'a H::Value, Error> {
    Ok(&(*tagged(handle)?).value)
}

/// Borrows the value of the optional handle at `handle`: `None` for NULL.
pub(crate) unsafe fn borrow_optional<'a, H: Handle>(
    handle: *const H,
) -> Result<Option<&'a H::Value>, Error> {
    match handle.is_null() {
        true => Ok(None),
        false => borrow(handle).map(Some),
    }
}

/// Borrows the value of the handle at `handle` mutably, refusing NULL and a wrong tag.
pub(crate) unsafe fn borrow_mut<'a, H: Handle>(handle: *mut H) -> Result<&'a mut H::Value, Error> {
    Ok(&mut (*tagged(handle)?).value)
}

/// Frees the handle at `handle`: NULL is nothing to do, and a pointer without the live tag is
/// left alone rather than freed twice.
pub(crate) unsafe fn free<H: Handle>(handle: *mut H) {
    if let Ok(tagged) = tagged(handle) {
        (*tagged).magic = DEAD;
        drop(Box::from_raw(tagged));
    }
}

/// A value lent to one C callback (the listing of `list`, the content of a transform), valid
/// until the callback returns. A tag cannot tell its handle stale (a later callback's frame
/// reuses the value's stack slot, tag and all), so the handle is a token: the address of a slot
/// of [`TOKENS`], static memory never written nor freed, live while this thread's list of loans
/// holds it, from [`lend`] until the callback returns. [`borrow_lent`] looks it up there and
/// never reads through it, so a stale one is refused whatever became of the callback's frame.
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

/// The tokens: 8-byte aligned and zero, so that a handle's check reads from any of them a whole
/// tag that is no handle's. Atomic only so that the static is writable memory, `.bss`, not half
/// a megabyte of zeros in the library file.
static TOKENS: [AtomicU64; TOKEN_COUNT] = [const { AtomicU64::new(0) }; TOKEN_COUNT];

/// Where the next loan starts looking for a token.
static NEXT_TOKEN: AtomicUsize = AtomicUsize::new(0);

/// A value lent to a callback running on this thread, living in the frame of [`lend`].
struct Loan {
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

/// Refuses `len` items at `items` that no C buffer can be: NULL with a length, or more bytes
/// than `isize::MAX` (as `SIZE_MAX` is); also before only a part of them is copied.
pub(crate) fn check_buffer<T>(items: *const T, len: usize, what: &str) -> Result<(), Error> {
    if len != 0 && items.is_null() {
        let why = format!("{what}: NULL with a length ({len})");
        return Err(invalid_argument(why));
    }
    let size = len.checked_mul(std::mem::size_of::<T>());
    if size.is_none_or(|size| size > isize::MAX as usize) {
        let why = format!("{what}: length {len}, larger than any buffer");
        return Err(invalid_argument(why));
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

/// The `len` bytes at `bytes` as an OS path, or a name in a custom file system.
pub(crate) unsafe fn path_of(bytes: *const u8, len: usize, what: &str) -> Result<PathBuf, Error> {
    path_from_bytes(slice_of(bytes, len, what)?.to_vec(), what)
}

/// How many entries the list `list` picks from the handle at `handle` has; 0 when it is not live.
pub(crate) unsafe fn count<H: Handle, T>(
    handle: *const H,
    list: impl Fn(&H::Value) -> &[T],
) -> usize {
    borrow(handle).map_or(0, |value| list(value).len())
}

/// Writes entry `index` of the list `list` picks from the handle at `handle`, as C sees it, to
/// the output `out` (named, for the message), checked before the handle as everywhere.
pub(crate) unsafe fn write_entry<H: Handle, T, V: for<'a> From<&'a T>>(
    handle: *const H,
    index: usize,
    (out, out_name): (*mut V, &str),
    list: impl Fn(&H::Value) -> &[T],
) -> Result<(), Error> {
    let out = self::out(out, out_name)?;
    let list = list(borrow(handle)?);
    let entry = list.get(index).ok_or_else(|| {
        let count = list.len();
        invalid_argument(format!("index {index} is out of range (count {count})"))
    })?;
    *out = V::from(entry);
    Ok(())
}

/// An output parameter, refused when NULL. Checked before any work, and written after it.
pub(crate) unsafe fn out<'a, T>(out: *mut T, what: &str) -> Result<&'a mut T, Error> {
    out.as_mut()
        .ok_or_else(|| invalid_argument(format!("{what} is NULL")))
}
