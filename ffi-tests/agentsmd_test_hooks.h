/*
 * The test hooks: functions only a library built with the `test-hooks` feature exports (as
 * `cargo test` builds it), for the C, Go and Zig tests. Not part of the shipped header or of any
 * release build. Hand-written: src/test_hooks.rs defines them, and tests/hardening/boundary.rs
 * checks that the library the tests link exports exactly the functions of agentsmd.h and of this
 * file.
 */

#ifndef AGENTSMD_TEST_HOOKS_H
#define AGENTSMD_TEST_HOOKS_H

#include <stdint.h>

#include "agentsmd.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Panics inside the library, as a bug would; returns AGENTSMD_STATUS_PANIC with an error object,
 * proving that the boundary catches the panic.
 */
agentsmd_status agentsmd_test_panic(struct agentsmd_error **error_out);

/*
 * Arms a panic inside the library: right after the `count`-th file-system callback from now
 * returns (list, stat, open or read, on any thread), the library panics, as a bug in the walk
 * would, and the chain returns AGENTSMD_STATUS_PANIC. 0 disarms.
 */
void agentsmd_test_panic_after_callbacks(uint64_t count);

/*
 * How many bytes the library has zeroed, since the process started, in the buffers it passes to
 * custom file systems' read callbacks: the work of reading a file apart from the callbacks' own.
 */
uint64_t agentsmd_test_bytes_zeroed(void);

#ifdef __cplusplus
}
#endif

#endif /* AGENTSMD_TEST_HOOKS_H */
