//go:build agentsmd_system

package agentsmd

// With -tags agentsmd_system the package links -lagentsmd from wherever the
// C toolchain finds it: the system's paths, or those CGO_CFLAGS and
// CGO_LDFLAGS name (such as pkg-config's output). A directory holding only
// libagentsmd.a links it statically; a shared library outside the loader's
// paths needs -Wl,-rpath,DIR in CGO_LDFLAGS. The system libraries are there
// for a static archive, as in link_checkout.go; on Windows (mingw-w64), those
// the Rust standard library names.

// #cgo !windows LDFLAGS: -lagentsmd -lpthread -ldl -lm
// #cgo windows LDFLAGS: -lagentsmd -lkernel32 -lntdll -luserenv -lws2_32 -ldbghelp
import "C"
