package agentsmd_test

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"github.com/agentsmd/agentsmd/go/agentsmd"
)

var errBoom = errors.New("the workspace is gone")

func TestFSErrorIsChainsError(t *testing.T) {
	tree := fstest.MapFS{"AGENTS.md": file("root\n"), "a/AGENTS.md": file("a\n")}
	for _, tc := range []struct {
		fault string
		err   error
		text  string // what the message says besides the FS's text
	}{
		{"open a/AGENTS.md", errBoom, "open a/AGENTS.md"},
		{"readdir a", errBoom, "list a"},
		{"stat a/AGENTS.md", errBoom, "stat a/AGENTS.md"},
		// What os.Root.FS says of a link that leaves it.
		{"open AGENTS.md", &fs.PathError{Op: "openat", Path: "AGENTS.md", Err: errors.New("path escapes from parent")}, "path escapes from parent"},
		{"stat a", fs.ErrPermission, "permission denied"},
	} {
		fsys := &faultFS{MapFS: tree, faults: map[string]error{tc.fault: tc.err}}
		res, err := agentsmd.Chain("a", agentsmd.Options{FS: fsys})
		if err == nil {
			t.Errorf("%s failing: Chain returned no error but\n%s", tc.fault, describe(res))
			continue
		}
		if !errors.Is(err, tc.err) {
			t.Errorf("%s failing: Chain's error %v is not %v", tc.fault, err, tc.err)
		}
		if !strings.Contains(err.Error(), tc.err.Error()) || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("%s failing: Chain's error %q does not say %q and %q", tc.fault, err, tc.err, tc.text)
		}
	}
}

func TestNotExistMeansNoFile(t *testing.T) {
	tree := fstest.MapFS{"AGENTS.md": file("root\n"), "a/AGENTS.md": file("a\n"), "a/CLAUDE.md": file("claude\n")}
	// a/AGENTS.md vanishes between its stat and its open: it is no file,
	// and the next name stands for the directory.
	fsys := &faultFS{MapFS: tree, faults: map[string]error{"open a/AGENTS.md": fs.ErrNotExist}}
	res := mustChain(t, "a", agentsmd.Options{FS: fsys, Names: []string{"AGENTS.md", "CLAUDE.md"}})
	checkResult(t, res, agentsmd.Result{Files: []agentsmd.File{
		{Path: "AGENTS.md", Content: "root\n"},
		{Path: "a/CLAUDE.md", Content: "claude\n"},
	}})
}

func TestLongFSErrorIsWhole(t *testing.T) {
	// The library takes a callback's message of any length, as it is.
	long := errors.New(strings.Repeat("é", 50000))
	fsys := &faultFS{MapFS: fstest.MapFS{"AGENTS.md": file("x")}, faults: map[string]error{"open AGENTS.md": long}}
	_, err := agentsmd.Chain(".", agentsmd.Options{FS: fsys})
	if err == nil || !strings.HasSuffix(err.Error(), long.Error()) || !utf8.ValidString(err.Error()) {
		t.Errorf("Chain's error %q does not end in the whole FS error", err)
	}
}

// readerFS serves one file, AGENTS.md, whose reads are read.
type readerFS struct {
	read func(p []byte) (int, error)
}

type readerFile struct {
	fs.File
	read func(p []byte) (int, error)
}

func (f readerFile) Read(p []byte) (int, error) { return f.read(p) }

func (r readerFS) Open(name string) (fs.File, error) {
	f, err := fstest.MapFS{"AGENTS.md": file("")}.Open(name)
	if err != nil || name != "AGENTS.md" {
		return f, err
	}
	return readerFile{File: f, read: r.read}, nil
}

func TestFSReadErrors(t *testing.T) {
	// Bytes come with the error: they are read, then the error fails the
	// chain.
	sent := false
	fsys := readerFS{read: func(p []byte) (int, error) {
		if sent {
			t.Error("read again after an error")
		}
		sent = true
		return copy(p, "partial"), errBoom
	}}
	if _, err := agentsmd.Chain(".", agentsmd.Options{FS: fsys}); !errors.Is(err, errBoom) {
		t.Errorf("a read error: %v, want %v", err, errBoom)
	}
	// A reader that never makes progress.
	fsys = readerFS{read: func(p []byte) (int, error) { return 0, nil }}
	if _, err := agentsmd.Chain(".", agentsmd.Options{FS: fsys}); !errors.Is(err, io.ErrNoProgress) {
		t.Errorf("a read without progress: %v, want %v", err, io.ErrNoProgress)
	}
	// One byte at a time, then EOF with the last byte.
	text := "one at a time"
	at := 0
	fsys = readerFS{read: func(p []byte) (int, error) {
		at++
		if at == len(text) {
			return copy(p, text[at-1:at]), io.EOF
		}
		return copy(p, text[at-1:at]), nil
	}}
	res := mustChain(t, ".", agentsmd.Options{FS: fsys})
	if len(res.Files) != 1 || res.Files[0].Content != text {
		t.Errorf("a trickling reader gave\n%s", describe(res))
	}
}

// panicFS panics when AGENTS.md is opened.
type panicFS struct{ fstest.MapFS }

type panicValue struct{ what string }

func (p panicFS) Open(name string) (fs.File, error) {
	if name == "AGENTS.md" {
		panic(panicValue{"opening " + name})
	}
	return p.MapFS.Open(name)
}

func TestFSPanicIsRaisedAgainInGo(t *testing.T) {
	defer func() {
		if r := recover(); r != (panicValue{"opening AGENTS.md"}) {
			t.Errorf("Chain panicked with %v, want the FS's panic", r)
		}
	}()
	agentsmd.Chain(".", agentsmd.Options{FS: panicFS{fstest.MapFS{"AGENTS.md": file("x")}}})
	t.Error("Chain returned instead of panicking")
}

// nestedFS starts a chain of its own from within a callback.
type nestedFS struct{ fstest.MapFS }

func (n nestedFS) Open(name string) (fs.File, error) {
	if name == "AGENTS.md" {
		inner, err := agentsmd.Chain(".", agentsmd.Options{FS: fstest.MapFS{"AGENTS.md": file("inner\n")}})
		if err != nil || len(inner.Files) != 1 {
			return nil, fmt.Errorf("the nested chain: %v, %d files", err, len(inner.Files))
		}
		return fstest.MapFS{"f": file("outer, around " + inner.Files[0].Content)}.Open("f")
	}
	return n.MapFS.Open(name)
}

func TestFSMayChainFromACallback(t *testing.T) {
	res := mustChain(t, ".", agentsmd.Options{FS: nestedFS{fstest.MapFS{"AGENTS.md": file("")}}})
	if len(res.Files) != 1 || res.Files[0].Content != "outer, around inner\n" {
		t.Errorf("a nested chain gave\n%s", describe(res))
	}
}

// badNameFS lists a name that is not one path element.
type badNameFS struct{ fstest.MapFS }

type badEntry struct{ fs.DirEntry }

func (badEntry) Name() string { return "a/b" }

func (b badNameFS) ReadDir(name string) ([]fs.DirEntry, error) {
	entries, err := b.MapFS.ReadDir(name)
	return append(entries, badEntry{entries[0]}), err
}

func TestFSListingABadNameFails(t *testing.T) {
	_, err := agentsmd.Chain(".", agentsmd.Options{FS: badNameFS{fstest.MapFS{"AGENTS.md": file("x")}}})
	if err == nil || !strings.Contains(err.Error(), `"a/b"`) {
		t.Errorf("listing a/b: %v, want an error naming it", err)
	}
}
