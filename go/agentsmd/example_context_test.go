package agentsmd_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"testing/fstest"
	"time"

	"github.com/agentsmd/agentsmd/go/agentsmd"
)

// A chain bounded in time, as a request handler runs one over a network file
// system, and the same chain once its caller has gone: it stops before
// asking the file system anything more.
func ExampleChainContext() {
	fsys := fstest.MapFS{
		"AGENTS.md":     {Data: []byte("Use tabs.\n")},
		"src/AGENTS.md": {Data: []byte("The src rules.\n")},
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := agentsmd.ChainContext(ctx, "src/main.go", agentsmd.Options{FS: fsys})
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range res.Files {
		fmt.Printf("%s: %q\n", f.Path, f.Content)
	}

	cancel() // the caller has gone
	_, err = agentsmd.ChainContext(ctx, "src/main.go", agentsmd.Options{FS: fsys})
	var e *agentsmd.Error
	if errors.As(err, &e) {
		fmt.Println(e.Kind, e.Path, errors.Is(err, context.Canceled))
	}
	// Output:
	// AGENTS.md: "Use tabs.\n"
	// src/AGENTS.md: "The src rules.\n"
	// Aborted src/main.go true
}
