package profiles

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
)

// newHeads is a profile of one newHeads subscription to a ws url: each test adds its
// subscribers and what else it needs.
const newHeads = "url = \"ws://127.0.0.1:8546\"\n[[subscribe]]\nmethod = \"eth_subscribe\"\nparams = [\"newHeads\"]\n"

// TestSubscribeLoads: [[subscribe]] tables become the Config's subscriptions, named after what
// they subscribe to, with the profile's ws url unless they name their own.
func TestSubscribeLoads(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []engine.Subscription
		// stages is the plan's rates; nil when the profile sends requests (not checked).
		stages []engine.Stage
	}{
		// Subscriptions alone, held until stopped: one open-ended stage at rate 0.
		{"alone", newHeads + "subscribers = 200\nramp = \"50/s\"\n",
			[]engine.Subscription{{Name: "newHeads", URL: "ws://127.0.0.1:8546", DisplayURL: "ws://127.0.0.1:8546",
				Method: "eth_subscribe", Params: []byte(`["newHeads"]`), Subscribers: 200, Ramp: 50}},
			[]engine.Stage{{}}},
		// No top-level url: the subscriptions name the node; a stage without a rate holds them.
		{"own url and a hold", `[[subscribe]]
method = "slotSubscribe"
subscribers = 3
url = "wss://user:pw@node.example/ws?key=1"
[[stage]]
duration = "15s"`,
			[]engine.Subscription{{Name: "slotSubscribe", URL: "wss://user:pw@node.example/ws?key=1", DisplayURL: "wss://node.example/ws",
				Method: "slotSubscribe", Params: []byte(`[]`), Subscribers: 3}},
			[]engine.Stage{{Duration: 15 * time.Second}}},
		// Beside requests to an http node; two logs subscriptions get names of their own.
		{"beside requests", `url = "http://127.0.0.1:8545"
[[request]]
method = "eth_blockNumber"
[[stage]]
rate = "10/s"
[[subscribe]]
method = "eth_subscribe"
params = ["logs", {address = "0xdac17f958d2ee523a2206206994597c13d831ec7"}]
subscribers = 1
url = "ws://127.0.0.1:8546"
[[subscribe]]
method = "eth_subscribe"
params = ["logs", {}]
subscribers = 2
url = "ws://127.0.0.1:8546"`,
			[]engine.Subscription{
				{Name: "logs", URL: "ws://127.0.0.1:8546", DisplayURL: "ws://127.0.0.1:8546", Method: "eth_subscribe",
					Params: []byte(`["logs",{"address":"0xdac17f958d2ee523a2206206994597c13d831ec7"}]`), Subscribers: 1},
				{Name: "logs#2", URL: "ws://127.0.0.1:8546", DisplayURL: "ws://127.0.0.1:8546", Method: "eth_subscribe",
					Params: []byte(`["logs",{}]`), Subscribers: 2}},
			nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustLoad(t, tt.src)
			got := p.Config.Subscriptions
			if len(got) != len(tt.want) {
				t.Fatalf("subscriptions %+v, want %+v", got, tt.want)
			}
			for i := range got {
				g, w := got[i], tt.want[i]
				if g.Name != w.Name || g.URL != w.URL || g.DisplayURL != w.DisplayURL || g.Method != w.Method ||
					string(g.Params) != string(w.Params) || g.Subscribers != w.Subscribers || g.Ramp != w.Ramp {
					t.Errorf("subscription %d: %+v (params %s), want %+v (params %s)", i, g, g.Params, w, w.Params)
				}
			}
			if tt.stages != nil && !slices.Equal(p.Config.Plan.Stages, tt.stages) {
				t.Errorf("plan %+v, want %+v", p.Config.Plan.Stages, tt.stages)
			}
		})
	}
}

// TestSubscribeThresholds: the thresholds load with their file:line.
func TestSubscribeThresholds(t *testing.T) {
	p := mustLoad(t, newHeads+"subscribers = 1\n[thresholds]\nsub_gaps = \"== 0\"\nsub_spread_p99 = \"< 200ms\"\n")
	if len(p.Thresholds) != 2 || p.Thresholds[0].Metric != "sub_gaps" || p.Thresholds[1].Bound != 200 || p.Thresholds[1].Where != "t.toml:8" {
		t.Errorf("thresholds %+v", p.Thresholds)
	}
}

