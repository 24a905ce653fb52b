package agentsmd

// #include <stdlib.h>
// #include <agentsmd.h>
import "C"

import "unsafe"

// The cgo rules let C read Go memory during a call only if that memory holds
// no Go pointer, and an array of agentsmd_bytes or agentsmd_file pointing at
// Go strings would. So the lists handed to the library are copied into one C
// allocation each, array first and bytes after; the library copies what it
// keeps, and the allocation is freed when the call returns.

// cBytes is a byte string of the library's that borrows s for the length of
// one call. The bytes are Go memory holding no Go pointer, which C may read
// during the call.
func cBytes(s string) (*C.uint8_t, C.size_t) {
	return (*C.uint8_t)(unsafe.Pointer(unsafe.StringData(s))), C.size_t(len(s))
}

// goString copies a byte string the library lends.
func goString(b C.agentsmd_bytes) string {
	if b.len == 0 {
		return ""
	}
	return string(unsafe.Slice((*byte)(unsafe.Pointer(b.ptr)), int(b.len)))
}

// cArena is one C allocation holding an array of n elements of size each,
// followed by the bytes those elements point to.
type cArena struct {
	base  unsafe.Pointer
	bytes []byte
}

// newArena allocates room for n elements of elemSize bytes and total bytes of
// strings. It is never empty, so that the array pointer is never NULL.
func newArena(n int, elemSize uintptr, total int) cArena {
	head := uintptr(n) * elemSize
	base := C.malloc(C.size_t(head + uintptr(total) + 1))
	return cArena{
		base:  base,
		bytes: unsafe.Slice((*byte)(unsafe.Add(base, head)), total+1)[:0],
	}
}

// put copies s after the array and returns it as a byte string.
func (a *cArena) put(s string) C.agentsmd_bytes {
	start := len(a.bytes)
	a.bytes = append(a.bytes, s...) // never reallocates: newArena counted s
	return C.agentsmd_bytes{
		ptr: (*C.uint8_t)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(a.bytes)), start)),
		len: C.size_t(len(s)),
	}
}

// free releases the allocation.
func (a *cArena) free() {
	C.free(a.base)
}

// cBytesList copies strings into C memory as an array of agentsmd_bytes. The
// caller frees the arena after the call the array is for.
func cBytesList(strings []string) (*C.agentsmd_bytes, cArena) {
	total := 0
	for _, s := range strings {
		total += len(s)
	}
	arena := newArena(len(strings), unsafe.Sizeof(C.agentsmd_bytes{}), total)
	array := unsafe.Slice((*C.agentsmd_bytes)(arena.base), len(strings))
	for i, s := range strings {
		array[i] = arena.put(s)
	}
	return (*C.agentsmd_bytes)(arena.base), arena
}

// cFiles copies files into C memory as an array of agentsmd_file. The caller
// frees the arena after the call the array is for.
func cFiles(files []File) (*C.agentsmd_file, cArena) {
	total := 0
	for _, f := range files {
		total += len(f.Path) + len(f.Content)
	}
	arena := newArena(len(files), unsafe.Sizeof(C.agentsmd_file{}), total)
	array := unsafe.Slice((*C.agentsmd_file)(arena.base), len(files))
	for i, f := range files {
		array[i] = C.agentsmd_file{path: arena.put(f.Path), content: arena.put(f.Content)}
	}
	return (*C.agentsmd_file)(arena.base), arena
}

// cRuleDirs copies rules into C memory as an array of agentsmd_rule_dir,
// rules[i] of dialects[i]. The caller frees the arena after the call the
// array is for.
func cRuleDirs(rules []RuleDir, dialects []C.uint32_t) (*C.agentsmd_rule_dir, cArena) {
	total := 0
	for _, r := range rules {
		total += len(r.Dir)
	}
	arena := newArena(len(rules), unsafe.Sizeof(C.agentsmd_rule_dir{}), total)
	array := unsafe.Slice((*C.agentsmd_rule_dir)(arena.base), len(rules))
	for i, r := range rules {
		array[i] = C.agentsmd_rule_dir{dialect: dialects[i], dir: arena.put(r.Dir)}
	}
	return (*C.agentsmd_rule_dir)(arena.base), arena
}
