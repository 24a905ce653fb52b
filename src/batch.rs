//! The batched questions of a C file system (`agentsmd_fs_batch`): many directories listed in
//! one call, many files read in one call, for a file system across a network, where each call
//! costs a round trip. The core then asks a chain's listings in one batch and its reads in
//! another (`FileSystem::batched`).

use std::ffi::c_void;
use std::io;

use agentsmd_core::ffi_support::{invalid_argument, not_batched};
use agentsmd_core::fs::{BatchFileSystem, Batches, Entry, Listed};
use agentsmd_core::{Error, FsName};

use crate::boundary::{self, export, Lent};
use crate::callback::{self, agentsmd_message};
use crate::fs::{agentsmd_entry_kind, is_one_element, os_name, CallbackFs};
use crate::types::{agentsmd_bytes, agentsmd_status};

/// The listings a `list_many` callback reports, one per directory it was asked, built with
/// `agentsmd_listings_push` and `agentsmd_listings_found`. Owned by the library and valid only
/// during the `list_many` call it is passed to, on that call's thread: once the callback has
/// returned, both functions refuse it with `AGENTSMD_STATUS_INVALID_ARGUMENT` and never read or
/// write through it. Other functions refuse it as a handle of another type.
// Opaque: what C holds is a token lent by `boundary::lend`, never a pointer to `Listings`.
pub struct agentsmd_listings {
    _token: [u8; 0],
}

/// The contents a `read_many` callback reports, one per file it was asked, set with
/// `agentsmd_reads_set`. Owned by the library and valid only during the `read_many` call it is
/// passed to, on that call's thread, as `agentsmd_listings` is.
pub struct agentsmd_reads {
    _token: [u8; 0],
}

/// What a batch callback reported, one answer per name it was asked: `None` for a name it
/// said nothing of (a directory it neither found nor listed a name in, a file it did not set).
pub(crate) struct Answers<T> {
    items: Vec<Option<T>>,
    /// The most bytes of one answer kept (for reads).
    limit: u64,
    /// The first answer refused, which fails the batch.
    refused: Option<String>,
}

pub(crate) type Listings = Answers<Vec<Listed>>;
pub(crate) type Reads = Answers<Vec<u8>>;

impl Lent for agentsmd_listings {
    type Value = Listings;
    const WHAT: &'static str = "listings";
}

impl Lent for agentsmd_reads {
    type Value = Reads;
    const WHAT: &'static str = "reads";
}

/// Lists many directories in one call: `dirs[0]` … `dirs[dirs_len - 1]`, each a name as
/// `agentsmd_fs` defines them. For each directory that exists, the callback calls
/// `agentsmd_listings_push(listings, i, …)` once per entry, or `agentsmd_listings_found(listings,
/// i)` for one that lists nothing; a directory it does neither for does not exist — nor does
/// one that is no directory (a file, or nothing, has that name), which the library may ask
/// about. `AGENTSMD_CALLBACK_STATUS_ERROR` fails the whole batch (and the chain); so does
/// `_NOT_FOUND`, which a batch cannot answer.
pub type agentsmd_fs_list_many = Option<
    unsafe extern "C" fn(
        userdata: *mut c_void,
        dirs: *const agentsmd_bytes,
        dirs_len: usize,
        listings: *mut agentsmd_listings,
        message: *mut agentsmd_message,
    ) -> u32,
>;

/// Reads many files in one call: `names[0]` … `names[names_len - 1]`, at most `limit` bytes of
/// each (`max_bytes + 1`). For each file found the callback calls `agentsmd_reads_set(reads, i,
/// …)` once; a file it does not set is not found, and so must be a name that is no regular file
/// (stat it before opening it: a FIFO, opened, blocks).
/// `AGENTSMD_CALLBACK_STATUS_ERROR` fails the whole batch (and the chain); so does `_NOT_FOUND`.
pub type agentsmd_fs_read_many = Option<
    unsafe extern "C" fn(
        userdata: *mut c_void,
        names: *const agentsmd_bytes,
        names_len: usize,
        limit: u64,
        reads: *mut agentsmd_reads,
        message: *mut agentsmd_message,
    ) -> u32,
>;

/// The batched questions of a file system (`agentsmd_options_set_batched_fs`): each may be
/// NULL, and that question is then asked one name at a time through the `agentsmd_fs`
/// callbacks. Give them where one call costs about as much as one question, as across a
/// network: a chain then asks one `list_many` for every directory it lists (each directory of
/// the walk and each fragment directory), one `read_many` for the files it reads (under a
/// budget, one more wherever the files read so far decide whether the next fits), and one more
/// per level of imports; an entry pushed as `AGENTSMD_ENTRY_KIND_LINK` costs a `stat` of its
/// own when the chain needs to know what it is. A listing names everything in its directory: a
/// name it does not list is not there (but for an import's target, which is asked of `stat`, as
/// a file system may find a name under another spelling). The result is the one the single
/// questions give.
/// A failed batch fails the chain, naming the batch's first name (for imports, the first
/// directive's); it is never asked again.
/// Each callback gets the file system's `userdata`, follows the convention of every callback
/// (`agentsmd_callback_status`) and may run on any thread that calls `agentsmd_chain`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct agentsmd_fs_batch {
    /// Lists many directories; may be NULL.
    pub list_many: agentsmd_fs_list_many,
    /// Reads many files; may be NULL.
    pub read_many: agentsmd_fs_read_many,
}

