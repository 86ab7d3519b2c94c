package profiles

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/internal/suggest"
)

// settings reads the top-level scalar keys into cfg, with defaults for those left out. It
// returns the ${VAR}s the url used, for masking them in the display URL. With a target file
// or [[target]] tables (urlOptional) the url may be left out: theirs are used.
func (c *checker) settings(doc table, cfg *engine.Config, src *source, urlOptional bool) []envVar {
	cfg.Name = src.defaultName()
	if s, ok := c.str(doc, "", "name", `name = "getBalance"`); ok {
		cfg.Name = strings.TrimSpace(s)
		switch {
		case cfg.Name == "":
			c.addf("name", `is empty: give the profile a name, e.g. name = "getBalance", or drop the key to use the file name`)
		case len(cfg.Name) > maxNameLen:
			c.addf("name", "is %d bytes long: keep it under %d, it becomes part of snapshot file names", len(cfg.Name), maxNameLen)
		case strings.ContainsAny(cfg.Name, "/\\\x00\n\r\t"):
			c.addf("name", "%q contains a slash or control character: it becomes part of snapshot file names, so use letters, digits, - and _", cfg.Name)
		}
	}

	var urlVars []envVar
	if s, ok := c.str(doc, "", "url", `url = "http://127.0.0.1:8899"`); ok {
		if u, used, ok := c.env("url", s, src.getenv); ok {
			if err := checkTargetURL(u); err != nil {
				c.addErr("url", err, "%s", err.Error())
			}
			cfg.URL, urlVars = strings.TrimSpace(u), used
		}
	} else if _, present := doc["url"]; !present && !urlOptional && !subscriptionsOnly(doc) {
		c.addf("url", `missing: add the endpoint to test, e.g. url = "http://127.0.0.1:8899"`)
	}

	cfg.Timeout = defaultTimeout
	if d, ok := c.duration(doc, "", "timeout", `timeout = "5s"`); ok {
		if err := CheckTimeout(d); err != nil {
			c.addErr("timeout", err, "%v", err)
		}
		cfg.Timeout = d
	}

	cfg.Connections = defaultConnections
	if n, ok := c.integer(doc, "", "connections", 1, maxConnections, "connections = 128"); ok {
		cfg.Connections = int(n)
	}

	cfg.Mode = engine.ModeOpen
	if s, ok := c.str(doc, "", "mode", `mode = "open"`); ok {
		switch m := engine.Mode(s); m {
		case engine.ModeOpen, engine.ModeClosed:
			cfg.Mode = m
		default:
			hint := ""
			if sg := suggest.Closest(s, []string{"open", "closed"}); sg != "" {
				hint = "did you mean " + `"` + sg + `"? `
			}
			c.addf("mode", `%q is not a mode: %suse "open" (sends on the rate plan's schedule) or "closed" (connections send back to back)`, s, hint)
		}
	}

	if n, ok := c.integer(doc, "", "requests", 0, maxRequestCount, "requests = 1000000"); ok {
		cfg.MaxRequests = n
	} else if v, present := doc["requests"]; present {
		if _, isTables := tables(v); isTables {
			c.addf("requests", "is the request-count limit (a number): the request mix is written as [[request]] tables")
		}
	}

	cfg.Method = "POST"
	if s, ok := c.str(doc, "", "method", `method = "POST"`); ok {
		if !isHTTPMethod(s) {
			c.addf("method", `%q is not an HTTP method: the top-level method is the HTTP one (default "POST"); a JSON-RPC method goes into a [[request]] table, e.g. method = "getBalance"`, s)
		}
		cfg.Method = s
	}

	cfg.MaxBodyBytes = defaultMaxBody
	c.maxBody(doc, cfg)

	c.sending(doc, cfg)
	return urlVars
}

// sending reads how the schedule hands out its sends: backlog and send_tick (after mode, which
// send_tick depends on).
func (c *checker) sending(doc table, cfg *engine.Config) {
	if n, ok := c.integer(doc, "", "backlog", 0, maxBacklog, "backlog = 10000"); ok {
		cfg.Backlog = int(n)
	}
	if d, ok := c.duration(doc, "", "send_tick", `send_tick = "1ms"`); ok {
		if err := CheckSendTick(d, cfg.Mode); err != nil {
			c.addErr("send_tick", err, "%v", err)
		}
		cfg.SendTick = d
	}
}

// CheckSendTick is the one rule for the schedule's grain, the profile's send_tick and the
// --send-tick flag alike: from engine.MinSendTick to engine.MaxSendTick, and only where there is
// a schedule (a closed loop sends back to back).
func CheckSendTick(d time.Duration, mode engine.Mode) error {
	switch {
	case mode == engine.ModeClosed:
		return fmt.Errorf("%s: a closed loop has no schedule to send on (its connections send back to back): drop it, or use mode = \"open\"", d)
	case d < engine.MinSendTick || d > engine.MaxSendTick:
		return fmt.Errorf("%s is out of range: use %s to %s (default %s); a coarser tick costs less CPU and sends up to rate × tick at once",
			d, engine.MinSendTick, engine.MaxSendTick, engine.DefaultSendTick)
	}
	return nil
}

// maxBody reads max_body: a byte count or a size such as "4MiB".
func (c *checker) maxBody(doc table, cfg *engine.Config) {
	v, ok := doc["max_body"]
	if !ok {
		return
	}
	var n int64
	switch x := v.(type) {
	case int64:
		n = x
	case string:
		var err error
		if n, err = parseSize(x); err != nil {
			c.addErr("max_body", err, "%s", err.Error())
			return
		}
	default:
		c.typeErr("max_body", v, "a size", `max_body = "4MiB" or a number of bytes`)
		return
	}
	if n < 1 || n > maxMaxBody {
		c.addf("max_body", "%v is out of range: use 1 byte to 1GiB, e.g. \"4MiB\"", v)
		return
	}
	cfg.MaxBodyBytes = int(n)
}

// isHTTPMethod reports whether s looks like an HTTP method: capitals only, as servers compare
// methods case-sensitively.
func isHTTPMethod(s string) bool {
	if s == "" || len(s) > 20 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}

// CheckTimeout is the one rule for a per-request timeout, the profile's timeout and the
// --timeout flag alike: more than 0, and at most a month (maxPlanTime, the cap of every
// duration in a profile). Its words follow the value: "--timeout 0s: must be …".
func CheckTimeout(d time.Duration) error {
	switch {
	case d <= 0:
		return errors.New("must be more than 0: it bounds each request, e.g. 5s")
	case d > maxPlanTime:
		return fmt.Errorf("is longer than the maximum of %s", maxPlanTime)
	}
	return nil
}
