package engine

import (
	"reflect"
	"testing"
	"time"
)

// TestLaneConfig: a target's Config is the run's with the target's URL, its headers over the
// run's by name (case-insensitively, in the run's order, then the target's), and its TLS and
// connections where it sets them; it runs alone (no targets, no comparison).
func TestLaneConfig(t *testing.T) {
	tls := &TLSConfig{CAFile: "b-ca.pem"}
	run := &Config{
		URL: "http://a/", DisplayURL: "http://a/", Connections: 8, TLS: TLSConfig{Insecure: true}, CompareAnswers: true,
		Headers: []Header{{Name: "Authorization", Value: "run", Secret: true}, {Name: "X-Run", Value: "1"}},
		Targets: []Target{
			{Name: "a", URL: "http://a/?key=1", DisplayURL: "http://a/"},
			{Name: "b", URL: "http://b/", DisplayURL: "http://b/", TLS: tls, Connections: 2,
				Headers: []Header{{Name: "authorization", Value: "b's", Secret: true}, {Name: "X-B", Value: "2"}}},
		},
	}
	tests := []struct {
		target  int
		url     string
		headers []Header
		tls     TLSConfig
		conns   int
	}{
		// a sets nothing of its own: the run's headers, TLS and connections.
		{0, "http://a/?key=1", run.Headers, run.TLS, 8},
		// b's Authorization replaces the run's whatever its case; X-Run stays; b's TLS and
		// connections replace the run's.
		{1, "http://b/", []Header{{Name: "X-Run", Value: "1"}, {Name: "authorization", Value: "b's", Secret: true}, {Name: "X-B", Value: "2"}}, *tls, 2},
	}
	for _, tt := range tests {
		c := laneConfig(run, tt.target)
		if c.URL != tt.url || !reflect.DeepEqual(c.Headers, tt.headers) || c.TLS != tt.tls || c.Connections != tt.conns {
			t.Errorf("target %d: url %s headers %+v tls %+v connections %d", tt.target, c.URL, c.Headers, c.TLS, c.Connections)
		}
		if c.Targets != nil || c.CompareAnswers {
			t.Errorf("target %d: its Config still has targets or compares", tt.target)
		}
	}
	if len(run.Headers) != 2 || run.Headers[0].Value != "run" {
		t.Errorf("the run's headers changed: %+v", run.Headers)
	}
	// HTTP/2 is for the targets that speak HTTP: a WebSocket target beside them upgrades from
	// HTTP/1.1 (over wss, offering http/1.1 alone in its TLS handshake).
	for _, scheme := range []string{"http", "wss"} {
		h2 := *run
		h2.HTTP2, h2.Targets = true, []Target{run.Targets[0], {Name: "c", URL: scheme + "://c/"}}
		if c := laneConfig(&h2, 1); c.UsesHTTP2() != (scheme == "http") {
			t.Errorf("a target of %s://: HTTP/2 %v", scheme, c.UsesHTTP2())
		}
	}
	if n := totalConnections(run); n != 10 {
		t.Errorf("total connections %d, want 8 + 2", n)
	}
}

// TestTargetsShareHistEncoder: the targets of a run encode their snapshots' histograms with one
// encoder, whose compressor alone holds 0.9 MiB: one a target was that much more kept live for
// every target beyond the first.
func TestTargetsShareHistEncoder(t *testing.T) {
	cfg := testConfig(Stage{Rate: 10, Duration: time.Second})
	cfg.URL = "http://127.0.0.1:1/"
	cfg.Targets = []Target{{Name: "a", URL: "http://127.0.0.1:1/"}, {Name: "b", URL: "http://127.0.0.1:2/"}, {Name: "c", URL: "http://127.0.0.1:3/"}}
	r, err := NewRunner(cfg, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range r.lanes {
		if l.agg.enc != r.lanes[0].agg.enc {
			t.Errorf("target %s encodes with an encoder of its own", cfg.Targets[i].Name)
		}
	}
}
