package profiles

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/engine/answers"
)

// sideProfile is two targets with everything a target may set, and the comparison keys.
const sideProfile = `name = "side"
connections = 8
insecure = true
secret = ["X-Team"]
compare_answers = true
compare_numbers = "value"
compare_keep = 3
compare_ignore = ["result.timestamp"]
[headers]
X-Shared = "all"
[[target]]
name = "geth"
url = "http://127.0.0.1:8545"
[[target]]
name = "reth_2"
url = "https://u:p@reth.example/v1/${KEY}?token=q"
connections = 32
insecure = false
[target.headers]
X-Zeta = "z"
Authorization = "Bearer ${TOKEN}"
X-Team = "t"
[[request]]
method = "eth_chainId"
[[request]]
method = "eth_getBlockByNumber"
params = ["0x1", false]
compare_ignore = ["result.hash", "result.timestamp", "result.transactions.*.hash"]
[[stage]]
rate = "10/s"
duration = "1s"
`

// TestSideBySide: [[target]] tables and the compare_* keys become the engine's Targets,
// CompareAnswers and Answers, each key as the README says.
func TestSideBySide(t *testing.T) {
	p := mustLoadIn(t, sideProfile, "testdata", map[string]string{"KEY": "k1", "TOKEN": "t0k"})
	c := p.Config
	want := []engine.Target{
		// The first: the profile's TLS and connections apply (no keys of its own).
		{Name: "geth", URL: "http://127.0.0.1:8545", DisplayURL: "http://127.0.0.1:8545"},
		// The second: its own connections, insecure over the profile's, its headers in file
		// order, secret by ${VAR}, by name and by the secret list; the display URL without
		// userinfo, query or the ${KEY} value.
		{Name: "reth_2", URL: "https://u:p@reth.example/v1/k1?token=q", DisplayURL: "https://reth.example/v1/${KEY}",
			Connections: 32, TLS: &engine.TLSConfig{Insecure: false},
			Headers: []engine.Header{{Name: "X-Zeta", Value: "z"}, {Name: "Authorization", Value: "Bearer t0k", Secret: true}, {Name: "X-Team", Value: "t", Secret: true}}},
	}
	if !reflect.DeepEqual(c.Targets, want) {
		t.Errorf("targets\n%+v\nwant\n%+v", c.Targets, want)
	}
	// The run's URL is the first target's; the profile's headers and TLS stay its own.
	if c.URL != want[0].URL || c.DisplayURL != want[0].DisplayURL || c.Connections != 8 || !c.TLS.Insecure {
		t.Errorf("config URL %q display %q connections %d TLS %+v", c.URL, c.DisplayURL, c.Connections, c.TLS)
	}
	wantAnswers := answers.Options{Targets: []string{"geth", "reth_2"}, Keep: 3, NumbersByValue: true,
		Ignore: map[string][]string{
			// compare_ignore of the top for every request …
			"eth_chainId": {"result.timestamp"},
			// … and the request's own after it, each path once.
			"eth_getBlockByNumber": {"result.timestamp", "result.hash", "result.transactions.*.hash"},
		}}
	if !c.CompareAnswers || !reflect.DeepEqual(c.Answers, wantAnswers) {
		t.Errorf("compare %v, answers %+v, want %+v", c.CompareAnswers, c.Answers, wantAnswers)
	}
}

// TestSideBySideTLS: a target's insecure and ca_file lie over the profile's, key by key, and a
// target with neither has no TLS of its own (the profile's applies).
func TestSideBySideTLS(t *testing.T) {
	dir := t.TempDir()
	writeCA(t, dir, "ca.pem")
	src := "insecure = true\n[[target]]\nname = \"a\"\nurl = \"https://a\"\nca_file = \"ca.pem\"\n" +
		"[[target]]\nname = \"b\"\nurl = \"https://b\"\n[[request]]\nmethod = \"m\"\n[[stage]]\nrate = 1\n"
	ts := mustLoadIn(t, src, dir, nil).Config.Targets
	if ts[0].TLS == nil || *ts[0].TLS != (engine.TLSConfig{Insecure: true, CAFile: filepath.Join(dir, "ca.pem")}) || ts[1].TLS != nil {
		t.Errorf("TLS a %+v b %+v", ts[0].TLS, ts[1].TLS)
	}
}

