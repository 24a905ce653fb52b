//! Change notification for the walker: inotify watches on the directories it has looked into,
//! and the mount table, both asked with one `poll` per call.
//!
//! inotify queues an event before the system call that made the change returns, so the events
//! read at the start of a call cover every change completed before it. A mount or unmount over
//! a watched path raises no inotify event; `/proc/self/mountinfo` signals it instead, and then
//! nothing cached is trusted. Linux only: elsewhere [`Watcher::new`] answers `None` and the
//! walker revalidates by stat.

#[cfg(not(target_os = "linux"))]
use super::os_dir::Dir;

/// What the events read say changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Event {
    /// In the directory watched by `wd`, the entry `name` changed (was created, deleted, moved,
    /// written, or had its permissions changed) — or, when `name` is empty, the directory
    /// itself (deleted, moved, unmounted, its permissions changed, its watch gone).
    Changed { wd: i32, name: Vec<u8> },
    /// Events were lost, or the mount table changed: nothing cached can be trusted.
    Everything,
}

/// What a directory's watch reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Interest {
    /// Its instruction files: every change to an entry, writes included.
    Names,
    /// Only the directories below it: entries created, deleted, moved, or their permissions
    /// changed. Used above the root, where writes to files do not matter.
    Passage,
    /// As `Passage`, without permission changes: for a directory above the root whose parent's
    /// watch reports its own (a watch reports those of its entries). Asking a watch for them
    /// makes the kernel mark every name it has cached in the directory, which in a directory
    /// such as `/tmp` can be tens of thousands, and took 3 ms there.
    Entries,
}

/// The inotify instance and the mount table, open.
#[derive(Debug)]
pub(crate) struct Watcher {
    #[cfg(target_os = "linux")]
    inotify: super::os_dir::Fd,
    #[cfg(target_os = "linux")]
    mounts: super::os_dir::Fd,
}

#[cfg(target_os = "linux")]
mod linux {
    use std::ffi::CString;
    use std::io;

    use super::super::os_dir::{count, Dir, Fd};
    use super::{Event, Interest, Watcher};

    const PASSAGE: u32 = libc::IN_CREATE
        | libc::IN_DELETE
        | libc::IN_MOVED_FROM
        | libc::IN_MOVED_TO
        | libc::IN_ATTRIB
        | libc::IN_DELETE_SELF
        | libc::IN_MOVE_SELF
        | libc::IN_ONLYDIR
        // Masks only grow, should one directory be both above a root and below another.
        | libc::IN_MASK_ADD;
    const NAMES: u32 = PASSAGE | libc::IN_MODIFY;
    const ENTRIES: u32 = PASSAGE & !libc::IN_ATTRIB;

    /// The largest event: its 16-byte header and a name of NAME_MAX bytes, NUL-padded to 16.
    const MAX_EVENT: usize = 16 + 256;

    impl Watcher {
        /// An inotify instance and the mount table; `None` when either cannot be had (no
        /// inotify instance left, no `/proc`), and the walker revalidates by stat.
        pub(crate) fn new() -> Option<Self> {
            // SAFETY: plain calls; the descriptors returned are owned by `Fd`.
            let inotify =
                Fd::own(unsafe { libc::inotify_init1(libc::IN_NONBLOCK | libc::IN_CLOEXEC) })
                    .ok()?;
            let mounts = Fd::own(unsafe {
                libc::open(
                    c"/proc/self/mountinfo".as_ptr(),
                    libc::O_RDONLY | libc::O_CLOEXEC,
                )
            })
            .ok()?;
            Some(Self { inotify, mounts })
        }

        /// Watches the directory open as `dir` — the very one opened, through its descriptor's
        /// `/proc` link, not whatever its path names by now. `None` when no watch can be had
        /// (the watch limit reached, no read permission), and the directory is revalidated by
        /// stat instead.
        pub(crate) fn watch(&self, dir: &Dir, interest: Interest) -> Option<i32> {
            let link = CString::new(format!("/proc/self/fd/{}", dir.fd())).ok()?;
            let mask = match interest {
                Interest::Names => NAMES,
                Interest::Passage => PASSAGE,
                Interest::Entries => ENTRIES,
            };
            count();
            // SAFETY: `link` is NUL-terminated.
            let wd = unsafe { libc::inotify_add_watch(self.inotify.raw(), link.as_ptr(), mask) };
            (wd >= 0).then_some(wd)
        }

