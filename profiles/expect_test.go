package profiles

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/schema"
)

// callAsks is what a test expects of one call: the labels of its rules and its cost.
type callAsks struct {
	rules string // labels joined by "; "
	cost  uint32
}

// asksOf reads the specs the loader gave request r: one per call that expects an answer.
func asksOf(r engine.Request) []callAsks {
	if r.RPC == nil {
		return nil
	}
	var out []callAsks
	for i := range r.RPC.Calls() {
		sp := r.RPC.Spec(i)
		var labels []string
		if sp.Expect != nil {
			for _, rule := range sp.Expect.Rules {
				labels = append(labels, rule.Label)
			}
		}
		out = append(out, callAsks{strings.Join(labels, "; "), sp.Cost})
	}
	return out
}

// TestExpectAndCost: the expect and cost keys, as words, tables and lists, of a request and
// of the calls of its batch, with the profile's expect as the default; what each call is
// checked against and costs, and what one send costs.
func TestExpectAndCost(t *testing.T) {
	tests := []struct {
		name  string
		top   string // top-level keys
		table string // the [[request]]'s keys
		calls []callAsks
		cost  uint32 // one send
	}{
		// A word: the result must be there.
		{"result", "", "method = \"a\"\nexpect = \"result\"\ncost = 16", []callAsks{{"result present", 16}}, 16},
		// nonempty.
		{"nonempty", "", "method = \"a\"\nexpect = \"nonempty\"\ncost = 0", []callAsks{{"result nonempty", 0}}, 0},
		// An inline table with two conditions on one path: two rules, in order.
		{"table", "", "method = \"a\"\nexpect = {path = \"result.hash\", present = true, matches = \"^0x\"}\ncost = 1",
			[]callAsks{{`result.hash present; result.hash matches "^0x"`, 1}}, 1},
		// A [request.expect] table; the path defaults to result.
		{"sub-table", "", "method = \"a\"\ncost = 1\n[request.expect]\nequals = \"0x1\"", []callAsks{{`result equals "0x1"`, 1}}, 1},
		// [[request.expect]] tables: several rules.
		{"array of tables", "", "method = \"a\"\ncost = 1\n[[request.expect]]\npath = \"result.logs\"\nnonempty = true\n[[request.expect]]\npath = \"result.removed\"\nequals = false",
			[]callAsks{{"result.logs nonempty; result.removed equals false", 1}}, 1},
		// A list of a word and a table.
		{"list", "", "method = \"a\"\nexpect = [\"result\", {path = \"result[0]\", present = false}]\ncost = 1",
			[]callAsks{{"result present; result.0 absent", 1}}, 1},
		// The profile's expect is every request's default.
		{"default", "expect = \"result\"\n", "method = \"a\"\ncost = 2", []callAsks{{"result present", 2}}, 2},
		// … which a request replaces …
		{"default replaced", "expect = \"result\"\n", "method = \"a\"\nexpect = \"nonempty\"\ncost = 2", []callAsks{{"result nonempty", 2}}, 2},
		// … or turns off.
		{"default off", "expect = \"result\"\n", "method = \"a\"\nexpect = \"none\"\ncost = 2", []callAsks{{"", 2}}, 2},
		// batch = N: each call has the rules and the cost; a send costs N times it.
		{"batch n", "", "method = \"a\"\nbatch = 3\nexpect = \"result\"\ncost = 5",
			[]callAsks{{"result present", 5}, {"result present", 5}, {"result present", 5}}, 15},
		// A batch list: a call's own expect and cost replace the request's, one by one.
		{"batch list", "", "batch = [{method = \"a\"}, {method = \"b\", expect = \"nonempty\", cost = 7}, {method = \"c\", expect = \"none\"}]\nexpect = \"result\"\ncost = 3",
			[]callAsks{{"result present", 3}, {"result nonempty", 7}, {"", 3}}, 13},
		// A raw JSON-RPC batch body: the request's rules and cost for each of its calls.
		{"raw batch body", "", "body = '[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\"},{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"b\"}]'\nexpect = \"result\"\ncost = 4",
			[]callAsks{{"result present", 4}, {"result present", 4}}, 8},
		// A body that is not JSON-RPC costs its cost per request, and has no calls to check.
		{"raw api", "", "body = '{\"query\":\"{ slot }\"}'\ncost = 9", nil, 9},
		// Without expect and cost, nothing is checked and nothing costs.
		{"neither", "", "method = \"a\"", []callAsks{{"", 0}}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustLoad(t, "url = \"http://h\"\n"+tt.top+"[[request]]\n"+tt.table+"\n[[stage]]\nrate = 1\n")
			r := p.Config.Requests[0]
			if got := asksOf(r); !slices.Equal(got, tt.calls) {
				t.Errorf("calls %+v, want %+v", got, tt.calls)
			}
			if r.Cost != tt.cost {
				t.Errorf("a send costs %d, want %d", r.Cost, tt.cost)
			}
		})
	}
}

