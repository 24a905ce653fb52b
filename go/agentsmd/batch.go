package agentsmd

// #include <agentsmd.h>
import "C"

import (
	"context"
	"fmt"
	"io/fs"
	"unsafe"
)

// BatchFS is an fs.FS that answers many questions in one call.
//
// A file system across a network, where each call costs a round trip, gets
// a whole chain in a few calls this way: Chain uses it whenever Options.FS
// implements it, as the io/fs helpers use ReadDirFS. It asks ReadDirs once
// for every directory it lists (each directory of the walk and each fragment
// directory, and the path itself in case it is a directory), ReadFiles once
// for the files it reads (under a budget, once more wherever the files read so
// far decide whether the next fits), and ReadFiles once more for each level of
// imports. An entry whose Type is a symbolic link costs one fs.Stat, when the
// chain needs to know what it leads to; anything the batches did not answer
// goes through the fs.FS. A listing names everything in its directory: a name
// it does not list is not there (but for an import's target, which is asked
// of fs.Stat, as a file system may find a name under another spelling). The
// result is the one the single questions give, and
// no file is read that they would not read, unless the chain then ends in an
// error, or, under a budget, a file reads more than its listed size or
// vanishes between the two. examples/remote serves a directory over HTTP and
// is a BatchFS client.
//
// To ReadDirs, a name that is no directory (a file, or nothing) does not
// exist; to ReadFiles, a name that is no regular file is not found (stat it
// before opening it: a FIFO, opened, blocks). An error from either fails the
// chain, naming the batch's first name, or for imports the first directive's;
// it is never asked again.
type BatchFS interface {
	fs.FS
	// ReadDirs lists each named directory; a nil entry means that directory does not exist.
	// Each fs.DirEntry's Info must answer without another call.
	ReadDirs(names []string) ([][]fs.DirEntry, error)
	// ReadFiles reads each named file, at most limit bytes; a nil entry means not found.
	ReadFiles(names []string, limit int64) ([][]byte, error)
}

// BatchContextFS is a BatchFS whose batches take the context of
// [ChainContext] (context.Background() for Chain, Parse and ParseNearest), so
// that a file system across a network can give up a round trip its caller no
// longer waits for. Options.FS is asked ReadDirsContext and ReadFilesContext
// in place of ReadDirs and ReadFiles when it implements them. Their errors
// fail the chain as ReadDirs's and ReadFiles's do; ctx's own error, once ctx
// is done, makes it ChainContext's [KindAborted] error.
type BatchContextFS interface {
	BatchFS
	// ReadDirsContext is ReadDirs, for the chain run with ctx.
	ReadDirsContext(ctx context.Context, names []string) ([][]fs.DirEntry, error)
	// ReadFilesContext is ReadFiles, for the chain run with ctx.
	ReadFilesContext(ctx context.Context, names []string, limit int64) ([][]byte, error)
}

// readDirs asks the file system's ReadDirsContext, or its ReadDirs.
func (b *fsBridge) readDirs(names []string) ([][]fs.DirEntry, error) {
	if fsys, ok := b.fsys.(BatchContextFS); ok {
		return fsys.ReadDirsContext(b.ctx, names)
	}
	return b.fsys.(BatchFS).ReadDirs(names)
}

// readFiles asks the file system's ReadFilesContext, or its ReadFiles.
func (b *fsBridge) readFiles(names []string, limit int64) ([][]byte, error) {
	if fsys, ok := b.fsys.(BatchContextFS); ok {
		return fsys.ReadFilesContext(b.ctx, names, limit)
	}
	return b.fsys.(BatchFS).ReadFiles(names, limit)
}

// goNames copies the names the library lends for one batch call.
func goNames(names *C.agentsmd_bytes, count C.size_t) []string {
	lent := unsafe.Slice(names, int(count))
	out := make([]string, len(lent))
	for i, name := range lent {
		out[i] = goName(name.ptr, name.len)
	}
	return out
}

// answeredEach is an error unless got answers are one per asked name.
func answeredEach(method string, got, asked int) error {
	if got == asked {
		return nil
	}
	return fmt.Errorf("%s answered %d of %d names", method, got, asked)
}

// agentsmdgoListMany lists dirs with ReadDirs, pushing each entry with what
// its fs.DirEntry says it is: a symbolic link is pushed as one, for the
// library to stat.
//
//export agentsmdgoListMany
func agentsmdgoListMany(fsys C.uintptr_t, dirs *C.agentsmd_bytes, count C.size_t, listings *C.agentsmd_listings, message *C.agentsmd_message) (status C.uint32_t) {
	b := bridgeOf(fsys)
	defer b.recoverPanic(&status, message)
	listed, err := b.readDirs(goNames(dirs, count))
	if err == nil {
		err = answeredEach("ReadDirs", len(listed), int(count))
	}
	if err != nil {
		return b.fail(err, message)
	}
	for i, entries := range listed {
		if entries == nil {
			continue
		}
		C.agentsmd_listings_found(listings, C.size_t(i))
		for _, entry := range entries {
			kind, size, err := kindOf(entry)
			if err != nil {
				return b.fail(err, message)
			}
			name := entry.Name()
			// Copied during the call, as agentsmd_listing_push copies; a
			// name that is not one path element fails the batch in the
			// library, which names it.
			C.agentsmd_listings_push(listings, C.size_t(i), (*C.uint8_t)(unsafe.Pointer(unsafe.StringData(name))), C.size_t(len(name)), kind, size)
		}
	}
	return statusOK
}

// kindOf is the library's kind and size of entry: a symbolic link as one,
// anything else as its Info says.
func kindOf(entry fs.DirEntry) (C.uint32_t, C.uint64_t, error) {
	if entry.Type()&fs.ModeSymlink != 0 {
		return C.AGENTSMD_ENTRY_KIND_LINK, 0, nil
	}
	info, err := entry.Info()
	if err != nil {
		return 0, 0, err
	}
	switch mode := info.Mode(); {
	case mode.IsRegular():
		return C.AGENTSMD_ENTRY_KIND_FILE, C.uint64_t(max(info.Size(), 0)), nil
	case mode.IsDir():
		return C.AGENTSMD_ENTRY_KIND_DIR, 0, nil
	default:
		return C.AGENTSMD_ENTRY_KIND_OTHER, 0, nil
	}
}

// agentsmdgoReadMany reads names with ReadFiles, setting each file found.
//
//export agentsmdgoReadMany
func agentsmdgoReadMany(fsys C.uintptr_t, names *C.agentsmd_bytes, count C.size_t, limit C.uint64_t, reads *C.agentsmd_reads, message *C.agentsmd_message) (status C.uint32_t) {
	b := bridgeOf(fsys)
	defer b.recoverPanic(&status, message)
	// A limit past int64 reads everything there is.
	read, err := b.readFiles(goNames(names, count), int64(min(uint64(limit), 1<<63-1)))
	if err == nil {
		err = answeredEach("ReadFiles", len(read), int(count))
	}
	if err != nil {
		return b.fail(err, message)
	}
	for i, content := range read {
		if content == nil {
			continue
		}
		// The library copies at most limit bytes during the call; Go memory
		// holding no Go pointer may be passed for that long.
		C.agentsmd_reads_set(reads, C.size_t(i), (*C.uint8_t)(unsafe.SliceData(content)), C.size_t(len(content)))
	}
	return statusOK
}
