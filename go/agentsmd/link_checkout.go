//go:build !agentsmd_system

package agentsmd

// In a checkout, by default the package links the library of the repository
// checkout it sits in, as `cargo build --release` leaves it, and links it
// statically. (A release of the module has no checkout around it: it carries
// the header and a library per platform, and tools/dist/go puts
// tools/dist/go-module/link_bundled.go in this file's place.) Statically:
// the binary then needs nothing at run time, and runs wherever it is copied.
// The system libraries follow the archive because the Rust standard library
// inside it needs them (on current glibc they are part of libc).
//
// Build with -tags agentsmd_system to link an installed library instead
// (link_system.go). A cgo directive cannot read the environment, so
// when CARGO_TARGET_DIR moves Cargo's output elsewhere, link target/release
// to it (README.md, "Building with Go", has the command).

// #cgo CFLAGS: -I${SRCDIR}/../../include
// #cgo !windows LDFLAGS: ${SRCDIR}/../../target/release/libagentsmd.a -lpthread -ldl -lm
// #cgo windows LDFLAGS: ${SRCDIR}/../../target/release/libagentsmd.a -lkernel32 -lntdll -luserenv -lws2_32 -ldbghelp
import "C"
