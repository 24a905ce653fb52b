package agentsmd

// #include <agentsmd.h>
// #include "fs_bridge.h"
import "C"

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"runtime/cgo"
	"sync"
	"unsafe"
)

// fsBridge serves one Chain's Options.FS to the library. The library holds it
// as a cgo.Handle for as long as the C options do, and the callbacks below
// find it through that handle.
//
// It also keeps what a C status cannot carry back: the Go error behind the
// last failed callback, so that Chain's error wraps it for errors.Is and
// errors.As, and a panic, so that Chain raises it again in Go rather than
// letting it unwind through the library's frames.
type fsBridge struct {
	fsys fs.FS
	// ctx is the chain's context, which a BatchContextFS is given.
	ctx context.Context
	// canceller, when ctx can be done, stops the chain once it is.
	canceller *canceller
	callbackState
}

// callbackState is what the callbacks of one Chain, to Options.FS or
// Options.Transform, keep for Chain that a C status cannot carry back.
type callbackState struct {
	mu sync.Mutex
	// err is the last error a callback answered with; its text is the
	// message the callback set.
	err error
	// panicked is set, with panicValue, by the first callback that panicked.
	panicked   bool
	panicValue any
}

// bridgeOf is the fsBridge behind a handle the library passed back.
func bridgeOf(fsys C.uintptr_t) *fsBridge {
	return cgo.Handle(fsys).Value().(*fsBridge)
}

// openFile is a file the library opened: a cgo.Handle to it is the C file
// handle. err is the error the last Read returned, io.EOF included: bytes
// that came with it are answered first, and the error at the next read.
type openFile struct {
	file fs.File
	err  error
}

// Callback answers, as the library's agentsmd_callback_status values.
const (
	statusOK       = C.uint32_t(C.AGENTSMD_CALLBACK_STATUS_OK)
	statusNotFound = C.uint32_t(C.AGENTSMD_CALLBACK_STATUS_NOT_FOUND)
	statusError    = C.uint32_t(C.AGENTSMD_CALLBACK_STATUS_ERROR)
)

// answer is the status for err: fs.ErrNotExist alone means "no such file",
// and any other error fails the chain with err's text as the message.
func (b *fsBridge) answer(err error, message *C.agentsmd_message) C.uint32_t {
	switch {
	case err == nil:
		return statusOK
	case errors.Is(err, fs.ErrNotExist):
		return statusNotFound
	default:
		return b.fail(err, message)
	}
}

// fail records err and answers an error, whatever err is: a failure of an
// open file is never "no such file".
func (b *callbackState) fail(err error, message *C.agentsmd_message) C.uint32_t {
	setMessage(message, err.Error())
	b.mu.Lock()
	b.err = err
	b.mu.Unlock()
	return statusError
}

// recoverPanic, deferred by every callback, turns a panic of the file system
// into a failed call and keeps the panic for Chain to raise again: a Go panic
// must not unwind through the library's frames. status is nil for the
// callbacks that answer nothing.
func (b *fsBridge) recoverPanic(status *C.uint32_t, message *C.agentsmd_message) {
	b.keepPanic(recover(), "fs.FS", status, message)
	// A callback that cancelled ctx itself stops the chain before the next
	// question, not whenever the goroutine watching ctx runs.
	if b.canceller != nil {
		b.canceller.requestIfDone()
	}
}

// keepPanic keeps r, a recovered panic of what (nil for none), for Chain to
// raise again, and answers the call with an error when status is not nil.
func (b *callbackState) keepPanic(r any, what string, status *C.uint32_t, message *C.agentsmd_message) {
	if r == nil {
		return
	}
	b.mu.Lock()
	if !b.panicked {
		b.panicked, b.panicValue = true, r
	}
	b.mu.Unlock()
	if status != nil {
		setMessage(message, fmt.Sprintf("%s panicked: %v", what, r))
		*status = statusError
	}
}

// setMessage gives the library the whole of text as the message of the
// failing callback message was lent to. The library copies the bytes during
// the call: Go memory holding no Go pointer may be passed for that long.
func setMessage(message *C.agentsmd_message, text string) {
	C.agentsmd_message_set(message, (*C.uint8_t)(unsafe.Pointer(unsafe.StringData(text))), C.size_t(len(text)))
}

// goName copies a name the library lends for one call: a file system may
// keep the string it is given, in an error for one.
func goName(name *C.uint8_t, length C.size_t) string {
	if length == 0 {
		return ""
	}
	return string(unsafe.Slice((*byte)(unsafe.Pointer(name)), int(length)))
}