/// Adds one entry of the directory `dir` (an index into the `dirs` the `list_many` callback was
/// given) to `listings`, copying `name`, from within that callback, on its thread. `kind` is
/// what the entry is, following links (`AGENTSMD_ENTRY_KIND_FILE` with its `size` in bytes,
/// `_DIR`, `_OTHER`), or `AGENTSMD_ENTRY_KIND_LINK` for a symbolic link or any entry whose kind
/// the listing does not say (the library asks `stat` when it needs to know; `size` is ignored
/// but for a file). A name is one path element. An empty name, one holding `/` or NUL, a NULL
/// `name` with a non-zero length, a `name_len` larger than any buffer (over `PTRDIFF_MAX`, as
/// `SIZE_MAX` is), a `dir` out of range or a kind that is none of these returns
/// `AGENTSMD_STATUS_INVALID_ARGUMENT` and fails the batch with an `AGENTSMD_STATUS_FS` error,
/// whatever the callback then returns. A `listings` that is NULL or not live returns
/// `AGENTSMD_STATUS_INVALID_ARGUMENT` and adds nothing anywhere.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_listings_push(
    listings: *mut agentsmd_listings,
    dir: usize,
    name: *const u8,
    name_len: usize,
    kind: u32,
    size: u64,
) -> agentsmd_status {
    let no_error_out = std::ptr::null_mut();
    export!(no_error_out, {
        let listings = boundary::borrow_lent(listings)?;
        let name = boundary::slice_of(name, name_len, "a name");
        let pushed = match (name, listings.items.get(dir), entry_of(kind, size)) {
            (Err(error), ..) => Err(refusal(&error)),
            (Ok(name), ..) if !is_one_element(name) => {
                let shown = String::from_utf8_lossy(name);
                Err(format!("{shown:?}, which is not one path element"))
            }
            (_, None, _) => Err(beyond("directory", dir, listings.items.len())),
            (_, _, Err(())) => Err(format!("kind {kind}, which is no agentsmd_entry_kind")),
            (Ok(name), Some(_), Ok(entry)) => Ok((name, entry)),
        };
        let (name, entry) = match pushed {
            Ok(pushed) => pushed,
            Err(refused) => {
                listings.refused.get_or_insert(refused);
                return Err(invalid_argument("listings_push refused the entry"));
            }
        };
        if let Some(name) = os_name(name.to_vec()) {
            let listing = listings.items[dir].get_or_insert_with(Vec::new);
            listing.push(Listed { name, entry });
        }
        Ok(())
    })
}

/// Says that the directory `dir` (an index into the `dirs` the `list_many` callback was given)
/// exists, from within that callback: needed only for one that lists nothing, since a push says
/// it too. A `dir` out of range returns `AGENTSMD_STATUS_INVALID_ARGUMENT` and fails the batch;
/// a `listings` that is NULL or not live returns `AGENTSMD_STATUS_INVALID_ARGUMENT`.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_listings_found(
    listings: *mut agentsmd_listings,
    dir: usize,
) -> agentsmd_status {
    let no_error_out = std::ptr::null_mut();
    export!(no_error_out, {
        let listings = boundary::borrow_lent(listings)?;
        let count = listings.items.len();
        let Some(listing) = listings.items.get_mut(dir) else {
            listings
                .refused
                .get_or_insert(beyond("directory", dir, count));
            return Err(invalid_argument("listings_found refused the directory"));
        };
        listing.get_or_insert_with(Vec::new);
        Ok(())
    })
}

