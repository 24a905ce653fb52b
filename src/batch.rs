//! The batched questions of a C file system (`agentsmd_fs_batch`, SPEC §3.1), and the check of
//! a name a callback lists, which the single `list` callback of `crate::fs` shares.

use std::ffi::{c_void, OsString};
use std::io;
use std::path::PathBuf;

use agentsmd_core::ffi_support::{self, invalid_argument};
use agentsmd_core::fs::Listed;
use agentsmd_core::{Error, FsName};

use crate::boundary::{self, export, handle, Lent};
use crate::callback::{self, agentsmd_message};
use crate::types::{agentsmd_bytes, agentsmd_entry_kind, agentsmd_status};

/// The listings a `list_many` callback reports, one per directory it was asked, with
/// `agentsmd_listings_push` and `agentsmd_listings_found`; lent to the callback.
pub struct agentsmd_listings {
    _token: [u8; 0],
}

/// The contents a `read_many` callback reports with `agentsmd_reads_set`; lent to the callback.
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

impl<T> Answers<T> {
    /// `answer`, or its refusal kept (the first one fails the batch, so that a callback ignoring
    /// the status loses no answer silently) and the caller's error `error`.
    fn refuse<V>(&mut self, answer: Result<V, String>, error: &str) -> Result<V, Error> {
        answer.map_err(|answer| {
            self.refused.get_or_insert(answer);
            invalid_argument(error)
        })
    }

    /// The refusal of an index `index` of a `what`, beyond those asked.
    fn beyond(&self, what: &str, index: usize) -> String {
        let count = self.items.len();
        format!("{what} index {index}, beyond the {count} asked")
    }
}

handle!(agentsmd_listings => Answers<Vec<Listed>>, "listings");

handle!(agentsmd_reads => Answers<Vec<u8>>, "reads");

/// Lists many directories in one call: `dirs[0]` … `dirs[dirs_len - 1]`, each a name as
/// `agentsmd_fs` defines them. For each directory that exists, the callback calls
/// `agentsmd_listings_push(listings, i, …)` once per entry, or `agentsmd_listings_found(listings,
/// i)` for one that lists nothing; a directory it does neither for does not exist — nor does
/// one that is no directory (a file, or nothing, has that name), which the library may ask
/// about.
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

/// The batched questions of a file system (`agentsmd_options_set_batched_fs`, SPEC.md §3.1).
/// Each callback may be NULL, that question then asked one name at a time through the
/// `agentsmd_fs` callbacks; each gets the file system's `userdata`. A listing names everything
/// in its directory: a name it does not list is not there (but for an import's target, which
/// is asked of `stat`, as a file system may find a name under another spelling). An entry
/// pushed as `AGENTSMD_ENTRY_KIND_LINK` costs a `stat` of its own when the chain needs to know
/// what it is. A failed batch fails the chain, naming its first name; it is never asked again.
#[repr(C)]
#[derive(Clone, Copy, Default)]
pub struct agentsmd_fs_batch {
    /// Lists many directories; may be NULL.
    pub list_many: agentsmd_fs_list_many,
    /// Reads many files; may be NULL.
    pub read_many: agentsmd_fs_read_many,
}

/// Adds one entry of the directory `dir` (an index into the `dirs` the `list_many` callback was
/// given) to `listings`, copying `name`: `kind` is its `agentsmd_entry_kind`, following links
/// (or `LINK`), and `size` the size in bytes of a `FILE` (ignored for any other kind). Refuses
/// a name that is not one path element (empty, or holding `/` or NUL), a `name_len` over
/// `PTRDIFF_MAX`, a `dir` out of range and a kind that is none of these.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_listings_push(
    listings: *mut agentsmd_listings,
    dir: usize,
    name: *const u8,
    name_len: usize,
    kind: u32,
    size: u64,
) -> agentsmd_status {
    export!(std::ptr::null_mut(), {
        let listings = boundary::borrow_lent(listings)?;
        let name = boundary::slice_of(name, name_len, "a name");
        let entry = agentsmd_entry_kind::entry(kind, size);
        let pushed = match (name, listings.items.get(dir), entry) {
            (Err(error), ..) => Err(refusal(&error)),
            (Ok(name), ..) if !is_one_element(name) => {
                let shown = String::from_utf8_lossy(name);
                Err(format!("{shown:?}, which is not one path element"))
            }
            (_, None, _) => Err(listings.beyond("directory", dir)),
            (_, _, Err(())) => Err(format!("kind {kind}, which is no agentsmd_entry_kind")),
            (Ok(name), Some(_), Ok(entry)) => Ok((name, entry)),
        };
        let (name, entry) = listings.refuse(pushed, "listings_push refused the entry")?;
        if let Some(name) = os_name(name.to_vec()) {
            let listing = listings.items[dir].get_or_insert_with(Vec::new);
            listing.push(Listed { name, entry });
        }
        Ok(())
    })
}

