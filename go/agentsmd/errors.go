package agentsmd

// #include <agentsmd.h>
import "C"

import (
	"errors"
	"strings"
	"syscall"
)

// ErrTooLarge is wrapped in the error of a file over MaxBytes.
var ErrTooLarge = errors.New("agentsmd: file exceeds size limit")

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
func errorOf(status C.agentsmd_status, cerr *C.agentsmd_error, bridge *fsBridge) error {
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
	case C.AGENTSMD_STATUS_FS:
		if bridge != nil {
			bridge.mu.Lock()
			err, written := bridge.err, bridge.written
			bridge.mu.Unlock()
			if err != nil {
				e.wrapped = append(e.wrapped, err)
				// The message buffer holds 255 bytes; give Go the whole
				// text of the error it cut.
				if full := err.Error(); full != written && strings.HasSuffix(e.message, written) {
					e.message = strings.TrimSuffix(e.message, written) + full
				}
			}
		}
	}
	return e
}
