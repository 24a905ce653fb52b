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
// file over MaxBytes, [ErrImport] for an import directive that cannot be
// expanded, the error opts.FS or opts.Transform returned when it failed, and
// the OS error (such as [io/fs.ErrPermission]) when the OS file system did.
// A panic in opts.FS or opts.Transform is raised again once the library has
// returned.
func Chain(path string, opts Options) (Result, error) {
	res, states, err := chain(path, &opts)
	// The library has returned and released opts.FS and opts.Transform by
	// now: a panic of either can go on in Go.
	for _, state := range states {
		if state != nil && state.panicked {
			panic(state.panicValue)
		}
	}
	return res, err
}

// chain is Chain up to the panic of opts.FS or opts.Transform, which it
// returns in their callback states.
func chain(path string, opts *Options) (Result, []*callbackState, error) {
	options, err := newCOptions(opts)
	if err != nil {
		return Result{}, nil, err
	}
	defer options.free()
	states := options.states()
	var res *C.agentsmd_result
	var cerr *C.agentsmd_error
	cpath, cpathLen := cBytes(path)
	status := C.agentsmd_chain(cpath, cpathLen, options.handle, &res, &cerr)
	if err := errorOf(status, cerr, states...); err != nil {
		return Result{}, states, err
	}
	defer C.agentsmd_result_free(res)
	out, err := goResult(res)
	return out, states, err
}
