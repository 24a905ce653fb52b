//! Tests that hunt for failures rather than confirm the happy path (docs/security.md names each):
//! the library exporting exactly what the headers declare, a fault injected at every callback of a chain, the
//! C suite under AddressSanitizer, and eight threads sharing options and results under helgrind.
//! Confinement and a FIFO swapped in under the walk are the Rust core's
//! (`core/tests/confinement.rs`, `core/tests/no_blocking.rs`).

mod cbuild;

#[path = "hardening/boundary.rs"]
mod boundary;
#[path = "hardening/faults.rs"]
mod faults;
#[path = "hardening/sanitizers.rs"]
mod sanitizers;
#[path = "hardening/threads.rs"]
mod threads;
