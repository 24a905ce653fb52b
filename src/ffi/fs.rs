//! A custom file system written in C: the callback struct `agentsmd_fs`, and [`CallbackFs`],
//! which answers the [`FileSystem`] questions by calling it.

use std::ffi::{c_char, c_void};

use super::boundary::{self, handle};
use super::types::agentsmd_status;
use crate::constants::DEFAULT_MAX_BYTES;
use crate::error::Error;
use crate::fs::{FileSystem, Kind, Metadata};

/// What a file-system callback answers. Callbacks return it as a `uint32_t`; any other value
/// is taken as a failure of the callback (`AGENTSMD_STATUS_FS`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum agentsmd_fs_status {
    /// The call succeeded and its outputs are written.
    Ok = 0,
    /// The name does not exist. This alone means "no such file or directory": a directory not
    /// found lists nothing (and nothing below it is asked), a file not found is no file.
    NotFound = 1,
    /// Any other failure. The chain fails with `AGENTSMD_STATUS_FS`, carrying the message the
    /// callback wrote, if any.
    Error = 2,
}

/// What a name is, as the `stat` callback reports it, after following any link.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum agentsmd_kind {
    /// A regular file: the only kind that can be an instruction file.
    File = 1,
    /// A directory.
    Dir = 2,
    /// Anything else (a FIFO, a socket, a device): never opened.
    Other = 3,
}

/// The names a `list` callback reports, collected with `agentsmd_listing_push`. Owned by the
/// library; valid only during the `list` call it is passed to.
// The tag first, at offset 0: see `boundary::Handle`.
#[cfg_attr(all(), repr(C))]
pub struct agentsmd_listing {
    magic: u64,
    names: Vec<Vec<u8>>,
    refused: Option<Vec<u8>>,
}

handle!(agentsmd_listing, "listing", 0x6167_6d64_6c73_7401);

/// Adds one entry name to `listing`, copying it, from within a `list` callback. A name is one
/// path element; `.` and `..` are accepted (and never match). An empty name, one holding `/`
/// or NUL, or a NULL `name` with a non-zero length returns `AGENTSMD_STATUS_INVALID_ARGUMENT`
/// and makes the listing fail with an
/// `AGENTSMD_STATUS_FS` error naming the directory, whatever the callback then returns.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_listing_push(
    listing: *mut agentsmd_listing,
    name: *const u8,
    name_len: usize,
) -> agentsmd_status {
    boundary::status(std::ptr::null_mut(), || {
        let listing = boundary::borrow_mut(listing)?;
        let name = match boundary::slice_of(name, name_len, "name") {
            Ok(name) if !name.is_empty() && !name.contains(&b'/') && !name.contains(&0) => name,
            // The listing fails too, so that a callback ignoring the status loses no entry
            // silently.
            refused => {
                let shown = refused.as_deref().unwrap_or(b"(NULL)");
                listing.refused.get_or_insert_with(|| shown.to_vec());
                return Err(Error::invalid_argument("not one path element"));
            }
        };
        listing.names.push(name.to_vec());
        Ok(())
    })
}

/// The size of the message buffer the library passes to every callback.
pub const AGENTSMD_FS_MESSAGE_CAPACITY: usize = 256;

/// A file system written by the caller: C callbacks and the `userdata` passed to each. Names
/// are byte strings (`name`, `name_len`, not NUL-terminated) valid as SPEC.md defines: `.` for
/// the root, otherwise `/`-separated elements such as `a/b/AGENTS.md`. They are borrowed for the
/// call only.
///
/// Every callback returns an `agentsmd_fs_status`. On `AGENTSMD_FS_STATUS_ERROR` it may write
/// a NUL-terminated message of at most `message_capacity` bytes (including the NUL) into
/// `message`, which the library supplies zeroed; the chain's error then carries it.
///
/// Callbacks may run on any thread that calls `agentsmd_chain`, and on several at once if the
/// caller shares the options between threads. They may call back into the library (for example
/// start another chain), but must not unwind (no C++ exception, no `longjmp`) through it.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct agentsmd_fs {
    /// Passed to every callback as its first argument; never touched by the library.
    pub userdata: *mut c_void,
    /// Lists the directory `dir`: calls `agentsmd_listing_push(listing, …)` once per entry.
    /// Required.
    pub list: Option<
        unsafe extern "C" fn(
            userdata: *mut c_void,
            dir: *const u8,
            dir_len: usize,
            listing: *mut agentsmd_listing,
            message: *mut c_char,
            message_capacity: usize,
        ) -> u32,
    >,
    /// Reports what `name` is (an `agentsmd_kind`, in `*kind_out`) and its size in bytes (in
    /// `*size_out`), following links. Required.
    pub stat: Option<
        unsafe extern "C" fn(
            userdata: *mut c_void,
            name: *const u8,
            name_len: usize,
            kind_out: *mut u32,
            size_out: *mut u64,
            message: *mut c_char,
            message_capacity: usize,
        ) -> u32,
    >,
    /// Opens the file `name` for reading, writing a handle of the caller's choice to
    /// `*file_out` (which may be NULL; it is only passed back). Required.
    pub open: Option<
        unsafe extern "C" fn(
            userdata: *mut c_void,
            name: *const u8,
            name_len: usize,
            file_out: *mut *mut c_void,
            message: *mut c_char,
            message_capacity: usize,
        ) -> u32,
    >,
    /// Reads at most `buffer_len` bytes of `file` into `buffer`, writing how many to
    /// `*read_out`; 0 means the end of the file. The library never asks for more than
    /// `max_bytes + 1` bytes of one file in all. Writing more than `buffer_len` to `*read_out`
    /// is an `AGENTSMD_STATUS_FS` error. Required.
    pub read: Option<
        unsafe extern "C" fn(
            userdata: *mut c_void,
            file: *mut c_void,
            buffer: *mut u8,
            buffer_len: usize,
            read_out: *mut usize,
            message: *mut c_char,
            message_capacity: usize,
        ) -> u32,
    >,
    /// Closes `file`; called once after every successful `open`, whatever the reads did. May
    /// be NULL.
    pub close: Option<unsafe extern "C" fn(userdata: *mut c_void, file: *mut c_void)>,
    /// Releases `userdata` when the library holds it no more; called exactly once after a
    /// successful `agentsmd_options_set_fs`. May be NULL.
    pub release: Option<unsafe extern "C" fn(userdata: *mut c_void)>,
}

