package profiles

import (
	"bytes"
	"cmp"
	"encoding/base64"
	"net/url"
	"strconv"
	"strings"

	"github.com/rpcstress/rpcstress/engine"
)

// maxTargetShapes bounds the distinct requests a target file may hold. Targets that differ
// only in their bodies share one entry of the mix (see targetMixer); each distinct method, path,
// header set and JSON-RPC method is an entry with its own numbers.
const maxTargetShapes = engine.MaxRequestRows

// targets reads the targets key: a vegeta target file whose targets join the request mix.
// Without a url in the profile, the targets' host becomes the URL.
func (c *checker) targets(doc table, cfg *engine.Config, src *source) []mixEntry {
	format := ""
	if f, ok := c.str(doc, "", "targets_format", `targets_format = "json"`); ok {
		switch f {
		case "json", "http", "jsonrpc":
			format = f
		default:
			c.addf("targets_format", `%q is not a target format: use "http" or "json" (vegeta's formats) or "jsonrpc" (a call per line), or drop the key to detect it`, f)
		}
		if _, has := doc["targets"]; !has {
			c.addf("targets_format", `goes with targets = "targets.txt": add the target file, or drop the key`)
		}
	}
	name, ok := c.str(doc, "", "targets", `targets = "targets.txt"`)
	if !ok {
		return nil
	}
	if strings.TrimSpace(name) == "" {
		c.addf("targets", `is empty: name a vegeta target file, e.g. targets = "targets.txt"`)
		return nil
	}
	if name == "-" {
		if src.stream == nil {
			c.addf("targets", `"-" is standard input, which only the command line reads: rpcstress --targets - --rate R (a profile names a file)`)
			return nil
		}
		// Streamed: the requests are named as they appear, while the run goes.
		cfg.Source, cfg.SourceRequests = src.stream, maxTargetShapes
		return nil
	}
	f, err := src.openFile(name)
	if err != nil {
		c.addErr("targets", err, "%s", fileProblem(err, "put the file next to the profile (paths are relative to its folder) or fix the path"))
		return nil
	}
	defer f.Close()
	file := src.displayPath(name)
	_, hasURL := doc["url"]
	m := c.newTargetMixer(file, cfg, !hasURL, cmp.Or(cfg.URL, src.defaultURL))
	errs := parseTargets(f, format, bodyFileReader(name, src.readBody), m.add)
	for _, e := range errs {
		c.addAt(file, e.line, "targets", e.msg)
	}
	if len(errs) > 0 {
		return nil
	}
	return m.finish()
}

// targetIndexer sorts targets into the distinct requests of a run, for a whole file
// (targetMixer) and for a stream (targetStream) alike: one entry per method, path, headers and
// JSON-RPC method, at most maxTargetShapes; every target for one host (base): the profile's
// url, or when it has none (urlFromTargets) the first target's. A target without a URL of its
// own (the jsonrpc format) goes to defaultURL.
type targetIndexer struct {
	c              *checker
	file           string
	urlFromTargets bool   // the first target's host is the run's (no url in the profile)
	base           string // scheme://host:port every target must name
	baseLine       int
	url            string // the run's URL, once the first target set it
	defaultURL     string // where a target without a URL goes (the jsonrpc format)
	explained      bool   // a host mismatch was explained once; later ones say less
	index          map[string]int
	entries        []mixEntry
	// The last url seen and what it gave: targets mostly share one, and parsing it for each
	// of a million targets was most of the loading time.
	lastURL string
	lastU   *url.URL
	lastKey string
}

func newTargetIndexer(c *checker, file string, urlFromTargets bool, defaultURL string) *targetIndexer {
	return &targetIndexer{c: c, file: file, urlFromTargets: urlFromTargets, defaultURL: defaultURL, index: map[string]int{}}
}

