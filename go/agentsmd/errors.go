package agentsmd

// #include <agentsmd.h>
import "C"

import (
	"errors"
	"fmt"
	"syscall"
	"unsafe"
)

// Kind is what kind of failure an [*Error] is: the kinds of SPEC.md §4.
type Kind int

const (
	// KindInvalidArgument is a bad name, a path outside the root, an invalid
	// FS name, an extra path that is not a regular file, or an option out of
	// range.
	KindInvalidArgument Kind = iota + 1
	// KindTooLarge is a file that read more than MaxBytes.
	KindTooLarge
	// KindIO is a failure of the OS file system; errors.Is finds its
	// [syscall.Errno].
	KindIO
	// KindFS is a failure of Options.FS or Options.Transform; errors.Is
	// finds the error it returned.
	KindFS
	// KindPanic is a bug in the library, caught before it could unwind into
	// Go.
	KindPanic
	// KindImport is an import directive that cannot be expanded (SPEC.md
	// §5.4).
	KindImport
	// KindAborted is a chain whose context was done before it ended
	// ([ChainContext]); errors.Is finds the context's error.
	KindAborted
)

// kinds are the Kinds in order, each with its name and sentinel.
var kinds = [...]struct {
	name     string
	sentinel error
}{
	KindInvalidArgument: {"InvalidArgument", ErrInvalidArgument},
	KindTooLarge:        {"TooLarge", ErrTooLarge},
	KindIO:              {"IO", ErrIO},
	KindFS:              {"FS", ErrFS},
	KindPanic:           {"Panic", ErrPanic},
	KindImport:          {"Import", ErrImport},
	KindAborted:         {"Aborted", ErrAborted},
}

// String is the kind's name, as SPEC.md §4 spells it.
func (k Kind) String() string {
	if k > 0 && int(k) < len(kinds) {
		return kinds[k].name
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// The sentinel of each Kind: errors.Is(err, ErrAborted) holds for an *Error
// of kind KindAborted, and so on.
var (
	// ErrInvalidArgument matches an error of kind KindInvalidArgument.
	ErrInvalidArgument = errors.New("agentsmd: invalid argument")
	// ErrTooLarge matches the error of a file over MaxBytes.
	ErrTooLarge = errors.New("agentsmd: file exceeds size limit")
	// ErrIO matches a failure of the OS file system.
	ErrIO = errors.New("agentsmd: the OS file system failed")
	// ErrFS matches a failure of Options.FS or Options.Transform.
	ErrFS = errors.New("agentsmd: the file system failed")
	// ErrPanic matches a bug in the library, caught at its boundary.
	ErrPanic = errors.New("agentsmd: internal error (panic)")
	// ErrImport matches the error of an import directive that cannot be
	// expanded (SPEC.md §5.4), with [Options.Imports] on: a path that is
	// invalid or outside the including file's scope, a target not found or
	// not a regular file, a cycle, an import deeper than
	// [Options.ImportDepth], or more than [Options.MaxImports] import reads.
	// Its message starts "PATH:LINE: ", the file holding the directive and
	// the directive's 1-based line, which are its Path and Line. A target
	// over MaxBytes is [ErrTooLarge] instead, with the same message form.
	ErrImport = errors.New("agentsmd: import directive cannot be expanded")
	// ErrAborted matches the error of a chain whose context was done
	// before it ended ([ChainContext]).
	ErrAborted = errors.New("agentsmd: aborted")
)

// ErrInvalidCallerIdentity is wrapped in the error of [OverlayDir] for an
// identity that names no caller's directory: "." (the users' directory
// itself), or one holding "/", a backslash, a NUL byte or "..", which could
// lead out of it.
var ErrInvalidCallerIdentity = errors.New("agentsmd: invalid caller identity")

// Error is every error of the package: its kind, the path it concerns, and
// the errors beneath it.
//
// errors.Is(err, ErrKIND) matches its Kind's sentinel; errors.Is and
// errors.As also find what it wraps: the OS error of a KindIO error (a
// [syscall.Errno], which matches fs.ErrPermission and the like), the error
// Options.FS or Options.Transform returned for a KindFS error, and the
// context's error for a KindAborted one.
type Error struct {
	// Kind is the kind of failure.
	Kind Kind
	// Path is the path the failure concerns, "" when none: an OS path, or a
	// name in Options.FS; for an import directive, the file holding it.
	Path string
	// Line is the 1-based line of Path holding the import directive the
	// failure concerns, 0 when none.
	Line int
	// message is the library's message, which names the path.
	message string
	// wrapped are the errors beneath this one, for Unwrap.
	wrapped []error
}

// Error is the library's message, naming the path ("PATH:LINE: " first for
// an import directive).
func (e *Error) Error() string { return "agentsmd: " + e.message }

// Unwrap is the errors beneath this one.
func (e *Error) Unwrap() []error { return e.wrapped }

// Is reports whether target is the sentinel of e's Kind.
func (e *Error) Is(target error) bool {
	return e.Kind > 0 && int(e.Kind) < len(kinds) && kinds[e.Kind].sentinel == target
}

// invalidArgument is an error of kind KindInvalidArgument that the package
// finds before asking the library, its message made as fmt.Sprintf makes it.
func invalidArgument(format string, args ...any) error {
	return &Error{Kind: KindInvalidArgument, message: fmt.Sprintf(format, args...)}
}

// kindOfStatus is the Kind of a failure status of the library.
func kindOfStatus(status C.agentsmd_status) Kind {
	switch status {
	case C.AGENTSMD_STATUS_INVALID_ARGUMENT:
		return KindInvalidArgument
	case C.AGENTSMD_STATUS_TOO_LARGE:
		return KindTooLarge
	case C.AGENTSMD_STATUS_IO:
		return KindIO
	case C.AGENTSMD_STATUS_IMPORT:
		return KindImport
	case C.AGENTSMD_STATUS_ABORTED:
		return KindAborted
	case C.AGENTSMD_STATUS_PANIC:
		return KindPanic
	default:
		return KindFS
	}
}

// errorOf is nil for a success, and otherwise the *Error for the library's
// error cerr, which it frees. states, when not nil, served the call's file
// system and transform, and hold the Go error behind a failed callback.
func errorOf(status C.agentsmd_status, cerr *C.agentsmd_error, states ...*callbackState) error {
	if status == C.AGENTSMD_STATUS_OK {
		return nil
	}
	defer C.agentsmd_error_free(cerr)
	path := C.agentsmd_error_path(cerr)
	e := &Error{
		Kind:    kindOfStatus(status),
		Path:    string(unsafe.Slice((*byte)(unsafe.Pointer(path.ptr)), int(path.len))),
		Line:    int(C.agentsmd_error_line(cerr)),
		message: C.GoString(C.agentsmd_error_message(cerr)),
	}
	switch e.Kind {
	case KindIO:
		if code := C.agentsmd_error_os_code(cerr); code != 0 {
			e.wrapped = append(e.wrapped, syscall.Errno(code))
		}
	case KindFS:
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
