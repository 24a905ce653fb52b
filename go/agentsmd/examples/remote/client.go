package remote

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"path"
	"time"
)

// Client reads a directory that a server (NewServer) serves at URL: an
// agentsmd.BatchFS, so that a chain over it costs one /readdirs, one
// /readfiles, and one more /readfiles per level of imports. As an fs.FS it
// answers single questions too, each in one call: fs.ReadDir, fs.Stat (from
// its directory's listing), and Open.
type Client struct {
	// URL is the server's, without a trailing slash: "http://127.0.0.1:8080".
	URL string
	// HTTP makes the calls; nil means http.DefaultClient.
	HTTP *http.Client
}

// ReadDirs lists each named directory in one call; a nil entry means that
// directory does not exist.
func (c *Client) ReadDirs(names []string) ([][]fs.DirEntry, error) {
	var resp readDirsResponse
	if err := c.post("/readdirs", readDirsRequest{Names: names}, &resp); err != nil {
		return nil, err
	}
	if len(resp.Dirs) != len(names) {
		return nil, fmt.Errorf("remote: /readdirs answered %d of %d directories", len(resp.Dirs), len(names))
	}
	dirs := make([][]fs.DirEntry, len(names))
	for i, listed := range resp.Dirs {
		if listed == nil {
			continue
		}
		dirs[i] = make([]fs.DirEntry, len(listed))
		for j, entry := range listed {
			dirs[i][j] = dirEntry{entry}
		}
	}
	return dirs, nil
}

// ReadFiles reads each named file in one call, at most limit bytes; a nil
// entry means not found.
func (c *Client) ReadFiles(names []string, limit int64) ([][]byte, error) {
	var resp readFilesResponse
	if err := c.post("/readfiles", readFilesRequest{Names: names, Limit: limit}, &resp); err != nil {
		return nil, err
	}
	if len(resp.Files) != len(names) {
		return nil, fmt.Errorf("remote: /readfiles answered %d of %d files", len(resp.Files), len(names))
	}
	return resp.Files, nil
}

// ReadDir lists one directory, in one call.
func (c *Client) ReadDir(name string) ([]fs.DirEntry, error) {
	dirs, err := c.ReadDirs([]string{name})
	if err != nil {
		return nil, err
	}
	if dirs[0] == nil {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	return dirs[0], nil
}

// Stat tells what name is from its directory's listing, in one call.
func (c *Client) Stat(name string) (fs.FileInfo, error) {
	if name == "." {
		return dirEntry{Entry{Name: ".", Kind: "dir"}}, nil
	}
	entries, err := c.ReadDir(path.Dir(name))
	if err != nil {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
	}
	for _, entry := range entries {
		if entry.Name() == path.Base(name) {
			return entry.(dirEntry), nil
		}
	}
	return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
}

// Open opens a file, read whole in one call, or a directory, listed in one
// more.
func (c *Client) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	files, err := c.ReadFiles([]string{name}, 1<<62)
	if err != nil {
		return nil, err
	}
	if files[0] != nil {
		info := dirEntry{Entry{Name: path.Base(name), Kind: "file", Size: int64(len(files[0]))}}
		return &file{Reader: bytes.NewReader(files[0]), info: info}, nil
	}
	entries, err := c.ReadDir(name)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return &dir{info: dirEntry{Entry{Name: path.Base(name), Kind: "dir"}}, entries: entries}, nil
}

// post sends body as JSON to the call at path and decodes the answer into out.
func (c *Client) post(call string, body, out any) error {
	encoded, err := json.Marshal(body)
	if err != nil {
		return err
	}
	client := c.HTTP
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Post(c.URL+call, "application/json", bytes.NewReader(encoded))
	if err != nil {
		return fmt.Errorf("remote: %s: %w", call, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		text, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return fmt.Errorf("remote: %s: %s: %s", call, resp.Status, bytes.TrimSpace(text))
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		return fmt.Errorf("remote: %s: %w", call, err)
	}
	return nil
}

// dirEntry is an Entry as an fs.DirEntry and its fs.FileInfo: it answers
// Info without another call, as a BatchFS's entries must.
type dirEntry struct{ entry Entry }

func (e dirEntry) Name() string               { return e.entry.Name }
func (e dirEntry) IsDir() bool                { return e.entry.Kind == "dir" }
func (e dirEntry) Type() fs.FileMode          { return e.Mode().Type() }
func (e dirEntry) Info() (fs.FileInfo, error) { return e, nil }
func (e dirEntry) Size() int64                { return e.entry.Size }
func (e dirEntry) ModTime() time.Time         { return time.Time{} }
func (e dirEntry) Sys() any                   { return nil }

// Mode is a file's, a directory's, or an irregular file's ("other").
func (e dirEntry) Mode() fs.FileMode {
	switch e.entry.Kind {
	case "file":
		return 0o444
	case "dir":
		return fs.ModeDir | 0o555
	default:
		return fs.ModeIrregular
	}
}

// file is a file read whole.
type file struct {
	*bytes.Reader
	info dirEntry
}

func (f *file) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *file) Close() error               { return nil }

// dir is a directory listed whole.
type dir struct {
	info    dirEntry
	entries []fs.DirEntry
	read    int
}

func (d *dir) Stat() (fs.FileInfo, error) { return d.info, nil }
func (d *dir) Close() error               { return nil }
func (d *dir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.info.Name(), Err: fs.ErrInvalid}
}

// ReadDir lists the directory's entries, n at a time (all of them if n <= 0).
func (d *dir) ReadDir(n int) ([]fs.DirEntry, error) {
	left := d.entries[d.read:]
	if n > 0 && len(left) == 0 {
		return nil, io.EOF
	}
	if n > 0 && n < len(left) {
		left = left[:n]
	}
	d.read += len(left)
	return left, nil
}
