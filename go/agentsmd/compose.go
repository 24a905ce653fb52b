package agentsmd

// #include <agentsmd.h>
import "C"

import (
	"fmt"
	"runtime/cgo"
	"strings"
	"unsafe"
)

// Source is where a file of the result comes from (SPEC.md §5.1).
type Source int

const (
	// SourceChain: a directory of the walk's own file, found by
	// Options.Names. It is the zero value, the source of every file of a
	// chain without the options of SPEC.md §5 but Extra's.
	SourceChain Source = iota
	// SourceExtra: one of Options.Extra.
	SourceExtra
	// SourceFragment: a file of one of Options.Fragments, in a directory
	// of the walk.
	SourceFragment
	// SourceOverlay: an overlay directory's file or one of its fragments
	// (Options.Overlays).
	SourceOverlay
	// SourceRule: a rule file of one of Options.Rules (SPEC.md §11).
	SourceRule
)

// String is the source's word in SPEC.md: "extra", "chain", "fragment",
// "overlay" or "rule".
func (s Source) String() string {
	switch s {
	case SourceChain:
		return "chain"
	case SourceExtra:
		return "extra"
	case SourceFragment:
		return "fragment"
	case SourceOverlay:
		return "overlay"
	case SourceRule:
		return "rule"
	default:
		return fmt.Sprintf("Source(%d)", int(s))
	}
}

// goSource is the Source for the library's.
func goSource(s C.agentsmd_source) (Source, error) {
	switch s {
	case C.AGENTSMD_SOURCE_EXTRA:
		return SourceExtra, nil
	case C.AGENTSMD_SOURCE_CHAIN:
		return SourceChain, nil
	case C.AGENTSMD_SOURCE_FRAGMENT:
		return SourceFragment, nil
	case C.AGENTSMD_SOURCE_OVERLAY:
		return SourceOverlay, nil
	case C.AGENTSMD_SOURCE_RULE:
		return SourceRule, nil
	default:
		return 0, fmt.Errorf("agentsmd: the library gave source %d, which this package does not know", s)
	}
}

// Import is one import directive expanded into a file of the result
// (SPEC.md §5.4 "Provenance"), with Options.Imports.
type Import struct {
	// Path is the target: its cleaned OS path, or its name in Options.FS.
	Path string
	// By is the file holding the directive.
	By string
	// Line is the directive's line in By, 1-based.
	Line int64
	// Depth is the target's depth: 1 for a directive of a file of the
	// result itself.
	Depth int
	// Size is the bytes read from the target; 0 for a duplicate.
	Size int64
	// Duplicate: the target was already in the result, so the directive
	// expanded to nothing.
	Duplicate bool
}

// Outcome is what a place Chain looked at held (SPEC.md §5.7).
type Outcome int

const (
	// OutcomeIncluded: a file of the result.
	OutcomeIncluded Outcome = iota
	// OutcomeShadowed: omitted as [Shadowed].
	OutcomeShadowed
	// OutcomeOverBudget: omitted as [OverBudget].
	OutcomeOverBudget
	// OutcomeSuperseded: omitted as [Superseded].
	OutcomeSuperseded
	// OutcomeDuplicate: omitted as [Duplicate], or an import already in the
	// result.
	OutcomeDuplicate
	// OutcomeEscapes: omitted as [Escapes], or a directory of the walk
	// leading out of Options.Root.
	OutcomeEscapes
	// OutcomeNotFound: nothing there.
	OutcomeNotFound
	// OutcomeNotAFile: something that is not a regular file (a directory,
	// a dangling link), or a fragment or rule directory that is not a
	// directory.
	OutcomeNotAFile
	// OutcomeListed: a fragment or rule directory that was listed.
	OutcomeListed
	// OutcomeImported: an import target that was read.
	OutcomeImported
	// OutcomeNotMatched: a rule that applies when a path matches its
	// globs, which the path does not match (SPEC.md §11).
	OutcomeNotMatched
	// OutcomeAvailable: a rule that applies on request, listed in
	// [Result.Available] (SPEC.md §11).
	OutcomeAvailable
	// OutcomeEmpty: omitted as [Empty] (SPEC.md §12).
	OutcomeEmpty
	// OutcomeTruncated: omitted as [Truncated] (SPEC.md §12).
	OutcomeTruncated
)

// String is the outcome's word in SPEC.md §5.7 and §11: "included",
// "shadowed", "over_budget", "superseded", "duplicate", "escapes",
// "not_found", "not_a_file", "listed", "imported", "not_matched",
// "available", "empty" or "truncated".
func (o Outcome) String() string {
	switch o {
	case OutcomeIncluded:
		return "included"
	case OutcomeShadowed:
		return "shadowed"
	case OutcomeOverBudget:
		return "over_budget"
	case OutcomeSuperseded:
		return "superseded"
	case OutcomeDuplicate:
		return "duplicate"
	case OutcomeEscapes:
		return "escapes"
	case OutcomeNotFound:
		return "not_found"
	case OutcomeNotAFile:
		return "not_a_file"
	case OutcomeListed:
		return "listed"
	case OutcomeImported:
		return "imported"
	case OutcomeNotMatched:
		return "not_matched"
	case OutcomeAvailable:
		return "available"
	case OutcomeEmpty:
		return "empty"
	case OutcomeTruncated:
		return "truncated"
	default:
		return fmt.Sprintf("Outcome(%d)", int(o))
	}
}

