//! The lists of a chain that hold many paths: [`Probes`](crate::Probes) and
//! [`Imports`](crate::Imports). A chain with every option on looks at a hundred places or more,
//! so each list keeps every path it holds in one buffer and each entry as a compact record of
//! ranges into it: one allocation for all the paths instead of one or two per entry. What the
//! caller gets is a view of one record, its paths borrowed from the list.

use std::ffi::OsStr;
use std::ops::Range;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// Defines the public list `$list` of records `$record`, each seen as the view `$item` its
/// `view(&self, bytes)` makes, with the iterator `$iter`.
macro_rules! path_list {
    (
        $(#[$list_doc:meta])*
        $list:ident of $record:ty as $item:ident;
        $(#[$iter_doc:meta])*
        $iter:ident
    ) => {
        $(#[$list_doc])*
        #[derive(Clone, Default, PartialEq, Eq)]
        pub struct $list(pub(crate) $crate::path_list::Store<$record>);

        impl $list {
            /// How many entries there are.
            pub fn len(&self) -> usize {
                self.0.records().len()
            }

            /// Whether there are none: always so with the option off.
            pub fn is_empty(&self) -> bool {
                self.0.records().is_empty()
            }

            /// Entry `index`, in order; `None` at or past the length.
            pub fn get(&self, index: usize) -> Option<$item<'_>> {
                Some(self.0.records().get(index)?.view(self.0.bytes()))
            }

            /// Every entry, in order.
            pub fn iter(&self) -> $iter<'_> {
                $iter {
                    records: self.0.records().iter(),
                    bytes: self.0.bytes(),
                }
            }
        }

        impl std::fmt::Debug for $list {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_list().entries(self.iter()).finish()
            }
        }

        impl<'a> IntoIterator for &'a $list {
            type Item = $item<'a>;
            type IntoIter = $iter<'a>;

            fn into_iter(self) -> $iter<'a> {
                self.iter()
            }
        }

        $(#[$iter_doc])*
        #[derive(Clone, Debug)]
        pub struct $iter<'a> {
            records: std::slice::Iter<'a, $record>,
            bytes: &'a [u8],
        }

        impl<'a> Iterator for $iter<'a> {
            type Item = $item<'a>;

            fn next(&mut self) -> Option<$item<'a>> {
                Some(self.records.next()?.view(self.bytes))
            }

            fn size_hint(&self) -> (usize, Option<usize>) {
                self.records.size_hint()
            }
        }

        impl ExactSizeIterator for $iter<'_> {}
    };
}

pub(crate) use path_list;

/// What a list of [`path_list!`] holds: its records, and the paths they refer to by range.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct Store<R> {
    /// Every path of every record, one after the other.
    bytes: Vec<u8>,
    records: Vec<R>,
}

impl<R> Default for Store<R> {
    fn default() -> Self {
        Self {
            bytes: Vec::new(),
            records: Vec::new(),
        }
    }
}

impl<R> Store<R> {
    /// Appends what `write` writes to the buffer of paths, and returns where it is.
    pub(crate) fn write(&mut self, write: impl FnOnce(&mut Vec<u8>)) -> Range<usize> {
        let start = self.bytes.len();
        write(&mut self.bytes);
        start..self.bytes.len()
    }

    pub(crate) fn push(&mut self, record: R) {
        self.records.push(record);
    }

    /// What [`Store::truncate`] takes the list back to.
    pub(crate) fn mark(&self) -> Mark {
        Mark {
            records: self.records.len(),
            bytes: self.bytes.len(),
        }
    }

    /// Takes back every record and path added since `mark`.
    pub(crate) fn truncate(&mut self, mark: Mark) {
        self.records.truncate(mark.records);
        self.bytes.truncate(mark.bytes);
    }

    pub(crate) fn records(&self) -> &[R] {
        &self.records
    }

    /// The paths the records refer to.
    pub(crate) fn bytes(&self) -> &[u8] {
        &self.bytes
    }
}

/// A length of a [`Store`], to take it back to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Mark {
    pub(crate) records: usize,
    bytes: usize,
}

/// The path at `range` of a list's buffer of paths.
pub(crate) fn path_at(bytes: &[u8], range: Range<usize>) -> &Path {
    Path::new(OsStr::from_bytes(&bytes[range]))
}
