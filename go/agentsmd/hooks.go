//go:build agentsmd_test_hooks

package agentsmd

// Built with -tags agentsmd_test_hooks, against a library built with its
// test-hooks feature (as `cargo test` builds it): what the library's test
// hooks count, for the package's own tests.

// #include <agentsmd_test_hooks.h>
import "C"

// bytesZeroed is how many bytes the library has zeroed in the buffers it
// handed to file systems' reads since the process started.
func bytesZeroed() uint64 {
	return uint64(C.agentsmd_test_bytes_zeroed())
}

// libraryPanic is the error of a call whose body panicked in the library.
func libraryPanic() error {
	var cerr *C.agentsmd_error
	return errorOf(C.agentsmd_test_panic(&cerr), cerr)
}
