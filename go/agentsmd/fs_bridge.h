// The C side of serving an fs.FS to the library: trampolines with the exact
// agentsmd_fs signatures that call the Go functions fs.go exports. Go cannot
// take the address of a Go function as a C function pointer, and the exported
// functions' generated prototypes differ from agentsmd_fs's (no const), hence
// these.

#ifndef AGENTSMDGO_FS_BRIDGE_H
#define AGENTSMDGO_FS_BRIDGE_H

#include <stdint.h>

#include <agentsmd.h>

// Sets on options the callbacks answering from the Go file system behind the
// cgo.Handle fsys, with the batched ones when batched is not 0 (a BatchFS).
// The handle travels as userdata, an integer in a pointer, so no Go pointer
// is ever stored in C memory; the options' release callback deletes it.
agentsmd_status agentsmdgo_set_fs(agentsmd_options *options, uintptr_t fsys, int batched,
                                  agentsmd_error **error_out);

// Sets on options the transform calling the Go function behind the cgo.Handle
// transform (compose.go), which travels as userdata as fsys does; the
// transform's release callback deletes it.
agentsmd_status agentsmdgo_set_transform(agentsmd_options *options, uintptr_t transform,
                                         agentsmd_error **error_out);

#endif