        /// Removes the watch `wd`, which no cached directory needs any more.
        pub(crate) fn unwatch(&self, wd: i32) {
            count();
            // SAFETY: a plain call; a watch the kernel already removed is an error ignored.
            unsafe { libc::inotify_rm_watch(self.inotify.raw(), wd) };
        }

        /// Everything that changed since the last call: one `poll` when nothing did.
        pub(crate) fn events(&self) -> Vec<Event> {
            let mut fds = [
                libc::pollfd {
                    fd: self.inotify.raw(),
                    events: libc::POLLIN,
                    revents: 0,
                },
                libc::pollfd {
                    fd: self.mounts.raw(),
                    events: libc::POLLPRI,
                    revents: 0,
                },
            ];
            count();
            // SAFETY: `fds` is two valid entries.
            let ready = unsafe { libc::poll(fds.as_mut_ptr(), 2, 0) };
            if ready < 0 {
                // Interrupted, or out of memory: trust nothing rather than miss a change.
                return vec![Event::Everything];
            }
            if fds[1].revents & (libc::POLLPRI | libc::POLLERR) != 0 {
                return vec![Event::Everything];
            }
            if fds[0].revents & libc::POLLIN == 0 {
                return Vec::new();
            }
            self.drain()
        }

        /// Reads the queue until it is empty.
        fn drain(&self) -> Vec<Event> {
            let mut events = Vec::new();
            // u64 words: the records are 4-byte aligned fields read by offset.
            let mut buffer = vec![0u64; 8192];
            let capacity = std::mem::size_of_val(buffer.as_slice());
            loop {
                count();
                // SAFETY: the buffer is `capacity` writable bytes.
                let got =
                    unsafe { libc::read(self.inotify.raw(), buffer.as_mut_ptr().cast(), capacity) };
                if got < 0 {
                    let err = io::Error::last_os_error();
                    match err.kind() {
                        io::ErrorKind::WouldBlock => return events,
                        io::ErrorKind::Interrupted => continue,
                        _ => return vec![Event::Everything],
                    }
                }
                let got = got as usize;
                // SAFETY: the kernel wrote `got` bytes of the buffer.
                let bytes =
                    unsafe { std::slice::from_raw_parts(buffer.as_ptr().cast::<u8>(), got) };
                parse(bytes, &mut events);
                // Room for one more event was left, so the queue was empty.
                if capacity - got >= MAX_EVENT {
                    return events;
                }
            }
        }
    }

    /// The events in `bytes`: struct inotify_event { int wd; u32 mask; u32 cookie; u32 len;
    /// char name[len]; }.
    fn parse(bytes: &[u8], events: &mut Vec<Event>) {
        let word = |at: usize| [bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]];
        let mut at = 0;
        while at + 16 <= bytes.len() {
            let wd = i32::from_ne_bytes(word(at));
            let mask = u32::from_ne_bytes(word(at + 4));
            let len = u32::from_ne_bytes(word(at + 12)) as usize;
            let end = (at + 16 + len).min(bytes.len());
            let name = &bytes[at + 16..end];
            let name = &name[..name.iter().position(|&b| b == 0).unwrap_or(name.len())];
            at = end;
            if mask & libc::IN_Q_OVERFLOW != 0 {
                events.push(Event::Everything);
            } else {
                events.push(Event::Changed {
                    wd,
                    name: name.to_vec(),
                });
            }
        }
    }
}

#[cfg(not(target_os = "linux"))]
impl Watcher {
    /// No change notification off Linux: the walker revalidates by stat.
    pub(crate) fn new() -> Option<Self> {
        None
    }

    pub(crate) fn watch(&self, _dir: &Dir, _interest: Interest) -> Option<i32> {
        None
    }

    pub(crate) fn unwatch(&self, _wd: i32) {}

    pub(crate) fn events(&self) -> Vec<Event> {
        Vec::new()
    }
}
