package profiles

import (
	"fmt"
	"strings"

	"github.com/rpcstress/rpcstress/engine"
)

// applySideBySide lays the command line's targets and --equality over cfg (see Apply) and
// checks what the two together make: several targets need open mode, and a comparison needs
// several targets. It returns the overrides made, as flags, and the errors, each naming its
// flag (and the profile's line when a key of it is the other half).
func (p *Profile) applySideBySide(cfg *engine.Config, o Overrides) (done []string, errs []error) {
	if o.URL != "" && len(p.base.Targets) > 0 {
		errs = append(errs, fmt.Errorf("--url %s: the profile sends to %d targets side by side (%s): give each its URL with --url NAME=URL (--url %s=%s …), or use a profile with one url",
			DisplayURL(o.URL), len(p.base.Targets), targetNames(p.base.Targets), p.base.Targets[0].Name, DisplayURL(o.URL)))
	}
	if len(o.Targets) > 0 {
		if err := checkTargetURLs(o.Targets); err != nil {
			errs = append(errs, err)
		}
		cfg.Targets = p.targetsFrom(o.Targets)
		cfg.URL, cfg.DisplayURL = cfg.Targets[0].URL, cfg.Targets[0].DisplayURL
		for _, t := range o.Targets {
			done = append(done, "--url "+t.String())
		}
	}
	errs = append(errs, p.subscribeSideBySide(cfg, o.Targets)...)
	if o.Connections != 0 { // the command line's count is every target's
		for i := range cfg.Targets {
			cfg.Targets[i].Connections = 0
		}
	}
	if o.Equality {
		cfg.CompareAnswers = true
		done = append(done, "--equality")
	}
	cfg.Answers.Targets = cfg.Answers.Targets[:0]
	for _, t := range cfg.Targets {
		cfg.Answers.Targets = append(cfg.Answers.Targets, t.Name)
	}
	switch {
	case len(o.Targets) > 0 && cfg.Mode == engine.ModeClosed:
		errs = append(errs, fmt.Errorf(`--url NAME=URL: side by side sends every request to every target at the same intended time, on one schedule, and %s = "closed": use mode = "open" (the default) with a rate`, p.closedWhere))
	case o.Equality && len(cfg.Targets) == 0:
		errs = append(errs, fmt.Errorf("--equality compares the answers of several targets, and the run has one: give 2 to 4 with --url NAME=URL (--url a=URL --url b=URL), or [[target]] tables in the profile"))
	}
	return done, errs
}

// targetsFrom are the targets of --url NAME=URL: each of the profile's own [[target]] of
// the same name keeps its headers, TLS and connections under the new URL, and its ws_url
// under an http one (as a [[subscribe]] url stays when --url changes the profile's to an http
// one); a ws:// URL is where its subscriptions go, as --url moves them for one target.
func (p *Profile) targetsFrom(urls []TargetURL) []engine.Target {
	out := make([]engine.Target, len(urls))
	for i, u := range urls {
		t := engine.Target{Name: u.Name}
		for _, b := range p.base.Targets {
			if b.Name == u.Name {
				t = b
				t.Headers = append([]engine.Header(nil), b.Headers...)
			}
		}
		t.URL, t.DisplayURL = u.URL, DisplayURL(u.URL)
		if isWebSocket(u.URL) {
			t.WSURL, t.WSDisplayURL = "", ""
		}
		out[i] = t
	}
	return out
}

// subscribeSideBySide checks the subscriptions of a run whose targets the command line gave:
// each subscribes on every target at its own node, so a [[subscribe]] table may not name one,
// and every target needs a WebSocket endpoint (a ws:// url, or its [[target]]'s ws_url).
func (p *Profile) subscribeSideBySide(cfg *engine.Config, urls []TargetURL) []error {
	if len(urls) == 0 || len(cfg.Subscriptions) == 0 {
		return nil
	}
	var errs []error
	if p.subURLWhere != "" {
		errs = append(errs, fmt.Errorf("--url NAME=URL: %s names one node, and side by side each target's subscriptions go to its own: remove that url (they then go to each target's ws:// url, or the ws_url of its [[target]])", p.subURLWhere))
	}
	for i, t := range cfg.Targets {
		if !hasWebSocket(t) && i < len(urls) {
			errs = append(errs, fmt.Errorf("--url %s: the profile subscribes ([[subscribe]]) on every target, and %s has no WebSocket endpoint: give it a ws:// url (--url %s=ws://HOST:8546), or name a [[target]] of the profile that has a ws_url", urls[i], t.Name, t.Name))
		}
	}
	return errs
}

// targetNames lists targets' names for a message: "geth, reth".
func targetNames(ts []engine.Target) string {
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.Name
	}
	return strings.Join(names, ", ")
}