// sideBase is a valid profile of two targets that the error cases below break one line at
// a time: line 1 is the url-less top, the targets start on line 2 and 5.
const sideBase = "name = \"s\"\n" + // 1
	"[[target]]\n" + // 2
	"name = \"a\"\n" + // 3
	"url = \"http://127.0.0.1:1\"\n" + // 4
	"[[target]]\n" + // 5
	"name = \"b\"\n" + // 6
	"url = \"http://127.0.0.1:2\"\n" + // 7
	"[[request]]\n" + // 8
	"method = \"m\"\n" + // 9
	"[[stage]]\n" + // 10
	"rate = 1\n" // 11

// TestSideBySideErrors: every mistake with targets and the comparison is named at its line
// with its field and a fix.
func TestSideBySideErrors(t *testing.T) {
	one := "[[target]]\nname = \"a\"\nurl = \"http://a\"\n"
	five := strings.Repeat("[[target]]\nname = \"n\"\nurl = \"http://a\"\n", 5)
	for i := range 5 { // names n1 … n5
		five = strings.Replace(five, "\"n\"", "\"n"+string(rune('1'+i))+"\"", 1)
	}
	req := "[[request]]\nmethod = \"m\"\n[[stage]]\nrate = 1\n"
	checkProblems(t, []problemCase{
		// url and targets: each target has its own.
		{"url and targets", "url = \"http://h\"\n" + sideBase, nil, 1, "url", "remove this url, or move it into a [[target]]"},
		// One target is no side by side.
		{"one target", one + req, nil, 1, "target", "add another [[target]] table, or write url"},
		// Five are more than the dashboard shows.
		{"five targets", five + req, nil, 13, "target[5]", "at most 4 go side by side"},
		// Every target needs a name …
		{"no name", strings.Replace(sideBase, "name = \"b\"\n", "", 1), nil, 5, "target[2]", `has no name: add name = "geth"`},
		// … a short one of letters, digits, - and _ …
		{"name with a space", strings.Replace(sideBase, `"a"`, `"node a"`, 1), nil, 3, "target[1].name", `"node a" holds ' ': a target's name is 1 to 16 letters`},
		{"name too long", strings.Replace(sideBase, `"a"`, `"a-very-long-name-x"`, 1), nil, 3, "target[1].name", "is 18 characters long"},
		{"name empty", strings.Replace(sideBase, `"a"`, `""`, 1), nil, 3, "target[1].name", "is empty: a target's name"},
		{"name not a string", strings.Replace(sideBase, `"a"`, `7`, 1), nil, 3, "target[1].name", "must be a string"},
		// … of its own.
		{"same name", strings.Replace(sideBase, `"b"`, `"a"`, 1), nil, 6, "target[2].name", `"a" is already the name of target[1]`},
		// Every target needs a URL, a good one.
		{"no url", strings.Replace(sideBase, "url = \"http://127.0.0.1:2\"\n", "", 1), nil, 5, "target[2]", "has no url"},
		{"url without scheme", strings.Replace(sideBase, "http://127.0.0.1:2", "127.0.0.1:2", 1), nil, 7, "target[2].url", "has no scheme"},
		{"url unset var", strings.Replace(sideBase, "http://127.0.0.1:2", "http://h/${KEY}", 1), nil, 7, "target[2].url", "${KEY} is not set"},
		// The keys of a target: a typo, and a key of the top written below a [[target]].
		{"typo in target", strings.Replace(sideBase, "name = \"b\"\n", "name = \"b\"\nconections = 3\n", 1), nil, 7, "target[2].conections", `did you mean "connections"?`},
		{"top key below target", sideBase[:strings.Index(sideBase, "[[request]]")] + "compare_answers = true\n" + req, nil, 8, "target[2].compare_answers", "move it above the first [[target]] table"},
		{"connections zero", strings.Replace(sideBase, "name = \"b\"\n", "name = \"b\"\nconnections = 0\n", 1), nil, 7, "target[2].connections", "out of range"},
		{"ca_file missing", strings.Replace(sideBase, "name = \"b\"\n", "name = \"b\"\nca_file = \"no.pem\"\n", 1), nil, 7, "target[2].ca_file", `"no.pem" not found`},
		{"headers not a table", strings.Replace(sideBase, "name = \"b\"\n", "name = \"b\"\nheaders = \"x\"\n", 1), nil, 7, "target[2].headers", "must be a table"},
		{"header unset var", sideBase[:strings.Index(sideBase, "[[request]]")] + "[target.headers]\nAuthorization = \"${TOKEN}\"\n" + req, nil, 9, "target[2].headers.Authorization", "${TOKEN} is not set"},
		{"header bad name", sideBase[:strings.Index(sideBase, "[[request]]")] + "[target.headers]\n\"X A\" = \"1\"\n" + req, nil, 9, "target[2].headers.X A", "is not a valid header name"},
		{"target not tables", "target = \"a\"\n" + req, nil, 1, "target", "must be a list of [[target]] tables"},
		// Side by side needs one schedule.
		{"closed mode", "mode = \"closed\"\n" + sideBase, nil, 1, "mode", `use mode = "open"`},
		// A target file goes to its one host.
		{"target file", "targets = \"t.txt\"\n" + sideBase, nil, 1, "targets", "write the requests as [[request]] tables"},
		// The secret list may name a target's header, not a header nobody has.
		{"secret of none", "secret = [\"X-None\"]\n" + sideBase, nil, 1, "secret", `"X-None" is not a header in [headers] or a [[target]]'s headers`},
		// Comparing needs targets.
		{"compare one target", "url = \"http://h\"\ncompare_answers = true\n" + req, nil, 2, "compare_answers", "replace url with 2 to 4 [[target]] tables"},
		{"compare_answers not bool", "compare_answers = \"yes\"\n" + sideBase, nil, 1, "compare_answers", "must be true or false"},
		{"compare_numbers typo", "compare_numbers = \"values\"\n" + sideBase, nil, 1, "compare_numbers", `did you mean "value"?`},
		{"compare_numbers other", "compare_numbers = \"loose\"\n" + sideBase, nil, 1, "compare_numbers", `use "exact"`},
		{"compare_keep zero", "compare_keep = 0\n" + sideBase, nil, 1, "compare_keep", "use a value from 1 to 100"},
		{"compare_ignore not a list", "compare_ignore = \"result\"\n" + sideBase, nil, 1, "compare_ignore", "must be a list of paths"},
		{"compare_ignore not strings", "compare_ignore = [1]\n" + sideBase, nil, 1, "compare_ignore[1]", "must be a path in quotes"},
		// Paths in the comparer's own syntax, each at its line: keys joined by dots.
		{"compare_ignore empty path", "compare_ignore = [\"result.a\",\n  \"\"]\n" + sideBase, nil, 2, "compare_ignore[2]", "the ignore path is empty: write keys joined by dots"},
		{"compare_ignore brackets", strings.Replace(sideBase, "method = \"m\"\n", "method = \"m\"\ncompare_ignore = [\"result[0].hash\"]\n", 1), nil, 10, "request[1].compare_ignore[1]",
			`ignore path "result[0].hash" has brackets: write an array index as a key, e.g. "result.transactions.0.hash"`},
		{"compare_ignore empty key", strings.Replace(sideBase, "method = \"m\"\n", "method = \"m\"\ncompare_ignore = [\"result..hash\"]\n", 1), nil, 10, "request[1].compare_ignore[1]", "has an empty key"},
		// More paths than the comparer follows: the profile's alone at its line, once; a
		// request's own with the profile's at the request's.
		{"compare_ignore too many", "compare_ignore = [" + manyPaths(65) + "]\n" + sideBase, nil, 1, "compare_ignore", `request "m" names 65 ignore paths: at most 64`},
		{"request compare_ignore too many", "compare_ignore = [" + manyPaths(60) + "]\n" + strings.Replace(sideBase, "method = \"m\"\n", "method = \"m\"\ncompare_ignore = ["+"\"result.x\", \"result.y\", \"result.z\", \"result.v\", \"result.w\"]\n", 1),
			nil, 11, "request[1].compare_ignore", `request "m" names 65 ignore paths: at most 64`},
	})
}