/// The callbacks of an [`agentsmd_fs`], as a [`FileSystem`].
pub(crate) struct CallbackFs {
    callbacks: agentsmd_fs,
}

// SAFETY: the header requires the callbacks and their userdata to be usable from any thread,
// and from several at once when the options are shared.
unsafe impl Send for CallbackFs {}
unsafe impl Sync for CallbackFs {}

impl Drop for CallbackFs {
    fn drop(&mut self) {
        if let Some(release) = self.callbacks.release {
            // SAFETY: called once, as `agentsmd_options_set_fs` documents.
            unsafe { release(self.callbacks.userdata) }
        }
    }
}

/// The message buffer a callback may write, and what its answer means.
struct Call {
    message: [u8; AGENTSMD_FS_MESSAGE_CAPACITY],
}

impl Call {
    fn new() -> Self {
        Self {
            message: [0; AGENTSMD_FS_MESSAGE_CAPACITY],
        }
    }

    fn buffer(&mut self) -> (*mut c_char, usize) {
        (self.message.as_mut_ptr().cast(), self.message.len())
    }

    /// `Ok(true)` for OK, `Ok(false)` for not found, the callback's error otherwise.
    fn answer(&self, status: u32, op: &str, name: &[u8]) -> Result<bool, Error> {
        #[cfg(feature = "test-hooks")]
        super::test_hooks::callback_returned(op);
        match status {
            s if s == agentsmd_fs_status::Ok as u32 => Ok(true),
            s if s == agentsmd_fs_status::NotFound as u32 => Ok(false),
            s if s == agentsmd_fs_status::Error as u32 => {
                let end = self
                    .message
                    .iter()
                    .position(|&b| b == 0)
                    .unwrap_or(self.message.len());
                let text = String::from_utf8_lossy(&self.message[..end]);
                let detail = if text.is_empty() {
                    "callback failed"
                } else {
                    &text
                };
                Err(Error::fs(op, name, detail))
            }
            other => Err(Error::fs(
                op,
                name,
                &format!("callback returned {other}, which is no agentsmd_fs_status"),
            )),
        }
    }
}

fn required<F>(callback: Option<F>, what: &str) -> Result<F, Error> {
    callback.ok_or_else(|| Error::invalid_argument(format!("fs->{what} is NULL")))
}

impl CallbackFs {
    /// Takes the callbacks, refusing a struct without a required one.
    pub(crate) fn new(callbacks: &agentsmd_fs) -> Result<Self, Error> {
        required(callbacks.list, "list")?;
        required(callbacks.stat, "stat")?;
        required(callbacks.open, "open")?;
        required(callbacks.read, "read")?;
        Ok(Self {
            callbacks: *callbacks,
        })
    }

