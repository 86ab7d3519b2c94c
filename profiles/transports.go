package profiles

import "github.com/rpcstress/rpcstress/engine"

// With several targets each target's URL picks its transport: http:// and https:// speak
// HTTP (HTTP/2 when http2 or h2c asks), ws:// and wss:// JSON-RPC over WebSocket. So a run
// may set HTTP and WebSocket targets side by side, and the keys that choose how HTTP is spoken
// (http2, h2c) are checked against the targets that speak HTTP; streams, against any target
// that carries several requests on a connection.

// runURLs are the URLs the run's requests go to: each target's, or the one url.
func runURLs(cfg *engine.Config) []string {
	if len(cfg.Targets) == 0 {
		return []string{cfg.URL}
	}
	out := make([]string, len(cfg.Targets))
	for i, t := range cfg.Targets {
		out[i] = t.URL
	}
	return out
}

// carriesStreams reports whether a target of the run carries several requests on a
// connection: it speaks HTTP/2, or WebSocket. HTTP/1.1 targets beside it carry one each.
func carriesStreams(cfg *engine.Config) bool {
	for _, u := range runURLs(cfg) {
		if isWebSocket(u) || cfg.UsesHTTP2() {
			return true
		}
	}
	return false
}

// http2Applies reports whether HTTP/2 (http2, h2c) applies to the target at url: to the
// targets that speak HTTP, and a WebSocket target beside them upgrades from HTTP/1.1 as ever.
// When every target is WebSocket it applies to all, so that the check says HTTP/2 is not for
// them.
func http2Applies(cfg *engine.Config, url string) bool {
	if !isWebSocket(url) {
		return true
	}
	for _, u := range runURLs(cfg) {
		if !isWebSocket(u) {
			return false
		}
	}
	return true
}
