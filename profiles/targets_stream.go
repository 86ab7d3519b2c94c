package profiles

import (
	"errors"
	"io"

	"github.com/rpcstress/rpcstress/engine"
)

// stdinName is standard input in messages ("stdin:12: targets: …"), as the profile's name
// and in snapshot file names.
const stdinName = "stdin"

// targetStream reads vegeta targets from a stream (standard input) while the run goes: it is
// the run's engine.Source. Targets are read by the same targetReader as a target file and
// sorted into requests by the same targetIndexer, one line at a time: an endless generator
// (`generate | rpcstress --targets - --rate 500/s`) is never read to its end first. @body
// files are read relative to the working directory, each when its target is read. The
// first problem ends the stream with an error naming its line.
//
// A request's answers are matched to its calls by id like a file's: each streamed body is
// its own, so the Sender reads the ids of each as it is sent (engine.RPCCalls.PerSend).
type targetStream struct {
	tr      *targetReader
	c       checker
	ix      *targetIndexer
	names   *nameSet // names given, for name#2
	pending []target // targets read, not yet handed over, from head on
	head    int
	primed  *engine.Streamed // the first target, read by prime before the run
}

func newTargetStream(r io.Reader, format string, bodyFile func(string) ([]byte, error), defaultURL string) *targetStream {
	s := &targetStream{c: checker{file: stdinName, lines: lineIndex{}}, names: newNameSet(0)}
	// No limit and no cache of @files: a stream may never end.
	s.tr = newTargetReader(r, targetParser{format: format, bodyFile: bodyFile, add: func(t target) bool {
		s.pending = append(s.pending, t)
		return true
	}})
	s.ix = newTargetIndexer(&s.c, stdinName, true, defaultURL)
	return s
}

// prime reads the first target before the run, so that a bad or missing first target is
// reported as bad input before anything is sent, and the run's URL is known. Next returns
// it first.
func (s *targetStream) prime() error {
	first, err := s.Next()
	if errors.Is(err, io.EOF) {
		return newError(stdinName, []*Problem{{File: stdinName, Line: max(s.tr.n, 1), Field: "targets", Msg: noTargets}})
	}
	if err != nil {
		return err
	}
	s.primed = &first
	return nil
}

// url is the run's URL: the first target's scheme and host.
func (s *targetStream) url() string { return s.ix.url }

// Next implements engine.Source: the next target as a request of the run, described the
// first time its request appears.
func (s *targetStream) Next() (engine.Streamed, error) {
	if p := s.primed; p != nil {
		s.primed = nil
		return *p, nil
	}
	t, err := s.target()
	if err != nil {
		return engine.Streamed{}, err
	}
	known := len(s.ix.entries)
	i, ok, _ := s.ix.add(t)
	if !ok {
		return engine.Streamed{}, newError(stdinName, s.c.problems)
	}
	st := engine.Streamed{Index: i, Body: t.body}
	if i == known { // a new request
		e := &s.ix.entries[i]
		e.req.Name = s.names.unique(e.req.Name)
		req := e.req
		// Its answers are matched to the calls of each body as it is sent: the bodies of one
		// request differ (their ids too), and which ones come is not known ahead.
		if req.RPC = engine.ParseRPCCalls(t.body); req.RPC != nil {
			req.RPC.PerSend = true
		}
		st.Request = &req
	}
	return st, nil
}

// target reads lines until a target is complete (http: a blank line, the next target or the
// end of input ends one). The targets read before a problem are handed over first.
func (s *targetStream) target() (target, error) {
	for s.head == len(s.pending) {
		if errs := s.tr.p.errs; len(errs) > 0 {
			return target{}, newError(stdinName, []*Problem{{File: stdinName, Line: errs[0].line, Field: "targets", Msg: errs[0].msg}})
		}
		if !s.tr.step() && s.head == len(s.pending) && len(s.tr.p.errs) == 0 {
			return target{}, io.EOF
		}
	}
	t := s.pending[s.head]
	s.pending[s.head] = target{}
	if s.head++; s.head == len(s.pending) {
		s.pending, s.head = s.pending[:0], 0 // a line completes a target or two: the queue stays small
	}
	return t, nil
}
