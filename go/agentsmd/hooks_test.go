//go:build agentsmd_test_hooks

package agentsmd

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"testing"
	"testing/fstest"
	"testing/iotest"
)

// oneByteFS answers every Read of its files one byte at a time.
type oneByteFS struct{ fstest.MapFS }

func (f oneByteFS) Open(name string) (fs.File, error) {
	file, err := f.MapFS.Open(name)
	if err != nil {
		return nil, err
	}
	return oneByteFile{file, iotest.OneByteReader(file)}, nil
}

type oneByteFile struct {
	fs.File
	r io.Reader
}

func (f oneByteFile) Read(p []byte) (int, error) { return f.r.Read(p) }

// A file read one byte per Read costs the library work linear in its size:
// the buffer it reads into is zeroed once, not once per call.
func TestOneByteReadsCostLinearWork(t *testing.T) {
	const size = 1 << 20
	content := append(bytes.Repeat([]byte("a"), size-1), '\n')
	fsys := oneByteFS{fstest.MapFS{"AGENTS.md": {Data: content}}}
	before := bytesZeroed()
	res, err := Chain(".", Options{FS: fsys})
	zeroed := bytesZeroed() - before
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) != 1 || res.Files[0].Content != string(content) {
		t.Fatalf("files %d, want the 1 MiB file whole", len(res.Files))
	}
	if zeroed > 2*(size+1) {
		t.Fatalf("%d bytes zeroed to read %d bytes", zeroed, size)
	}
}

// A bug caught at the library's boundary is an *Error of kind KindPanic.
func TestALibraryPanicIsKindPanic(t *testing.T) {
	err := libraryPanic()
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindPanic || !errors.Is(err, ErrPanic) {
		t.Fatalf("error %#v, want an *Error of kind Panic matching ErrPanic", err)
	}
}
