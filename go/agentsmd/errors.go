package agentsmd

// #include <agentsmd.h>
import "C"

import (
	"errors"
	"syscall"
)

// ErrTooLarge is wrapped in the error of a file over MaxBytes.
var ErrTooLarge = errors.New("agentsmd: file exceeds size limit")

// ErrImport is wrapped in the error of an import directive that cannot be
// expanded (SPEC.md §5.4), with [Options.Imports] on: a path that is invalid
// or outside the including file's scope, a target not found or not a regular
// file, a cycle, an import deeper than [Options.ImportDepth], or more than
// [Options.MaxImports] import reads. Its message starts "PATH:LINE: ", the
// file holding the directive and the directive's 1-based line. A target over
// MaxBytes is [ErrTooLarge] instead, with the same message form.
var ErrImport = errors.New("agentsmd: import directive cannot be expanded")

// ErrInvalidCallerIdentity is wrapped in the error of [OverlayDir] for an
// identity that names no caller's directory: "." (the users' directory
// itself), or one holding "/", a backslash, a NUL byte or "..", which could
// lead out of it.
var ErrInvalidCallerIdentity = errors.New("agentsmd: invalid caller identity")

// libraryError is an error of the library: its message, which names the
// path, and the errors it stands for, so that errors.Is finds ErrTooLarge for
// a file over MaxBytes, the OS error (a [syscall.Errno], which matches
// fs.ErrPermission and the like) for a failure of the OS file system, and
// the error an Options.FS returned for a failure of that file system.
type libraryError struct {
	message string
	wrapped []error
}

func (e *libraryError) Error() string { return "agentsmd: " + e.message }

func (e *libraryError) Unwrap() []error { return e.wrapped }

// errorOf is nil for a success, and otherwise the Go error for the
// library's error cerr, which it frees. bridge, when not nil, served the
// call's file system, and holds the Go error behind a failed callback.
func errorOf(status C.agentsmd_status, cerr *C.agentsmd_error, states ...*callbackState) error {
	if status == C.AGENTSMD_STATUS_OK {
		return nil
	}
	defer C.agentsmd_error_free(cerr)
	e := &libraryError{message: C.GoString(C.agentsmd_error_message(cerr))}
	switch status {
	case C.AGENTSMD_STATUS_TOO_LARGE:
		e.wrapped = append(e.wrapped, ErrTooLarge)
	case C.AGENTSMD_STATUS_IO:
		if code := C.agentsmd_error_os_code(cerr); code != 0 {
			e.wrapped = append(e.wrapped, syscall.Errno(code))
		}
	case C.AGENTSMD_STATUS_IMPORT:
		e.wrapped = append(e.wrapped, ErrImport)
	case C.AGENTSMD_STATUS_FS:
		// The chain failed at the first callback that failed: the one
		// that kept an error.
		for _, state := range states {
			if state == nil {
				continue
			}
			state.mu.Lock()
			err := state.err
			state.mu.Unlock()
			if err != nil {
				e.wrapped = append(e.wrapped, err)
				break
			}
		}
	}
	return e
}
