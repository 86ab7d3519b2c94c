package engine

import (
	"fmt"
	"slices"
	"strings"
)

// lane is one target's share of a run: its Config (the target's URL, headers, TLS and
// connections), Client, workers, backlog, books and Aggregator. A run of one target has one
// lane, fed by the Scheduler itself; a run with several targets has one per target, fed by a
// fanout, and all share the Scheduler, its stage clock and pauses, and the event log.
type lane struct {
	index    int
	name     string // the target's name; "" in a run of one target
	cfg      *Config
	counters *Counters
	client   *Client
	agg      *Aggregator
	head     *headTracker   // nil unless the run follows a head
	subs     *subscriptions // nil unless the run holds subscriptions
	jobs     chan job       // the backlog
	pool     *pool
}

// headNow is the lane's target's head as last read; 0 when the run follows none.
func (l *lane) headNow() uint64 {
	if l.head == nil {
		return 0
	}
	return l.head.cfg.Cell.Load()
}

// laneConfig is the Config of target i of cfg: cfg with the target's URL, its headers over
// cfg's (by name, case-insensitively), its TLS and connections where it sets them, its own
// head cell (see PrimeHead), and HTTP/2 only if it speaks HTTP.
func laneConfig(cfg *Config, i int) *Config {
	t := cfg.Targets[i]
	c := *cfg
	c.URL, c.DisplayURL = t.URL, t.DisplayURL
	c.Headers = mergeHeaders(cfg.Headers, t.Headers)
	if t.TLS != nil {
		c.TLS = *t.TLS
	}
	if t.Connections > 0 {
		c.Connections = t.Connections
	}
	if i < len(cfg.Head.targets) {
		c.Head.Cell = cfg.Head.targets[i]
	}
	c.Head.targets = nil
	c.Targets, c.CompareAnswers = nil, false
	if c.UsesWebSocket() {
		// HTTP/2 is how the run's HTTP targets are spoken; a WebSocket target beside them
		// upgrades from HTTP/1.1, and over wss offers HTTP/1.1 alone in its TLS handshake.
		c.HTTP2, c.H2C = false, false
	}
	c.Subscriptions = subscriptionsAt(cfg.Subscriptions, &t)
	return &c
}

// subscriptionsAt are subs as held on target t: each at t's WebSocket endpoint.
func subscriptionsAt(subs []Subscription, t *Target) []Subscription {
	if len(subs) == 0 {
		return nil
	}
	out := slices.Clone(subs)
	u, shown := t.wsEndpoint()
	for i := range out {
		out[i].URL, out[i].DisplayURL = u, shown
	}
	return out
}

// wsEndpoint is where the run's subscriptions subscribe on t: its WSURL, else its URL when
// that is a WebSocket one; "" when it has none.
func (t *Target) wsEndpoint() (raw, shown string) {
	switch {
	case t.WSURL != "":
		return t.WSURL, t.WSDisplayURL
	case isWebSocketURL(t.URL):
		return t.URL, t.DisplayURL
	}
	return "", ""
}

// mergeHeaders is base with over's headers added, each replacing base's of the same name.
func mergeHeaders(base, over []Header) []Header {
	out := make([]Header, 0, len(base)+len(over))
	for _, h := range base {
		if !hasHeader(over, h.Name) {
			out = append(out, h)
		}
	}
	return append(out, over...)
}

// totalConnections is how many connections the run may open, all targets together.
func totalConnections(cfg *Config) int {
	if len(cfg.Targets) == 0 {
		return cfg.Connections
	}
	n := 0
	for i := range cfg.Targets {
		n += laneConfig(cfg, i).Connections
	}
	return n
}

// validateTargets catches a Config with several targets that cannot run side by side, naming
// the fix.
func validateTargets(cfg *Config) []error {
	var errs []error
	switch n := len(cfg.Targets); {
	case n == 0:
		if cfg.CompareAnswers {
			errs = append(errs, fmt.Errorf("compare_answers needs two targets or more: name them with [[target]] or --url NAME=URL"))
		}
		return errs
	case n == 1:
		errs = append(errs, fmt.Errorf("one target (%s): side by side needs two or more; for one node, give its url alone", cfg.Targets[0].Name))
	}
	if cfg.Mode == ModeClosed {
		errs = append(errs, fmt.Errorf("mode = %q with several targets: side by side needs one schedule: use open mode (mode = %q) with a rate", ModeClosed, ModeOpen))
	}
	if cfg.Source != nil {
		errs = append(errs, fmt.Errorf("requests streamed from standard input (--targets -) cannot go to several targets: write them to a file and give --targets FILE"))
	}
	seen := map[string]int{}
	for i, t := range cfg.Targets {
		switch {
		case strings.TrimSpace(t.Name) == "":
			errs = append(errs, fmt.Errorf("target %d has no name: give each target a short name (name = \"a\")", i+1))
		case seen[t.Name] > 0:
			errs = append(errs, fmt.Errorf("targets %d and %d are both named %q: give each target a name of its own", seen[t.Name], i+1, t.Name))
		default:
			seen[t.Name] = i + 1
		}
		if t.URL == "" {
			errs = append(errs, fmt.Errorf("target %d (%s) has no url: give it url = \"http://HOST:PORT\"", i+1, t.Name))
		}
		if u, _ := t.wsEndpoint(); u == "" && len(cfg.Subscriptions) > 0 {
			errs = append(errs, fmt.Errorf("target %d (%s) has no WebSocket endpoint, and the run subscribes on every target: give it ws_url = \"ws://HOST:8546\" (or a ws:// url)", i+1, t.Name))
		}
		if t.Connections < 0 {
			errs = append(errs, fmt.Errorf("target %d (%s): connections = %d: need at least 1, or leave it out for the run's", i+1, t.Name, t.Connections))
		}
	}
	return errs
}

// label starts a line about the lane's target in the run's events: "" in a run of one
// target, "NAME: " with several.
func (l *lane) label() string {
	if l.name == "" {
		return ""
	}
	return l.name + ": "
}
