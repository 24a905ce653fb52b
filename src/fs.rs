//! A custom file system written in C: the callback struct `agentsmd_fs`, and [`CallbackFs`],
//! which answers the core's [`FileSystem`] questions by calling it.

use std::ffi::{c_char, c_void};
use std::io::{self, Read};

use agentsmd_core::fs::{Entry, FileSystem};
use agentsmd_core::{Error, FsName};

use crate::boundary::{self, export, Lent};
use crate::types::agentsmd_status;

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
/// library and valid only during the `list` call it is passed to, on that call's thread: once
/// the callback has returned, `agentsmd_listing_push` refuses it with
/// `AGENTSMD_STATUS_INVALID_ARGUMENT` and never reads or writes through it. Other functions
/// refuse it as a handle of another type.
// Opaque: what C holds is a token lent by `boundary::lend`, never a pointer to a `Listing`.
pub struct agentsmd_listing {
    _token: [u8; 0],
}

/// The names a `list` callback pushed.
#[derive(Default)]
pub(crate) struct Listing {
    names: Vec<Vec<u8>>,
    /// The first name refused, which fails the listing.
    refused: Option<Vec<u8>>,
}

impl Lent for agentsmd_listing {
    type Value = Listing;
    const WHAT: &'static str = "listing";
}

