package profiles

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/internal/errtest"
)

func TestDefaults(t *testing.T) {
	p := mustLoad(t, "url = \"http://h:1\"\n[[request]]\nmethod = \"getSlot\"\n[[stage]]\nrate = \"240/m\"\n")
	c := p.Config
	switch {
	case p.Name != "t" || c.Name != "t":
		t.Errorf("name = %q, want the file name without .toml", p.Name)
	case c.Timeout != 5*time.Second, c.Connections != 64, c.Mode != engine.ModeOpen, c.Method != "POST":
		t.Errorf("defaults = %+v", c)
	case c.MaxBodyBytes != 4<<20, c.MaxRequests != 0, c.Backlog != 0:
		t.Errorf("defaults = %+v", c)
	case len(c.Headers) != 1 || c.Headers[0] != (engine.Header{Name: "Content-Type", Value: "application/json"}):
		t.Errorf("headers = %+v", c.Headers)
	case len(c.Limits.Statuses) != 1 || len(c.Limits.RPCCodes) != 4:
		t.Errorf("limits = %+v", c.Limits)
	case len(c.Plan.Stages) != 1 || c.Plan.Stages[0].Rate != 4 || c.Plan.Stages[0].Duration != 0:
		t.Errorf("plan = %+v", c.Plan)
	}
}

