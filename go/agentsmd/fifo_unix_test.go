//go:build unix

package agentsmd_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/agentsmd/agentsmd/go/agentsmd"
)

// A FIFO is Unix's: Windows has none to make.

func TestDirFSNeverOpensAFIFO(t *testing.T) {
	dir := tempDir(t)
	if err := syscall.Mkfifo(filepath.Join(dir, "AGENTS.md"), 0o644); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "CLAUDE.md"), []byte("claude\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error)
	var res agentsmd.Result
	go func() {
		var err error
		res, err = agentsmd.Chain(".", agentsmd.Options{FS: os.DirFS(dir), Names: []string{"AGENTS.md", "CLAUDE.md"}})
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
		checkResult(t, res, agentsmd.Result{Files: []agentsmd.File{{Path: "CLAUDE.md", Content: "claude\n"}}})
	case <-time.After(10 * time.Second):
		t.Fatal("Chain blocked on a FIFO named AGENTS.md")
	}
}