/// Adds one entry name to `listing`, copying it, from within the `list` callback `listing` was
/// passed to, on its thread. A name is one path element; `.` and `..` are accepted (and never
/// match). An empty name, one holding `/` or NUL, or a NULL `name` with a non-zero length
/// returns `AGENTSMD_STATUS_INVALID_ARGUMENT` and makes the listing fail with an
/// `AGENTSMD_STATUS_FS` error naming the directory, whatever the callback then returns. A
/// `listing` that is NULL, no listing, or one whose callback has returned (kept from an earlier
/// call) returns `AGENTSMD_STATUS_INVALID_ARGUMENT` and adds nothing anywhere.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_listing_push(
    listing: *mut agentsmd_listing,
    name: *const u8,
    name_len: usize,
) -> agentsmd_status {
    let no_error_out = std::ptr::null_mut();
    export!(no_error_out, {
        let listing = boundary::borrow_lent(listing)?;
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

/// Lists the directory `dir`: calls `agentsmd_listing_push(listing, …)` once per entry, before
/// it returns (`listing` is valid only until then).
pub type agentsmd_fs_list = Option<
    unsafe extern "C" fn(
        userdata: *mut c_void,
        dir: *const u8,
        dir_len: usize,
        listing: *mut agentsmd_listing,
        message: *mut c_char,
        message_capacity: usize,
    ) -> u32,
>;

/// Reports what `name` is (an `agentsmd_kind`, in `*kind_out`) and its size in bytes (in
/// `*size_out`), following links.
pub type agentsmd_fs_stat = Option<
    unsafe extern "C" fn(
        userdata: *mut c_void,
        name: *const u8,
        name_len: usize,
        kind_out: *mut u32,
        size_out: *mut u64,
        message: *mut c_char,
        message_capacity: usize,
    ) -> u32,
>;

/// Opens the file `name` for reading, writing a handle of the caller's choice to `*file_out`
/// (which may be NULL; it is only passed back).
pub type agentsmd_fs_open = Option<
    unsafe extern "C" fn(
        userdata: *mut c_void,
        name: *const u8,
        name_len: usize,
        file_out: *mut *mut c_void,
        message: *mut c_char,
        message_capacity: usize,
    ) -> u32,
>;

/// Reads at most `buffer_len` bytes of `file` into `buffer`, writing how many to `*read_out`;
/// 0 means the end of the file. The library never asks for more than `max_bytes + 1` bytes of
/// one file in all. Writing more than `buffer_len` to `*read_out` is an `AGENTSMD_STATUS_FS`
/// error.
pub type agentsmd_fs_read = Option<
    unsafe extern "C" fn(
        userdata: *mut c_void,
        file: *mut c_void,
        buffer: *mut u8,
        buffer_len: usize,
        read_out: *mut usize,
        message: *mut c_char,
        message_capacity: usize,
    ) -> u32,
>;

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
    /// Required.
    pub list: agentsmd_fs_list,
    /// Required.
    pub stat: agentsmd_fs_stat,
    /// Required.
    pub open: agentsmd_fs_open,
    /// Required.
    pub read: agentsmd_fs_read,
    /// Closes `file`; called once after every successful `open`, whatever the reads did. May
    /// be NULL.
    pub close: Option<unsafe extern "C" fn(userdata: *mut c_void, file: *mut c_void)>,
    /// Releases `userdata` when the library holds it no more; called exactly once after a
    /// successful `agentsmd_options_set_fs`. May be NULL.
    pub release: Option<unsafe extern "C" fn(userdata: *mut c_void)>,
}

/// The function pointer inside a nullable callback type.
pub(crate) trait Nullable {
    type Plain;
}
impl<F> Nullable for Option<F> {
    type Plain = F;
}
pub(crate) type Plain<T> = <T as Nullable>::Plain;

/// A caller's `userdata`, with the `release` callback that is called once when this is dropped:
/// when the last options holding it are freed or set anew, after the last chain using it.
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

/// The callbacks of an [`agentsmd_fs`], checked once when set, as a [`FileSystem`].
pub(crate) struct CallbackFs {
    userdata: Userdata,
    list: Plain<agentsmd_fs_list>,
    stat: Plain<agentsmd_fs_stat>,
    open: Plain<agentsmd_fs_open>,
    read: Plain<agentsmd_fs_read>,
    close: Option<unsafe extern "C" fn(userdata: *mut c_void, file: *mut c_void)>,
}

fn required<F>(callback: Option<F>, what: &str) -> Result<F, Error> {
    callback.ok_or_else(|| Error::invalid_argument(format!("fs->{what} is NULL")))
}

impl CallbackFs {
    /// Takes the callbacks, refusing a struct without a required one.
    pub(crate) fn new(fs: &agentsmd_fs) -> Result<Self, Error> {
        Ok(Self {
            list: required(fs.list, "list")?,
            stat: required(fs.stat, "stat")?,
            open: required(fs.open, "open")?,
            read: required(fs.read, "read")?,
            close: fs.close,
            userdata: Userdata {
                ptr: fs.userdata,
                release: fs.release,
            },
        })
    }

    /// Calls the callback of `op` about `name` (given the userdata, the name and a message
    /// buffer): a failure is an `Fs` error naming it.
    fn ask(
        &self,
        op: &str,
        name: &FsName,
        callback: impl FnOnce(*mut c_void, *const u8, usize, *mut c_char, usize) -> u32,
    ) -> Result<bool, Error> {
        let name = name.as_bytes();
        let reply = with_message(|message, capacity| {
            callback(
                self.userdata.ptr,
                name.as_ptr(),
                name.len(),
                message,
                capacity,
            )
        });
        answer(op, reply).map_err(|detail| Error::fs(op, name, &detail))
    }
}

/// Calls `callback` with a message buffer of `AGENTSMD_FS_MESSAGE_CAPACITY` zeroed bytes, and
/// returns its status and the message it wrote (up to its NUL), if any.
pub(crate) fn with_message(
    callback: impl FnOnce(*mut c_char, usize) -> u32,
) -> (u32, Option<String>) {
    let mut message = [0u8; AGENTSMD_FS_MESSAGE_CAPACITY];
    let status = callback(message.as_mut_ptr().cast(), message.len());
    let end = message
        .iter()
        .position(|&b| b == 0)
        .unwrap_or(message.len());
    let text = String::from_utf8_lossy(&message[..end]);
    (status, (!text.is_empty()).then(|| text.into_owned()))
}

/// What the status a file-system callback of `op` returned, with its message, means:
/// `Ok(true)` for OK, `Ok(false)` for not found, and otherwise what went wrong.
#[cfg_attr(not(feature = "test-hooks"), allow(unused_variables))]
fn answer(op: &str, (status, message): (u32, Option<String>)) -> Result<bool, String> {
    #[cfg(feature = "test-hooks")]
    crate::test_hooks::callback_returned(op);
    match status {
        s if s == agentsmd_fs_status::Ok as u32 => Ok(true),
        s if s == agentsmd_fs_status::NotFound as u32 => Ok(false),
        s if s == agentsmd_fs_status::Error as u32 => {
            Err(message.unwrap_or_else(|| "callback failed".to_owned()))
        }
        other => Err(format!(
            "callback returned {other}, which is no agentsmd_fs_status"
        )),
    }
}

impl FileSystem for CallbackFs {
    fn list(&self, dir: &FsName) -> Result<Option<Vec<Vec<u8>>>, Error> {
        let mut listing = Listing::default();
        // SAFETY: `dir` outlives the call; the listing is lent for it.
        let found = self.ask("list", dir, |userdata, dir, len, message, capacity| {
            boundary::lend(&mut listing, |listing| unsafe {
                (self.list)(userdata, dir, len, listing, message, capacity)
            })
        })?;
        if let Some(name) = listing.refused {
            return Err(Error::fs(
                "list",
                dir.as_bytes(),
                &format!(
                    "callback listed {:?}, which is not one path element",
                    String::from_utf8_lossy(&name)
                ),
            ));
        }
        Ok(found.then_some(listing.names))
    }

    fn stat(&self, name: &FsName) -> Result<Option<Entry>, Error> {
        let (mut kind, mut size) = (0u32, 0u64);
        // SAFETY: every pointer outlives the call.
        let found = self.ask(
            "stat",
            name,
            |userdata, name, len, message, capacity| unsafe {
                (self.stat)(userdata, name, len, &mut kind, &mut size, message, capacity)
            },
        )?;
        Ok(match (found, kind) {
            (false, _) => None,
            (true, k) if k == agentsmd_kind::File as u32 => Some(Entry::File { size }),
            (true, k) if k == agentsmd_kind::Dir as u32 => Some(Entry::Dir),
            (true, k) if k == agentsmd_kind::Other as u32 => Some(Entry::Other),
            (true, other) => {
                return Err(Error::fs(
                    "stat",
                    name.as_bytes(),
                    &format!("callback reported kind {other}, which is no agentsmd_kind"),
                ))
            }
        })
    }

    fn open(&self, name: &FsName) -> Result<Option<Box<dyn Read + '_>>, Error> {
        let mut opened = None;
        // SAFETY: every pointer outlives the call.
        self.ask("open", name, |userdata, name, len, message, capacity| {
            let mut file = std::ptr::null_mut();
            let status = unsafe { (self.open)(userdata, name, len, &mut file, message, capacity) };
            // Made at once, so that a file opened is closed on every way out, a panic included.
            if status == agentsmd_fs_status::Ok as u32 {
                opened = Some(CallbackFile {
                    fs: self,
                    file,
                    returned: 0,
                    extent: 0,
                });
            }
            status
        })?;
        Ok(opened.map(|file| Box::new(file) as _))
    }
}

/// A file `open` opened: read by the core's one read loop, which hands its own buffer straight
/// to the `read` callback; closed when dropped.
struct CallbackFile<'a> {
    fs: &'a CallbackFs,
    file: *mut c_void,
    /// Bytes the callbacks have handed back so far.
    returned: usize,
    /// How far into the read loop's buffer the callbacks have been given room: the loop zeroes
    /// each byte of its buffer once, so this is what it zeroed for them.
    extent: usize,
}

impl Read for CallbackFile<'_> {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        let want = buffer.len();
        self.extent = self.extent.max(self.returned + want);
        let (fs, file, mut got) = (self.fs, self.file, 0);
        // SAFETY: the buffer is `want` writable bytes, borrowed for the call.
        let reply = with_message(|message, capacity| unsafe {
            let buffer = buffer.as_mut_ptr();
            (fs.read)(
                fs.userdata.ptr,
                file,
                buffer,
                want,
                &mut got,
                message,
                capacity,
            )
        });
        let detail = match answer("read", reply) {
            Ok(true) if got <= want => {
                self.returned += got;
                return Ok(got);
            }
            Ok(true) => format!("callback reported {got} bytes read into a buffer of {want}"),
            Ok(false) => "callback answered not found for an open file".to_owned(),
            Err(detail) => detail,
        };
        Err(io::Error::other(detail))
    }
}

impl Drop for CallbackFile<'_> {
    fn drop(&mut self) {
        #[cfg(feature = "test-hooks")]
        crate::test_hooks::zeroed(self.extent);
        if let Some(close) = self.fs.close {
            // SAFETY: `file` came from a successful open, and this is its only closer.
            unsafe { close(self.fs.userdata.ptr, self.file) }
        }
    }
}
