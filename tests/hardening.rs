//! Tests that hunt for failures rather than confirm the happy path (SECURITY.md names each):
//! symbolic links out of the root under confinement, a FIFO swapped in under the walk, every C export inside the panic boundary, a fault injected
//! at every callback of a chain, the C suite under AddressSanitizer, and eight threads sharing
//! options and results under helgrind.

mod cbuild;
mod support;

#[path = "hardening/boundary.rs"]
mod boundary;
#[path = "hardening/confinement.rs"]
mod confinement;
#[path = "hardening/faults.rs"]
mod faults;
#[path = "hardening/no_blocking.rs"]
mod no_blocking;
#[path = "hardening/sanitizers.rs"]
mod sanitizers;
#[path = "hardening/threads.rs"]
mod threads;
