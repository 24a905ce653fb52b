module github.com/agentsmd/agentsmd/go/agentsmd

// The oldest Go release the package supports, so that products on older
// toolchains can use it; the tests run on whatever newer Go the machine has.
go 1.21