    /// Reads the open `file` into one buffer, up to `limit` bytes in all.
    fn read_open(
        &self,
        path: &[u8],
        file: *mut c_void,
        size_hint: u64,
        limit: u64,
    ) -> Result<Vec<u8>, Error> {
        let read = required(self.callbacks.read, "read")?;
        let limit = usize::try_from(limit).unwrap_or(usize::MAX);
        let hint = usize::try_from(size_hint).unwrap_or(usize::MAX);
        // The stat's size is a claim, not a fact: believed only up to the default limit, so
        // that a file system reporting a huge size cannot make this allocation panic ("capacity
        // overflow") or abort the process. A file that is really larger grows the buffer.
        let believed = usize::try_from(DEFAULT_MAX_BYTES).unwrap_or(usize::MAX);
        let initial = hint
            .saturating_add(1)
            .min(limit)
            .min(believed.saturating_add(1));
        // Zeroed, so that a callback claiming bytes it did not write yields zeros rather than
        // uninitialized memory; and zeroed once, when the buffer grows, rather than before each
        // callback, so that a file read in small pieces costs time linear in its size. The
        // buffer's length is what is zeroed; `filled`, what the callbacks wrote.
        let mut content: Vec<u8> = Vec::new();
        let mut filled = 0;
        while filled < limit {
            if filled == content.len() {
                let more = if content.is_empty() {
                    initial.max(1)
                } else {
                    content.len().max(8192)
                };
                let grown = filled.saturating_add(more).min(limit);
                #[cfg(feature = "test-hooks")]
                super::test_hooks::zeroed(grown - filled);
                content.resize(grown, 0);
            }
            let want = content.len() - filled;
            let mut got: usize = 0;
            let mut call = Call::new();
            let (message, capacity) = call.buffer();
            // SAFETY: the buffer is `want` writable bytes owned by `content`.
            let status = unsafe {
                read(
                    self.callbacks.userdata,
                    file,
                    content[filled..].as_mut_ptr(),
                    want,
                    &mut got,
                    message,
                    capacity,
                )
            };
            if !call.answer(status, "read", path)? {
                return Err(Error::fs(
                    "read",
                    path,
                    "callback answered not found for an open file",
                ));
            }
            if got > want {
                return Err(Error::fs(
                    "read",
                    path,
                    &format!("callback reported {got} bytes read into a buffer of {want}"),
                ));
            }
            if got == 0 {
                break;
            }
            filled += got;
        }
        content.truncate(filled);
        Ok(content)
    }
}

impl FileSystem for CallbackFs {
    fn list(&self, dir: &[u8]) -> Result<Option<Vec<Vec<u8>>>, Error> {
        let list = required(self.callbacks.list, "list")?;
        let mut listing = agentsmd_listing {
            magic: <agentsmd_listing as boundary::Handle>::MAGIC,
            names: Vec::new(),
            refused: None,
        };
        let mut call = Call::new();
        let (message, capacity) = call.buffer();
        // SAFETY: `dir` and `listing` outlive the call.
        let status = unsafe {
            list(
                self.callbacks.userdata,
                dir.as_ptr(),
                dir.len(),
                &mut listing,
                message,
                capacity,
            )
        };
        let found = call.answer(status, "list", dir)?;
        if let Some(name) = listing.refused {
            return Err(Error::fs(
                "list",
                dir,
                &format!(
                    "callback listed {:?}, which is not one path element",
                    String::from_utf8_lossy(&name)
                ),
            ));
        }
        Ok(found.then_some(listing.names))
    }

    fn stat(&self, path: &[u8]) -> Result<Option<Metadata>, Error> {
        let stat = required(self.callbacks.stat, "stat")?;
        let mut kind: u32 = 0;
        let mut size: u64 = 0;
        let mut call = Call::new();
        let (message, capacity) = call.buffer();
        // SAFETY: every pointer outlives the call.
        let status = unsafe {
            stat(
                self.callbacks.userdata,
                path.as_ptr(),
                path.len(),
                &mut kind,
                &mut size,
                message,
                capacity,
            )
        };
        if !call.answer(status, "stat", path)? {
            return Ok(None);
        }
        let kind = match kind {
            k if k == agentsmd_kind::File as u32 => Kind::File,
            k if k == agentsmd_kind::Dir as u32 => Kind::Dir,
            k if k == agentsmd_kind::Other as u32 => Kind::Other,
            other => {
                return Err(Error::fs(
                    "stat",
                    path,
                    &format!("callback reported kind {other}, which is no agentsmd_kind"),
                ))
            }
        };
        Ok(Some(Metadata { kind, size }))
    }

    fn read(&self, path: &[u8], size_hint: u64, limit: u64) -> Result<Option<Vec<u8>>, Error> {
        let open = required(self.callbacks.open, "open")?;
        let mut file: *mut c_void = std::ptr::null_mut();
        let mut call = Call::new();
        let (message, capacity) = call.buffer();
        // SAFETY: every pointer outlives the call.
        let status = unsafe {
            open(
                self.callbacks.userdata,
                path.as_ptr(),
                path.len(),
                &mut file,
                message,
                capacity,
            )
        };
        // Closed once on every way out from here, a panic included, when the open succeeded.
        // (`then`, not `then_some`: a guard built and dropped unused would close it.)
        let _close = (status == agentsmd_fs_status::Ok as u32).then(|| Close { fs: self, file });
        if !call.answer(status, "open", path)? {
            return Ok(None);
        }
        self.read_open(path, file, size_hint, limit).map(Some)
    }
}

/// A file `open` opened, closed when dropped.
struct Close<'a> {
    fs: &'a CallbackFs,
    file: *mut c_void,
}

impl Drop for Close<'_> {
    fn drop(&mut self) {
        if let Some(close) = self.fs.callbacks.close {
            // SAFETY: `file` came from a successful open, and this guard is its only closer.
            unsafe { close(self.fs.callbacks.userdata, self.file) }
        }
    }
}
