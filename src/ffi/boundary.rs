//! Every crossing between C and Rust: panics caught, pointers checked, handles tagged, outputs
//! written. The exports use these and nothing else to touch a C pointer.

use std::any::Any;
use std::panic::{self, AssertUnwindSafe};
use std::ptr;
use std::slice;

use super::error::agentsmd_error;
use super::types::{agentsmd_bytes, agentsmd_status};
use crate::error::Error;

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
    /// The tag at `handle`, read through the raw pointer, so that no reference to a value
    /// that may not be there is ever made.
    ///
    /// # Safety
    /// `handle` is non-NULL and points to readable memory.
    unsafe fn magic_at(handle: *const Self) -> u64;
    fn set_magic(&mut self, magic: u64);
}

/// The tag a handle carries once freed.
const DEAD: u64 = 0xdead_dead_dead_dead;

/// Implements [`Handle`] for a `repr(C)` struct whose first field is `magic: u64`.
macro_rules! handle {
    ($type:ident, $what:literal, $magic:literal) => {
        const _: () = assert!(std::mem::offset_of!($type, magic) == 0);
        impl $crate::ffi::boundary::Handle for $type {
            const MAGIC: u64 = $magic;
            const WHAT: &'static str = $what;
            unsafe fn magic_at(handle: *const Self) -> u64 {
                std::ptr::addr_of!((*handle).magic).read()
            }
            fn set_magic(&mut self, magic: u64) {
                self.magic = magic;
            }
        }
    };
}
pub(crate) use handle;

/// Moves `value` to the heap and hands it to C.
pub(crate) fn into_raw<T: Handle>(mut value: T) -> *mut T {
    value.set_magic(T::MAGIC);
    Box::into_raw(Box::new(value))
}

/// Borrows the handle at `handle`, refusing NULL and a wrong tag.
pub(crate) unsafe fn borrow<'a, T: Handle>(handle: *const T) -> Result<&'a T, Error> {
    if handle.is_null() {
        return Err(Error::invalid_argument(format!("{} is NULL", T::WHAT)));
    }
    if T::magic_at(handle) != T::MAGIC {
        return Err(Error::invalid_argument(format!(
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
        let mut value = Box::from_raw(handle);
        value.set_magic(DEAD);
        drop(value);
    }
}

/// The `len` items at `items`, which may be NULL only when `len` is 0.
pub(crate) unsafe fn slice_of<'a, T>(
    items: *const T,
    len: usize,
    what: &str,
) -> Result<&'a [T], Error> {
    if len == 0 {
        return Ok(&[]);
    }
    if items.is_null() {
        return Err(Error::invalid_argument(format!(
            "{what} is NULL with length {len}"
        )));
    }
    if len
        .checked_mul(std::mem::size_of::<T>())
        .map_or(true, |size| size > isize::MAX as usize)
    {
        return Err(Error::invalid_argument(format!(
            "{what} length {len} is too large"
        )));
    }
    Ok(slice::from_raw_parts(items, len))
}

/// The bytes a C caller passed as an `agentsmd_bytes`.
pub(crate) unsafe fn bytes_of<'a>(bytes: &agentsmd_bytes, what: &str) -> Result<&'a [u8], Error> {
    slice_of(bytes.ptr, bytes.len, what)
}

/// An output parameter, refused when NULL. Checked before any work, and written after it.
pub(crate) unsafe fn out<'a, T>(out: *mut T, what: &str) -> Result<&'a mut T, Error> {
    out.as_mut()
        .ok_or_else(|| Error::invalid_argument(format!("{what} is NULL")))
}

fn panic_text(payload: &(dyn Any + Send)) -> &str {
    payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("no message")
}

/// Runs the body of a fallible export: a status for C, and on failure an error object through
/// `error_out` (which may be NULL when the caller does not want it). A panic becomes
/// `AGENTSMD_STATUS_PANIC`.
pub(crate) unsafe fn status(
    error_out: *mut *mut agentsmd_error,
    body: impl FnOnce() -> Result<(), Error>,
) -> agentsmd_status {
    let outcome = panic::catch_unwind(AssertUnwindSafe(body))
        .unwrap_or_else(|payload| Err(Error::panic(panic_text(payload.as_ref()))));
    match outcome {
        Ok(()) => agentsmd_status::Ok,
        Err(error) => {
            let status = agentsmd_status::from(error.kind());
            if let Some(error_out) = error_out.as_mut() {
                *error_out = into_raw(agentsmd_error::new(error));
            }
            status
        }
    }
}

/// Runs the body of an infallible export (an accessor, a free function), answering `fallback`
/// if it panics.
pub(crate) fn value<T>(fallback: T, body: impl FnOnce() -> T) -> T {
    panic::catch_unwind(AssertUnwindSafe(body)).unwrap_or(fallback)
}

/// A NULL pointer of any type, for accessors answering a bad handle.
pub(crate) fn null<T>() -> *const T {
    ptr::null()
}
