package profiles

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/engine/thresholds"
	"github.com/rpcstress/rpcstress/internal/safetext"
)

// [[subscribe]] tables: WebSocket subscriptions held beside the request load, or alone.
//
//	[[subscribe]]
//	method = "eth_subscribe"
//	params = ["newHeads"]
//	subscribers = 200        # connections, one subscription each
//	ramp = "50/s"            # subscribers added per second (default: all at once)
//	url = "ws://127.0.0.1:8546"
//
// url defaults to the profile's url when that is a ws:// or wss:// one. An http(s) url is not
// turned into a WebSocket one by guessing: nodes serve WebSocket on a port of its own (geth's
// 8546 beside 8545, Solana's 8900 beside 8899) and providers on a path of their own, so an
// http profile names its subscriptions' url, and is told so at the table's line.

func subscribeKeys() []string {
	return []string{"name", "method", "params", "subscribers", "ramp", "url"}
}

// subscribeMethods are the subscribe methods rpcstress knows, for messages; any method whose
// name ends in "Subscribe" or "_subscribe" is sent as written.
var subscribeMethods = []string{"eth_subscribe", "slotSubscribe", "accountSubscribe", "logsSubscribe"}

// ethSubscriptions are eth_subscribe's kinds (its first param).
var ethSubscriptions = []string{"newHeads", "logs", "newPendingTransactions", "syncing"}

// subscriptions reads the [[subscribe]] tables. target is the profile's url (secrets
// included); sideBySide says the profile has [[target]] tables, each of whose subscriptions go
// to its own node (the engine sets their url: engine.Target.WSURL), so a table's url is
// refused.
func (c *checker) subscriptions(doc table, target string, sideBySide bool, getenv func(string) (string, bool)) []engine.Subscription {
	v, ok := doc["subscribe"]
	if !ok {
		return nil
	}
	list, ok := tables(v)
	if !ok || len(list) == 0 {
		c.typeErr("subscribe", v, "a list of [[subscribe]] tables", `[[subscribe]] (double brackets), then method = "eth_subscribe" and params = ["newHeads"]`)
		return nil
	}
	var out []engine.Subscription
	names := newNameSet(len(list))
	explicit := map[string]int{}
	for i, t := range list {
		path := "subscribe[" + strconv.Itoa(i+1) + "]"
		c.unknownKeys(t, path, subscribeKeys())
		s, ok := c.subscription(t, path, target, sideBySide, getenv)
		if !ok {
			continue
		}
		if name, has := c.str(t, path, "name", `name = "heads"`); has {
			name = strings.TrimSpace(name)
			if prev, dup := explicit[name]; dup || name == "" {
				c.addf(path+".name", "%q is empty or already the name of subscribe[%d]: give each subscription a name of its own", name, prev)
				continue
			}
			explicit[name] = i + 1
			names.taken[name] = true
			s.Name = name
		}
		out = append(out, s)
	}
	for i := range out {
		if _, named := explicit[out[i].Name]; !named {
			out[i].Name = names.unique(out[i].Name)
		}
	}
	return out
}

// subscription reads one [[subscribe]] table; its name is the kind it subscribes to until the
// caller names it.
func (c *checker) subscription(t table, path, target string, sideBySide bool, getenv func(string) (string, bool)) (engine.Subscription, bool) {
	var s engine.Subscription
	ok := true
	method, has := c.str(t, path, "method", `method = "eth_subscribe"`)
	switch {
	case !has && t["method"] == nil:
		c.addf(path+".method", `missing: say what to subscribe with, e.g. method = "eth_subscribe" and params = ["newHeads"] (Solana: method = "slotSubscribe")`)
		ok = false
	case !has:
		ok = false
	case !strings.HasSuffix(method, "Subscribe") && !strings.HasSuffix(method, "_subscribe"):
		c.addf(path+".method", "%q is not a subscribe method: use one of %s", method, strings.Join(subscribeMethods, ", "))
		ok = false
	}
	s.Method, s.Name = method, method
	if p, good := c.subscribeParams(t, path, method); good {
		s.Params = p
		if method == "eth_subscribe" {
			s.Name = ethKind(t["params"])
		}
	} else {
		ok = false
	}
	if n, has := c.integer(t, path, "subscribers", 1, 100_000, "subscribers = 100"); has {
		s.Subscribers = int(n)
	} else {
		if t["subscribers"] == nil {
			c.addf(path+".subscribers", "missing: say how many connections subscribe, e.g. subscribers = 100")
		}
		ok = false
	}
	if _, has := t["ramp"]; has {
		r, good := c.rate(t, path, "ramp")
		s.Ramp, ok = r, ok && good
	}
	if sideBySide {
		if _, has := t["url"]; has {
			c.addf(path+".url", "names one node, and with [[target]] tables each target's subscriptions go to its own: remove url, and give each [[target]] a ws_url (or a ws:// url)")
			return s, false
		}
		return s, ok // its url is each target's WebSocket endpoint
	}
	u, display, good := c.subscribeURL(t, path, target, getenv)
	s.URL, s.DisplayURL = u, display
	return s, ok && good
}

