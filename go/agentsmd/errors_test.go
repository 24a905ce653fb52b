package agentsmd_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"testing/fstest"

	"github.com/agentsmd/agentsmd/go/agentsmd"
)

// failingFS fails every question with its error.
type failingFS struct{ err error }

func (f failingFS) Open(string) (fs.File, error) { return nil, f.err }

// Each kind of SPEC.md §4 is an *Error of that Kind, which errors.Is matches
// to its sentinel and to none of the others, and which names its path.
func TestEveryErrorMatchesTheSentinelOfItsKind(t *testing.T) {
	sentinels := map[agentsmd.Kind]error{
		agentsmd.KindInvalidArgument: agentsmd.ErrInvalidArgument,
		agentsmd.KindTooLarge:        agentsmd.ErrTooLarge,
		agentsmd.KindIO:              agentsmd.ErrIO,
		agentsmd.KindFS:              agentsmd.ErrFS,
		agentsmd.KindPanic:           agentsmd.ErrPanic,
		agentsmd.KindImport:          agentsmd.ErrImport,
		agentsmd.KindAborted:         agentsmd.ErrAborted,
	}
	dir := tempDir(t)
	if err := os.WriteFile(filepath.Join(dir, "file"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	errNo := errors.New("no")
	big := fstest.MapFS{"AGENTS.md": {Data: []byte("0123456789\n")}}
	imports := fstest.MapFS{"AGENTS.md": {Data: []byte("@nope.md\n")}}
	notDir := syscall.ENOTDIR
	if runtime.GOOS == "windows" {
		notDir = syscall.Errno(267) // ERROR_DIRECTORY
	}
	for _, tc := range []struct {
		kind    agentsmd.Kind
		path    string
		opts    agentsmd.Options
		at      string // the error's Path
		wrapped error  // an error beneath it, for errors.Is
	}{
		{agentsmd.KindInvalidArgument, ".", agentsmd.Options{MaxBytes: -1}, "", nil},
		{agentsmd.KindInvalidArgument, "a//b", agentsmd.Options{FS: big}, "", nil},
		{agentsmd.KindTooLarge, ".", agentsmd.Options{FS: big, MaxBytes: 4}, "AGENTS.md", nil},
		{agentsmd.KindIO, filepath.Join(dir, "file", "x"), agentsmd.Options{Root: dir}, filepath.Join(dir, "file", "x"), notDir},
		{agentsmd.KindFS, ".", agentsmd.Options{FS: failingFS{errNo}}, ".", errNo},
		{agentsmd.KindImport, ".", agentsmd.Options{FS: imports, Imports: true}, "AGENTS.md", nil},
	} {
		t.Run(tc.kind.String(), func(t *testing.T) {
			_, err := agentsmd.Chain(tc.path, tc.opts)
			var e *agentsmd.Error
			if !errors.As(err, &e) || e.Kind != tc.kind {
				t.Fatalf("error %#v, want an *Error of kind %v", err, tc.kind)
			}
			for kind, sentinel := range sentinels {
				if errors.Is(err, sentinel) != (kind == tc.kind) {
					t.Errorf("errors.Is(%v, %v) is %v", err, sentinel, kind != tc.kind)
				}
			}
			if e.Path != tc.at {
				t.Errorf("Path %q, want %q", e.Path, tc.at)
			}
			if tc.wrapped != nil && !errors.Is(err, tc.wrapped) {
				t.Errorf("error %v does not wrap %v", err, tc.wrapped)
			}
		})
	}
}
