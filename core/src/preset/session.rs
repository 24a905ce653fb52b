//! A session of a product reproduced from its source (SPEC §12 with §10): its first touch is
//! the product starting at that path, each later touch its agent reading a file there. A closed
//! product's session is the library's own, with [`Preset::options`].

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::{gemini, opencode, Allowance, Loader, Preset};
use crate::chain::{Chain, File};
use crate::error::Error;
use crate::options::Options;
use crate::path;

/// What such a session remembers: where the product started, what it has loaded since as the
/// product tells files apart, and what is left of the budget.
#[derive(Clone, Debug)]
pub(crate) struct Loaded {
    /// The directory the product runs in (Gemini CLI's workspace, opencode's instance).
    pub(super) cwd: PathBuf,
    /// Gemini CLI: the identity (device and inode) of each file it has loaded.
    pub(super) identities: HashSet<gemini::FileId>,
    /// opencode: the path of each file a read attached.
    pub(super) attached: HashSet<PathBuf>,
    allowance: Allowance,
}

impl Preset {
    /// The first touch of a session of a product reproduced from its source (not
    /// [`Preset::is_documented`]): what the product loads when it starts at `path`, and what
    /// the session remembers of it.
    pub(crate) fn start(self, path: &Path, options: &Options) -> Result<(Chain, Loaded), Error> {
        let chain = self.load(path, options)?;
        let cwd = self.working_dir(path, options)?;
        let mut loaded = Loaded {
            cwd,
            identities: HashSet::new(),
            attached: HashSet::new(),
            allowance: Allowance::of(options),
        };
        if self == Preset::GeminiCli {
            gemini::start(&chain, &mut loaded);
        }
        let chain = loaded.allowance.bound(chain);
        Ok((chain, loaded))
    }

    /// A later touch of that session: what the product newly loads when its agent reads `path`
    /// — Gemini CLI the `GEMINI.md` files between the path and its project root it has not
    /// loaded, opencode those of the directories between the path and where it runs; the
    /// others nothing, as they load their files when they start (Cline and Roo Code build
    /// their instructions anew for each request of the model, from the same files).
    pub(crate) fn touch(
        self,
        loaded: &mut Loaded,
        path: &Path,
        options: &Options,
    ) -> Result<Chain, Error> {
        let path = path::absolute(path)?;
        let mut loader = Loader::new(options);
        match self {
            Preset::GeminiCli => gemini::read(&mut loader, loaded, &path, options)?,
            Preset::Opencode => opencode::read_touch(&mut loader, loaded, &path, options)?,
            _ => {}
        }
        Ok(loaded.allowance.bound(loader.chain))
    }

    /// The piece the product adds to what its model is given when its agent reads a file,
    /// for the files a later touch of a session gave (SPEC §12 with §10): Gemini CLI's
    /// `--- Newly Discovered Project Context ---` block after the tool's result, opencode's
    /// `<system-reminder>` after the file's text; SPEC §2's rendering for a closed product.
    /// The first touch's files are the product's start, which [`Preset::render`] renders.
    pub fn render_touch(self, files: &[File]) -> Vec<u8> {
        match self {
            Preset::GeminiCli => gemini::render_touch(files),
            Preset::Opencode => opencode::render_touch(files),
            _ => crate::render(files),
        }
    }
}
