package profiles

import (
	"slices"
	"strings"

	"github.com/rpcstress/rpcstress/engine"
)

// redactedValue stands in for a secret header value.
const redactedValue = "<redacted>"

// Resolved is a profile as it runs, safe to show and to store in snapshots: secret header
// values are replaced by "<redacted>", the URL has no userinfo, query or ${VAR} values in it,
// and bodies are summarised by size.
type Resolved struct {
	Name        string      `json:"name"`
	Path        string      `json:"path,omitempty"`
	URL         string      `json:"url"`
	Method      string      `json:"method"`
	Mode        engine.Mode `json:"mode"`
	Timeout     string      `json:"timeout"`
	Connections int         `json:"connections"`
	// HTTP is "h2" (http2 = true) or "h2c", absent otherwise; Streams is there for HTTP/2 and
	// WebSocket, which carry several requests on a connection.
	HTTP    string `json:"http,omitempty"`
	Streams int    `json:"streams,omitempty"`
	// SendTick is the schedule's grain when the profile or --send-tick set one.
	SendTick     string            `json:"send_tick,omitempty"`
	MaxRequests  int64             `json:"max_requests,omitempty"`
	MaxBodyBytes int               `json:"max_body_bytes"`
	Backlog      int               `json:"backlog,omitempty"`
	Headers      []engine.Header   `json:"headers"`
	Requests     []ResolvedRequest `json:"requests"`
	Stages       []engine.Stage    `json:"stages"`
	Limits       ResolvedLimits    `json:"limits"`
	TLS          *ResolvedTLS      `json:"tls,omitempty"`
	Overrides    []string          `json:"overrides,omitempty"`
	// Chain, HeadEvery and RefURL are the head the run follows; absent when none.
	Chain     string `json:"chain,omitempty"`
	HeadEvery string `json:"head_every,omitempty"`
	RefURL    string `json:"ref_url,omitempty"`
	// Targets are the nodes the run sent to side by side; absent for one target (URL).
	Targets []ResolvedTarget `json:"targets,omitempty"`
	// Compare is how the targets' answers were compared; absent when they were not.
	Compare *ResolvedCompare `json:"compare,omitempty"`
}

// ResolvedTarget is one target of a run side by side, secrets hidden as in Resolved.
type ResolvedTarget struct {
	Name string `json:"name"`
	URL  string `json:"url"`
	// Connections are the target's own, else the profile's.
	Connections int             `json:"connections"`
	Headers     []engine.Header `json:"headers,omitempty"` // its own, over the profile's
	TLS         *ResolvedTLS    `json:"tls,omitempty"`     // its own, when it has any
	WSURL       string          `json:"ws_url,omitempty"`  // where [[subscribe]] subscribes on it, as shown
}

// ResolvedCompare is the comparison of answers: compare_numbers ("exact" or "value") and
// compare_keep; the paths each request ignores are its compare_ignore.
type ResolvedCompare struct {
	Numbers string `json:"numbers"`
	Keep    int    `json:"keep"`
}

// ResolvedRequest is one entry of the request mix, without its body.
type ResolvedRequest struct {
	Name string `json:"name"`
	// Method is the JSON-RPC method ("batch" for a batch body, empty when unknown).
	Method    string `json:"method,omitempty"`
	Weight    int    `json:"weight"`
	BodyBytes int    `json:"body_bytes"`
	Items     int    `json:"items"`
	// Templated is set when every send renders a fresh body; BodyBytes is then one sample's.
	Templated bool `json:"templated,omitempty"`
	// HTTPMethod and Path are a target's own (path without query); empty for the profile's.
	HTTPMethod string `json:"http_method,omitempty"`
	Path       string `json:"path,omitempty"`
	// Expect are the labels of the rules its answers were checked against; Cost is what one
	// send of it costs. Both absent when the profile sets none.
	Expect []string `json:"expect,omitempty"`
	Cost   uint32   `json:"cost,omitempty"`
	// CompareIgnore are the paths its answers' comparison left out; absent when none or when
	// answers were not compared.
	CompareIgnore []string `json:"compare_ignore,omitempty"`
}

