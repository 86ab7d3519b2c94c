package profiles

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// DisplayURL returns raw as scheme://host/path, without userinfo, query and fragment: the parts
// where credentials and API keys live. Text that does not parse is cut the same way by hand,
// so a secret never shows even in a broken URL.
func DisplayURL(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Opaque != "" {
		s := raw
		if i := strings.IndexAny(s, "?#"); i >= 0 {
			s = s[:i]
		}
		scheme, rest, found := strings.Cut(s, "://")
		if !found {
			scheme, rest = "", s
		}
		host, path, _ := strings.Cut(rest, "/")
		if at := strings.LastIndexByte(host, '@'); at >= 0 {
			host = host[at+1:]
		}
		out := host
		if path != "" {
			out += "/" + path
		}
		if found {
			out = scheme + "://" + out
		}
		return out
	}
	clean := url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path, RawPath: u.RawPath}
	return clean.String()
}

// checkTargetURL validates the URL requests go to: http(s), or ws(s) for JSON-RPC over
// WebSocket.
func checkTargetURL(raw string) error { return checkURLOf(raw, true) }

// checkURL validates an HTTP URL (a head's, a metrics endpoint's, a reference node's); the
// message names no part of the value, which may carry secrets, beyond what DisplayURL would
// show.
func checkURL(raw string) error { return checkURLOf(raw, false) }

// checkURLOf is checkURL, accepting ws:// and wss:// when ws is set.
func checkURLOf(raw string, ws bool) error {
	s := strings.TrimSpace(raw)
	if s == "" {
		return errors.New(`is empty: write it as "http://127.0.0.1:8899"`)
	}
	if !strings.Contains(s, "://") {
		return fmt.Errorf(`%q has no scheme: write it as "http://%s"`, DisplayURL(s), DisplayURL(s))
	}
	u, err := url.Parse(s)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // url.Error repeats the whole URL, secrets included
		}
		return fmt.Errorf("%q is not a valid URL (%v): write it as http://host:port/path", DisplayURL(s), err)
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
	case "ws", "wss":
		if !ws {
			return fmt.Errorf("scheme %q is not supported here: this URL is read over HTTP: use http:// or https://", u.Scheme)
		}
	default:
		if ws {
			return fmt.Errorf("scheme %q is not supported: use http://, https://, ws:// or wss://", u.Scheme)
		}
		return fmt.Errorf("scheme %q is not supported: use http:// or https://", u.Scheme)
	}
	if u.Hostname() == "" {
		return fmt.Errorf("%q has no host: write it as %s://host:port/path", DisplayURL(s), u.Scheme)
	}
	return nil
}

// displayFor is DisplayURL of the expanded URL, with the values of the ${VAR}s it used masked:
// providers put API keys in the path (…/v3/${INFURA_KEY}), which DisplayURL alone would show.
// A variable holding a whole URL masks that URL's path instead.
func displayFor(expanded string, used []envVar) string {
	d := DisplayURL(expanded)
	scheme, rest, found := strings.Cut(d, "://")
	if !found {
		return d
	}
	host, path, hasPath := strings.Cut(rest, "/")
	if !hasPath {
		return d
	}
	for _, v := range used {
		secret, mask := v.value, "${"+v.name+"}"
		if strings.Contains(secret, "://") {
			_, vrest, _ := strings.Cut(DisplayURL(secret), "://")
			_, secret, _ = strings.Cut(vrest, "/")
			mask = "<redacted>"
		}
		if t := strings.Trim(secret, "/"); t != "" {
			path = strings.ReplaceAll(path, t, mask)
		}
	}
	return scheme + "://" + host + "/" + path
}
