//go:build !agentsmd_system && ((linux && amd64) || (linux && arm64) || (darwin && amd64) || (darwin && arm64) || (windows && amd64))

package agentsmd

// A release of the module (what `go get` downloads) carries the C library it
// links: the header in include/ and, for each platform below, a static
// library in lib/GOOS_GOARCH/, built from the same release's Rust core. The
// package links it statically, so neither a Rust toolchain nor an installed
// library is needed, and the binary needs nothing at run time. The system
// libraries follow the archive because the Rust standard library inside it
// needs them (on current glibc they are part of libc; on macOS cc links
// libSystem, all it needs).
//
// Build with -tags agentsmd_system to link an installed library instead
// (link_system.go). In a checkout of the repository, which carries no
// libraries, link_checkout.go links the one `cargo build --release` leaves.

// #cgo CFLAGS: -I${SRCDIR}/include
// #cgo linux,amd64 LDFLAGS: ${SRCDIR}/lib/linux_amd64/libagentsmd.a -lpthread -ldl -lm
// #cgo linux,arm64 LDFLAGS: ${SRCDIR}/lib/linux_arm64/libagentsmd.a -lpthread -ldl -lm
// #cgo darwin,amd64 LDFLAGS: ${SRCDIR}/lib/darwin_amd64/libagentsmd.a
// #cgo darwin,arm64 LDFLAGS: ${SRCDIR}/lib/darwin_arm64/libagentsmd.a
// #cgo windows,amd64 LDFLAGS: ${SRCDIR}/lib/windows_amd64/libagentsmd.a -lkernel32 -lntdll -luserenv -lws2_32 -ldbghelp
import "C"