// ResolvedTLS is engine.TLSConfig with JSON names; absent when verification is as default.
type ResolvedTLS struct {
	Insecure bool   `json:"insecure,omitempty"`
	CAFile   string `json:"ca_file,omitempty"`
}

// ResolvedLimits is engine.Limits with JSON names.
type ResolvedLimits struct {
	Statuses []int `json:"statuses"`
	RPCCodes []int `json:"rpc_codes"`
}

// Redacted returns the resolved profile (a *Resolved) for snapshots: everything that shapes the
// run, nothing secret.
func (p *Profile) Redacted() any {
	c := p.Config
	r := &Resolved{
		Name: p.Name, Path: p.Path, URL: c.DisplayURL, Method: c.Method, Mode: c.Mode,
		Timeout: c.Timeout.String(), Connections: c.Connections, MaxRequests: c.MaxRequests,
		MaxBodyBytes: c.MaxBodyBytes, Backlog: c.Backlog,
		Headers:   redactHeaders(c.Headers),
		Requests:  []ResolvedRequest{}, // never null: a streamed run names its requests as they come
		Stages:    append([]engine.Stage{}, c.Plan.Stages...),
		Limits:    ResolvedLimits{Statuses: nonNil(c.Limits.Statuses), RPCCodes: nonNil(c.Limits.RPCCodes)},
		Overrides: append([]string(nil), p.Overridden...),
	}
	if c.Head.On() {
		r.Chain, r.HeadEvery, r.RefURL = string(c.Head.Chain), headEvery(c.Head).String(), c.Head.RefDisplay
	}
	if c.UsesHTTP2() || c.UsesWebSocket() {
		r.HTTP, r.Streams = httpName(c), max(c.Streams, 1)
	}
	if c.SendTick != 0 {
		r.SendTick = c.SendTick.String()
	}
	if c.TLS != (engine.TLSConfig{}) {
		r.TLS = &ResolvedTLS{Insecure: c.TLS.Insecure, CAFile: c.TLS.CAFile}
	}
	for i, q := range c.Requests {
		path, _, _ := strings.Cut(q.Path, "?")
		rr := ResolvedRequest{Name: q.Name, Weight: q.Weight, BodyBytes: len(q.Body), Items: q.Items,
			Templated: q.Template != nil, HTTPMethod: q.Method, Path: path}
		if i < len(p.info) {
			rr.Method, rr.Expect = p.info[i].RPCMethod, p.info[i].Expect
		}
		rr.Cost = q.Cost
		if c.CompareAnswers {
			rr.CompareIgnore = slices.Clone(c.Answers.Ignore[q.Name])
		}
		r.Requests = append(r.Requests, rr)
	}
	r.Targets, r.Compare = resolvedTargets(c)
	return r
}

// resolvedTargets are the targets of a run side by side and its comparison, secrets hidden.
func resolvedTargets(c *engine.Config) ([]ResolvedTarget, *ResolvedCompare) {
	var out []ResolvedTarget
	for _, t := range c.Targets {
		rt := ResolvedTarget{Name: t.Name, URL: t.DisplayURL, Connections: c.Connections, Headers: redactHeaders(t.Headers), WSURL: t.WSDisplayURL}
		if t.Connections > 0 {
			rt.Connections = t.Connections
		}
		if len(rt.Headers) == 0 {
			rt.Headers = nil
		}
		if t.TLS != nil {
			rt.TLS = &ResolvedTLS{Insecure: t.TLS.Insecure, CAFile: t.TLS.CAFile}
		}
		out = append(out, rt)
	}
	if !c.CompareAnswers {
		return out, nil
	}
	cmp := &ResolvedCompare{Numbers: "exact", Keep: keepOrDefault(c.Answers.Keep)}
	if c.Answers.NumbersByValue {
		cmp.Numbers = "value"
	}
	return out, cmp
}

// redactHeaders copies headers with secret values replaced.
func redactHeaders(hs []engine.Header) []engine.Header {
	out := make([]engine.Header, len(hs))
	for i, h := range hs {
		if h.Secret {
			h.Value = redactedValue
		}
		out[i] = h
	}
	return out
}

// nonNil makes an empty list read [] rather than null in JSON.
func nonNil(s []int) []int {
	if s == nil {
		return []int{}
	}
	return append([]int{}, s...)
}