// TestRequestMix: each kind of [[request]] gives the engine its name, body, weight and number
// of calls (items); every JSON-RPC request carries its calls, so answers are matched to them
// by id; requests that are not JSON-RPC carry none; a raw body with templates reads its ids
// per send. The rows are the [[request]] tables of one profile, in order: names depend on
// those before.
func TestRequestMix(t *testing.T) {
	type calls struct {
		rpc     bool // JSON-RPC: the answer is matched to the calls
		n       int
		batch   bool
		perSend bool // the ids are read from each rendering
	}
	tests := []struct {
		table      string // the keys of the [[request]]
		name, body string
		weight     int
		items      int
		calls      calls
	}{
		// method and params, weighted
		{`method = "getBalance"
params = ["4EVAJ81v9fLjz2wp44SZmxgTbvYB8dBRZ6s1SAqP99eZ", {commitment = "finalized"}]
weight = 3`, "getBalance", `{"jsonrpc":"2.0","id":1,"method":"getBalance","params":["4EVAJ81v9fLjz2wp44SZmxgTbvYB8dBRZ6s1SAqP99eZ",{"commitment":"finalized"}]}`, 3, 1, calls{true, 1, false, false}},
		// a method without params
		{`method = "getSlot"`, "getSlot", `{"jsonrpc":"2.0","id":1,"method":"getSlot"}`, 1, 1, calls{true, 1, false, false}},
		// the same method again: a name of its own
		{`method = "getSlot"`, "getSlot#2", `{"jsonrpc":"2.0","id":1,"method":"getSlot"}`, 1, 1, calls{true, 1, false, false}},
		// a raw batch body: two calls
		{`body = '[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","id":2,"method":"b"}]'`,
			"body", `[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","id":2,"method":"b"}]`, 1, 2, calls{true, 2, true, false}},
		// a raw body is named after its method too; its templated id is read per send
		{`body = '{"jsonrpc":"2.0","id":{{seq}},"method":"getSlot"}'`, "getSlot#3", `{"jsonrpc":"2.0","id":1,"method":"getSlot"}`, 1, 1, calls{true, 1, false, true}},
		// a body file holding one call, named explicitly
		{`name = "heavy"
body_file = "heavy.json"`, "heavy", `{"jsonrpc":"2.0","id":1,"method":"debug_storageRangeAt","params":["0x1",0,"0x0","0x",1024]}` + "\n", 1, 1, calls{true, 1, false, false}},
		// params as a table: a JSON object, escaped
		{`method = "x"
params = {a = 1.5, b = true, c = "<&>"}`, "x", `{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":1.5,"b":true,"c":"<&>"}}`, 1, 1, calls{true, 1, false, false}},
		// templated params: the id is literal (the body is the sample rendering, from a fixed seed)
		{`method = "getBalance"
params = ["{{randHex 8}}"]`, "getBalance#2", `{"jsonrpc":"2.0","id":1,"method":"getBalance","params":["015fee65"]}`, 1, 1, calls{true, 1, false, false}},
		// batch = 3: ids 1..3
		{`method = "getSlot"
batch = 3`, "getSlot x3", `[{"jsonrpc":"2.0","id":1,"method":"getSlot"},{"jsonrpc":"2.0","id":2,"method":"getSlot"},{"jsonrpc":"2.0","id":3,"method":"getSlot"}]`, 1, 3, calls{true, 3, true, false}},
		// a batch list
		{`batch = [{method = "getSlot"}, {method = "getBalance"}]`,
			"getSlot+getBalance x2", `[{"jsonrpc":"2.0","id":1,"method":"getSlot"},{"jsonrpc":"2.0","id":2,"method":"getBalance"}]`, 1, 2, calls{true, 2, true, false}},
		// a raw batch with a notification, fixed
		{`body = '[{"jsonrpc":"2.0","id":"a","method":"a"},{"jsonrpc":"2.0","method":"notify"}]'`,
			"body#2", `[{"jsonrpc":"2.0","id":"a","method":"a"},{"jsonrpc":"2.0","method":"notify"}]`, 1, 2, calls{true, 2, true, false}},
		// GraphQL is not JSON-RPC: judged by status
		{`body = '{"query":"{ slot }"}'`, "body#3", `{"query":"{ slot }"}`, 1, 1, calls{}},
	}
	src := "url = \"http://h\"\n"
	for _, tt := range tests {
		src += "[[request]]\n" + tt.table + "\n"
	}
	p := mustLoad(t, src+"[[stage]]\nrate = 1\n")
	reqs := p.Config.Requests
	if len(reqs) != len(tests) {
		t.Fatalf("got %d requests", len(reqs))
	}
	for i, w := range tests {
		r := reqs[i]
		if r.Name != w.name || string(r.Body) != w.body || r.Weight != w.weight || r.Items != w.items {
			t.Errorf("request %d = {%q %s w%d i%d}, want {%q %s w%d i%d}", i+1, r.Name, r.Body, r.Weight, r.Items, w.name, w.body, w.weight, w.items)
		}
		c := r.RPC
		if (c != nil) != w.calls.rpc || c.Calls() != w.calls.n || (c != nil && (c.Batch != w.calls.batch || c.PerSend != w.calls.perSend)) {
			t.Errorf("request %d (%s): calls %+v, want %+v", i+1, r.Name, c, w.calls)
		}
	}
	if m := p.info[5].RPCMethod; m != "debug_storageRangeAt" {
		t.Errorf("method read from body_file = %q", m)
	}
}

func TestSettings(t *testing.T) {
	src := `name = "custom"
url = "https://${HOST}/rpc"
timeout = "250ms"
connections = 500
mode = "closed"
requests = 1000000
method = "PUT"
max_body = "512KiB"
backlog = 42
[headers]
content-type = "application/json-rpc"
X-Trace = "${TRACE}"
[[request]]
method = "a"
[limits]
statuses = [429, 503]
rpc_codes = []
[demo]
rate = "1000/s"
burst = 60
nodelay = true
latency = "2ms"
jitter = "1ms"
capacity = "5000/s"
stall_every = "10s"
stall_for = "1s"
`
	p := mustLoadIn(t, src, "", map[string]string{"HOST": "node:8545", "TRACE": "on"})
	c := p.Config
	if p.Name != "custom" || c.URL != "https://node:8545/rpc" || c.Timeout != 250*time.Millisecond || c.Connections != 500 ||
		c.Mode != engine.ModeClosed || c.MaxRequests != 1000000 || c.Method != "PUT" || c.MaxBodyBytes != 512<<10 || c.Backlog != 42 {
		t.Errorf("config = %+v", c)
	}
	if len(c.Headers) != 2 || c.Headers[0].Value != "application/json-rpc" || c.Headers[1] != (engine.Header{Name: "X-Trace", Value: "on", Secret: true}) {
		t.Errorf("headers = %+v", c.Headers)
	}
	if len(c.Plan.Stages) != 1 || c.Plan.Stages[0].Duration != 0 {
		t.Errorf("closed mode without stages: plan = %+v", c.Plan)
	}
	if len(c.Limits.Statuses) != 2 || c.Limits.RPCCodes == nil || len(c.Limits.RPCCodes) != 0 {
		t.Errorf("limits = %+v", c.Limits)
	}
	want := DemoNode{Rate: 1000, Burst: 60, NoDelay: true, Latency: 2 * time.Millisecond, Jitter: time.Millisecond,
		Capacity: 5000, StallEvery: 10 * time.Second, StallFor: time.Second}
	if p.Demo != want {
		t.Errorf("demo = %+v, want %+v", p.Demo, want)
	}
}

