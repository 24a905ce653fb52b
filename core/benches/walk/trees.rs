//! The trees the benchmark generates: chains of directories, wide or narrow, and the same
//! chain composed (a fragment directory, an import, an overlay).

use std::fs;
use std::path::{Path, PathBuf};

/// One instruction file's text: a kilobyte of rules.
pub fn rules(label: &str) -> String {
    let line = format!("- {label}: keep functions small, name things for what they hold.\n");
    line.repeat(1024 / line.len() + 1)
}

/// A chain of `depth` directories below `root`, each holding `width` entries: the next
/// directory, an `AGENTS.md` every `every` levels from the root (none when 0), and empty files
/// for the rest.
pub struct Deep {
    pub root: PathBuf,
    /// A file about to be created in the deepest directory: the path each chain asks about.
    pub path: PathBuf,
    /// Every directory from the root down, the root first.
    pub dirs: Vec<PathBuf>,
}

pub fn deep(base: &Path, name: &str, depth: usize, width: usize, every: usize) -> Deep {
    let root = base.join(name);
    let mut dirs = Vec::with_capacity(depth);
    let mut dir = root.clone();
    for level in 0..depth {
        fs::create_dir_all(&dir).expect("create a directory");
        let mut entries = 0;
        if level + 1 < depth {
            entries += 1; // the next level
        }
        if every > 0 && level % every == 0 {
            fs::write(dir.join("AGENTS.md"), rules(&format!("level {level}")))
                .expect("write AGENTS.md");
            entries += 1;
        }
        for i in entries..width {
            fs::File::create(dir.join(format!("entry-{i:05}.rs"))).expect("create an entry");
        }
        dirs.push(dir.clone());
        dir = dir.join("d");
    }
    let path = dirs.last().expect("depth > 0").join("main.rs");
    Deep { root, path, dirs }
}

/// The fragment directory of every directory of the composed chains.
pub const FRAGMENTS: &str = ".agents/AGENTS.d";

/// The overlay of the chains of `root`: a sibling directory with its own `AGENTS.md`.
pub fn overlay_of(root: &Path) -> PathBuf {
    let mut overlay = root.as_os_str().to_owned();
    overlay.push(".overlay");
    PathBuf::from(overlay)
}

/// The files `composed` imports into the root's `AGENTS.md`.
pub const IMPORTED: usize = 4;

/// A 32-deep chain of `deep(…, 32, 100, 8)`, composed: the root's `AGENTS.md` imports
/// [`IMPORTED`] files of `docs/`, level 8 holds a fragment directory of two files, and the root
/// has an overlay (see [`overlay_of`]). Every other directory lacks the fragment directory.
pub fn composed(base: &Path, name: &str) -> Deep {
    let tree = deep(base, name, 32, 100, 8);
    let docs = tree.root.join("docs");
    fs::create_dir_all(&docs).expect("create docs");
    let mut root_file = String::new();
    for i in 0..IMPORTED {
        fs::write(
            docs.join(format!("guide{i}.md")),
            rules(&format!("guide {i}")),
        )
        .expect("write a guide");
        root_file.push_str(&format!("@docs/guide{i}.md\n"));
    }
    root_file.push_str(&rules("root"));
    fs::write(tree.root.join("AGENTS.md"), root_file).expect("write the root's AGENTS.md");
    let fragments = tree.dirs[8].join(FRAGMENTS);
    fs::create_dir_all(&fragments).expect("create a fragment directory");
    for part in ["10-style.md", "20-tests.md"] {
        fs::write(fragments.join(part), rules(part)).expect("write a fragment");
    }
    let overlay = overlay_of(&tree.root);
    fs::create_dir_all(&overlay).expect("create the overlay");
    fs::write(overlay.join("AGENTS.md"), rules("overlay")).expect("write the overlay's file");
    tree
}
