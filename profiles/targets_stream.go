package profiles

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/rpcstress/rpcstress/engine"
)

// stdinName is standard input in messages ("stdin:12: targets: …"), as the profile's name
// and in snapshot file names.
const stdinName = "stdin"

// maxTargetLine bounds one line of a target stream: a json target carrying the largest body
// a body file may hold, in base64, with room for its URL and headers. A longer line is not a
// target (a binary piped in by mistake) and must not be read into memory whole.
const maxTargetLine = maxBodyFileBytes/3*4 + 64<<10

// targetStream reads vegeta targets from a stream (standard input) while the run goes: it is
// the run's engine.Source. Targets are parsed by the same parser as a target file and sorted
// into requests by the same targetIndexer, one line at a time: an endless generator
// (`generate | rpcstress --targets - --rate 500/s`) is never read to its end first. @body
// files are read relative to the working directory, each when its target is read. The
// first problem ends the stream with an error naming its line.
type targetStream struct {
	r      *bufio.Reader
	n      int  // lines read
	eof    bool // the input has ended
	p      targetParser
	c      checker
	ix     targetIndexer
	names  map[string]bool  // names given, for name#2
	primed *engine.Streamed // the first target, read by prime before the run
}

func newTargetStream(r io.Reader, format string, bodyFile func(string) ([]byte, error), defaultURL string) *targetStream {
	s := &targetStream{r: bufio.NewReaderSize(r, 64<<10), names: map[string]bool{}}
	s.p = targetParser{format: format, bodyFile: bodyFile} // no limit, no body cache: it may never end
	s.c = checker{file: stdinName, lines: lineIndex{}}
	s.ix = targetIndexer{c: &s.c, file: stdinName, urlFromTargets: true, defaultURL: defaultURL, index: map[string]int{}}
	return s
}

// prime reads the first target before the run, so that a bad or missing first target is
// reported as bad input before anything is sent, and the run's URL is known. Next returns
// it first.
func (s *targetStream) prime() error {
	first, err := s.Next()
	if errors.Is(err, io.EOF) {
		return newError(stdinName, []*Problem{{File: stdinName, Line: max(s.n, 1), Field: "targets", Msg: noTargets}})
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
		e.req.Name = uniqueName(s.names, e.req.Name)
		req := e.req
		st.Request = &req
	}
	return st, nil
}

// target reads lines until a target is complete (http: a blank line, the next target or the
// end of input ends one).
func (s *targetStream) target() (target, error) {
	for len(s.p.targets) == 0 {
		if len(s.p.errs) > 0 {
			e := s.p.errs[0]
			return target{}, newError(stdinName, []*Problem{{File: stdinName, Line: e.line, Field: "targets", Msg: e.msg}})
		}
		if s.eof {
			return target{}, io.EOF
		}
		line, err := s.readLine()
		switch {
		case errors.Is(err, io.EOF):
			s.eof = true
			s.p.end()
			continue
		case err != nil:
			return target{}, err
		}
		if s.p.format == "" { // detected from the first line that is not blank or a comment
			l := bytes.TrimSpace(line)
			if len(l) == 0 || l[0] == '#' {
				continue
			}
			s.p.format = detectTargetFormat(l)
		}
		s.p.line(s.n, string(line))
	}
	t := s.p.targets[0]
	s.p.targets = s.p.targets[1:]
	if len(s.p.targets) == 0 {
		s.p.targets = nil // let the array go: the stream may never end
	}
	return t, nil
}

// readLine reads the next line without its line end, at most maxTargetLine bytes.
func (s *targetStream) readLine() ([]byte, error) {
	var line []byte
	for {
		chunk, err := s.r.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > maxTargetLine {
			return nil, newError(stdinName, []*Problem{{File: stdinName, Line: s.n + 1, Field: "targets",
				Msg: fmt.Sprintf("a line longer than %d MiB: not a target (is a binary file piped in?)", maxTargetLine>>20)}})
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(line) > 0: // the last line has no line end
		case err != nil:
			if !errors.Is(err, io.EOF) {
				err = fmt.Errorf("%s: reading line %d: %w", stdinName, s.n+1, err)
			}
			return nil, err
		}
		s.n++
		return bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r")), nil
	}
}