/// Sets the content of the file `file` (an index into the `names` the `read_many` callback was
/// given) in `reads`, copying at most the `limit` the callback was given of the `len` bytes at
/// `bytes` (the rest are dropped: the library needs no more to tell the file too large), from
/// within that callback, on its thread. Each file is set at most once. A NULL `bytes` with a
/// non-zero `len`, a `len` larger than any buffer (over `PTRDIFF_MAX`, as `SIZE_MAX` is; checked
/// whole, though only `limit` bytes would be copied), a `file` out of range or set already returns
/// `AGENTSMD_STATUS_INVALID_ARGUMENT` and fails the batch with an `AGENTSMD_STATUS_FS` error,
/// whatever the callback then returns. A `reads` that is NULL or not live returns
/// `AGENTSMD_STATUS_INVALID_ARGUMENT` and sets nothing anywhere.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_reads_set(
    reads: *mut agentsmd_reads,
    file: usize,
    bytes: *const u8,
    len: usize,
) -> agentsmd_status {
    let no_error_out = std::ptr::null_mut();
    export!(no_error_out, {
        let reads = boundary::borrow_lent(reads)?;
        let kept = usize::try_from(reads.limit).map_or(len, |limit| len.min(limit));
        // The whole length is checked, not only the part kept: one that no buffer has is a
        // caller's mistake, whose bytes are not to be trusted in part either.
        let content = boundary::check_buffer(bytes, len, "bytes")
            .and_then(|()| boundary::slice_of(bytes, kept, "bytes"));
        let count = reads.items.len();
        let set = match (content, reads.items.get(file)) {
            (Err(error), _) => Err(refusal(&error)),
            (_, None) => Err(beyond("file", file, count)),
            (_, Some(Some(_))) => Err(format!("file {file} twice")),
            (Ok(content), Some(None)) => Ok(content),
        };
        match set {
            Ok(content) => {
                reads.items[file] = Some(content.to_vec());
                Ok(())
            }
            Err(refused) => {
                reads.refused.get_or_insert(refused);
                Err(invalid_argument("reads_set refused the content"))
            }
        }
    })
}

/// What a pushed `kind` and `size` say an entry is: `None` for a link (or an entry the listing
/// does not say).
fn entry_of(kind: u32, size: u64) -> Result<Option<Entry>, ()> {
    Ok(Some(match kind {
        k if k == agentsmd_entry_kind::File as u32 => Entry::File { size },
        k if k == agentsmd_entry_kind::Dir as u32 => Entry::Dir,
        k if k == agentsmd_entry_kind::Other as u32 => Entry::Other,
        k if k == agentsmd_entry_kind::Link as u32 => return Ok(None),
        _ => return Err(()),
    }))
}

/// What a batch says it refused when the bytes a callback gave are no buffer: the boundary's
/// own words ("bytes: NULL with a length (1)", "a name: length N, larger than any buffer").
fn refusal(error: &Error) -> String {
    String::from_utf8_lossy(error.message()).into_owned()
}

/// The refusal of an index `index` of a `what` among `count` asked.
fn beyond(what: &str, index: usize, count: usize) -> String {
    format!("{what} index {index}, beyond the {count} asked")
}

/// Asks a batch callback about `names` by `call`, given the names as C reads them, their count,
/// the answers it is lent and the message; bytes of one answer past `limit` are not kept.
fn ask<H, T>(
    names: &[FsName],
    limit: u64,
    op: &str,
    call: impl FnOnce(*const agentsmd_bytes, usize, *mut H, *mut agentsmd_message) -> u32,
) -> io::Result<Vec<Option<T>>>
where
    H: Lent<Value = Answers<T>>,
    T: 'static,
{
    let bytes = |name: &FsName| agentsmd_bytes {
        ptr: name.as_bytes().as_ptr(),
        len: name.as_bytes().len(),
    };
    let asked: Vec<agentsmd_bytes> = names.iter().map(bytes).collect();
    let mut answers = Answers {
        items: names.iter().map(|_| None).collect(),
        limit,
        refused: None,
    };
    let status = callback::call(|message| {
        boundary::lend(&mut answers, |lent| {
            call(asked.as_ptr(), asked.len(), lent, message)
        })
    });
    let detail = match (status, answers.refused) {
        (Err(detail), _) => detail,
        (Ok(_), Some(refused)) => format!("callback {op} {refused}"),
        (Ok(true), None) => return Ok(answers.items),
        (Ok(false), None) => format!("callback answered not found for the whole {op} batch"),
    };
    Err(io::Error::other(detail))
}

/// The batched questions of a C file system: one whose callback is NULL is asked one name at a
/// time through the `agentsmd_fs` callbacks.
impl BatchFileSystem for CallbackFs {
    fn batches(&self) -> Batches {
        Batches {
            lists: self.batch.list_many.is_some(),
            reads: self.batch.read_many.is_some(),
        }
    }

    fn list_many(&self, dirs: &[FsName]) -> io::Result<Vec<Option<Vec<Listed>>>> {
        // A chain asks only the batches `batches` names.
        let Some(list_many) = self.batch.list_many else {
            return Err(not_batched("list_many"));
        };
        // SAFETY: the names and the listings outlive the call.
        ask(
            dirs,
            u64::MAX,
            "listed",
            |names, count, listings, message| unsafe {
                list_many(self.userdata.ptr, names, count, listings, message)
            },
        )
    }

    fn read_many(&self, files: &[FsName], limit: u64) -> io::Result<Vec<Option<Vec<u8>>>> {
        let Some(read_many) = self.batch.read_many else {
            return Err(not_batched("read_many"));
        };
        // SAFETY: the names and the reads outlive the call.
        ask(files, limit, "set", |names, count, reads, message| unsafe {
            read_many(self.userdata.ptr, names, count, limit, reads, message)
        })
    }
}
