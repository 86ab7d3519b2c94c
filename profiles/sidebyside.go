package profiles

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/internal/suggest"
)

// Several targets side by side (issue 17): [[target]] tables, each a node that every
// scheduled request is sent to at the same intended time:
//
//	[[target]]
//	name = "geth"
//	url = "http://127.0.0.1:8545"
//	[[target]]
//	name = "erigon"
//	url = "https://erigon.example/${KEY}"
//	connections = 32               # its own, instead of the profile's
//	ws_url = "wss://erigon.example/ws/${KEY}"  # where [[subscribe]] subscribes on it
//	ca_file = "erigon-ca.pem"      # insecure and ca_file over the profile's
//	[target.headers]               # merged by name over the profile's [headers]
//	Authorization = "Bearer ${ERIGON_TOKEN}"
//
// The command line's --url NAME=URL (see TargetURL) makes or replaces them.

// Bounds of side by side. Four: the dashboard has a column for each target and shows four
// at most; answers are compared pair by pair, six pairs for four. A name heads a column and
// names the target in [thresholds.target.NAME], so it is short and a bare TOML key.
const (
	minSideTargets   = 2
	maxSideTargets   = 4
	maxTargetNameLen = 16
)

func targetKeys() []string {
	return []string{"name", "url", "ws_url", "headers", "insecure", "ca_file", "connections"}
}

// CheckTargetName is the one rule for a target's name, of a [[target]] table and of
// --url NAME=URL alike: 1 to 16 letters, digits, - and _. The message starts with the name.
func CheckTargetName(name string) error {
	const rule = "a target's name is 1 to 16 letters, digits, - and _ (e.g. geth-a): it heads the target's column and names it in [thresholds.target.NAME]"
	if name == "" {
		return fmt.Errorf("is empty: %s", rule)
	}
	for _, r := range name {
		if r >= 0x80 || !isBareKeyByte(byte(r)) {
			return fmt.Errorf("%q holds %q: %s", name, r, rule)
		}
	}
	if len(name) > maxTargetNameLen {
		return fmt.Errorf("%q is %d characters long: %s", name, len(name), rule)
	}
	return nil
}

// sideTargets reads the [[target]] tables. Each target's headers are its own (the engine
// merges them over the profile's by name), its TLS is the profile's with its own keys laid
// over (set only when it has one), and its connections are 0 unless it sets them (the
// profile's then apply). secret is the profile's secret list, which may name a target's
// headers; tlsBase is the profile's TLS. The run's URL is the first target's.
func (c *checker) sideTargets(doc table, src *source, secret []string, tlsBase engine.TLSConfig) []engine.Target {
	v, ok := doc["target"]
	if !ok {
		return nil
	}
	list, ok := tables(v)
	if !ok {
		c.typeErr("target", v, "a list of [[target]] tables", `[[target]] (double brackets), then name = "geth" and url = "http://127.0.0.1:8545"`)
		return nil
	}
	c.sideTargetCount(doc, len(list))
	var out []engine.Target
	named := map[string]int{} // name → number of the target that has it
	for i, t := range list {
		path := "target[" + strconv.Itoa(i+1) + "]"
		c.targetKeysOf(t, path)
		tg, ok := c.sideTarget(t, path, src, secret, tlsBase)
		if !ok {
			continue
		}
		if prev, dup := named[tg.Name]; dup {
			c.addf(path+".name", "%q is already the name of target[%d]: give each target its own name", tg.Name, prev)
			continue
		}
		named[tg.Name] = i + 1
		out = append(out, tg)
	}
	return out
}

// sideTargetCount checks the number of [[target]] tables, and the keys that cannot go with
// them: url (each target has its own) and a target file (it sends to its one host).
func (c *checker) sideTargetCount(doc table, n int) {
	switch {
	case n < minSideTargets:
		c.addf("target", "one [[target]]: side by side needs %d to %d: add another [[target]] table, or write url = \"…\" at the top for a run of one target", minSideTargets, maxSideTargets)
	case n > maxSideTargets:
		c.addf("target["+strconv.Itoa(maxSideTargets+1)+"]", "%d [[target]] tables: at most %d go side by side (the dashboard has a column for each, and answers are compared pair by pair): run the others in a second run", n, maxSideTargets)
	}
	if _, has := doc["url"]; has {
		c.addf("url", "and [[target]] tables are both set: with targets, each [[target]] has its own url: remove this url, or move it into a [[target]] table with a name")
	}
	if _, has := doc["targets"]; has {
		c.addf("targets", "sends a target file's requests to the file's one host, and [[target]] tables name several: write the requests as [[request]] tables to send them side by side, or remove the [[target]] tables")
	}
}

