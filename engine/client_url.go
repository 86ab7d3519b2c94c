package engine

// The target's URL, read once for every transport: the address a Client dials, whether it
// speaks TLS, the request URI it sends (without userinfo and fragment) and the Authorization
// the userinfo stands for. Errors show Config.DisplayURL, never Config.URL: it may carry
// secrets.

import (
	"cmp"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
)

// target is Config.URL, parsed.
type target struct {
	addr   string // host:port to dial; the port defaults to 80 or 443
	host   string // the host name alone, which TLS checks the certificate against
	tls    bool   // https or wss
	ws     bool   // ws or wss: JSON-RPC over WebSocket
	uri    string // the URL without userinfo and fragment
	origin string // scheme://host[:port] of uri, which a Request.Path completes
	auth   string // Authorization from URL userinfo, "" when none or set in Config.Headers
}

// parseTarget reads cfg.URL. It fails for a URL that is not http, https, ws or wss, or has
// no host.
func parseTarget(cfg *Config) (target, error) {
	t, err := parseURL(cfg.URL, cfg.DisplayURL, cfg.Headers)
	if err != nil {
		return t, err
	}
	shown := cmp.Or(cfg.DisplayURL, "(redacted)")
	switch {
	case cfg.HTTP2 && cfg.H2C:
		return target{}, errors.New("http2 and h2c are both set: http2 = true is HTTP/2 over TLS (https), h2c = true in cleartext (http); set one")
	case cfg.HTTP2 && !t.tls:
		return target{}, fmt.Errorf("target URL %q: http2 = true is HTTP/2 over TLS and needs an https:// URL; for HTTP/2 in cleartext set h2c = true instead", shown)
	case cfg.H2C && t.tls:
		return target{}, fmt.Errorf("target URL %q: h2c = true is HTTP/2 in cleartext and needs an http:// URL; for https set http2 = true instead", shown)
	case cfg.UsesHTTP2() && t.ws:
		return target{}, fmt.Errorf("target URL %q: a WebSocket URL with http2 or h2c: WebSocket is upgraded from HTTP/1.1 here; drop http2 and h2c", shown)
	}
	return t, nil
}

// parseURL is parseTarget for any URL (a subscription's too): raw as given, shown as errors
// name it, headers as the profile sets them (an Authorization there wins over userinfo).
func parseURL(raw, shown string, headers []Header) (target, error) {
	if shown == "" {
		shown = "(redacted)"
	}
	u, err := url.Parse(raw)
	if err != nil {
		var uerr *url.Error
		if errors.As(err, &uerr) {
			err = uerr.Err // *url.Error's text repeats the whole URL
		}
		return target{}, fmt.Errorf("target URL %q: %w", shown, err)
	}
	var t target
	port := "80"
	switch strings.ToLower(u.Scheme) {
	case "http":
	case "https":
		t.tls, port = true, "443"
	case "ws":
		t.ws = true
	case "wss":
		t.ws, t.tls, port = true, true, "443"
	default:
		return target{}, fmt.Errorf("target URL %q: scheme %q is not supported, use http://, https://, ws:// or wss://", shown, u.Scheme)
	}
	t.host = u.Hostname()
	if t.host == "" {
		return target{}, fmt.Errorf("target URL %q has no host, write it like http://127.0.0.1:8899", shown)
	}
	if p := u.Port(); p != "" {
		port = p
	}
	t.addr = net.JoinHostPort(t.host, port)
	if u.User != nil && !hasHeader(headers, "Authorization") {
		// Sent explicitly rather than left to fasthttp, which would also do it, so the header is
		// the same whatever fasthttp version, and Headers can override it.
		pass, _ := u.User.Password()
		t.auth = "Basic " + base64.StdEncoding.EncodeToString([]byte(u.User.Username()+":"+pass))
	}
	clean := *u
	clean.User = nil
	clean.Fragment, clean.RawFragment = "", ""
	t.uri = clean.String()
	t.origin = (&url.URL{Scheme: clean.Scheme, Host: clean.Host}).String()
	return t, nil
}
