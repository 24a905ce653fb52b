package agentsmd

// #include <agentsmd.h>
import "C"

import (
	"context"
	"sync"
)

// Session answers what newly applies as an agent touches paths (SPEC.md
// §10): a product calls Touch with each path its read, edit or list tool
// touches, and appends the Result, rendered, to the tool's output. Each file
// is given once, each file left out is reported once, the budgets bound the
// whole session, and each directory is looked up once, so a session over a
// thousand files of one tree costs one lookup per distinct directory. A rule
// of [Options.Rules] that applies always is given by the first touch that
// looks its directory up, one that applies by glob by the first touch whose
// path matches it, and one on request is in the [Result.Available] of the
// touch that first looked its directory up.
//
// A Session may be used from several goroutines; its touches take effect
// one at a time. Close releases it.
type Session struct {
	mu      sync.Mutex
	handle  *C.agentsmd_session
	options *cOptions
}

// NewSession returns a session with opts. opts.Nearest is an error matching
// [ErrInvalidArgument]: the nearest file changes as the agent moves.
func NewSession(opts Options) (*Session, error) {
	options, err := newCOptions(&opts)
	if err != nil {
		return nil, err
	}
	var handle *C.agentsmd_session
	var cerr *C.agentsmd_error
	if err := errorOf(C.agentsmd_session_new(options.handle, &handle, &cerr), cerr); err != nil {
		options.free()
		return nil, err
	}
	return &Session{handle: handle, options: options}, nil
}

// Touch returns what newly applies at path, a file, a directory or a file
// about to be created: the files of Chain(path, opts) that the session has
// not given, in chain order, with what was found and left out that no
// earlier touch reported. A path outside opts.Root gives an empty Result.
// An error leaves the session as it was before the touch.
//
// Touch is [Session.TouchContext] with [context.Background].
func (s *Session) Touch(path string) (Result, error) {
	return s.TouchContext(context.Background(), path)
}

// TouchContext is [Session.Touch], stopped once ctx is done, as
// [ChainContext] stops a chain: an [*Error] of kind [KindAborted] wrapping
// ctx.Err(), the session as it was before the touch.
func (s *Session) TouchContext(ctx context.Context, path string) (Result, error) {
	res, state, err := s.touch(ctx, path)
	// The library has returned: a panic of opts.FS or opts.Transform goes on
	// in Go.
	if state != nil {
		panic(state.panicValue)
	}
	return res, err
}

// touch is TouchContext up to a panic of opts.FS or opts.Transform, whose
// callback state it returns.
func (s *Session) touch(ctx context.Context, path string) (Result, *callbackState, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.handle == nil {
		return Result{}, nil, &Error{Kind: KindInvalidArgument, message: "Touch on a closed Session"}
	}
	token, stop, err := s.options.watch(ctx)
	if err != nil {
		return Result{}, nil, err
	}
	defer stop()
	states := s.options.states()
	for _, state := range states {
		state.err, state.panicked, state.panicValue = nil, false, nil
	}
	var res *C.agentsmd_result
	var cerr *C.agentsmd_error
	cpath, cpathLen := cBytes(path)
	status := C.agentsmd_session_touch_cancellable(s.handle, cpath, cpathLen, token, &res, &cerr)
	for _, state := range states {
		if state.panicked {
			if res != nil {
				C.agentsmd_result_free(res)
			}
			return Result{}, state, nil
		}
	}
	if err := errorOf(status, cerr, states...); err != nil {
		return Result{}, nil, abortedBy(ctx, err)
	}
	defer C.agentsmd_result_free(res)
	out, err := goResult(res)
	return out, nil, err
}

// Close releases the session. Touch fails after it; Close again does
// nothing.
func (s *Session) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.handle != nil {
		C.agentsmd_session_free(s.handle)
		s.options.free()
		s.handle = nil
	}
	return nil
}