// targetKeysOf reports the unknown keys of a [[target]]. A key of the profile's top written
// below a [[target]] belongs to that target in TOML, a trap worth its own message.
func (c *checker) targetKeysOf(t table, path string) {
	keys := make([]string, 0, len(t))
	for k := range t {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		switch field := path + "." + k; {
		case slices.Contains(targetKeys(), k):
		case slices.Contains(topKeys(), k):
			c.addf(field, "is a key of the profile's top, and TOML puts every key below [[target]] into that target: move it above the first [[target]] table")
		case suggest.Closest(k, targetKeys()) != "":
			c.addf(field, "unknown key: did you mean %q?", suggest.Closest(k, targetKeys()))
		default:
			c.addf(field, "unknown key: remove it, or use one of: %s", strings.Join(targetKeys(), ", "))
		}
	}
}

// sideTarget reads one [[target]] table; ok is false when it has no usable name or url (its
// problems are recorded).
func (c *checker) sideTarget(t table, path string, src *source, secret []string, tlsBase engine.TLSConfig) (engine.Target, bool) {
	var tg engine.Target
	ok := true
	if name, has := c.str(t, path, "name", `name = "geth"`); has {
		if err := CheckTargetName(name); err != nil {
			c.addErr(path+".name", err, "%s", err.Error())
			ok = false
		}
		tg.Name = name
	} else if _, present := t["name"]; !present {
		c.addf(path, `has no name: add name = "geth" (1 to 16 letters, digits, - and _): it heads the target's column`)
		ok = false
	} else {
		ok = false
	}
	if s, has := c.str(t, path, "url", `url = "http://127.0.0.1:8545"`); has {
		field := path + ".url"
		if u, used, envOK := c.env(field, s, src.getenv); envOK {
			if err := checkTargetURL(u); err != nil {
				c.addErr(field, err, "%s", err.Error())
			}
			tg.URL = strings.TrimSpace(u)
			tg.DisplayURL = displayFor(tg.URL, used)
		}
	} else if _, present := t["url"]; !present {
		c.addf(path, `has no url: add the node's endpoint, e.g. url = "http://127.0.0.1:8545"`)
		ok = false
	}
	if n, has := c.integer(t, path, "connections", 1, maxConnections, "connections = 64"); has {
		tg.Connections = int(n)
	}
	if s, has := c.str(t, path, "ws_url", `ws_url = "ws://127.0.0.1:8546"`); has {
		field := path + ".ws_url"
		if u, used, envOK := c.env(field, s, src.getenv); envOK {
			u = strings.TrimSpace(u)
			if msg := checkWebSocketURL(u); msg != "" {
				c.addf(field, "%s", msg)
			}
			tg.WSURL, tg.WSDisplayURL = u, displayFor(u, used)
		}
	}
	if tc, given := c.tls(t, path, src, tlsBase); given {
		tg.TLS = &tc
	}
	if h, has := c.subTable(t, path, "headers", `[target.headers] "X-Api-Key" = "${API_KEY}"`); has {
		tg.Headers = c.headerValues(h, path+".headers", c.namesByLine(h, path+".headers"), secret, src.getenv)
	}
	return tg, ok
}

// hasWebSocket reports whether target t has somewhere for subscriptions: a ws_url, or a
// WebSocket url.
func hasWebSocket(t engine.Target) bool { return t.WSURL != "" || isWebSocket(t.URL) }

// sideBySide reads the [[target]] tables and the compare_* keys into the profile's config,
// once its requests, headers and TLS are read; secret is the profile's secret list.
func (p *Profile) sideBySide(c *checker, doc table, src *source, secret []string) {
	cfg := &p.base
	cfg.Targets = c.sideTargets(doc, src, secret, cfg.TLS)
	if len(cfg.Targets) > 0 {
		cfg.URL, cfg.DisplayURL = cfg.Targets[0].URL, cfg.Targets[0].DisplayURL
	}
	if len(cfg.Subscriptions) > 0 {
		for i, t := range cfg.Targets {
			if !hasWebSocket(t) {
				c.addf("target["+strconv.Itoa(i+1)+"]", `has no WebSocket endpoint, and [[subscribe]] subscribes on every target (each at its own node): add ws_url = "ws://host:8546" (geth: --ws.port; Solana: the RPC port + 1), or give a ws:// url`)
			}
		}
	}
	list, _ := tables(doc["target"])
	s := c.compare(doc, len(list))
	cfg.CompareAnswers = s.on
	cfg.Answers = c.compareOptions(s, cfg.Requests, p.info, cfg.Targets)
	if cfg.Mode != engine.ModeClosed {
		return
	}
	p.closedWhere = c.where("mode")
	if len(list) > 0 {
		c.addf("mode", `"closed" with [[target]] tables: side by side sends every request to every target at the same intended time, on one schedule: use mode = "open" (the default) with a rate`)
	}
}
