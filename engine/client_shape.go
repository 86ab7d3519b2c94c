package engine

// Request shapes: what an HTTP request of the mix looks like apart from its body (method, URI
// and headers), found once when the Client is made, so that a worker prepares one request per
// shape and changes nothing but the body per send. Shapes are plain data: any HTTP transport
// can prepare its requests from them.

import (
	"net/http"
	"strings"
)

// requestShape is what an HTTP request looks like apart from its body: mix entries with their
// own Method, Path or Headers (vegeta targets) have their own; all others share shape 0, the
// Config's.
type requestShape struct {
	method  string
	uri     string
	headers []Header
}

// shapes are the distinct request shapes of a Config's requests.
type shapes struct {
	all    []requestShape // shape 0 is the Config's method, URL and headers
	of     []int          // per mix entry: its index in all; nil for a Source
	origin string         // scheme://host[:port] of the target, which a Request.Path completes
}

// newShapes finds the distinct request shapes of cfg's mix on target t: shape 0 is the
// Config's; entries with their own Method, Path or Headers get one each, shared by equal ones.
func newShapes(cfg *Config, t target) shapes {
	method := cfg.Method
	if method == "" {
		method = http.MethodPost
	}
	sh := shapes{all: []requestShape{{method: method, uri: t.uri}}, origin: t.origin}
	if cfg.Source != nil {
		return sh // a streamed request's shape is made by each Sender when it first sends one
	}
	sh.of = make([]int, len(cfg.Requests))
	index := map[string]int{}
	for i, r := range cfg.Requests {
		if r.Method == "" && r.Path == "" && len(r.Headers) == 0 {
			continue
		}
		s := sh.forRequest(&r)
		var key strings.Builder
		key.WriteString(s.method + "\x00" + s.uri)
		for _, h := range s.headers {
			key.WriteString("\x00" + h.Name + ":" + h.Value)
		}
		k, ok := index[key.String()]
		if !ok {
			k = len(sh.all)
			index[key.String()] = k
			sh.all = append(sh.all, s)
		}
		sh.of[i] = k
	}
	return sh
}

// forRequest is the shape of a request with its own Method, Path or Headers.
func (sh *shapes) forRequest(r *Request) requestShape {
	base := &sh.all[0]
	s := requestShape{method: base.method, uri: base.uri, headers: r.Headers}
	if r.Method != "" {
		s.method = r.Method
	}
	if r.Path != "" {
		s.uri = sh.origin + r.Path
		if r.Path[0] != '/' {
			s.uri = sh.origin + "/" + r.Path
		}
	}
	return s
}

// hasHeader reports whether hs sets header name, whatever its case.
func hasHeader(hs []Header, name string) bool {
	for _, h := range hs {
		if strings.EqualFold(h.Name, name) {
			return true
		}
	}
	return false
}