// TestExpectErrors: every mistake in expect and cost names its line and field and says how to
// write it.
func TestExpectErrors(t *testing.T) {
	const head = "url = \"http://h\"\n[[request]]\nmethod = \"a\"\n" // the request's keys follow on line 4
	const stage = "[[stage]]\nrate = 1\n"
	checkProblems(t, []problemCase{
		// A misspelt word suggests the rule.
		{"typo", head + "expect = \"reslt\"\n" + stage, nil, 4, "request[1].expect", `did you mean "result"?`},
		// A word like no rule lists the ways to write one.
		{"unknown word", head + "expect = \"zzzzzz\"\n" + stage, nil, 4, "request[1].expect", `"none", or a table`},
		// A number is no rule.
		{"wrong type", head + "expect = 3\n" + stage, nil, 4, "request[1].expect", `must be a rule, not an integer 3`},
		// An empty list.
		{"empty list", head + "expect = []\n" + stage, nil, 4, "request[1].expect", `write expect = "none" for no rules`},
		// "none" among rules.
		{"none in a list", head + "expect = [\"result\", \"none\"]\n" + stage, nil, 4, "request[1].expect[2]", `write expect = "none" alone`},
		// A path outside the result.
		{"path outside result", head + "expect = {path = \"error.code\", present = true}\n" + stage, nil, 4, "request[1].expect.path", `e.g. "result.error.code"`},
		// A path with a bad index.
		{"bad index", head + "[request.expect]\npath = \"result.a[x]\"\npresent = true\n" + stage, nil, 5, "request[1].expect.path", "not an array index"},
		// A table that checks nothing.
		{"nothing to check", head + "[request.expect]\npath = \"result.a\"\n" + stage, nil, 4, "request[1].expect", "says nothing to check"},
		// nonempty = false checks nothing.
		{"nonempty false", head + "expect = {nonempty = false}\n" + stage, nil, 4, "request[1].expect.nonempty", "false checks nothing"},
		// equals with a list.
		{"equals list", head + "expect = {equals = [1]}\n" + stage, nil, 4, "request[1].expect.equals", "compares one value"},
		// matches that does not compile.
		{"bad regexp", head + "expect = {matches = \"(\"}\n" + stage, nil, 4, "request[1].expect.matches", "is not a regular expression"},
		// matches that is no string.
		{"matches number", head + "expect = {matches = 5}\n" + stage, nil, 4, "request[1].expect.matches", "regular expression in quotes"},
		// A typo in a rule table.
		{"rule key typo", head + "[[request.expect]]\npresnt = true\n" + stage, nil, 5, "request[1].expect[1].presnt", `did you mean "present"?`},
		// A rule on a body that is not JSON-RPC.
		{"raw body", "url = \"http://h\"\n[[request]]\nbody = \"hello\"\nexpect = \"result\"\n" + stage, nil, 4, "request[1].expect", "is not JSON-RPC calls"},
		// The profile's rule on such a body asks for expect = "none" there.
		{"raw body default", "url = \"http://h\"\nexpect = \"result\"\n[[request]]\nbody = \"hello\"\n" + stage, nil, 3, "request[1]", `add expect = "none" to it`},
		// A batch call's rule, with the call's line.
		{"batch call", head[:len(head)-len("method = \"a\"\n")] + "batch = [{method = \"a\", expect = \"nope\"}]\n" + stage, nil, 3, "request[1].batch[1].expect", "is not a rule"},
		// A negative cost.
		{"negative cost", head + "cost = -1\n" + stage, nil, 4, "request[1].cost", "use a value from 0 to 100000"},
		// A cost that is no number.
		{"cost string", head + "cost = \"16\"\n" + stage, nil, 4, "request[1].cost", "must be a whole number"},
		// A cost on one request and not another: the other is named.
		{"cost missing", head + "cost = 5\n[[request]]\nmethod = \"b\"\n" + stage, nil, 5, "request[2]", "has no cost while request[1].cost is set"},
		// … and a call of a batch list without one, when the request has none either.
		{"batch cost missing", "url = \"http://h\"\n[[request]]\nbatch = [{method = \"a\", cost = 1}, {method = \"b\"}]\n" + stage, nil, 3, "request[1].batch[2]", "has no cost while request[1].batch[1].cost is set"},
		// Costs beside a target file, whose requests cannot have one.
		{"cost with targets", "url = \"http://127.0.0.1:8899\"\ntargets = \"targets/rpc.http\"\n[[request]]\nmethod = \"a\"\ncost = 1\n" + stage, nil, 2, "targets", "the target file's requests have no cost"},
		// The profile's expect beside a target file.
		{"expect with targets", "url = \"http://127.0.0.1:8899\"\nexpect = \"result\"\ntargets = \"targets/rpc.http\"\n[[request]]\nmethod = \"a\"\n" + stage, nil, 2, "expect", "the target file's would go unchecked"},
		// A threshold on invalid answers in a profile that checks none.
		{"invalid without rules", head + "[[stage]]\nrate = 1\n[thresholds]\ninvalid = \"< 0.1%\"\n", nil, 7, "thresholds.invalid", "no request has expect rules"},
		// A threshold on the cost rate in a profile without costs, for a stage.
		{"cost_rate without costs", head + "[[stage]]\nrate = 1\n[thresholds.stage.1]\ncost_rate = \"< 5000\"\n", nil, 7, "thresholds.stage.1.cost_rate", "no request has a cost"},
		// A misspelt top-level expect.
		{"top-level typo", "url = \"http://h\"\nexpect = \"nonemty\"\n[[request]]\nmethod = \"a\"\n" + stage, nil, 2, "expect", `did you mean "nonempty"?`},
	})
}