// TestCheckTimeout: the one rule for a per-request timeout, shared by the profile and the
// --timeout flag.
func TestCheckTimeout(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string // "" for accepted
	}{
		{time.Millisecond, ""},                                     // short is fine
		{maxPlanTime, ""},                                          // the cap itself
		{0, "must be more than 0"},                                 // no timeout is not a timeout
		{-time.Second, "must be more than 0"},                      // negative
		{maxPlanTime + time.Second, "longer than the maximum of"},  // just over the cap
		{1000000 * time.Hour, "longer than the maximum of 720h0m"}, // the issue's --timeout 1000000h
	}
	for _, tt := range tests {
		if m := errtest.Mismatch(CheckTimeout(tt.d), tt.want); m != "" {
			t.Errorf("%s: %s", tt.d, m)
		}
	}
}

func TestParseSize(t *testing.T) {
	tests := []struct {
		in   string
		want int64
	}{
		{"4MiB", 4 << 20}, {"512 KiB", 512 << 10}, {"1MB", 1e6}, {"100kb", 1e5}, {"1024", 1024}, {"2B", 2}, {"1.5MiB", 3 << 19},
	}
	for _, tt := range tests {
		if got, err := parseSize(tt.in); err != nil || got != tt.want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "MiB", "4 parsecs", "1e999"} {
		if _, err := parseSize(bad); err == nil {
			t.Errorf("parseSize(%q) accepted", bad)
		}
	}
}

func TestExpandEnv(t *testing.T) {
	env := mapEnv(map[string]string{"A": "1", "EMPTY": ""})
	tests := []struct {
		in, want string
		errs     int
	}{
		{"plain", "plain", 0},                      // nothing to expand
		{"x${A}y${A}", "x1y1", 0},                  // repeated
		{"${EMPTY}", "", 0},                        // set but empty is set
		{"$${A}", "${A}", 0},                       // escaped
		{"${B}", "", 1},                            // unset
		{"${A", "${A", 1},                          // unterminated
		{"${1A} ${B} ${A}", "  1", 2},              // bad name and unset, both reported
		{"cost: $5 and ${A}", "cost: $5 and 1", 0}, // a lone $ stays
	}
	for _, tt := range tests {
		got, _, errs := expandEnv(tt.in, env)
		if len(errs) != tt.errs || tt.errs == 0 && got != tt.want {
			t.Errorf("expandEnv(%q) = %q, %v; want %q with %d errors", tt.in, got, errs, tt.want, tt.errs)
		}
	}
}