// TestSubscribeURLFollowsOverride: --url moves the subscriptions that took the profile's url.
func TestSubscribeURLFollowsOverride(t *testing.T) {
	p := mustLoad(t, newHeads+"subscribers = 1\n")
	if err := p.Apply(Overrides{Duration: time.Second}); err != nil {
		t.Fatal(err)
	}
	followURL(p.Config, "ws://127.0.0.1:8546", "ws://10.0.0.1:8546")
	if s := p.Config.Subscriptions[0]; s.URL != "ws://10.0.0.1:8546" || s.DisplayURL != "ws://10.0.0.1:8546" {
		t.Errorf("subscription at %s (%s), want the new url", s.URL, s.DisplayURL)
	}
	followURL(p.Config, "ws://10.0.0.1:8546", "http://10.0.0.1:8545")
	if s := p.Config.Subscriptions[0]; s.URL != "ws://10.0.0.1:8546" {
		t.Errorf("an http --url moved the subscription to %s", s.URL)
	}
}

// TestSubscribeProblems: each mistake in a [[subscribe]] table is named at its line with a fix.
func TestSubscribeProblems(t *testing.T) {
	const head = "url = \"ws://127.0.0.1:8546\"\n[[subscribe]]\n"
	checkProblems(t, []problemCase{
		// No method at all: the table's keys are there, the method is not.
		{name: "no method", src: head + "params = [\"newHeads\"]\nsubscribers = 1\n", line: 2, field: "subscribe[1].method", hint: `method = "eth_subscribe"`},
		// A request method where a subscribe method belongs.
		{name: "not a subscribe method", src: head + "method = \"eth_blockNumber\"\nsubscribers = 1\n", line: 3, field: "subscribe[1].method", hint: "is not a subscribe method"},
		// eth_subscribe without a kind.
		{name: "no params", src: head + "method = \"eth_subscribe\"\nsubscribers = 1\n", line: 2, field: "subscribe[1].params", hint: `params = ["newHeads"]`},
		// A kind eth_subscribe does not have (newHead for newHeads).
		{name: "unknown kind", src: head + "method = \"eth_subscribe\"\nparams = [\"newHead\"]\nsubscribers = 1\n", line: 4, field: "subscribe[1].params", hint: "newHeads"},
		// params as a string.
		{name: "params not a list", src: head + "method = \"eth_subscribe\"\nparams = \"newHeads\"\nsubscribers = 1\n", line: 4, field: "subscribe[1].params", hint: "must be a list"},
		// How many subscribe is not guessed.
		{name: "no subscribers", src: head + "method = \"slotSubscribe\"\n", line: 2, field: "subscribe[1].subscribers", hint: "subscribers = 100"},
		// Zero subscribers.
		{name: "zero subscribers", src: head + "method = \"slotSubscribe\"\nsubscribers = 0\n", line: 4, field: "subscribe[1].subscribers", hint: "from 1 to 100000"},
		// A ramp that is no rate.
		{name: "bad ramp", src: head + "method = \"slotSubscribe\"\nsubscribers = 5\nramp = \"fast\"\n", line: 5, field: "subscribe[1].ramp", hint: "not a number"},
		// An http url for a subscription.
		{name: "http url", src: head + "method = \"slotSubscribe\"\nsubscribers = 5\nurl = \"http://127.0.0.1:8899\"\n", line: 5, field: "subscribe[1].url", hint: "ws:// or wss://"},
		// The profile's url is http and the table names none: not guessed.
		{name: "http target", src: "url = \"http://127.0.0.1:8545\"\n[[request]]\nmethod = \"eth_blockNumber\"\n[[stage]]\nrate = 1\n[[subscribe]]\nmethod = \"eth_subscribe\"\nparams = [\"newHeads\"]\nsubscribers = 1\n", line: 6, field: "subscribe[1].url", hint: `add url = "ws://host:8546"`},
		// A mistyped key.
		{name: "unknown key", src: head + "method = \"slotSubscribe\"\nsubscriber = 5\n", line: 4, field: "subscribe[1].subscriber", hint: `did you mean "subscribers"`},
		// A stage that sends with nothing to send.
		{name: "rate without requests", src: head + "method = \"slotSubscribe\"\nsubscribers = 5\n[[stage]]\nrate = \"10/s\"\nduration = \"5s\"\n", line: 6, field: "stage[1].rate", hint: "no [[request]] to send"},
		// A ramp with nothing to send.
		{name: "ramp without requests", src: head + "method = \"slotSubscribe\"\nsubscribers = 5\n[ramp]\nfrom = \"1/s\"\nto = \"10/s\"\nstep = \"1/s\"\nevery = \"1s\"\n", line: 5, field: "ramp", hint: "[[stage]] tables and a duration"},
		// A subscriptions threshold in a profile without them.
		{name: "threshold without subscriptions", src: "url = \"http://127.0.0.1:1\"\n[[request]]\nmethod = \"getSlot\"\n[[stage]]\nrate = 1\n[thresholds]\nsub_gaps = \"== 0\"\n", line: 7, field: "thresholds.sub_gaps", hint: "holds no subscriptions"},
		// Gaps are counted for newHeads only.
		{name: "gaps without heads", src: head + "method = \"slotSubscribe\"\nsubscribers = 1\n[thresholds]\nsub_gaps = \"== 0\"\n", line: 6, field: "thresholds.sub_gaps", hint: "newHeads subscriptions only"},
		// Per stage.
		{name: "threshold per stage", src: head + "method = \"slotSubscribe\"\nsubscribers = 1\n[[stage]]\nduration = \"1s\"\n[thresholds.stage.1]\nsub_spread_p99 = \"< 200ms\"\n", line: 8, field: "thresholds.stage.1.sub_spread_p99", hint: "not per stage"},
		// Two subscriptions named alike.
		{name: "same name", src: head + "name = \"a\"\nmethod = \"slotSubscribe\"\nsubscribers = 1\n[[subscribe]]\nname = \"a\"\nmethod = \"slotSubscribe\"\nsubscribers = 1\n", line: 7, field: "subscribe[2].name", hint: "a name of its own"},
	})
}