// TestExpectThresholds: invalid and cost_rate thresholds load where the profile has rules and
// costs.
func TestExpectThresholds(t *testing.T) {
	p := mustLoad(t, expectProfile+"[thresholds]\ninvalid = \"< 0.1%\"\ncost_rate = \"< 5000\"\n")
	var got []string
	for _, th := range p.Thresholds {
		got = append(got, th.Metric+" "+th.Condition)
	}
	if want := []string{"invalid < 0.1%", "cost_rate < 5000"}; !slices.Equal(got, want) {
		t.Errorf("thresholds %q, want %q", got, want)
	}
}

// TestExpectProfileLoads: the fuzz seed is a valid profile, so FuzzLoad starts from a success;
// its resolved form lists each request's rules and cost for the snapshot.
func TestExpectProfileLoads(t *testing.T) {
	p := mustLoad(t, expectProfile)
	if n := len(p.Config.Requests); n != 4 {
		t.Fatalf("%d requests", n)
	}
	r := p.Redacted().(*Resolved).Requests
	if want := []string{`result.number matches "^0x"`, "result nonempty"}; !slices.Equal(r[0].Expect, want) || r[0].Cost != 16 {
		t.Errorf("resolved request 1: expect %q cost %d, want %q and 16", r[0].Expect, r[0].Cost, want)
	}
	if r[2].Cost != 19 || r[3].Cost != 20 {
		t.Errorf("resolved costs %d and %d a send, want 19 (0 + 19) and 20 (2 calls at 10)", r[2].Cost, r[3].Cost)
	}
	b, err := json.Marshal(p.Redacted())
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.MustCompile(t).ValidateAt(schema.Snapshot, "/$defs/resolvedProfile", b); err != nil {
		t.Error(err)
	}
}

// expectProfile uses every form of expect and cost: a seed of FuzzLoad.
const expectProfile = `url = "http://127.0.0.1:8545"
expect = "result"

[[request]]
method = "eth_getBlockByNumber"
params = ["latest", false]
cost = 16
expect = [{path = "result.number", matches = "^0x"}, "nonempty"]

[[request]]
method = "eth_getLogs"
batch = 2
cost = 75
[[request.expect]]
path = "result[0].removed"
equals = false
[[request.expect]]
path = "result"
nonempty = true

[[request]]
batch = [{method = "eth_chainId", cost = 0, expect = "none"}, {method = "eth_getBalance", params = ["0x0000000000000000000000000000000000000000", "latest"], expect = {equals = "0x0"}}]
cost = 19

[[request]]
body = '[{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"},{"jsonrpc":"2.0","method":"note"}]'
cost = 10
expect = {present = false, path = "result.x"}

[[stage]]
rate = "10/s"
duration = "2s"
`
