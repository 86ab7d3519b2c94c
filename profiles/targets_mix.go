package profiles

import (
	"bytes"
	"encoding/base64"
	"net/url"
	"strconv"
	"strings"

	"github.com/rpcstress/rpcstress/engine"
)

// maxTargetShapes bounds the distinct requests a target file may hold. Targets that differ
// only in their bodies share one entry of the mix (see targetMix); each distinct method, path,
// header set and JSON-RPC method is an entry with its own numbers.
const maxTargetShapes = engine.MaxRequestRows

// targets reads the targets key: a vegeta target file whose targets join the request mix.
// Without a url in the profile, the targets' host becomes the URL.
func (c *checker) targets(doc table, cfg *engine.Config, src *source) []mixEntry {
	format := ""
	if f, ok := c.str(doc, "", "targets_format", `targets_format = "json"`); ok {
		switch f {
		case "json", "http":
			format = f
		default:
			c.addf("targets_format", `%q is not a target format: use "http" or "json" (vegeta's formats), or drop the key to detect it`, f)
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
	f, err := src.openFile(name)
	if err != nil {
		c.addErr("targets", err, "%s", fileProblem(err, "put the file next to the profile (paths are relative to its folder) or fix the path"))
		return nil
	}
	defer f.Close()
	file := src.displayPath(name)
	_, hasURL := doc["url"]
	m := c.newTargetMixer(file, cfg, !hasURL)
	errs := parseTargets(f, format, bodyFileReader(name, src.readBody), m.add)
	for _, e := range errs {
		c.addAt(file, e.line, "targets", e.msg)
	}
	if len(errs) > 0 {
		return nil
	}
	return m.finish()
}

// targetMixer turns targets into entries of the mix as they are read. Targets that differ
// only in their body share an entry: its weight is their number and its bodies are sent in
// file order, wrapping (vegeta's round robin, per entry), so a file of 100 000 getBalance
// calls with different accounts is one request, "getBalance", with one set of numbers. Every
// target must name the run's host: the profile's url, or when it has none (urlFromTargets)
// the first target's.
type targetMixer struct {
	c              *checker
	file           string
	cfg            *engine.Config
	urlFromTargets bool
	base           string // scheme://host:port every target must name
	baseLine       int
	bad, explained bool
	stop           bool // nothing more to learn: the url is invalid, or too many requests
	problems       int
	out            []mixEntry
	bodies         [][][]byte // per entry
	varied         []bool     // per entry: not all its bodies are the same
	index          map[string]int
	arena          bodyArena
	// The last url seen and what it gave: targets mostly share one, and parsing it for each
	// of a million targets was most of the loading time.
	lastURL string
	lastU   *url.URL
	lastKey string
}

func (c *checker) newTargetMixer(file string, cfg *engine.Config, urlFromTargets bool) *targetMixer {
	m := &targetMixer{c: c, file: file, cfg: cfg, urlFromTargets: urlFromTargets, index: map[string]int{}}
	if !urlFromTargets {
		m.base = hostKey(cfg.URL)
		// An invalid url is reported already; host checks would only add noise.
		m.stop = m.base == ""
	}
	return m
}

// fail records a problem at a line of the target file; it reports false once there are enough
// of them (a file of a million targets for another host would list a million).
func (m *targetMixer) fail(line int, msg string) bool {
	m.c.addAt(m.file, line, "targets", msg)
	m.bad = true
	m.problems++
	return m.problems < maxTargetErrors
}

// add puts one target into the mix; false means stop reading.
func (m *targetMixer) add(t target) bool {
	if m.stop {
		return false
	}
	u, key, err := m.parseURL(t.url)
	if err != nil {
		return m.fail(t.line, "url "+err.Error())
	}
	switch {
	case m.base == "":
		m.base, m.baseLine = key, t.line
		m.cfg.URL = strings.ToLower(u.Scheme) + "://" + u.Host + "/"
	case key == m.base:
	case m.explained:
		return m.fail(t.line, "another target for "+DisplayURL(key))
	case m.urlFromTargets:
		m.explained = true
		return m.fail(t.line, "this target's host "+DisplayURL(key)+" differs from "+DisplayURL(m.base)+" (line "+strconv.Itoa(m.baseLine)+
			"): rpcstress sends to one host per run: split the file by host and run each, or set url in a profile")
	default:
		m.explained = true
		return m.fail(t.line, "this target's host "+DisplayURL(key)+" is not the profile's url host "+DisplayURL(m.base)+
			": rpcstress sends to one host per run: point the targets at it, or drop url from the profile to use the targets' host")
	}
	req, rpc, ok := m.c.targetRequest(t, u, m.file)
	if !ok {
		m.bad = true
		m.problems++
		return m.problems < maxTargetErrors
	}
	k := targetKey(req)
	i, seen := m.index[k]
	if !seen {
		if len(m.out) == maxTargetShapes {
			m.fail(t.line, "more than "+strconv.Itoa(maxTargetShapes)+" distinct requests (method, path, headers, JSON-RPC method): each is a row of numbers; vary bodies, not paths, or use fewer")
			m.stop = true
			return false
		}
		i = len(m.out)
		m.index[k] = i
		m.out = append(m.out, mixEntry{req: req, info: requestInfo{RPCMethod: rpc, Source: "targets:" + m.file + ":" + strconv.Itoa(t.line)}})
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

// parseURL checks a target's url and gives it parsed with its host key, reusing the last
// answer for the same url.
func (m *targetMixer) parseURL(raw string) (*url.URL, string, error) {
	if raw == m.lastURL && m.lastU != nil {
		return m.lastU, m.lastKey, nil
	}
	if err := checkURL(raw); err != nil {
		return nil, "", err
	}
	u, _ := url.Parse(strings.TrimSpace(raw))
	m.lastURL, m.lastU, m.lastKey = raw, u, hostKey(u.String())
	return u, m.lastKey, nil
}

// finish is the mix, or nil when a target was wrong (the problems say which).
func (m *targetMixer) finish() []mixEntry {
	if m.bad || m.stop {
		return nil
	}
	for i := range m.out {
		m.out[i].req.Weight = min(len(m.bodies[i]), maxWeight)
		m.out[i].req.Body = m.bodies[i][0]
		// Answers are matched to the calls by id: those of the first body, or of each body
		// as it is sent when they differ (each body's own ids).
		m.out[i].req.RPC = engine.ParseRPCCalls(m.bodies[i][0])
		if m.varied[i] {
			m.out[i].req.Template = &bodyTemplate{parts: []part{{gen: newChoiceGen(m.bodies[i], true)}}}
			if m.out[i].req.RPC != nil {
				m.out[i].req.RPC.PerSend = true
			}
		}
	}
	return m.out
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

// targetRequest makes the request of one target (its body is set by targetMix) and finds its
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
