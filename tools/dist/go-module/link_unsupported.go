//go:build !agentsmd_system && !((linux && amd64) || (linux && arm64) || (darwin && amd64) || (darwin && arm64) || (windows && amd64))

package agentsmd

// The release carries no library for this platform (link_bundled.go names
// those it does). Install the C library (the release's C archive, or `make
// install` from a checkout) and build with -tags agentsmd_system, which links
// it through the cgo flags pkg-config gives:
//
//	CGO_CFLAGS="$(pkg-config --cflags agentsmd)" CGO_LDFLAGS="$(pkg-config --libs --static agentsmd)" go build -tags agentsmd_system
//
// The identifier below is undefined on purpose, so that the build stops with
// its name rather than with the linker's list of undefined agentsmd_ symbols.
var _ = no_bundled_library_for_this_platform__build_with_tags_agentsmd_system
