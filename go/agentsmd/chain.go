package agentsmd

// #include <agentsmd.h>
import "C"

// Chain returns the instruction files that apply at path: opts.Extra in
// order, then, in path's directory and each of its ancestors up to opts.Root,
// the first of opts.Names that the directory lists, farthest first and
// nearest last, within opts.Budget and opts.RenderedBudget. A file found and
// not included, because a preferred name shadows it or a budget is spent, is
// in Result.Omitted. A file is read only when its reported size fits the
// budgets, and the bounds apply to the bytes it reads: more than
// opts.MaxBytes is an error, and more than a budget has left omits it. A
// directory that cannot be listed is an error. path may be a directory, an
// existing file, or a file about to be created, whose directory is then the
// start. With opts.FS set, path is a name in it and the chain's files are
// named as they are in it.
//
// An error names the path it concerns. errors.Is matches [ErrTooLarge] for a
// file over MaxBytes, the error opts.FS returned when it failed, and the OS
// error (such as [io/fs.ErrPermission]) when the OS file system did.
func Chain(path string, opts Options) (Result, error) {
	res, bridge, err := chain(path, &opts)
	// The library has returned and released opts.FS by now: a panic of
	// opts.FS can go on in Go.
	if bridge != nil && bridge.panicked {
		panic(bridge.panicValue)
	}
	return res, err
}

// chain is Chain up to the panic of opts.FS, which it returns in the bridge.
func chain(path string, opts *Options) (Result, *fsBridge, error) {
	options, err := newCOptions(opts)
	if err != nil {
		return Result{}, nil, err
	}
	defer options.free()
	var res *C.agentsmd_result
	var cerr *C.agentsmd_error
	cpath, cpathLen := cBytes(path)
	status := C.agentsmd_chain(cpath, cpathLen, options.handle, &res, &cerr)
	if err := errorOf(status, cerr, options.bridge); err != nil {
		return Result{}, options.bridge, err
	}
	defer C.agentsmd_result_free(res)
	out, err := goResult(res)
	return out, options.bridge, err
}
