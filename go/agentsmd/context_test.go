package agentsmd_test

import (
	"context"
	"errors"
	"io/fs"
	"testing"
	"testing/fstest"
	"time"

	"github.com/agentsmd/agentsmd/go/agentsmd"
)

// openFS asks fsys every question through Open, which it first shows to
// opened.
type openFS struct {
	fsys   fs.FS
	opened func(name string)
}

func (f openFS) Open(name string) (fs.File, error) {
	f.opened(name)
	return f.fsys.Open(name)
}

var srcTree = fstest.MapFS{
	"AGENTS.md":     {Data: []byte("root\n")},
	"src/AGENTS.md": {Data: []byte("src\n")},
}

// checkAborted fails t unless err is ChainContext's error for a context
// done with cause, at the path at.
func checkAborted(t *testing.T, err error, cause error, at string) {
	t.Helper()
	var e *agentsmd.Error
	if !errors.As(err, &e) || e.Kind != agentsmd.KindAborted || e.Path != at {
		t.Fatalf("error %#v, want an *Error of kind Aborted at %q", err, at)
	}
	if !errors.Is(err, agentsmd.ErrAborted) || !errors.Is(err, cause) {
		t.Errorf("error %v does not match ErrAborted and %v", err, cause)
	}
}

// A callback that cancels the chain's context: its answer is taken, and the
// chain asks nothing more.
func TestChainContextCancelledInACallbackStopsBeforeTheNextQuestion(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var after []string
	fsys := openFS{srcTree, func(name string) {
		if ctx.Err() != nil {
			after = append(after, name)
		}
		if name == "src" {
			cancel()
		}
	}}
	_, err := agentsmd.ChainContext(ctx, "src/main.go", agentsmd.Options{FS: fsys})
	checkAborted(t, err, context.Canceled, "src/AGENTS.md")
	if len(after) != 0 {
		t.Errorf("opened after the cancellation: %q", after)
	}
}

// A context done before the call: no question is asked, and the error is
// the context's, a deadline's as well as a cancellation's.
func TestChainContextAlreadyDoneFailsAtOnce(t *testing.T) {
	opened := 0
	fsys := openFS{srcTree, func(string) { opened++ }}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := agentsmd.ChainContext(cancelled, "src", agentsmd.Options{FS: fsys})
	checkAborted(t, err, context.Canceled, "src")
	expired, stop := context.WithDeadline(context.Background(), time.Unix(0, 0))
	defer stop()
	_, err = agentsmd.ChainContext(expired, "src", agentsmd.Options{FS: fsys})
	checkAborted(t, err, context.DeadlineExceeded, "src")
	if opened != 0 {
		t.Errorf("%d questions asked", opened)
	}
	// The OS file system stops the same way.
	_, err = agentsmd.ChainContext(cancelled, tempDir(t), agentsmd.Options{})
	if !errors.Is(err, agentsmd.ErrAborted) || !errors.Is(err, context.Canceled) {
		t.Errorf("OS: error %v, want ErrAborted and context.Canceled", err)
	}
}

// A context that is never done, or not done before the chain ends, changes
// nothing.
func TestChainContextNotDoneIsChain(t *testing.T) {
	want, err := agentsmd.Chain("src", agentsmd.Options{FS: srcTree})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	got, err := agentsmd.ChainContext(ctx, "src", agentsmd.Options{FS: srcTree})
	if err != nil || len(got.Files) != 2 || got.Files[1].Content != want.Files[1].Content {
		t.Errorf("ChainContext gave %+v, %v; Chain %+v", got, err, want)
	}
}

type ctxKey struct{}

// contextBatchFS is a BatchContextFS that keeps the contexts its batches
// were given, and fails a listing with the context's error once it is done,
// after calling cancel if set: a caller gone during the round trip.
type contextBatchFS struct {
	*countingFS
	contexts []context.Context
	cancel   func()
}

func (f *contextBatchFS) ReadDirsContext(ctx context.Context, names []string) ([][]fs.DirEntry, error) {
	f.contexts = append(f.contexts, ctx)
	if f.cancel != nil {
		f.cancel()
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return f.ReadDirs(names)
}

func (f *contextBatchFS) ReadFilesContext(ctx context.Context, names []string, limit int64) ([][]byte, error) {
	f.contexts = append(f.contexts, ctx)
	return f.ReadFiles(names, limit)
}

// A BatchContextFS gets the chain's context with each batch, and the
// context's own error from a batch is ChainContext's Aborted.
func TestBatchContextFSReceivesTheContext(t *testing.T) {
	fsys := &contextBatchFS{countingFS: &countingFS{files: srcTree}}
	ctx := context.WithValue(context.Background(), ctxKey{}, "this chain's")
	res, err := agentsmd.ChainContext(ctx, "src", agentsmd.Options{FS: fsys})
	if err != nil || len(res.Files) != 2 {
		t.Fatalf("%+v, %v", res, err)
	}
	if len(fsys.contexts) != 2 {
		t.Fatalf("%d batches, want a listing and a reading", len(fsys.contexts))
	}
	for _, got := range fsys.contexts {
		if got.Value(ctxKey{}) != "this chain's" {
			t.Errorf("a batch was given another context")
		}
	}

	fsys.contexts = nil
	if _, err := agentsmd.Chain("src", agentsmd.Options{FS: fsys}); err != nil || len(fsys.contexts) != 2 || fsys.contexts[0] != context.Background() {
		t.Errorf("Chain: %v, batches given %v, want context.Background()", err, fsys.contexts)
	}
}

// A BatchContextFS that fails a batch with the context's error, the context
// being done: ChainContext's Aborted error, at the batch's first name.
func TestABatchFailingWithTheContextsErrorIsAborted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	fsys := &contextBatchFS{countingFS: &countingFS{files: srcTree}, cancel: cancel}
	_, err := agentsmd.ChainContext(ctx, "src", agentsmd.Options{FS: fsys})
	checkAborted(t, err, context.Canceled, ".")
	if fsys.readFiles != 0 {
		t.Errorf("%d batches of reads after the cancellation", fsys.readFiles)
	}
}
