package profiles

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
)

// Target files are vegeta's (github.com/tsenart/vegeta, README "-format"): in its http format,
//
//	POST http://127.0.0.1:8899/rpc
//	X-Account-ID: 99
//	@bodies/getBalance.json
//
// (a "METHOD URL" line, header lines, an optional @file whose contents are the body, a blank
// line between targets, # comments), or in its json format, one object per line:
//
//	{"method":"POST","url":"http://127.0.0.1:8899/","body":"<base64>","header":{"X-A":["1"]}}

// Bounds of a target file. maxTargets keeps the request mix's weights in range; maxTargetErrors
// keeps a wrong file (a CSV, a binary) from printing a thousand lines; maxTargetLine is the
// longest line, a json target with the largest body (base64 takes 4 bytes for 3) and room for
// its url and headers.
const (
	maxTargets      = 1_000_000
	maxTargetErrors = 20
	maxTargetLine   = maxBodyFileBytes/3*4 + 1<<20
)

// target is one request of a target file.
type target struct {
	line    int // where it starts, 1-based
	method  string
	url     string
	headers [][2]string // name, value; in file order
	body    []byte
	// kept says body is kept as it is for the whole run (an @file, read once however many
	// targets use it); otherwise it is the target's own, and the mix copies what it keeps.
	kept bool
}

// targetError is a problem at a line of a target file.
type targetError struct {
	line int
	msg  string
}

func (e *targetError) Error() string { return fmt.Sprintf("line %d: %s", e.line, e.msg) }

// parseTargets reads a target file from r, a line at a time, in format "json" or "http" (""
// detects it: the json format's first line that is not blank or a comment starts with "{").
// Each target is handed to add as soon as it is read, and the file is never held whole: a
// million targets would otherwise take several times the file's size at once. add returns
// false to stop reading. bodyFile reads the @files of the http format. Problems are returned
// with their lines, at most maxTargetErrors of them.
func parseTargets(r io.Reader, format string, bodyFile func(string) ([]byte, error), add func(target) bool) []*targetError {
	p := targetParser{format: format, bodyFile: bodyFile, add: add, more: true}
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, maxTargetLine)
	n := 0
	for p.more && sc.Scan() {
		n++
		p.line(n, sc.Bytes())
	}
	switch err := sc.Err(); {
	case errors.Is(err, bufio.ErrTooLong):
		p.fail(n+1, "the line is longer than %d MiB: a target's body is at most %d MiB (base64 in the json format; in the http format, put it in an @file)", maxTargetLine>>20, maxBodyFileBytes>>20)
	case err != nil:
		p.fail(n+1, "cannot be read: %v", err)
	}
	if p.more {
		p.flush()
	}
	if p.count == 0 && len(p.errs) == 0 {
		p.fail(1, `has no targets: write one per line, e.g. "POST http://127.0.0.1:8899/" (http format) or {"method":"POST","url":"http://127.0.0.1:8899/"} (json format)`)
	}
	return p.errs
}

// targetParser is the state of parseTargets.
type targetParser struct {
	format   string // "json" or "http"; "" until the first line that says
	errs     []*targetError
	bodyFile func(string) ([]byte, error)
	bodies   map[string][]byte // @files already read
	add      func(target) bool
	more     bool    // false once add said stop, or problems filled up
	count    int     // targets handed to add
	cur      *target // http: the target being read; nil between targets
}

func (p *targetParser) fail(line int, format string, args ...any) {
	if len(p.errs) < maxTargetErrors {
		p.errs = append(p.errs, &targetError{line: line, msg: fmt.Sprintf(format, args...)})
	}
	if len(p.errs) >= maxTargetErrors {
		p.more = false
	}
}

// emit hands a target to add, unless there are enough of them already.
func (p *targetParser) emit(t target) {
	if p.count >= maxTargets {
		p.fail(t.line, "more than %d targets: split the file, or use templates ({{line \"accounts.txt\"}}) to vary one request", maxTargets)
		p.more = false
		return
	}
	p.count++
	if !p.add(t) {
		p.more = false
	}
}

// line reads line n of the file, without its line end; raw is the scanner's, valid until the
// next line is read.
func (p *targetParser) line(n int, raw []byte) {
	l := bytes.TrimSpace(raw)
	if p.format == "" && len(l) > 0 && l[0] != '#' {
		p.format = "http"
		if l[0] == '{' {
			p.format = "json"
		}
	}
	if p.format == "json" {
		p.json(n, l)
	} else {
		p.http(n, string(l))
	}
}

// flush hands on the http target being read, if any, unless it was found wrong.
func (p *targetParser) flush() {
	if t := p.cur; t != nil {
		p.cur = nil
		if t.line > 0 {
			p.emit(*t)
		}
	}
}