// outcomes maps the library's outcomes to Go's.
var outcomes = map[C.agentsmd_outcome]Outcome{
	C.AGENTSMD_OUTCOME_INCLUDED:    OutcomeIncluded,
	C.AGENTSMD_OUTCOME_SHADOWED:    OutcomeShadowed,
	C.AGENTSMD_OUTCOME_OVER_BUDGET: OutcomeOverBudget,
	C.AGENTSMD_OUTCOME_SUPERSEDED:  OutcomeSuperseded,
	C.AGENTSMD_OUTCOME_DUPLICATE:   OutcomeDuplicate,
	C.AGENTSMD_OUTCOME_ESCAPES:     OutcomeEscapes,
	C.AGENTSMD_OUTCOME_NOT_FOUND:   OutcomeNotFound,
	C.AGENTSMD_OUTCOME_NOT_A_FILE:  OutcomeNotAFile,
	C.AGENTSMD_OUTCOME_LISTED:      OutcomeListed,
	C.AGENTSMD_OUTCOME_IMPORTED:    OutcomeImported,
	C.AGENTSMD_OUTCOME_NOT_MATCHED: OutcomeNotMatched,
	C.AGENTSMD_OUTCOME_AVAILABLE:   OutcomeAvailable,
	C.AGENTSMD_OUTCOME_EMPTY:       OutcomeEmpty,
	C.AGENTSMD_OUTCOME_TRUNCATED:   OutcomeTruncated,
}

// Probe is one place Chain looked at, with Options.Report.
type Probe struct {
	// Path is the path looked at: a file's, a fragment or rule directory's,
	// or a directory's of the walk.
	Path string
	// Source is the source a file there has; for an import, that of the
	// file of the result holding it.
	Source Source
	// Outcome is what was there.
	Outcome Outcome
}

// OverlayDir is the per-caller overlay directory usersDir/identity/.agents,
// for [Options.Overlays], or "" and nil when either argument is empty, which
// means no overlay. An identity that is "." (usersDir itself), or holds "/",
// a backslash, a NUL byte or ".." anywhere (it could lead out of usersDir), is
// an error wrapping [ErrInvalidCallerIdentity]. A usersDir holding a NUL byte
// is an error too.
func OverlayDir(usersDir, identity string) (string, error) {
	var buffer *C.agentsmd_buffer
	var cerr *C.agentsmd_error
	users, usersLen := cBytes(usersDir)
	id, idLen := cBytes(identity)
	status := C.agentsmd_overlay_dir(users, usersLen, id, idLen, &buffer, &cerr)
	if status != C.AGENTSMD_STATUS_OK {
		identityError := status == C.AGENTSMD_STATUS_INVALID_ARGUMENT &&
			strings.Contains(C.GoString(C.agentsmd_error_message(cerr)), "caller identity")
		err := errorOf(status, cerr, nil)
		if e, ok := err.(*Error); ok && identityError {
			e.wrapped = append(e.wrapped, ErrInvalidCallerIdentity)
		}
		return "", err
	}
	if buffer == nil {
		return "", nil
	}
	defer C.agentsmd_buffer_free(buffer)
	return string(unsafe.Slice((*byte)(unsafe.Pointer(C.agentsmd_buffer_data(buffer))), int(C.agentsmd_buffer_len(buffer)))), nil
}

// transformBridge serves one Chain's Options.Transform to the library, which
// holds it as a cgo.Handle, as fsBridge serves Options.FS.
type transformBridge struct {
	fn func(path, content string) (string, error)
	callbackState
}

// agentsmdgoTransform calls the transform and appends what it returns.
//
//export agentsmdgoTransform
func agentsmdgoTransform(userdata C.uintptr_t, path *C.uint8_t, pathLen C.size_t, content *C.uint8_t, contentLen C.size_t, out *C.agentsmd_content, message *C.agentsmd_message) (status C.uint32_t) {
	b := cgo.Handle(userdata).Value().(*transformBridge)
	defer func() { b.keepPanic(recover(), "Options.Transform", &status, message) }()
	text, err := b.fn(goName(path, pathLen), goName(content, contentLen))
	if err != nil {
		return b.fail(err, message)
	}
	// The library copies the bytes during the call: Go memory holding no
	// Go pointer may be passed for that long.
	if C.agentsmd_content_append(out, (*C.uint8_t)(unsafe.Pointer(unsafe.StringData(text))), C.size_t(len(text))) != C.AGENTSMD_STATUS_OK {
		return b.fail(fmt.Errorf("the library refused the transform's content"), message)
	}
	return statusOK
}

// agentsmdgoReleaseTransform deletes the transform's handle once the library
// holds it no more.
//
//export agentsmdgoReleaseTransform
func agentsmdgoReleaseTransform(userdata C.uintptr_t) {
	cgo.Handle(userdata).Delete()
}
