// Package remote serves a directory over HTTP in two JSON calls, and is a
// client of it that an agentsmd chain reads in two round trips: an
// agentsmd.BatchFS. Its shape is a hosting API's (one listing of many
// directories, as a recursive tree listing gives; one query for many
// files, as a query for many blobs gives), so that a product working over
// such an API, with no checkout, maps its calls onto Client's two methods.
//
// The protocol, both calls POST with a JSON body:
//
//	POST /readdirs  {"names": ["." , "a"]}
//	             -> {"dirs": [[{"name": "AGENTS.md", "kind": "file", "size": 5}, ...], null]}
//	POST /readfiles {"names": ["AGENTS.md", "gone.md"], "limit": 1048577}
//	             -> {"files": ["<base64 of the bytes>", null]}
//
// null is a directory or file that does not exist (nothing, or nothing of
// that kind, has that name); kind is "file", "dir" or "other", after
// following links.
package remote

import (
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"path"
	"syscall"
)

// Entry is one name a directory lists, as /readdirs answers it.
type Entry struct {
	Name string `json:"name"`
	// Kind is "file", "dir" or "other", after following links.
	Kind string `json:"kind"`
	// Size is a file's size in bytes.
	Size int64 `json:"size,omitempty"`
}

type readDirsRequest struct {
	Names []string `json:"names"`
}

type readDirsResponse struct {
	Dirs [][]Entry `json:"dirs"`
}

type readFilesRequest struct {
	Names []string `json:"names"`
	Limit int64    `json:"limit"`
}

type readFilesResponse struct {
	Files [][]byte `json:"files"`
}

// NewServer serves fsys (os.DirFS of a directory, say) over the two calls.
// It follows links as fsys does: os.DirFS follows them anywhere, so serve
// only what may be read, or an fs.FS that confines.
func NewServer(fsys fs.FS) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/readdirs", func(w http.ResponseWriter, r *http.Request) {
		var req readDirsRequest
		if !decode(w, r, &req) || !valid(w, req.Names) {
			return
		}
		resp := readDirsResponse{Dirs: make([][]Entry, len(req.Names))}
		for i, name := range req.Names {
			var err error
			if resp.Dirs[i], err = listing(fsys, name); err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
		}
		encode(w, resp)
	})
	mux.HandleFunc("/readfiles", func(w http.ResponseWriter, r *http.Request) {
		var req readFilesRequest
		if !decode(w, r, &req) || !valid(w, req.Names) {
			return
		}
		resp := readFilesResponse{Files: make([][]byte, len(req.Names))}
		for i, name := range req.Names {
			var err error
			if resp.Files[i], err = content(fsys, name, req.Limit); err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
		}
		encode(w, resp)
	})
	return mux
}

// listing is the directory name's entries, each told after following links;
// nil where name is no directory (nothing, or no directory, has that name).
// Any other failure is the request's.
func listing(fsys fs.FS, name string) ([]Entry, error) {
	if info, err := fs.Stat(fsys, name); err != nil || !info.IsDir() {
		return nil, missing(err)
	}
	entries, err := fs.ReadDir(fsys, name)
	if err != nil {
		return nil, err
	}
	listed := make([]Entry, 0, len(entries))
	for _, entry := range entries {
		info, err := fs.Stat(fsys, path.Join(name, entry.Name()))
		kind, size := "other", int64(0)
		switch {
		case err != nil: // a link that leads nowhere
		case info.Mode().IsRegular():
			kind, size = "file", info.Size()
		case info.IsDir():
			kind = "dir"
		}
		listed = append(listed, Entry{Name: entry.Name(), Kind: kind, Size: size})
	}
	return listed, nil
}

// content is at most limit bytes of the regular file name; nil where there
// is none. It is stat'ed before it is opened: opening a FIFO would block. Any
// other failure is the request's.
func content(fsys fs.FS, name string, limit int64) ([]byte, error) {
	if info, err := fs.Stat(fsys, name); err != nil || !info.Mode().IsRegular() {
		return nil, missing(err)
	}
	file, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	return io.ReadAll(io.LimitReader(file, limit))
}

// missing is nil for a stat's error that says there is nothing there (or
// none, where there is something of another kind), else err.
func missing(err error) error {
	if err == nil || errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return nil
	}
	return err
}

// decode reads a POSTed JSON body into v, answering 405 or 400 if it cannot.
func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	if r.Method != http.MethodPost {
		http.Error(w, "POST only", http.StatusMethodNotAllowed)
		return false
	}
	if err := json.NewDecoder(r.Body).Decode(v); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return false
	}
	return true
}

// valid answers 400 unless every name is valid to an fs.FS: nothing is
// asked above the served directory.
func valid(w http.ResponseWriter, names []string) bool {
	for _, name := range names {
		if !fs.ValidPath(name) {
			http.Error(w, "invalid name "+name, http.StatusBadRequest)
			return false
		}
	}
	return true
}

// encode answers v as JSON. A failure to write it is the connection's, which
// the client then sees.
func encode(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}