func TestLineIndex(t *testing.T) {
	src := `# comment [not a table]
name = "x" # trailing
multi = """
line "quoted" [bracket]
key = "not a key"
"""
arr = [
  1, # a = 2
  { b = 3 },
]
[[stage]]
rate = 1
[[stage]]
  rate = 2
  'quoted key' = 3
[headers]
"X.Dotted" = "v"
ramp.from = 1
[[request]]
[request.params]
p = 1
`
	ix, _ := indexLines(src)
	want := map[string]int{
		"name": 2, "multi": 3, "arr": 7, "stage": 11, "stage[1]": 11, "stage[1].rate": 12, "stage[2]": 13,
		"stage[2].rate": 14, "stage[2].quoted key": 15, "headers": 16, "headers.X.Dotted": 17, "headers.ramp.from": 18,
		"request[1]": 19, "request[1].params": 20, "request[1].params.p": 21,
	}
	for k, n := range want {
		if got := ix[k]; got != n {
			t.Errorf("line of %q = %d, want %d", k, got, n)
		}
	}
	for _, k := range []string{"key", "a", "b", "line"} {
		if _, ok := ix[k]; ok {
			t.Errorf("%q inside a value was indexed as a key", k)
		}
	}
	if got := ix.line("stage[2].duration"); got != 13 {
		t.Errorf("missing key falls back to its table: got %d, want 13", got)
	}
}

// TestDescribeWholeBodies: validate shows each request's sample body whole (templated values
// included), wrapped within 80 columns under its row; a body of kilobytes is cut after
// bodyLines lines with its size; control characters never reach the terminal raw.
func TestDescribeWholeBodies(t *testing.T) {
	const profile = `name = "tmpl"
url = "http://127.0.0.1:8899"
[headers]
X-Note = "a\u001b]0;title\u0007b"
[[request]]
method = "getBlocks"
params = ["{{randInt 250000000 250100000}}", {commitment = "{{pick \"finalized\" \"confirmed\"}}", encoding = "jsonParsed"}]
[[request]]
body = '{"jsonrpc":"2.0","id":{{seq}},"method":"eth_getBalance","params":["0x{{randHex 40}}","latest"]}'
[[request]]
name = "big"
method = "getBalance"
params = ["{{payload 5000}}"]
[[stage]]
rate = "10/s"
duration = "1s"
`
	p := mustLoadIn(t, profile, "", nil)
	out := described(p)
	for _, l := range strings.Split(out, "\n") {
		if w := ansi.StringWidth(l); w > describeWidth {
			t.Errorf("a line of %d cells: %q", w, l)
		}
	}
	// The lines under a request's row, joined, are "e.g. " and its sample body.
	under := func(name string) string {
		var got strings.Builder
		lines := strings.Split(out, "\n")
		for i, l := range lines {
			if !strings.HasPrefix(l, "  "+name+" ") {
				continue
			}
			for _, body := range lines[i+1:] {
				if !strings.HasPrefix(body, "    ") {
					break
				}
				got.WriteString(strings.TrimPrefix(body, "    "))
			}
		}
		return got.String()
	}
	for i, name := range []string{"getBlocks", "eth_getBalance"} {
		if got, want := under(name), "e.g. "+string(p.Config.Requests[i].Body); got != want {
			t.Errorf("%s: shown\n%s\nwant the whole sample\n%s", name, got, want)
		}
	}
	big := under("big")
	if n := strings.Count(out, "\n    "); n > 2*4+bodyLines || !strings.HasSuffix(big, "… (5060 bytes in all)") {
		t.Errorf("the 5 kB body: %d body lines, ends %q", n, big[max(len(big)-40, 0):])
	}
	if strings.ContainsAny(out, "\x1b\x07") || !strings.Contains(out, `a\x1b]0;title\x07b`) {
		t.Errorf("control characters shown raw, or not shown escaped:\n%q", out)
	}
}

func TestDescribe(t *testing.T) {
	p, err := LoadBundled("getBalance.toml", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Apply(Overrides{Duration: 30 * time.Second}); err != nil {
		t.Fatal(err)
	}
	out := described(p)
	for _, want := range []string{
		"getBalance (getBalance.toml)", "POST http://127.0.0.1:8899", "128 connections", "5s per request",
		"Content-Type: application/json", "100.0%", `{"jsonrpc":"2.0","id":1,"method":"getBalance",`,
		`"params":["4EVAJ81v9fLjz2wp44SZmxgTbvYB8dBRZ6s1SAqP99eZ"]}`,
		"warm", "200/s", "20s", "4000", "push", "500/s", "10s", "5000", "total", "30s", "9000", "--duration 30s",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("Describe lacks %q:\n%s", want, out)
		}
	}
}