// http reads line n of the http format, trimmed.
func (p *targetParser) http(n int, l string) {
	switch {
	case l == "":
		p.flush()
	case l[0] == '#':
	case p.cur == nil || isRequestLine(l):
		if p.flush(); !p.more {
			return
		}
		method, u, ok := strings.Cut(l, " ")
		u = strings.TrimSpace(u)
		if !ok || !isHTTPMethod(method) || u == "" || strings.ContainsAny(u, " \t") {
			p.fail(n, "%q is not a target: start each target with a line METHOD URL, e.g. POST http://127.0.0.1:8899/ (then headers, then @body-file, then a blank line)", clip(l, 60))
			p.cur = &target{line: -1} // skip its header lines; it is dropped at the flush
			return
		}
		p.cur = &target{line: n, method: method, url: u}
	case p.cur.line < 0: // the rest of a target already reported
	case l[0] == '@':
		if p.cur.body != nil {
			p.fail(n, "a second body file: a target has one @file line")
			return
		}
		name := strings.TrimSpace(l[1:])
		if name == "" {
			p.fail(n, "@ without a file name: write @bodies/call.json (relative to the target file)")
			return
		}
		body, err := p.readBody(name)
		if err != nil {
			p.fail(n, "body %v", err)
			return
		}
		p.cur.body, p.cur.kept = body, true
	default:
		name, value, ok := strings.Cut(l, ":")
		name, value = strings.TrimSpace(name), strings.TrimSpace(value)
		if !ok || !isHeaderName(name) {
			p.fail(n, "%q is neither a header (Name: value) nor a body file (@file): put a blank line before the next target", clip(l, 60))
			return
		}
		p.cur.headers = append(p.cur.headers, [2]string{name, value})
	}
}

// isRequestLine reports a line that starts a target: an upper-case method, a space, a URL.
func isRequestLine(l string) bool {
	method, rest, ok := strings.Cut(l, " ")
	return ok && isHTTPMethod(method) && strings.Contains(rest, "://")
}

// readBody reads an @file once, however many targets use it.
func (p *targetParser) readBody(name string) ([]byte, error) {
	if b, ok := p.bodies[name]; ok {
		return b, nil
	}
	if p.bodyFile == nil {
		return nil, fmt.Errorf("%q cannot be read here", name)
	}
	b, err := p.bodyFile(name)
	if err != nil {
		return nil, err
	}
	if p.bodies == nil {
		p.bodies = map[string][]byte{}
	}
	p.bodies[name] = b
	return b, nil
}

// jsonTarget is one line of the json format. Body is base64 in the file; encoding/json
// decodes a []byte from base64.
type jsonTarget struct {
	Method string              `json:"method"`
	URL    string              `json:"url"`
	Body   []byte              `json:"body"`
	Header map[string][]string `json:"header"`
}

// json reads line n of the json format, trimmed.
func (p *targetParser) json(n int, l []byte) {
	if len(l) == 0 || l[0] == '#' {
		return
	}
	var jt jsonTarget
	dec := json.NewDecoder(bytes.NewReader(l))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&jt); err != nil {
		p.fail(n, "not a JSON target (%v): write {\"method\":\"POST\",\"url\":\"http://…\",\"body\":\"<base64>\",\"header\":{\"Name\":[\"value\"]}}, one per line", jsonCause(err))
		return
	}
	if dec.More() {
		p.fail(n, "more than one JSON object on the line: write one target per line")
		return
	}
	if !isHTTPMethod(jt.Method) {
		p.fail(n, "method %q: write an HTTP method in capitals, e.g. \"POST\"", clip(jt.Method, 20))
		return
	}
	if jt.URL == "" {
		p.fail(n, `no url: every target needs one, e.g. "url":"http://127.0.0.1:8899/"`)
		return
	}
	t := target{line: n, method: jt.Method, url: jt.URL, body: jt.Body}
	names := make([]string, 0, len(jt.Header))
	for k := range jt.Header {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		for _, v := range jt.Header[k] {
			t.headers = append(t.headers, [2]string{k, v})
		}
	}
	p.emit(t)
}

// jsonCause shortens encoding/json's errors to what a person can act on.
func jsonCause(err error) string {
	s := err.Error()
	s = strings.TrimPrefix(s, "json: ")
	if strings.Contains(s, "illegal base64") {
		return "body must be base64: " + s
	}
	return clip(s, 100)
}

// bodyFileReader reads @files relative to the target file's folder through read (which is
// relative to the profile's folder).
func bodyFileReader(targetsName string, read func(string) ([]byte, error)) func(string) ([]byte, error) {
	return func(name string) ([]byte, error) {
		if !filepath.IsAbs(name) {
			name = filepath.Join(filepath.Dir(targetsName), name)
		}
		return read(name)
	}
}
