//! The npm package `agentsmd`: the AGENTS.md convention for Node and TypeScript, a napi-rs
//! addon over agentsmd-core (SPEC.md). index.js, written by hand, is the package's surface; this
//! crate is the addon it loads through the generated binding.js, a thin layer of `#[napi]`
//! exports over the core, as swc's, oxc's and lightningcss's are.
//!
//! - Exports: `chain` and `chainSync` (chain.rs), `render` and `renderBytes` (render.rs),
//!   `overlayDir` (overlay.rs), `parse`, `parseText`, `parseNearest` and `block`
//!   (structure.rs), the class `Session` (session.rs), `pathToBytes` and `pathFromBytes`
//!   (text.rs), `PART_ID`.
//! - Arguments are read by input.rs and options.rs; byte strings meet JavaScript strings by one
//!   rule (text.rs).
//! - Async calls run off the main thread (work.rs): on libuv's pool, or, with JavaScript
//!   callbacks, on at most `CALLBACK_THREADS` threads of the addon's (pool.rs), which reach the
//!   main thread through its event loop (event_loop.rs); the callbacks are called from there, or
//!   directly in a synchronous call (callback.rs, fs.rs).
//! - Every failure is an error object that index.js makes an `AgentsmdError` (error.rs), a
//!   panic included: nothing unwinds into Node (boundary.rs).

mod boundary;
mod buffer;
mod callback;
mod chain;
mod error;
mod event_loop;
mod fs;
mod input;
mod options;
mod overlay;
mod pool;
mod render;
mod session;
mod structure;
#[cfg(feature = "test-hooks")]
mod test_hooks;
mod text;
mod types;
mod work;

use napi_derive::napi;

/// The identifier of the one instructions part `render` produces.
#[napi(js_name = "PART_ID")]
pub const PART_ID: &str = agentsmd_core::PART_ID;

/// How many threads of the addon's run the async calls that have callbacks, at most: more calls
/// wait for one of them (src/pool.rs). A callback that awaits another call with callbacks holds
/// its thread meanwhile, so that nesting as deep as `CALLBACK_THREADS` in every thread at once
/// would wait for ever.
#[napi(js_name = "CALLBACK_THREADS")]
pub const CALLBACK_THREADS: u32 = pool::THREADS as u32;