/// Says that the directory `dir` (an index into the `dirs` the `list_many` callback was given)
/// exists: needed only for one that lists nothing, since a push says it too. Refuses a `dir`
/// out of range.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_listings_found(
    listings: *mut agentsmd_listings,
    dir: usize,
) -> agentsmd_status {
    export!(std::ptr::null_mut(), {
        let listings = boundary::borrow_lent(listings)?;
        if dir >= listings.items.len() {
            let beyond = Err(listings.beyond("directory", dir));
            return listings.refuse(beyond, "listings_found refused the directory");
        }
        listings.items[dir].get_or_insert_with(Vec::new);
        Ok(())
    })
}

/// Sets the content of the file `file` (an index into the `names` the `read_many` callback was
/// given) in `reads`, copying at most the `limit` the callback was given of the `len` bytes at
/// `bytes` (the rest are dropped: the library needs no more to tell the file too large). Each
/// file is set at most once. Refuses a `len` over `PTRDIFF_MAX` (checked whole, though only
/// `limit` bytes would be copied), and a `file` out of range or set already.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_reads_set(
    reads: *mut agentsmd_reads,
    file: usize,
    bytes: *const u8,
    len: usize,
) -> agentsmd_status {
    export!(std::ptr::null_mut(), {
        let reads = boundary::borrow_lent(reads)?;
        let kept = usize::try_from(reads.limit).map_or(len, |limit| len.min(limit));
        // The whole length is checked, not only the part kept: one that no buffer has is a
        // caller's mistake, whose bytes are not to be trusted in part either.
        let content = boundary::check_buffer(bytes, len, "bytes")
            .and_then(|()| boundary::slice_of(bytes, kept, "bytes"));
        let set = match (content, reads.items.get(file)) {
            (Err(error), _) => Err(refusal(&error)),
            (_, None) => Err(reads.beyond("file", file)),
            (_, Some(Some(_))) => Err(format!("file {file} twice")),
            (Ok(content), Some(None)) => Ok(content),
        };
        let content = reads.refuse(set, "reads_set refused the content")?;
        reads.items[file] = Some(content.to_vec());
        Ok(())
    })
}

/// What a batch says it refused when the bytes a callback gave are no buffer: the boundary's
/// own words ("bytes: NULL with a length (1)", "a name: length N, larger than any buffer").
fn refusal(error: &Error) -> String {
    String::from_utf8_lossy(error.message()).into_owned()
}

/// Whether `name`, as a callback listed it, is one path element: not empty, without `/` or NUL.
pub(crate) fn is_one_element(name: &[u8]) -> bool {
    !name.is_empty() && !name.contains(&b'/') && !name.contains(&0)
}

/// A name a callback listed, as the OS holds it. One the OS cannot hold (on Windows, bytes that
/// are not WTF-8) is none that the walk could look for: `None`, left out as the names it does
/// not look for are.
pub(crate) fn os_name(name: Vec<u8>) -> Option<OsString> {
    let path = ffi_support::path_from_bytes(name, "callback listed name");
    path.map(PathBuf::into_os_string).ok()
}

/// Asks a batch callback about `names` by `call`, given the names as C reads them, their count,
/// the answers it is lent and the message; bytes of one answer past `limit` are not kept.
pub(crate) fn ask<H, T>(
    names: &[FsName],
    limit: u64,
    op: &str,
    call: impl FnOnce(*const agentsmd_bytes, usize, *mut H, *mut agentsmd_message) -> u32,
) -> io::Result<Vec<Option<T>>>
where
    H: Lent<Value = Answers<T>>,
    T: 'static,
{
    let asked = names.iter().map(|n| agentsmd_bytes::of(n.as_bytes()));
    let asked: Vec<_> = asked.collect();
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
