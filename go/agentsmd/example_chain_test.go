//go:build !windows

package agentsmd_test

import (
	"fmt"
	"log"
	"path/filepath"

	"github.com/agentsmd/agentsmd/go/agentsmd"
)

// Not on Windows: testdata/tree holds c&"d", a name Windows cannot hold.

// The design's first example (SPEC.md's seed), on the repository's fixture
// tree: the user's own file first, an override name, and a budget that runs
// out before the nearest file. Paths are absolute; the example prints them
// relative to the fixtures so that its output is the same in every checkout.
func ExampleChain() {
	testdata, err := filepath.Abs("../../testdata")
	if err != nil {
		log.Fatal(err)
	}
	repoRoot := filepath.Join(testdata, "tree")
	cwd := filepath.Join(repoRoot, "a", "b", `c&"d"`)
	res, err := agentsmd.Chain(cwd, agentsmd.Options{
		Names:  []string{"AGENTS.override.md", "AGENTS.md"},
		Root:   repoRoot,
		Extra:  []string{filepath.Join(testdata, "extra", "user.md")},
		Budget: 64,
	})
	if err != nil {
		log.Fatal(err)
	}
	rel := func(path string) string {
		r, _ := filepath.Rel(testdata, path)
		return r
	}
	for _, f := range res.Files {
		fmt.Printf("%s: %q\n", rel(f.Path), f.Content)
	}
	for _, o := range res.Omitted {
		fmt.Printf("%s (%d bytes): %s\n", rel(o.Path), o.Size, o.Reason) // shadowed or over budget
	}
	// Output:
	// extra/user.md: "the user's own rules\n"
	// tree/AGENTS.md: "root rules\n"
	// tree/a/AGENTS.override.md: "a override\n"
	// tree/a/AGENTS.md (34 bytes): shadowed
	// tree/a/b/c&"d"/AGENTS.md (33 bytes): over budget
}
