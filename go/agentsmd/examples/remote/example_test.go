package remote_test

import (
	"fmt"
	"log"
	"net/http/httptest"
	"testing/fstest"

	"github.com/agentsmd/agentsmd/go/agentsmd"
	"github.com/agentsmd/agentsmd/go/agentsmd/examples/remote"
)

// A workspace across a network, read in batches: the server stands for a
// hosting API, and remote.Client, a BatchFS, gets the chain in two requests.
func ExampleClient() {
	server := httptest.NewServer(remote.NewServer(fstest.MapFS{
		"AGENTS.md":              {Data: []byte("root rules\n")},
		"services/AGENTS.md":     {Data: []byte("services rules\n")},
		"services/api/AGENTS.md": {Data: []byte("api rules\n")},
	}))
	defer server.Close()
	res, err := agentsmd.Chain("services/api/handler.go", agentsmd.Options{
		FS: &remote.Client{URL: server.URL}, // POST /readdirs once, POST /readfiles once
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range res.Files {
		fmt.Printf("%s: %q\n", f.Path, f.Content)
	}
	// Output:
	// AGENTS.md: "root rules\n"
	// services/AGENTS.md: "services rules\n"
	// services/api/AGENTS.md: "api rules\n"
}