// subscribeSeed is FuzzLoad's seed of [[subscribe]] tables beside a request.
const subscribeSeed = `url = "ws://127.0.0.1:8546"
[[request]]
method = "eth_blockNumber"
[[stage]]
rate = "5/s"
duration = "2s"
[[subscribe]]
method = "eth_subscribe"
params = ["logs", {address = ["0x01"], topics = [["0x02"]]}]
subscribers = 20
ramp = "10/s"
[[subscribe]]
name = "slots"
method = "slotSubscribe"
subscribers = 2
url = "wss://${HOST}/ws"
`

// TestSubscribeDescribe: validate says what each subscription subscribes to, and a profile of
// subscriptions alone lists no empty request mix.
func TestSubscribeDescribe(t *testing.T) {
	out := described(mustLoad(t, newHeads+"subscribers = 50\nramp = \"100/s\"\n"))
	if !strings.Contains(out, `newHeads: eth_subscribe ["newHeads"], 50 subscribers (adding`) || strings.Contains(out, "requests (0") {
		t.Errorf("describe:\n%s", out)
	}
}

// sideSubs is a profile of two targets, the second given ws (its ws_url, or none), that
// subscribes; extra goes at the end of its [[subscribe]] table.
func sideSubs(ws, extra string) string {
	return `[[target]]
name = "a"
url = "ws://127.0.0.1:8546"
[[target]]
name = "b"
url = "http://127.0.0.1:9545"
` + ws + headsBeside + "subscribers = 4\n" + extra
}

// headsBeside is a profile's eth_blockNumber at 1/s and a newHeads subscription, its
// subscribers to follow.
const headsBeside = `[[request]]
method = "eth_blockNumber"
[[stage]]
rate = 1
[[subscribe]]
method = "eth_subscribe"
params = ["newHeads"]
`