// TestCheckTargetName: the one rule for names, of [[target]] and --url NAME=URL.
func TestCheckTargetName(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
	}{
		{"geth", true},               // letters
		{"node-2_b", true},           // digits, - and _
		{"ABCDEFGHIJKLMNOP", true},   // 16: the most
		{"ABCDEFGHIJKLMNOPQ", false}, // 17
		{"", false},                  // empty
		{"a b", false},               // a space: no bare TOML key, no column head
		{"a.b", false},               // a dot would split [thresholds.target.a.b]
		{"a=b", false},               // = would split --url a=b=URL
		{"géth", false},              // not ASCII: cells and bytes differ
		{"a\x1b[2J", false},          // control characters never reach a terminal
	}
	for _, tt := range tests {
		if err := CheckTargetName(tt.name); (err == nil) != tt.ok {
			t.Errorf("CheckTargetName(%q) = %v, want ok %v", tt.name, err, tt.ok)
		}
	}
}

// TestDescribeSideBySide: validate names each target with its URL as shown, its connections,
// its own headers (secrets hidden) and TLS, says how answers are compared and what each
// request's comparison leaves out, within 80 columns; without compare_answers it says how
// to turn the comparison on.
func TestDescribeSideBySide(t *testing.T) {
	env := map[string]string{"KEY": "k1", "TOKEN": "t0k"}
	long := strings.Replace(sideProfile, `"reth_2"`, `"reth-sixteen-abc"`, 1)
	tests := []struct {
		name, src string
		want      []string
	}{
		{"compared", sideProfile, []string{
			"targets       2 side by side: every request goes to each at the same intended",
			"  geth        POST http://127.0.0.1:8545, 8 connections",
			"  reth_2      POST https://reth.example/v1/${KEY}, 32 connections",
			"              header Authorization: <redacted>",
			"              header X-Zeta: z",
			"mode          open: sends on the plan's schedule whatever the answers do, up to",
			"              8 connections per target",
			`compare       answers compared as JSON (key order, whitespace and the id`,
			`              ignored); numbers by value (the hex string "0x1b4" equals the`,
			"              number 436); the first 3 mismatches of each request kept",
			"              TLS verified (its own insecure = false)",
			"    compare ignores result.timestamp",
			"    compare ignores result.timestamp, result.hash, result.transactions.*.hash",
		}},
		// A name of 16 characters widens the key column, and the values still fit.
		{"long name", long, []string{"  reth-sixteen-abc  POST https://reth.example/v1/${KEY}, 32 connections"}},
		{"not compared", strings.Replace(sideProfile, "compare_answers = true", "compare_answers = false", 1), []string{
			"compare       answers not compared: compare_answers = true or --equality",
			"              compares them",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := described(mustLoadIn(t, tt.src, "testdata", env))
			checkLines(t, out, tt.want)
			for _, l := range strings.Split(out, "\n") {
				if ansi.StringWidth(l) > 80 {
					t.Errorf("%q is wider than 80 columns", l)
				}
			}
			if strings.Contains(out, "t0k") || strings.Contains(out, "k1") {
				t.Errorf("a secret shows:\n%s", out)
			}
		})
	}
}

// manyPaths is n distinct ignore paths as TOML list items.
func manyPaths(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q", fmt.Sprintf("result.a%d", i))
	}
	return b.String()
}
