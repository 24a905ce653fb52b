//! Sessions (SPEC §10): what newly applies as an agent reads, edits, lists or creates paths,
//! each file given once, each file left out reported once, each directory looked up once.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use crate::cancel::Cancel;
use crate::chain::{self, Chain, Memory, Probe};
use crate::error::Error;
use crate::options::Options;
use crate::path;
use crate::preset::Loaded;

/// A session: the options of a chain and a record of what it has given. Its one operation,
/// [`Session::touch`], answers what newly applies at a path. It may be shared between threads;
/// its touches take effect one at a time.
///
/// ```
/// use agentsmd_core::{render, Options, Session};
///
/// let repo = tempfile::tempdir()?;
/// std::fs::write(repo.path().join("AGENTS.md"), "Run cargo test before you commit.\n")?;
/// std::fs::create_dir_all(repo.path().join("services/api"))?;
/// std::fs::write(repo.path().join("services/api/AGENTS.md"), "The API speaks JSON only.\n")?;
/// std::fs::write(repo.path().join("services/api/main.rs"), "fn main() {}\n")?;
/// let session = Session::new(Options::new().root(repo.path()))?;
///
/// // The agent's read tool: the file's text, then what newly applies there.
/// let read = |path: &std::path::Path| -> Result<Vec<u8>, Box<dyn std::error::Error>> {
///     let mut out = std::fs::read(path)?;
///     out.extend(render(&session.touch(path)?.files));
///     Ok(out)
/// };
/// let main_rs = repo.path().join("services/api/main.rs");
/// let first = read(&main_rs)?;
/// assert!(first.starts_with(b"fn main() {}\n<project_context>\n"));
/// assert!(first.ends_with(b"The API speaks JSON only.\n</project_instructions>\n</project_context>"));
/// // Given once: nothing new applies the second time.
/// assert_eq!(read(&main_rs)?, b"fn main() {}\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Session {
    options: Options,
    record: Mutex<Record>,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

/// What a session has given and reported, and what its walks remember.
#[derive(Default)]
struct Record {
    memory: Memory,
    /// The path of each file left out that a delta reported.
    omitted: HashSet<PathBuf>,
    /// Each probe a delta reported.
    probes: HashSet<Probe>,
    /// With a closed product's preset, the options of its chain, found at the first touch that
    /// succeeded: where its project is depends on a path.
    product: Option<Options>,
    /// With the preset of a product reproduced from its source, what it loaded since it
    /// started at the first touch that succeeded.
    loaded: Option<Loaded>,
}

impl Session {
    /// A session with `options` (SPEC §10). `nearest` is an `InvalidArgument` error: a session
    /// gives what newly applies, and the nearest file changes as the agent moves. With a
    /// preset (SPEC §12), the first touch is the product starting at that path and each later
    /// touch its agent reading a file there, giving what the product newly loads then
    /// ([`Preset::render_touch`](crate::Preset::render_touch) renders it); an option the
    /// preset does not take beside it is an `InvalidArgument` error here.
    pub fn new(options: Options) -> Result<Self, Error> {
        if let Some(preset) = options.preset {
            preset.refuse_beside(&options)?;
        }
        if options.nearest {
            return Err(Error::invalid_argument(
                "nearest: a session gives every file as it newly applies, so it has no nearest \
                 file (SPEC §10)",
            ));
        }
        Ok(Self {
            options,
            record: Mutex::default(),
        })
    }

    /// What newly applies at `path`, a file, a directory or a path about to be created: the
    /// files of `chain(path, options)` this session has not given, in chain order, with what
    /// was found and left out that no earlier touch reported (SPEC §10). A path outside the
    /// root gives nothing. An error leaves the session as it was before the touch.
    pub fn touch(&self, path: impl AsRef<Path>) -> Result<Chain, Error> {
        self.touch_with(path.as_ref(), &self.options)
    }

    /// [`Session::touch`], stopped with an `Aborted` error once `cancel` is cancelled (SPEC
    /// §4): a host cancels one touch, such as the one of a tool call the user interrupted,
    /// and the session goes on as it was before it.
    pub fn touch_cancellable(
        &self,
        path: impl AsRef<Path>,
        cancel: &Cancel,
    ) -> Result<Chain, Error> {
        let options = self.options.clone().cancel(cancel.clone());
        self.touch_with(path.as_ref(), &options)
    }

    fn touch_with(&self, path: &Path, options: &Options) -> Result<Chain, Error> {
        // A touch that panicked left nothing half done: its changes are made once it succeeds.
        let mut record = self.record.lock().unwrap_or_else(PoisonError::into_inner);
        // A closed product's chain options, found at the first touch (its project depends on
        // a path); none for the other presets, whose sessions are their own.
        let product = match (&record.product, options.preset) {
            (Some(product), _) => {
                let mut product = product.clone();
                product.cancel = options.cancel.clone();
                Some(product)
            }
            (None, Some(preset)) => preset.options(path, options)?,
            (None, None) => None,
        };
        let mut delta = match (options.preset, product) {
            (Some(_), Some(product)) => {
                let delta = chain::touch(path, &product, &mut record.memory)?;
                record.product = Some(product);
                delta
            }
            (Some(preset), None) => {
                let (delta, loaded) = match &record.loaded {
                    None => preset.start(path, options)?,
                    Some(loaded) => {
                        let mut loaded = loaded.clone();
                        (preset.touch(&mut loaded, path, options)?, loaded)
                    }
                };
                record.loaded = Some(loaded);
                delta
            }
            (None, _) => chain::touch(path, options, &mut record.memory)?,
        };
        let Record {
            memory,
            omitted,
            probes,
            ..
        } = &mut *record;
        let given = delta.files.iter().map(|file| path::bytes(&file.path));
        let imported = delta.imports.iter().filter(|import| !import.duplicate);
        let imported = imported.map(|import| path::bytes(&import.path));
        memory
            .given
            .extend(given.chain(imported).map(<[u8]>::to_vec));
        // Reported once across deltas; within one, as its chain reports (SPEC §11.1).
        delta
            .omitted
            .retain(|left_out| !omitted.contains(&left_out.path));
        omitted.extend(delta.omitted.iter().map(|left_out| left_out.path.clone()));
        delta.probes.retain(|probe| !probes.contains(probe));
        probes.extend(delta.probes.iter().cloned());
        Ok(delta)
    }
}