// TestSubscribeSideBySide: with [[target]] tables each [[subscribe]] subscribes on every
// target at its own node: the table names none, the engine takes each target's ws_url (or ws://
// url); validate and the snapshot's profile show the ws_url, secrets hidden.
func TestSubscribeSideBySide(t *testing.T) {
	p := mustLoad(t, sideSubs("ws_url = \"wss://user:pw@b.example/ws?key=1\"\n", ""))
	c := p.Config
	if s := c.Subscriptions; len(s) != 1 || s[0].URL != "" || s[0].Subscribers != 4 {
		t.Errorf("subscriptions %+v: want one, its url each target's", s)
	}
	if b := c.Targets[1]; !strings.HasPrefix(b.WSURL, "wss://user:pw@b.example/ws?key=") || b.WSDisplayURL != "wss://b.example/ws" || c.Targets[0].WSURL != "" {
		t.Errorf("targets' WebSocket endpoints %+v", c.Targets)
	}
	var b strings.Builder
	p.Describe(&b)
	if out := b.String(); !strings.Contains(out, "WebSocket at wss://b.example/ws") || !strings.Contains(out, "at each target's WebSocket endpoint") || strings.Contains(out, "pw") {
		t.Errorf("describe:\n%s", out)
	}
	if r := p.Redacted().(*Resolved); r.Targets[1].WSURL != "wss://b.example/ws" {
		t.Errorf("resolved targets %+v", r.Targets)
	}
}

// TestSubscribeSideBySideProblems: a target with nowhere to subscribe, a [[subscribe]] url
// that names one node, and a ws_url that is no WebSocket URL are each refused at their line.
func TestSubscribeSideBySideProblems(t *testing.T) {
	checkProblems(t, []problemCase{
		// b's url is http and it has no ws_url.
		{name: "no ws endpoint", src: sideSubs("", ""), line: 4, field: "target[2]", hint: `add ws_url = "ws://host:8546"`},
		// A subscription's own url with several targets.
		{name: "subscribe url", src: sideSubs("ws_url = \"ws://127.0.0.1:9546\"\n", "url = \"ws://127.0.0.1:8546\"\n"), line: 16, field: "subscribe[1].url", hint: "give each [[target]] a ws_url"},
		// A ws_url that is http.
		{name: "http ws_url", src: sideSubs("ws_url = \"http://127.0.0.1:9546\"\n", ""), line: 7, field: "target[2].ws_url", hint: "ws:// or wss://"},
	})
}

// TestSubscribeURLTargets: --url NAME=URL on a profile that subscribes: every target needs a
// WebSocket endpoint (a ws:// url, or its [[target]]'s ws_url, kept under a new http url), and a
// [[subscribe]] url of its own, which names one node, is refused with its line.
func TestSubscribeURLTargets(t *testing.T) {
	p := mustLoad(t, sideSubs("ws_url = \"ws://127.0.0.1:9546\"\n", ""))
	if err := p.Apply(Overrides{Targets: []TargetURL{{"a", "ws://10.0.0.1:8546"}, {"b", "http://10.0.0.2:8545"}}}); err != nil {
		t.Errorf("b keeps its ws_url under its new url: %v", err)
	} else if b := p.Config.Targets[1]; b.WSURL != "ws://127.0.0.1:9546" || b.URL != "http://10.0.0.2:8545" {
		t.Errorf("target b %+v", b)
	}
	if err := p.Apply(Overrides{Targets: []TargetURL{{"a", "ws://10.0.0.1:8546"}, {"b", "ws://10.0.0.2:8546"}}}); err != nil {
		t.Error(err)
	} else if b := p.Config.Targets[1]; b.WSURL != "" {
		t.Errorf("a ws:// --url kept b's ws_url %s: its subscriptions would go to the old node", b.WSURL)
	}
	err := p.Apply(Overrides{Targets: []TargetURL{{"a", "ws://10.0.0.1:8546"}, {"c", "http://10.0.0.3:8545"}}})
	if err == nil || !strings.Contains(err.Error(), "--url c=http://10.0.0.3:8545: the profile subscribes ([[subscribe]]) on every target, and c has no WebSocket endpoint") {
		t.Errorf("a new http target: %v", err)
	}
	own := mustLoad(t, "url = \"http://127.0.0.1:8545\"\n"+headsBeside+"subscribers = 1\nurl = \"ws://127.0.0.1:8546\"\n")
	err = own.Apply(Overrides{Targets: []TargetURL{{"a", "ws://10.0.0.1:8546"}, {"b", "ws://10.0.0.2:8546"}}})
	if err == nil || !strings.Contains(err.Error(), ":10: subscribe[1].url names one node") {
		t.Errorf("a subscription's own url side by side: %v", err)
	}
}
