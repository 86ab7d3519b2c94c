package profiles

import (
	"bytes"
	"encoding/json"
	"fmt"
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
// keeps a wrong file (a CSV, a binary) from printing a thousand lines.
const (
	maxTargets      = 1_000_000
	maxTargetErrors = 20
)

// target is one request of a target file.
type target struct {
	line    int // where it starts, 1-based
	method  string
	url     string
	headers [][2]string // name, value; in file order
	body    []byte
}

// targetError is a problem at a line of a target file.
type targetError struct {
	line int
	msg  string
}

func (e *targetError) Error() string { return fmt.Sprintf("line %d: %s", e.line, e.msg) }

// detectTargetFormat says which format data is in, by its first line that is not blank or
// a comment: a JSON-RPC call or batch ("jsonrpc": what generators such as ethspam write, a
// call per line), another JSON object (vegeta's json format), or else vegeta's http format.
func detectTargetFormat(data []byte) string {
	for l := range bytes.SplitSeq(data, []byte("\n")) {
		l = bytes.TrimSpace(l)
		if len(l) == 0 || l[0] == '#' {
			continue
		}
		if l[0] == '[' || l[0] == '{' && isJSONRPCCall(l) {
			return "jsonrpc"
		}
		if l[0] == '{' {
			return "json"
		}
		return "http"
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

// parseTargets reads a target file in format "json", "http" or "jsonrpc" ("" detects it). bodyFile reads
// the @files of the http format. Problems are returned with their lines, at most
// maxTargetErrors of them.
func parseTargets(data []byte, format string, bodyFile func(string) ([]byte, error)) ([]target, []*targetError) {
	if format == "" {
		format = detectTargetFormat(data)
	}
	p := targetParser{format: format, bodyFile: bodyFile, bodies: map[string][]byte{}, limit: maxTargets}
	for i, l := range splitTargetLines(data) {
		if !p.line(i+1, l) {
			break
		}
	}
	p.end()
	if len(p.targets) == 0 && len(p.errs) == 0 {
		p.fail(1, noTargets)
	}
	return p.targets, p.errs
}

// noTargets says how targets are written.
const noTargets = `has no targets: write one per line, e.g. "POST http://127.0.0.1:8899/" (http format) or {"method":"POST","url":"http://127.0.0.1:8899/"} (json format)`

// targetParser reads targets line by line, a whole file or a stream, into targets and
// problems.
type targetParser struct {
	format   string // "http", "json" or "jsonrpc"
	targets  []target
	errs     []*targetError
	bodyFile func(string) ([]byte, error)
	// bodies are the @files already read, kept for a file (whose targets often share them);
	// nil for a stream, which would keep every file it ever named.
	bodies map[string][]byte
	cur    *target // http: the target being read; nil between targets
	count  int     // targets read, however many were taken out of targets since
	limit  int     // the most targets a file may hold; 0 for a stream, which may never end
}

func (p *targetParser) fail(line int, format string, args ...any) {
	if len(p.errs) < maxTargetErrors {
		p.errs = append(p.errs, &targetError{line: line, msg: fmt.Sprintf(format, args...)})
	}
}

// full reports whether parsing should stop: enough problems, or too many targets.
func (p *targetParser) full(line int) bool {
	if p.limit > 0 && p.count >= p.limit {
		p.fail(line, "more than %d targets: split the file, or use templates ({{line \"accounts.txt\"}}) to vary one request", maxTargets)
		return true
	}
	return len(p.errs) >= maxTargetErrors
}

// splitTargetLines splits data into lines without their line ends.
func splitTargetLines(data []byte) []string {
	ls := strings.Split(string(data), "\n")
	for i, l := range ls {
		ls[i] = strings.TrimSuffix(l, "\r")
	}
	return ls
}

// line reads line n (1-based, without its line end); false means stop reading.
func (p *targetParser) line(n int, raw string) bool {
	switch p.format {
	case "json":
		return p.jsonLine(n, raw)
	case "jsonrpc":
		return p.jsonrpcLine(n, raw)
	}
	return p.httpLine(n, raw)
}

// jsonrpcLine reads a line of the jsonrpc format: a JSON-RPC call or batch, the body of a
// POST to the run's URL (the target has none of its own).
func (p *targetParser) jsonrpcLine(n int, l string) bool {
	l = strings.TrimSpace(l)
	if l == "" || l[0] == '#' {
		return true
	}
	if p.full(n) {
		return false
	}
	if !json.Valid([]byte(l)) || l[0] != '{' && l[0] != '[' {
		p.fail(n, "%q is not a JSON-RPC call: write one call ({\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"…\"}) or batch ([…]) per line", clip(l, 40))
		return true
	}
	p.add(target{line: n, method: "POST", body: []byte(l)})
	return true
}

// end finishes the last target (http: a target ends at a blank line, the next target, or
// the end).
func (p *targetParser) end() { p.flush() }

// add keeps a finished target.
func (p *targetParser) add(t target) {
	p.targets = append(p.targets, t)
	p.count++
}

// flush keeps the http target being read, unless it was reported bad.
func (p *targetParser) flush() {
	if p.cur != nil && p.cur.line > 0 {
		p.add(*p.cur)
	}
	p.cur = nil
}

// httpLine reads a line of the http format.
func (p *targetParser) httpLine(n int, raw string) bool {
	l := strings.TrimSpace(raw)
	switch {
	case l == "":
		p.flush()
	case l[0] == '#':
	case p.cur == nil || isRequestLine(l):
		p.flush()
		if p.full(n) {
			return false
		}
		method, u, ok := strings.Cut(l, " ")
		u = strings.TrimSpace(u)
		if !ok || !isHTTPMethod(method) || u == "" || strings.ContainsAny(u, " \t") {
			p.fail(n, "%q is not a target: start each target with a line METHOD URL, e.g. POST http://127.0.0.1:8899/ (then headers, then @body-file, then a blank line)", clip(l, 60))
			p.cur = &target{line: -1} // skip its header lines; flush drops it
			return true
		}
		p.cur = &target{line: n, method: method, url: u}
	case p.cur.line < 0: // the rest of a target already reported
	case l[0] == '@':
		if p.cur.body != nil {
			p.fail(n, "a second body file: a target has one @file line")
			return true
		}
		name := strings.TrimSpace(l[1:])
		if name == "" {
			p.fail(n, "@ without a file name: write @bodies/call.json (relative to the target file)")
			return true
		}
		body, err := p.readBody(name)
		if err != nil {
			p.fail(n, "body %v", err)
			return true
		}
		p.cur.body = body
	default:
		name, value, ok := strings.Cut(l, ":")
		name, value = strings.TrimSpace(name), strings.TrimSpace(value)
		if !ok || !isHeaderName(name) {
			p.fail(n, "%q is neither a header (Name: value) nor a body file (@file): put a blank line before the next target", clip(l, 60))
			return true
		}
		p.cur.headers = append(p.cur.headers, [2]string{name, value})
	}
	return true
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

// jsonTarget is one line of the json format. Body is base64 in the file; encoding/json
// decodes a []byte from base64.
type jsonTarget struct {
	Method string              `json:"method"`
	URL    string              `json:"url"`
	Body   []byte              `json:"body"`
	Header map[string][]string `json:"header"`
}

// jsonLine reads a line of the json format.
func (p *targetParser) jsonLine(n int, l string) bool {
	l = strings.TrimSpace(l)
	if l == "" || l[0] == '#' {
		return true
	}
	if p.full(n) {
		return false
	}
	var jt jsonTarget
	dec := json.NewDecoder(strings.NewReader(l))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&jt); err != nil {
		p.fail(n, "not a JSON target (%v): write {\"method\":\"POST\",\"url\":\"http://…\",\"body\":\"<base64>\",\"header\":{\"Name\":[\"value\"]}}, one per line", jsonCause(err))
		return true
	}
	if dec.More() {
		p.fail(n, "more than one JSON object on the line: write one target per line")
		return true
	}
	if !isHTTPMethod(jt.Method) {
		p.fail(n, "method %q: write an HTTP method in capitals, e.g. \"POST\"", clip(jt.Method, 20))
		return true
	}
	if jt.URL == "" {
		p.fail(n, `no url: every target needs one, e.g. "url":"http://127.0.0.1:8899/"`)
		return true
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
	p.add(t)
	return true
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
