package profiles

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/rpcstress/rpcstress/engine"
)

// maxStreams bounds streams: servers allow 100 to 250 streams per connection (nginx 128, Go
// 250); a thousand is a typo's bound, not a server's.
const maxStreams = 1000

// http2 reads http2, h2c and streams: which HTTP the run speaks, and how many requests each
// HTTP/2 (or WebSocket) connection carries at once. The URL's scheme must match (http2 is
// agreed over TLS, h2c is cleartext, neither is WebSocket), checked here for the profile's url
// and in Apply for --url.
func (c *checker) http2(doc table, cfg *engine.Config) {
	if b, ok := c.boolean(doc, "", "http2", "http2 = true"); ok {
		cfg.HTTP2 = b
	}
	if b, ok := c.boolean(doc, "", "h2c", "h2c = true"); ok {
		cfg.H2C = b
	}
	switch {
	case cfg.HTTP2 && cfg.H2C:
		c.addf("h2c", "and http2 are both set: http2 = true is HTTP/2 over TLS (https://), h2c = true in cleartext (http://); keep one")
	case (cfg.HTTP2 || cfg.H2C) && len(cfg.Targets) == 0:
		if msg := schemeProblem(cfg.HTTP2, cfg.URL, false); msg != "" {
			c.addf(protocolKey(cfg), "%s", msg)
		}
	case cfg.HTTP2 || cfg.H2C: // side by side: every target that speaks HTTP speaks it
		for i, t := range cfg.Targets {
			if !http2Applies(cfg, t.URL) {
				continue
			}
			if msg := schemeProblem(cfg.HTTP2, t.URL, false); msg != "" {
				c.addf(fmt.Sprintf("target[%d].url", i+1), "%s = true: %s", protocolKey(cfg), msg)
			}
		}
	}
	n, ok := c.integer(doc, "", "streams", 1, maxStreams, "streams = 100")
	if !ok {
		return
	}
	switch {
	case !carriesStreams(cfg):
		c.addf("streams", "only HTTP/2 and WebSocket carry several requests on a connection: add http2 = true (https) or h2c = true (http), use a ws:// URL, or drop streams")
	case n*int64(cfg.Connections) > maxConnections:
		c.addf("streams", "%d × connections = %d is %d requests in flight: at most %d; lower streams or connections", n, cfg.Connections, n*int64(cfg.Connections), maxConnections)
	}
	cfg.Streams = int(n)
}

// protocolKey is the key that chose HTTP/2.
func protocolKey(cfg *engine.Config) string {
	if cfg.HTTP2 {
		return "http2"
	}
	return "h2c"
}

// schemeProblem is what is wrong with raw's scheme for HTTP/2 over TLS (overTLS) or h2c, or
// "" when it fits (or is not a URL at all: checkURL says that). The other mode is named as
// the profile key, or as the flag when flags.
func schemeProblem(overTLS bool, raw string, flags bool) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Scheme == "" {
		return ""
	}
	tls := strings.EqualFold(u.Scheme, "https")
	switch {
	case strings.EqualFold(u.Scheme, "ws") || strings.EqualFold(u.Scheme, "wss"):
		return fmt.Sprintf("a %s:// URL is WebSocket, upgraded from HTTP/1.1: HTTP/2 is for http:// and https:// URLs; drop it", u.Scheme)
	case overTLS && !tls:
		alt := "set h2c = true"
		if flags {
			alt = "use --h2c"
		}
		return fmt.Sprintf("HTTP/2 over TLS needs an https:// URL, not %s://: for HTTP/2 in cleartext %s instead", u.Scheme, alt)
	case !overTLS && tls:
		alt := "set http2 = true"
		if flags {
			alt = "use --http2"
		}
		return "HTTP/2 in cleartext (h2c) needs an http:// URL, not https://: for HTTP/2 over TLS " + alt + " instead"
	}
	return ""
}

