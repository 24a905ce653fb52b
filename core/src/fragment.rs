//! Fragments (SPEC.md §5.2): after each directory's own file, the `.md` files of each of its
//! fragment directories ([`Options::fragments`](crate::Options::fragments)), in byte order.

use std::ffi::OsString;

use crate::chain::{Collector, Reason, Source};
use crate::error::Error;
use crate::fs::{Files, Kind};
use crate::path::{self, FsName};
use crate::probe::Outcome;

/// The source of the files of the fragment directories of a directory whose own file has
/// `source`: `fragment` for a directory of the walk, `overlay` for an overlay.
pub(crate) fn source_of(source: Source) -> Source {
    match source {
        Source::Chain => Source::Fragment,
        other => other,
    }
}

impl Collector<'_> {
    /// The files of each fragment directory of `dir`, in order, after `dir`'s own file, whose
    /// source is `source`; `scope` bounds their imports.
    pub(crate) fn fragments(
        &mut self,
        files: &Files,
        dir: &FsName,
        scope: &[u8],
        source: Source,
    ) -> Result<(), Error> {
        let source = source_of(source);
        let fragments = self.fragments;
        for fragment in fragments {
            self.fragment_dir(files, &dir.join(fragment), scope, source)?;
        }
        Ok(())
    }

    /// The fragment directory `dir`: its `.md` regular files not beginning with `.`, in byte
    /// order. One that does not exist, or is no directory, adds nothing.
    fn fragment_dir(
        &mut self,
        files: &Files,
        dir: &FsName,
        scope: &[u8],
        source: Source,
    ) -> Result<(), Error> {
        let listed = match files.find_entry(dir)? {
            Some(Kind::Dir) => files.list(dir)?,
            Some(Kind::Escapes) => {
                self.omit(&files.path_of(dir), 0, Reason::Escapes, None, source);
                return Ok(());
            }
            Some(_) => {
                self.probe_name(files, dir, source, Outcome::NotAFile);
                return Ok(());
            }
            None => None,
        };
        let Some(listed) = listed else {
            self.probe_name(files, dir, source, Outcome::NotFound);
            return Ok(());
        };
        self.probe_name(files, dir, source, Outcome::Listed);
        for name in md_files(&listed) {
            let name = dir.join(name);
            match files.find(&name)? {
                Some(Kind::File { size }) => {
                    self.add_file(files, &name, size, source, scope)?;
                }
                Some(Kind::Escapes) => {
                    self.omit(&files.path_of(&name), 0, Reason::Escapes, None, source)
                }
                // Listed but leading nowhere: a dangling link, no file.
                _ => self.probe_name(files, &name, source, Outcome::NotAFile),
            }
        }
        Ok(())
    }
}

/// The names of a fragment directory's files, of those it lists: each `.md` name not beginning
/// with `.`, in byte order.
pub(crate) fn md_files(listed: &[OsString]) -> Vec<&[u8]> {
    let mut names: Vec<&[u8]> = listed
        .iter()
        .map(|name| name.as_encoded_bytes())
        .filter(|name| name.ends_with(b".md") && !name.starts_with(b".") && path::is_element(name))
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}