// subscribeParams reads params as JSON: eth_subscribe's must name a kind it knows.
func (c *checker) subscribeParams(t table, path, method string) ([]byte, bool) {
	v, has := t["params"]
	if !has {
		if method == "eth_subscribe" {
			c.addf(path+".params", `missing: eth_subscribe needs what to subscribe to, e.g. params = ["newHeads"] (or %s)`, strings.Join(ethSubscriptions[1:], ", "))
			return nil, false
		}
		return []byte("[]"), true
	}
	list, isList := v.([]any)
	if !isList {
		c.typeErr(path+".params", v, "a list", `params = ["newHeads"]`)
		return nil, false
	}
	if method == "eth_subscribe" {
		kind, _ := firstString(list)
		if !slices.Contains(ethSubscriptions, kind) {
			c.addf(path+".params", "%q is not an eth_subscribe kind: start params with one of %s", kind, strings.Join(ethSubscriptions, ", "))
			return nil, false
		}
	}
	b, err := encodeJSON(list)
	if err != nil {
		c.addErr(path+".params", err, "cannot be written as JSON: %v", err)
		return nil, false
	}
	return b, true
}

// subscribeURL is the table's url, or the profile's when that is a WebSocket one.
func (c *checker) subscribeURL(t table, path, target string, getenv func(string) (string, bool)) (raw, display string, ok bool) {
	field := path + ".url"
	s, has := c.str(t, path, "url", `url = "ws://127.0.0.1:8546"`)
	if !has {
		if t["url"] != nil {
			return "", "", false
		}
		if !isWebSocket(target) {
			c.addf(field, `missing: the profile's url is not a WebSocket one, and nodes serve WebSocket apart (geth on --ws.port, 8546; Solana on the RPC port + 1, 8900): add url = "ws://host:8546"`)
			return "", "", false
		}
		return target, DisplayURL(target), true
	}
	u, used, good := c.env(field, s, getenv)
	if !good {
		return "", "", false
	}
	u = strings.TrimSpace(u)
	if err := checkWebSocketURL(u); err != "" {
		c.addf(field, "%s", err)
		return "", "", false
	}
	return u, displayFor(u, used), true
}

// subscribeURLWhere is where the first [[subscribe]] table that names its own url does
// ("p.toml:9: subscribe[1].url"), or "": for --url NAME=URL, which sends each target's
// subscriptions to its own node.
func (c *checker) subscribeURLWhere(doc table) string {
	list, _ := tables(doc["subscribe"])
	for i, t := range list {
		if _, has := t["url"]; has {
			return c.where("subscribe[" + strconv.Itoa(i+1) + "].url")
		}
	}
	return ""
}

// checkWebSocketURL says what is wrong with a subscription's url ("" when nothing), naming no
// part of it that DisplayURL would hide.
func checkWebSocketURL(raw string) string {
	u, err := url.Parse(raw)
	switch {
	case err != nil || u.Host == "":
		return strconv.Quote(DisplayURL(raw)) + ` is not a WebSocket URL: write it as "ws://host:port/path"`
	case !isWebSocket(raw):
		return strconv.Quote(DisplayURL(raw)) + ` is not a WebSocket URL: subscriptions need ws:// or wss:// (geth: --ws, port 8546; Solana: the RPC port + 1)`
	}
	return ""
}

// isWebSocket reports whether raw is a ws:// or wss:// URL.
func isWebSocket(raw string) bool {
	l := strings.ToLower(strings.TrimSpace(raw))
	return strings.HasPrefix(l, "ws://") || strings.HasPrefix(l, "wss://")
}

// ethKind names an eth_subscribe subscription after its kind.
func ethKind(params any) string {
	list, _ := params.([]any)
	kind, _ := firstString(list)
	return kind
}

