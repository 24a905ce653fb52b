// The constants of the C header as well as of the crate: `build.rs` includes this file to write
// them into `include/agentsmd.h` as macros, so the two cannot drift.

/// The identifier of the one instructions part [`render`](crate::render) produces.
pub const PART_ID: &str = "agentsmd";

/// The file name looked for when no names are given.
pub const DEFAULT_NAME: &str = "AGENTS.md";

/// The most one file may read when no limit is given: 1 MiB.
pub const DEFAULT_MAX_BYTES: u64 = 1 << 20;

/// How deep imports may nest when no depth is given: a directive of a depth-5 file is an error.
pub const DEFAULT_IMPORT_DEPTH: u32 = 5;

/// The most import reads of one chain when no count is given.
pub const DEFAULT_MAX_IMPORTS: u32 = 64;