// agentsmdgoList lists dir with fs.ReadDir, pushing each entry's name.
//
//export agentsmdgoList
func agentsmdgoList(fsys C.uintptr_t, dir *C.uint8_t, dirLen C.size_t, listing *C.agentsmd_listing, message *C.agentsmd_message) (status C.uint32_t) {
	b := bridgeOf(fsys)
	defer b.recoverPanic(&status, message)
	entries, err := fs.ReadDir(b.fsys, goName(dir, dirLen))
	if err != nil {
		return b.answer(err, message)
	}
	for _, entry := range entries {
		name := entry.Name()
		// The library copies the name during the call; a Go pointer to
		// bytes holding no Go pointer may be passed for that long. A name
		// that is not one path element fails the listing in the library,
		// which names it.
		C.agentsmd_listing_push(listing, (*C.uint8_t)(unsafe.Pointer(unsafe.StringData(name))), C.size_t(len(name)))
	}
	return statusOK
}

// agentsmdgoStat stats name with fs.Stat, which follows links as the library
// requires of stat: a regular file, a directory, or anything else.
//
//export agentsmdgoStat
func agentsmdgoStat(fsys C.uintptr_t, name *C.uint8_t, nameLen C.size_t, kindOut *C.uint32_t, sizeOut *C.uint64_t, message *C.agentsmd_message) (status C.uint32_t) {
	b := bridgeOf(fsys)
	defer b.recoverPanic(&status, message)
	info, err := fs.Stat(b.fsys, goName(name, nameLen))
	if err != nil {
		return b.answer(err, message)
	}
	switch mode := info.Mode(); {
	case mode.IsRegular():
		*kindOut = C.AGENTSMD_ENTRY_KIND_FILE
	case mode.IsDir():
		*kindOut = C.AGENTSMD_ENTRY_KIND_DIR
	default:
		*kindOut = C.AGENTSMD_ENTRY_KIND_OTHER
	}
	*sizeOut = C.uint64_t(max(info.Size(), 0))
	return statusOK
}

// agentsmdgoOpen opens name with the file system's Open; the file's handle is
// a cgo.Handle, which agentsmdgoClose deletes.
//
//export agentsmdgoOpen
func agentsmdgoOpen(fsys C.uintptr_t, name *C.uint8_t, nameLen C.size_t, fileOut *C.uintptr_t, message *C.agentsmd_message) (status C.uint32_t) {
	b := bridgeOf(fsys)
	defer b.recoverPanic(&status, message)
	file, err := b.fsys.Open(goName(name, nameLen))
	if err != nil {
		return b.answer(err, message)
	}
	*fileOut = C.uintptr_t(cgo.NewHandle(&openFile{file: file}))
	return statusOK
}

// agentsmdgoRead reads the open file straight into the library's buffer.
// Zero bytes read means the end of the file to the library, so a Read that
// returns none without an error is retried, as io.ReadFull would.
//
//export agentsmdgoRead
func agentsmdgoRead(fsys, file C.uintptr_t, buffer *C.uint8_t, bufferLen C.size_t, readOut *C.size_t, message *C.agentsmd_message) (status C.uint32_t) {
	b := bridgeOf(fsys)
	defer b.recoverPanic(&status, message)
	f := cgo.Handle(file).Value().(*openFile)
	*readOut = 0
	if bufferLen == 0 {
		return statusOK
	}
	p := unsafe.Slice((*byte)(unsafe.Pointer(buffer)), int(bufferLen))
	for tries := 0; tries < 100 && f.err == nil; tries++ {
		n, err := f.file.Read(p)
		f.err = err
		if n < 0 || n > len(p) {
			f.err = fmt.Errorf("Read returned %d bytes for a buffer of %d", n, len(p))
			break
		}
		if n > 0 {
			*readOut = C.size_t(n)
			return statusOK
		}
	}
	switch f.err {
	case io.EOF:
		return statusOK
	case nil:
		return b.fail(io.ErrNoProgress, message)
	default:
		return b.fail(f.err, message)
	}
}

// agentsmdgoClose closes the file and deletes its handle. The library has
// its bytes by then and asks for no answer, so an error closing is dropped.
//
//export agentsmdgoClose
func agentsmdgoClose(fsys, file C.uintptr_t) {
	b := bridgeOf(fsys)
	defer b.recoverPanic(nil, nil)
	if file == 0 {
		// No open answers 0: the library broke its contract.
		panic("agentsmd: the library closed a file that no open returned")
	}
	handle := cgo.Handle(file)
	defer handle.Delete()
	handle.Value().(*openFile).file.Close()
}

// agentsmdgoRelease deletes the file system's handle once the library holds
// it no more.
//
//export agentsmdgoRelease
func agentsmdgoRelease(fsys C.uintptr_t) {
	cgo.Handle(fsys).Delete()
}
