//! The trees the benchmark generates: deep chains of wide directories, and a spread-out project.

use std::fs;
use std::path::{Path, PathBuf};

/// One instruction file's text: a kilobyte of rules.
pub fn rules(label: &str) -> String {
    let line = format!("- {label}: keep functions small, name things for what they hold.\n");
    line.repeat(1024 / line.len() + 1)
}

/// A chain of `depth` directories below `root`, each holding `width` entries: the next
/// directory, an `AGENTS.md` every `every` levels (none when 0), and empty files for the rest.
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

/// A project of 200 directories below its root (8 top-level ones, 4 below each, 5 below each
/// of those), 5 source files in each, and `AGENTS.md` in the root, each top-level directory
/// and every other one of the second level.
pub struct Project {
    pub root: PathBuf,
    /// The 1,000 source files.
    pub files: Vec<PathBuf>,
}

pub fn project(base: &Path) -> Project {
    let root = base.join("project");
    fs::create_dir_all(&root).expect("create the project");
    fs::write(root.join("AGENTS.md"), rules("root")).expect("write AGENTS.md");
    let mut dirs = Vec::new();
    for top in 0..8 {
        let top_dir = root.join(format!("pkg{top}"));
        fs::create_dir_all(&top_dir).expect("create a directory");
        fs::write(top_dir.join("AGENTS.md"), rules(&format!("pkg{top}"))).expect("write");
        dirs.push(top_dir.clone());
        for mid in 0..4 {
            let mid_dir = top_dir.join(format!("mod{mid}"));
            fs::create_dir_all(&mid_dir).expect("create a directory");
            if mid % 2 == 0 {
                fs::write(mid_dir.join("AGENTS.md"), rules(&format!("mod{mid}"))).expect("write");
            }
            dirs.push(mid_dir.clone());
            for leaf in 0..5 {
                let leaf_dir = mid_dir.join(format!("part{leaf}"));
                fs::create_dir_all(&leaf_dir).expect("create a directory");
                dirs.push(leaf_dir);
            }
        }
    }
    assert_eq!(dirs.len(), 200);
    let mut files = Vec::with_capacity(1000);
    for dir in &dirs {
        for i in 0..5 {
            let file = dir.join(format!("file{i}.rs"));
            fs::write(&file, "fn main() {}\n").expect("write a source file");
            files.push(file);
        }
    }
    Project { root, files }
}
