package profiles

import (
	"encoding/json"
	"strings"
	"testing"
)

// h2Profile is a valid profile to url with extra top-level keys.
func h2Profile(url, extra string) string {
	return "url = \"" + url + "\"\n" + extra + "\n[[request]]\nmethod = \"getSlot\"\n[[stage]]\nrate = \"1/s\"\nduration = \"1s\"\n"
}

// TestHTTP2Errors: each mistake with http2, h2c and streams is named at its line with the fix.
func TestHTTP2Errors(t *testing.T) {
	checkProblems(t, []problemCase{
		// HTTP/2 over TLS to a cleartext URL.
		{"http2 with http", h2Profile("http://h:1", "http2 = true"), nil, 2, "http2", "needs an https:// URL, not http://: for HTTP/2 in cleartext set h2c = true"},
		// h2c to a TLS URL.
		{"h2c with https", h2Profile("https://h:1", "h2c = true"), nil, 2, "h2c", "HTTP/2 in cleartext (h2c) needs an http:// URL, not https://: for HTTP/2 over TLS set http2 = true"},
		// Both.
		{"both", h2Profile("https://h:1", "http2 = true\nh2c = true"), nil, 3, "h2c", "are both set"},
		// Not a boolean.
		{"http2 string", h2Profile("https://h:1", `http2 = "yes"`), nil, 2, "http2", "write it as http2 = true"},
		// Streams below 1.
		{"streams 0", h2Profile("https://h:1", "http2 = true\nstreams = 0"), nil, 3, "streams", "use a value from 1 to 1000"},
		// Streams over HTTP/1.1.
		{"streams without http2", h2Profile("https://h:1", "streams = 8"), nil, 2, "streams", "add http2 = true (https) or h2c = true (http), use a ws:// URL"},
		// HTTP/2 to a WebSocket URL.
		{"http2 with ws", h2Profile("wss://h:1", "http2 = true"), nil, 2, "http2", "a wss:// URL is WebSocket"},
		// Side by side: each target's URL must fit.
		{"http2 with a target on http", "http2 = true\n[[request]]\nmethod = \"getSlot\"\n[[stage]]\nrate = \"1/s\"\nduration = \"1s\"\n" +
			"[[target]]\nname = \"a\"\nurl = \"https://a:1\"\n[[target]]\nname = \"b\"\nurl = \"http://b:1\"\n",
			nil, 12, "target[2].url", "http2 = true: HTTP/2 over TLS needs an https:// URL"},
		// More in flight than the tester allows.
		{"too many in flight", h2Profile("http://h:1", "h2c = true\nconnections = 1000\nstreams = 1000"), nil, 4, "streams", "at most 100000"},
	})
}

// TestHTTP2Settings: a good profile's HTTP/2 reaches the Config, validate shows it, and the
// snapshot's profile names it; HTTP/1.1 profiles show and store nothing new.
func TestHTTP2Settings(t *testing.T) {
	tests := []struct {
		name, url, extra string
		http2, h2c       bool
		streams          int
		row, stored      string // validate's http row ("" for none), the snapshot's http
	}{
		{"http2", "https://h:1", "http2 = true\nstreams = 10\nconnections = 4", true, false, 10,
			`HTTP/2 over TLS (ALPN "h2"): 4 connections × 10 streams, up to 40 requests in flight`, "h2"},
		{"h2c, streams left out", "http://h:1", "h2c = true\nconnections = 4", false, true, 0,
			"HTTP/2 in cleartext (h2c, prior knowledge): 4 connections × 1 stream, up to 4 requests in flight", "h2c"},
		{"HTTP/1.1", "http://h:1", "connections = 4", false, false, 0, "", ""},
		// WebSocket carries streams too (its own transport; no http row).
		{"WebSocket", "ws://h:1", "connections = 4\nstreams = 8", false, false, 8, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustLoad(t, h2Profile(tt.url, tt.extra))
			c := p.Config
			if c.HTTP2 != tt.http2 || c.H2C != tt.h2c || c.Streams != tt.streams {
				t.Errorf("http2 %v h2c %v streams %d", c.HTTP2, c.H2C, c.Streams)
			}
			out := described(p)
			flat := strings.Join(strings.Fields(out), " ")
			if tt.row != "" && !strings.Contains(flat, "http "+tt.row) || tt.row == "" && strings.Contains(flat, "HTTP/2") {
				t.Errorf("validate:\n%s", out)
			}
			js, _ := json.Marshal(p.Redacted())
			var r struct {
				HTTP    string `json:"http"`
				Streams int    `json:"streams"`
			}
			_ = json.Unmarshal(js, &r)
			multi := tt.stored != "" || strings.HasPrefix(tt.url, "ws")
			if r.HTTP != tt.stored || (multi && r.Streams != max(tt.streams, 1)) || (!multi && r.Streams != 0) {
				t.Errorf("snapshot profile %s", js)
			}
		})
	}
}

// TestApplyHTTP2: --http2, --h2c and --streams replace the profile's, and a --url whose scheme
// does not fit is named.
func TestApplyHTTP2(t *testing.T) {
	tests := []struct {
		name    string
		o       Overrides
		want    string // in the error; "" for none
		streams int
	}{
		{"h2c", Overrides{H2C: true, Streams: 8}, "", 8},                           // the profile's http:// URL
		{"http2 with https url", Overrides{URL: "https://h/", HTTP2: true}, "", 0}, // both changed together
		{"http2 with http url", Overrides{HTTP2: true}, "--http2: HTTP/2 over TLS needs an https:// URL", 0},
		{"h2c then an https url", Overrides{H2C: true, URL: "https://h/"}, "--url https://h/: HTTP/2 in cleartext (h2c) needs an http:// URL", 0},
		{"both", Overrides{HTTP2: true, H2C: true}, "--http2 and --h2c: choose one", 0},
		{"streams without HTTP/2", Overrides{Streams: 4}, "--streams 4: only HTTP/2 and WebSocket", 0},
		{"streams over WebSocket", Overrides{URL: "ws://h/", Streams: 4}, "", 4},
		{"h2c with a target on https", Overrides{H2C: true, Targets: []TargetURL{{Name: "a", URL: "http://a/"}, {Name: "b", URL: "https://b/"}}},
			"--url b=https://b/: HTTP/2 in cleartext (h2c) needs an http:// URL", 0},
		{"streams over the bound", Overrides{H2C: true, Streams: 1001}, "--streams 1001: must be from 1 to 1000", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustLoad(t, threeStages)
			err := p.Apply(tt.o)
			if (err == nil) != (tt.want == "") || err != nil && !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
			if err == nil && (p.Config.HTTP2 != tt.o.HTTP2 || p.Config.H2C != tt.o.H2C || p.Config.Streams != tt.streams) {
				t.Errorf("config http2 %v h2c %v streams %d", p.Config.HTTP2, p.Config.H2C, p.Config.Streams)
			}
		})
	}
}
