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
//
// A third format, jsonrpc, is what generators such as ethspam write: a JSON-RPC call or batch
// per line, the body of a POST to the run's URL.

// Bounds of a target file. maxTargets keeps the request mix's weights in range; maxTargetErrors
// keeps a wrong file (a CSV, a binary) from printing a thousand lines; maxTargetLine is the
// longest line, a json target with the largest body (base64 takes 4 bytes for 3) and room for
// its url and headers: a longer line is not a target (a binary piped in by mistake) and is
// never read into memory whole.
const (
	maxTargets      = 1_000_000
	maxTargetErrors = 20
	maxTargetLine   = maxBodyFileBytes/3*4 + 1<<20
)

// target is one request of a target file.
type target struct {
	line    int // where it starts, 1-based
	method  string
	url     string      // "" in the jsonrpc format: the run's URL
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

// noTargets says how targets are written.
const noTargets = `has no targets: write one per line, e.g. "POST http://127.0.0.1:8899/" (http format) or {"method":"POST","url":"http://127.0.0.1:8899/"} (json format)`

// parseTargets reads a target file from r, a line at a time, in format "json", "http" or
// "jsonrpc" ("" detects it from the first line that is not blank or a comment, see
// targetFormat). Each target is handed to add as soon as it is read, and the file is never
// held whole: a million targets would otherwise take several times the file's size at once.
// add returns false to stop reading. bodyFile reads the @files of the http format. Problems
// are returned with their lines, at most maxTargetErrors of them.
func parseTargets(r io.Reader, format string, bodyFile func(string) ([]byte, error), add func(target) bool) []*targetError {
	tr := newTargetReader(r, targetParser{format: format, bodyFile: bodyFile, bodies: map[string][]byte{}, limit: maxTargets, add: add})
	for tr.step() {
	}
	p := &tr.p
	if p.count == 0 && len(p.errs) == 0 {
		p.fail(1, noTargets)
	}
	return p.errs
}

// targetReader feeds a target file or stream to its parser a line at a time: the one reader
// of targets, for a whole file (parseTargets) and for standard input while the run goes
// (targetStream) alike.
type targetReader struct {
	sc    *bufio.Scanner
	n     int // lines read
	p     targetParser
	ended bool
}

func newTargetReader(r io.Reader, p targetParser) *targetReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, maxTargetLine)
	p.more = true
	return &targetReader{sc: sc, p: p}
}

// step reads the next line into the parser, which hands on the targets it completes; false
// once reading is over: the input ended (the last target was then handed on) or failed, or
// the parser stopped (add said stop, or problems filled up).
func (tr *targetReader) step() bool {
	if tr.ended {
		return false
	}
	if tr.p.more && tr.sc.Scan() {
		tr.n++
		tr.p.line(tr.n, tr.sc.Bytes())
		return true
	}
	tr.ended = true
	switch err := tr.sc.Err(); {
	case errors.Is(err, bufio.ErrTooLong):
		tr.p.fail(tr.n+1, "the line is longer than %d MiB: a target's body is at most %d MiB (base64 in the json format; in the http format, put it in an @file)", maxTargetLine>>20, maxBodyFileBytes>>20)
	case err != nil:
		tr.p.fail(tr.n+1, "cannot be read: %v", err)
	}
	if tr.p.more {
		tr.p.flush()
	}
	return false
}

// targetParser is the state of a targetReader's parse.
type targetParser struct {
	format   string // "json", "http" or "jsonrpc"; "" until the first line that says
	errs     []*targetError
	bodyFile func(string) ([]byte, error)
	// bodies are the @files already read, kept for a file (whose targets often share them);
	// nil for a stream, which would keep every file it ever named.
	bodies map[string][]byte
	add    func(target) bool
	more   bool    // false once add said stop, or problems filled up
	count  int     // targets handed to add
	limit  int     // the most targets a file may hold; 0 for a stream, which may never end
	cur    *target // http: the target being read; nil between targets
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
	if p.limit > 0 && p.count >= p.limit {
		p.fail(t.line, "more than %d targets: split the file, or use templates ({{line \"accounts.txt\"}}) to vary one request", p.limit)
		p.more = false
		return
	}
	p.count++
	if !p.add(t) {
		p.more = false
	}
}

// targetFormat is the format a line that is not blank or a comment says the input is in: a
// JSON-RPC call or batch ("jsonrpc": what generators such as ethspam write, a call per line),
// another JSON object (vegeta's json format), or else vegeta's http format.
func targetFormat(l []byte) string {
	switch {
	case l[0] == '[' || l[0] == '{' && isJSONRPCCall(l):
		return "jsonrpc"
	case l[0] == '{':
		return "json"
	}
	return "http"
}

// isJSONRPCCall reports a JSON object with a "jsonrpc" member, which no vegeta target has.
func isJSONRPCCall(l []byte) bool {
	var members map[string]json.RawMessage
	if json.Unmarshal(l, &members) != nil {
		return false
	}
	_, ok := members["jsonrpc"]
	return ok
}

// line reads line n of the input, without its line end; raw is the reader's, valid until the
// next line is read.
func (p *targetParser) line(n int, raw []byte) {
	l := bytes.TrimSpace(raw)
	if p.format == "" && len(l) > 0 && l[0] != '#' {
		p.format = targetFormat(l)
	}
	switch p.format {
	case "json":
		p.json(n, l)
	case "jsonrpc":
		p.jsonrpc(n, l)
	default:
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

// readBody reads an @file, once for a whole file however many targets use it.
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
	if p.bodies != nil {
		p.bodies[name] = b
	}
	return b, nil
}

// jsonrpc reads line n of the jsonrpc format, trimmed: a JSON-RPC call or batch, the body of
// a POST to the run's URL (the target has none of its own).
func (p *targetParser) jsonrpc(n int, l []byte) {
	if len(l) == 0 || l[0] == '#' {
		return
	}
	if !json.Valid(l) || l[0] != '{' && l[0] != '[' {
		p.fail(n, "%q is not a JSON-RPC call: write one call ({\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"…\"}) or batch ([…]) per line", clip(string(l), 40))
		return
	}
	p.emit(target{line: n, method: "POST", body: bytes.Clone(l)})
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