// httpName is the snapshot's word for the HTTP cfg speaks: "h2", "h2c", "" for HTTP/1.1.
func httpName(cfg *engine.Config) string {
	switch {
	case cfg.HTTP2:
		return "h2"
	case cfg.H2C:
		return "h2c"
	}
	return ""
}

// describeHTTP is validate's row for HTTP/2 and WebSocket (none for HTTP/1.1): its key, how
// the target is spoken to, and what connections and streams make of the requests in flight.
func describeHTTP(cfg *engine.Config) (key, text string, ok bool) {
	key, how, unit := "http", "HTTP/2 over TLS (ALPN \"h2\")", "stream"
	switch {
	case cfg.UsesWebSocket():
		key, how, unit = "websocket", "JSON-RPC over WebSocket", "call"
	case cfg.H2C:
		how = "HTTP/2 in cleartext (h2c, prior knowledge)"
	case !cfg.HTTP2:
		return "", "", false
	}
	streams := fmt.Sprintf("%d %ss", max(cfg.Streams, 1), unit)
	if cfg.Streams <= 1 {
		streams = "1 " + unit
	}
	return key, fmt.Sprintf("%s: %d connections × %s, up to %d requests in flight",
		how, cfg.Connections, streams, cfg.InFlight()), true
}

// applyHTTP2 applies --http2, --h2c and --streams to cfg (after --url and --connections),
// adding to errs and done; the URL's scheme is checked again when a flag changed it or HTTP.
func applyHTTP2(cfg *engine.Config, o Overrides, errs []error, done []string) ([]error, []string) {
	switch {
	case o.HTTP2 && o.H2C:
		errs = append(errs, fmt.Errorf("--http2 and --h2c: choose one: --http2 is HTTP/2 over TLS (https://), --h2c in cleartext (http://)"))
	case o.HTTP2:
		cfg.HTTP2, cfg.H2C = true, false
		done = append(done, "--http2")
	case o.H2C:
		cfg.HTTP2, cfg.H2C = false, true
		done = append(done, "--h2c")
	}
	if o.Streams != 0 {
		cfg.Streams = o.Streams
		done = append(done, fmt.Sprintf("--streams %d", o.Streams))
		switch {
		case o.Streams < 1 || o.Streams > maxStreams:
			errs = append(errs, fmt.Errorf("--streams %d: must be from 1 to %d", o.Streams, maxStreams))
		case !carriesStreams(cfg):
			errs = append(errs, fmt.Errorf("--streams %d: only HTTP/2 and WebSocket carry several requests on a connection: add --http2 (https) or --h2c (http), or use a ws:// URL", o.Streams))
		}
	}
	if cfg.Connections*max(cfg.Streams, 1) > maxConnections {
		errs = append(errs, fmt.Errorf("connections %d × streams %d: at most %d requests in flight; lower one of them", cfg.Connections, cfg.Streams, maxConnections))
	}
	if !cfg.UsesHTTP2() || o.URL == "" && len(o.Targets) == 0 && !o.HTTP2 && !o.H2C {
		return errs, done
	}
	// Who to name: the --url that brought the URL, else the flag that asked for HTTP/2.
	who := func(url string) string {
		if o.URL != "" || len(o.Targets) > 0 {
			return "--url " + url
		}
		return "--" + protocolKey(cfg)
	}
	if len(cfg.Targets) == 0 {
		if msg := schemeProblem(cfg.HTTP2, cfg.URL, true); msg != "" {
			errs = append(errs, fmt.Errorf("%s: %s", who(cfg.DisplayURL), msg))
		}
	}
	for _, t := range cfg.Targets {
		if !http2Applies(cfg, t.URL) {
			continue
		}
		if msg := schemeProblem(cfg.HTTP2, t.URL, true); msg != "" {
			errs = append(errs, fmt.Errorf("%s: %s", who(t.Name+"="+t.DisplayURL), msg))
		}
	}
	return errs, done
}