// add finds the entry t belongs to, making a new one for a new request. ok is false when t
// was reported as a problem; stop when reading should end (too many distinct requests, or
// calls with nowhere to go).
func (x *targetIndexer) add(t target) (idx int, ok, stop bool) {
	c, file := x.c, x.file
	if t.url == "" {
		if x.defaultURL == "" {
			c.addAt(file, t.line, "targets", "a call without a URL: name the node with --url (or url in a profile)")
			return 0, false, true
		}
		t.url = x.defaultURL
	}
	u, key, err := x.parseURL(t.url)
	if err != nil {
		c.addAt(file, t.line, "targets", "url "+err.Error())
		return 0, false, false
	}
	switch {
	case x.base == "":
		x.base, x.baseLine = key, t.line
		x.url = strings.ToLower(u.Scheme) + "://" + u.Host + "/"
	case key == x.base:
	case x.explained:
		c.addAt(file, t.line, "targets", "another target for "+DisplayURL(key))
		return 0, false, false
	case x.urlFromTargets:
		c.addAt(file, t.line, "targets", "this target's host "+DisplayURL(key)+" differs from "+DisplayURL(x.base)+" (line "+strconv.Itoa(x.baseLine)+
			"): rpcstress sends to one host per run: split the file by host and run each, or set url in a profile")
		x.explained = true
		return 0, false, false
	default:
		c.addAt(file, t.line, "targets", "this target's host "+DisplayURL(key)+" is not the profile's url host "+DisplayURL(x.base)+
			": rpcstress sends to one host per run: point the targets at it, or drop url from the profile to use the targets' host")
		x.explained = true
		return 0, false, false
	}
	req, rpc, ok := c.targetRequest(t, u, file)
	if !ok {
		return 0, false, false
	}
	k := targetKey(req)
	if i, ok := x.index[k]; ok {
		return i, true, false
	}
	if len(x.entries) == maxTargetShapes {
		c.addAt(file, t.line, "targets", "more than "+strconv.Itoa(maxTargetShapes)+" distinct requests (method, path, headers, JSON-RPC method): each is a row of numbers; vary bodies, not paths, or use fewer")
		return 0, false, true
	}
	x.index[k] = len(x.entries)
	x.entries = append(x.entries, mixEntry{req: req, info: requestInfo{RPCMethod: rpc, Source: "targets:" + file + ":" + strconv.Itoa(t.line)}})
	return len(x.entries) - 1, true, false
}

// parseURL checks a target's url and gives it parsed with its host key, reusing the last
// answer for the same url.
func (x *targetIndexer) parseURL(raw string) (*url.URL, string, error) {
	if raw == x.lastURL && x.lastU != nil {
		return x.lastU, x.lastKey, nil
	}
	if err := checkURL(raw); err != nil {
		return nil, "", err
	}
	u, _ := url.Parse(strings.TrimSpace(raw))
	x.lastURL, x.lastU, x.lastKey = raw, u, hostKey(u.String())
	return u, x.lastKey, nil
}

// targetMixer turns the targets of a file into entries of the mix as they are read. Targets
// that differ only in their body share an entry (targetIndexer): its weight is their number
// and its bodies are sent in file order, wrapping (vegeta's round robin, per entry), so a file
// of 100 000 getBalance calls with different accounts is one request, "getBalance", with one
// set of numbers.
type targetMixer struct {
	x        *targetIndexer
	cfg      *engine.Config
	bad      bool
	stop     bool // nothing more to learn: the url is invalid, or too many requests
	problems int
	bodies   [][][]byte // per entry
	varied   []bool     // per entry: not all its bodies are the same
	arena    bodyArena
}

// newTargetMixer makes the mixer of a target file; defaultURL is where targets without a URL
// of their own go (see targetIndexer).
func (c *checker) newTargetMixer(file string, cfg *engine.Config, urlFromTargets bool, defaultURL string) *targetMixer {
	m := &targetMixer{x: newTargetIndexer(c, file, urlFromTargets, defaultURL), cfg: cfg}
	if !urlFromTargets {
		m.x.base = hostKey(cfg.URL)
		// An invalid url is reported already; host checks would only add noise.
		m.stop = m.x.base == ""
	}
	return m
}

// add puts one target into the mix; false means stop reading. Problems stop it once there
// are enough of them (a file of a million targets for another host would list a million).
func (m *targetMixer) add(t target) bool {
	if m.stop {
		return false
	}
	i, ok, stop := m.x.add(t)
	if m.x.url != "" && m.cfg.URL != m.x.url {
		m.cfg.URL = m.x.url // the first target's host is the run's
	}
	switch {
	case stop:
		m.bad, m.stop = true, true
		return false
	case !ok:
		m.bad = true
		m.problems++
		return m.problems < maxTargetErrors
	case i == len(m.bodies):
		m.bodies = append(m.bodies, nil)
		m.varied = append(m.varied, false)
	}
	m.bodies[i] = append(m.bodies[i], m.keep(i, t))
	return true
}