func firstString(list []any) (string, bool) {
	if len(list) == 0 {
		return "", false
	}
	s, ok := list[0].(string)
	return s, ok
}

// subscriptionsOnly reports whether the profile holds subscriptions and sends no request.
func subscriptionsOnly(doc table) bool {
	_, subs := doc["subscribe"]
	_, reqs := doc["request"]
	_, targets := doc["targets"]
	return subs && !reqs && !targets
}

// noRequests checks what a profile of subscriptions alone may not have.
func (c *checker) noRequests(doc table) {
	if _, has := doc["expect"]; has {
		c.addf("expect", "checks the answers of [[request]] tables, and the profile only has [[subscribe]] tables: remove expect")
	}
}

// holdPlan is how long a profile of subscriptions alone holds them: its [[stage]] tables,
// whose rate, with no request to send, is 0 when given at all; with none, until stopped (or
// --duration).
func (c *checker) holdPlan(doc table) engine.Plan {
	if _, has := doc["ramp"]; has {
		c.addf("ramp", "a [ramp] raises a request rate, and the profile has no [[request]] to send: hold the subscriptions with [[stage]] tables and a duration, or add a [[request]]")
		return engine.Plan{}
	}
	v, has := doc["stage"]
	if !has {
		return engine.Plan{Stages: []engine.Stage{{}}}
	}
	stages := c.stages(v, engine.ModeClosed) // rates optional
	list, _ := tables(v)
	for i, st := range stages {
		if st.Rate > 0 && i < len(list) {
			c.addf("stage["+strconv.Itoa(i+1)+"].rate", "sends %s and the profile has no [[request]] to send: remove the rate (the stage only holds the subscriptions) or add a [[request]]", st.Rate)
		}
	}
	return engine.Plan{Stages: stages}
}

// followURL points the subscriptions that took the profile's url (from) at --url (to), when
// that is a WebSocket one too: they subscribe where the run sends.
func followURL(cfg *engine.Config, from, to string) {
	if !isWebSocket(to) {
		return
	}
	for i := range cfg.Subscriptions {
		if s := &cfg.Subscriptions[i]; s.URL == from {
			s.URL, s.DisplayURL = to, DisplayURL(to)
		}
	}
}

// subscriptionAsks says whether there are subscriptions, and a newHeads one among them.
func subscriptionAsks(subs []engine.Subscription) (some, heads bool) {
	for i := range subs {
		heads = heads || subs[i].Kind() == engine.SubHeads
	}
	return len(subs) > 0, heads
}

// subMeasurable reports whether a threshold on the subscriptions can be judged: on the whole
// run ([thresholds], not a stage's), of a profile that holds them (newHeads ones for gaps,
// repeats and lag). Otherwise it could only fail, so it is a problem at its line.
func (c *checker) subMeasurable(metric, field string, have mixAsks) bool {
	switch {
	case strings.HasPrefix(field, "thresholds.stage."):
		c.addf(field, "is judged on the whole run's subscriptions, not per stage: move it to [thresholds]")
	case !have.subs:
		c.addf(field, `the profile holds no subscriptions: add a [[subscribe]] table (method = "eth_subscribe", params = ["newHeads"]), or remove the threshold`)
	case thresholds.NeedsHeads(metric) && !have.heads:
		c.addf(field, `is counted for newHeads subscriptions only, and the profile has none: add one (params = ["newHeads"]), or remove the threshold`)
	default:
		return true
	}
	return false
}

// describeSubscriptions are Describe's rows of the [[subscribe]] tables: what each subscribes
// to, how many times, where and how fast the subscribers come.
func (p *Profile) describeSubscriptions() [][2]string {
	var rows [][2]string
	for i, s := range p.Config.Subscriptions {
		key := ""
		if i == 0 {
			key = "subscribe"
		}
		ramp := "all at once"
		if s.Ramp > 0 {
			ramp = "adding " + s.Ramp.String()
		}
		at := safetext.Line(s.DisplayURL)
		if len(p.Config.Targets) > 0 {
			at = "each target's WebSocket endpoint"
		}
		rows = append(rows, [2]string{key, fmt.Sprintf("%s: %s %s, %d subscribers (%s) at %s", safetext.Line(s.Name),
			safetext.Line(s.Method), safetext.Line(string(s.Params)), s.Subscribers, ramp, at)})
	}
	return rows
}