// keep is the body of t as the mix keeps it: the entry's previous body when they are equal
// (a file that repeats one call holds it once), an @file's as it is (read once), else a copy
// in the arena (a heap object per body would cost a million objects to allocate and scan).
func (m *targetMixer) keep(i int, t target) []byte {
	bs := m.bodies[i]
	if len(bs) > 0 {
		if last := bs[len(bs)-1]; bytes.Equal(last, t.body) {
			return last
		}
		m.varied[i] = true
	}
	if t.kept || len(t.body) == 0 {
		return t.body
	}
	return m.arena.copy(t.body)
}

// finish is the mix, or nil when a target was wrong (the problems say which).
func (m *targetMixer) finish() []mixEntry {
	if m.bad || m.stop {
		return nil
	}
	out := m.x.entries
	for i := range out {
		out[i].req.Weight = min(len(m.bodies[i]), maxWeight)
		out[i].req.Body = m.bodies[i][0]
		// Answers are matched to the calls by id: those of the first body, or of each body
		// as it is sent when they differ (each body's own ids).
		out[i].req.RPC = engine.ParseRPCCalls(m.bodies[i][0])
		if m.varied[i] {
			out[i].req.Template = &bodyTemplate{parts: []part{{gen: newChoiceGen(m.bodies[i], true)}}}
			if out[i].req.RPC != nil {
				out[i].req.RPC.PerSend = true
			}
		}
	}
	return out
}

// bodyArena keeps the bodies of a target file in blocks of a MiB rather than one heap object
// each: a million small bodies cost their bytes, not a million objects to allocate and scan.
type bodyArena struct{ block []byte }

const arenaBlock = 1 << 20

// copy keeps a copy of b; bodies over a quarter block get their own allocation, so a block
// wastes at most that at its end.
func (a *bodyArena) copy(b []byte) []byte {
	if len(b) > arenaBlock/4 {
		return bytes.Clone(b)
	}
	if cap(a.block)-len(a.block) < len(b) {
		a.block = make([]byte, 0, arenaBlock)
	}
	start := len(a.block)
	a.block = append(a.block, b...)
	return a.block[start:len(a.block):len(a.block)]
}

// targetRequest makes the request of one target (its body is set by targetMixer) and finds its
// JSON-RPC method, if its body is a JSON-RPC call.
func (c *checker) targetRequest(t target, u *url.URL, file string) (req engine.Request, rpc string, ok bool) {
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	req = engine.Request{Method: t.method, Path: path, Items: 1, Weight: 1}
	if u.RawQuery != "" || u.ForceQuery {
		req.Path += "?" + u.RawQuery
	}
	hasAuth := false
	for _, h := range t.headers {
		name, value := h[0], h[1]
		if !isHeaderName(name) {
			c.addAt(file, t.line, "targets", strconv.Quote(clip(name, 40))+" is not a valid header name: use letters, digits and -")
			return req, "", false
		}
		if strings.ContainsAny(value, "\r\n\x00") {
			c.addAt(file, t.line, "targets", "header "+name+": the value contains a line break or NUL byte, which would split the request: remove it")
			return req, "", false
		}
		hasAuth = hasAuth || strings.EqualFold(name, "Authorization")
		req.Headers = append(req.Headers, engine.Header{Name: name, Value: value, Secret: secretName(name)})
	}
	if u.User != nil && !hasAuth {
		pass, _ := u.User.Password()
		auth := "Basic " + base64.StdEncoding.EncodeToString([]byte(u.User.Username()+":"+pass))
		req.Headers = append(req.Headers, engine.Header{Name: "Authorization", Value: auth, Secret: true})
	}
	req.Name = t.method + " " + path[:strings.IndexByte(path+"?", '?')] // never the query: API keys live there
	if len(t.body) > 0 {
		if m, items := inspectBody(t.body); m != "" {
			req.Name, req.Items, rpc = m, items, m
		}
	}
	return req, rpc, true
}

// targetKey is what makes two targets different requests: everything but the body (and the
// items, which depend on it, so a batch and a single call of one method stay apart).
func targetKey(r engine.Request) string {
	var b strings.Builder
	b.WriteString(r.Method + "\x00" + r.Path + "\x00" + r.Name + "\x00" + strconv.Itoa(r.Items))
	for _, h := range r.Headers {
		b.WriteString("\x00" + h.Name + ":" + h.Value)
	}
	return b.String()
}

// hostKey is scheme://host:port of raw with the default port made explicit and the host in
// lower case, so equal hosts compare equal however they were written; "" if raw does not
// parse.
func hostKey(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		return ""
	}
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		port = "80"
		if scheme == "https" {
			port = "443"
		}
	}
	host := strings.ToLower(u.Hostname())
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return scheme + "://" + host + ":" + port
}
