package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/rpcstress/rpcstress/examples/mocknode"
	"github.com/rpcstress/rpcstress/profiles"
)

// sideTargets are two [[target]] tables; sideRequest a request and a one-second plan.
const (
	sideTargets = "[[target]]\nname = \"geth\"\nurl = \"http://127.0.0.1:8545\"\n" +
		"[[target]]\nname = \"reth\"\nurl = \"http://127.0.0.1:8546\"\n"
	sideRequest = "[[request]]\nmethod = \"eth_chainId\"\n[[stage]]\nrate = \"10/s\"\nduration = \"1s\"\n"
)

// TestE2ESideBySideBadInput: each way of asking for targets side by side wrongly, in a
// profile or on the command line, exits 2 before anything is sent, with the whole message the
// README's bad-input table shows (file:line for a profile's).
func TestE2ESideBySideBadInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := func(name, text string) string { return writeFile(t, dir, name, "name = \"s\"\n"+text) }
	one := file("one.toml", "url = \"http://127.0.0.1:8545\"\n"+sideRequest)
	side := file("side.toml", sideTargets+sideRequest)
	closed := file("closed.toml", "url = \"http://127.0.0.1:8545\"\nmode = \"closed\"\n"+sideRequest)
	two := []string{"--url", "geth=http://127.0.0.1:8545", "--url", "reth=http://127.0.0.1:8546"}
	tests := []struct {
		args []string
		want string
	}{
		// A profile's url and targets.
		{[]string{file("url-and-targets.toml", "url = \"http://127.0.0.1:8545\"\n"+sideTargets+sideRequest)},
			dir + "/url-and-targets.toml:2: url: and [[target]] tables are both set: with targets, each [[target]] has its own url: remove this url, or move it into a [[target]] table with a name"},
		// One target.
		{[]string{file("one-target.toml", sideTargets[:strings.Index(sideTargets[1:], "[[")+1]+sideRequest)},
			dir + "/one-target.toml:2: target: one [[target]]: side by side needs 2 to 4: add another [[target]] table, or write url = \"…\" at the top for a run of one target"},
		// A name with a space.
		{[]string{file("target-name.toml", strings.Replace(sideTargets, `"geth"`, `"geth node"`, 1)+sideRequest)},
			dir + `/target-name.toml:3: target[1].name: "geth node" holds ' ': a target's name is 1 to 16 letters, digits, - and _ (e.g. geth-a): it heads the target's column and names it in [thresholds.target.NAME]`},
		// A name twice.
		{[]string{file("target-twice.toml", strings.Replace(sideTargets, `"reth"`, `"geth"`, 1)+sideRequest)},
			dir + `/target-twice.toml:6: target[2].name: "geth" is already the name of target[1]: give each target its own name`},
		// Closed loop.
		{[]string{file("closed-targets.toml", "mode = \"closed\"\n"+sideTargets+sideRequest)},
			dir + `/closed-targets.toml:2: mode: "closed" with [[target]] tables: side by side sends every request to every target at the same intended time, on one schedule: use mode = "open" (the default) with a rate`},
		// Comparing one target's answers.
		{[]string{file("compare-one.toml", "url = \"http://127.0.0.1:8545\"\ncompare_answers = true\n"+sideRequest)},
			dir + "/compare-one.toml:3: compare_answers: compares the answers of several targets, and the profile has one (url): replace url with 2 to 4 [[target]] tables (name, url), or remove compare_answers and give the targets on the command line: --url a=URL --url b=URL --equality"},
		// A key of the top below a [[target]].
		{[]string{file("compare-below-target.toml", sideTargets+"compare_answers = true\n"+sideRequest)},
			dir + "/compare-below-target.toml:8: target[2].compare_answers: is a key of the profile's top, and TOML puts every key below [[target]] into that target: move it above the first [[target]] table"},
		// An ignore path in another syntax than the comparer's.
		{[]string{file("ignore-path.toml", "compare_answers = true\n"+sideTargets+"[[request]]\nmethod = \"eth_getBlockByNumber\"\nparams = [\"0x1\", false]\ncompare_ignore = [\"result[0].hash\"]\n[[stage]]\nrate = 1\n")},
			dir + `/ignore-path.toml:12: request[1].compare_ignore[1]: ignore path "result[0].hash" has brackets: write an array index as a key, e.g. "result.transactions.0.hash"`},
		// The command line's forms mixed, one named target, a name twice, an empty name, a
		// URL without its scheme, five targets, two plain URLs.
		{[]string{one, "--url", "http://127.0.0.1:8545", "--url", "reth=http://127.0.0.1:8546"},
			"--url http://127.0.0.1:8545 and --url reth=http://127.0.0.1:8546: name every target to send side by side (--url a=URL --url b=URL), or give one --url URL"},
		{[]string{one, "--url", "geth=http://127.0.0.1:8545"},
			"--url geth=http://127.0.0.1:8545: one named target: side by side needs 2 to 4 (--url geth=http://127.0.0.1:8545 --url b=URL); for one target, give --url URL without a name"},
		{[]string{one, "--url", "geth=http://127.0.0.1:8545", "--url", "geth=http://127.0.0.1:8546"},
			"--url geth=http://127.0.0.1:8546: the name geth is given twice: give each target its own name"},
		{[]string{one, "--url", "=http://127.0.0.1:8545", "--url", "reth=http://127.0.0.1:8546"},
			"--url =http://127.0.0.1:8545: the name is empty: a target's name is 1 to 16 letters, digits, - and _ (e.g. geth-a): it heads the target's column and names it in [thresholds.target.NAME]"},
		{[]string{one, "--url", "geth=127.0.0.1:8545", "--url", "reth=http://127.0.0.1:8546"},
			"--url geth=127.0.0.1:8545: write the scheme too, e.g. geth=http://127.0.0.1:8545"},
		{[]string{one, "--url", "a=http://1", "--url", "b=http://2", "--url", "c=http://3", "--url", "d=http://4", "--url", "e=http://5"},
			"--url: 5 named targets: at most 4 go side by side (the dashboard has a column for each, and answers are compared pair by pair): run the others in a second run"},
		{[]string{one, "--url", "http://127.0.0.1:8545", "--url", "http://127.0.0.1:8546"},
			"--url is given 2 times: give one --url URL for one target, or name each to send side by side: --url a=URL --url b=URL"},
		// --equality with one target.
		{[]string{one, "--equality"},
			"--equality compares the answers of several targets, and the run has one: give 2 to 4 with --url NAME=URL (--url a=URL --url b=URL), or [[target]] tables in the profile"},
		// Targets from the command line for a closed-loop profile: the flag and the line.
		{append([]string{closed}, two...),
			`--url NAME=URL: side by side sends every request to every target at the same intended time, on one schedule, and ` + closed + `:3: mode = "closed": use mode = "open" (the default) with a rate`},
		// One URL for a profile of targets.
		{[]string{side, "--url", "http://127.0.0.1:8545"},
			"--url http://127.0.0.1:8545: the profile sends to 2 targets side by side (geth, reth): give each its URL with --url NAME=URL (--url geth=http://127.0.0.1:8545 …), or use a profile with one url"},
		// find-limit searches one node.
		{[]string{"find-limit", side},
			side + ": find-limit searches one node's limit, and the profile sends to 2 targets side by side: search each node with a profile of one url"},
		{append([]string{"find-limit", one}, two...),
			"find-limit searches one node's limit, and --url NAME=URL names 2: give one --url URL (search each node in a run of its own)"},
		// A target file goes to one node.
		{append([]string{"--targets", filepath.Join(dir, "t.txt"), "--rate", "1/s", "--duration", "1s"}, two...),
			"--targets " + filepath.Join(dir, "t.txt") + " sends to one node, and --url NAME=URL names 2: to send side by side, write the requests as [[request]] tables of a profile and give it the --url NAME=URL flags"},
		{[]string{"--targets", filepath.Join(dir, "t.txt"), "--rate", "1/s", "--duration", "1s", "--equality"},
			"--targets " + filepath.Join(dir, "t.txt") + " sends to one node, so --equality has no answers to compare: side by side needs a profile with [[request]] tables and --url NAME=URL for each target"},
	}
	for _, tt := range tests {
		r := runCLI(t, nil, tt.args...)
		if want := "rpcstress: " + tt.want + "\n"; r.code != exitUsage || r.stderr != want || r.snap != nil {
			t.Errorf("%q: exit %d, stderr\n%q\nwant exit 2 and\n%q", tt.args, r.code, r.stderr, want)
		}
	}
}

// TestE2ESideBySideValidate: `rpcstress validate` of the bundled side-by-side profile and of
// one whose second target carries secrets: the targets and the comparison are shown within
// 80 columns, no secret is.
func TestE2ESideBySideValidate(t *testing.T) {
	t.Parallel()
	r := runVerb(t, "validate", "profiles/side-by-side.toml")
	if r.code != exitOK {
		t.Fatalf("validate the bundled side-by-side.toml: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	secret := writeFile(t, t.TempDir(), "s.toml", "name = \"s\"\ncompare_answers = true\n"+
		strings.Replace(sideTargets, "http://127.0.0.1:8546", "http://alice:hunter2@127.0.0.1:8546/?key=QUERYSECRET", 1)+
		"[target.headers]\nX-Api-Key = \"APIKEYSECRET\"\n"+sideRequest)
	s := runVerb(t, "validate", secret)
	for _, w := range []string{"  geth        POST http://127.0.0.1:8545, 64 connections\n",
		"  reth        POST http://127.0.0.1:8546/, 64 connections\n", "header X-Api-Key: <redacted>\n", "compare       answers compared as JSON"} {
		if !strings.Contains(r.stdout+s.stdout, w) {
			t.Errorf("validate lacks %q:\n%s\n%s", w, r.stdout, s.stdout)
		}
	}
	for _, leak := range []string{"hunter2", "alice", "QUERYSECRET", "APIKEYSECRET"} {
		if strings.Contains(s.stdout+s.stderr, leak) {
			t.Errorf("validate shows %q:\n%s", leak, s.stdout)
		}
	}
	for _, l := range strings.Split(r.stdout+s.stdout, "\n") {
		if ansi.StringWidth(l) > 80 {
			t.Errorf("%q is wider than 80 columns", l)
		}
	}
}

// TestE2ESideBySideSecretsNeverShown: a run of two mock nodes whose second target carries
// secrets in its URL (userinfo, a ${VAR} in the path, the query) and its own headers (by
// ${VAR}, by name): each node answered every request (the secrets were sent), and no output,
// snapshot or report shows one. A second run names the same targets with --url NAME=URL and
// keeps the second's headers.
func TestE2ESideBySideSecretsNeverShown(t *testing.T) {
	t.Parallel()
	a, urlA := startNode(t, mocknode.Config{})
	b, urlB := startNode(t, mocknode.Config{})
	const token, pathKey, queryKey, apiKey, user = "tok-SECRET-5678", "pathSECRETkey42", "querySECRETkey31", "apiSECRETkey77", "aliceSECRETuser"
	hostB := strings.TrimPrefix(urlB, "http://")
	p := writeFile(t, t.TempDir(), "s.toml", "name = \"side\"\n"+
		"[[target]]\nname = \"a\"\nurl = \""+urlA+"\"\n"+
		"[[target]]\nname = \"b\"\nurl = \"http://"+user+":pw@"+hostB+"v3/${PATH_KEY}?apikey=${QUERY_KEY}\"\n"+
		"[target.headers]\nAuthorization = \"Bearer ${TOKEN}\"\nX-Api-Key = \""+apiKey+"\"\n"+getBalance+stage("50/s", "1s"))
	env := map[string]string{"TOKEN": token, "PATH_KEY": pathKey, "QUERY_KEY": queryKey}
	runs := []cliRun{
		cliSetup{env: env}.run(t, p),
		cliSetup{env: env}.run(t, p, "--url", "a="+urlA, "--url", "b=http://"+user+":pw@"+hostB+"?apikey="+queryKey),
	}
	for i, r := range runs {
		mustRun(t, r, exitOK)
		if len(r.snap.Targets) != 2 {
			t.Fatalf("run %d: %d targets in the snapshot, want 2", i+1, len(r.snap.Targets))
		}
		snap, err := os.ReadFile(r.out)
		if err != nil {
			t.Fatal(err)
		}
		outputs := map[string]string{"output": r.stdout + r.stderr, "snapshot": string(snap), "report": runVerb(t, "report", r.out).stdout}
		for name, text := range outputs {
			for _, secret := range []string{token, pathKey, queryKey, apiKey, user} {
				if strings.Contains(text, secret) {
					t.Errorf("run %d: the %s shows the secret %q", i+1, name, secret)
				}
			}
		}
		var prof profiles.Resolved
		if err := json.Unmarshal(r.snap.Profile, &prof); err != nil {
			t.Fatal(err)
		}
		if len(prof.Targets) != 2 || len(prof.Targets[1].Headers) != 2 || prof.Targets[1].Headers[0].Value != "<redacted>" {
			t.Errorf("run %d: the snapshot's profile has the targets %+v", i+1, prof.Targets)
		}
	}
	// The secrets went out: every request reached both nodes.
	for name, n := range map[string]*mocknode.Node{"a": a, "b": b} {
		if got := n.Stats().Requests; got != 100 {
			t.Errorf("node %s answered %d requests, want 50 per run", name, got)
		}
	}
}

// TestE2ESideBySideDemo: --demo with a profile of targets starts a mock node per target, and
// each node's own count equals its target's in the snapshot.
func TestE2ESideBySideDemo(t *testing.T) {
	t.Parallel()
	p := writeFile(t, t.TempDir(), "d.toml", "name = \"d\"\n"+sideTargets+sideRequest)
	r := runCLI(t, nil, p, "--demo")
	mustRun(t, r, exitOK)
	if len(r.snap.Targets) != 2 {
		t.Fatalf("%d targets in the snapshot, want 2", len(r.snap.Targets))
	}
	for _, tr := range r.snap.Targets {
		want := fmt.Sprintf("demo: the mock node %s itself counted %d answers", tr.Name, tr.Totals.Completed)
		if tr.Totals.Completed != 10 || !strings.Contains(r.stdout, want) {
			t.Errorf("target %s completed %d; the output lacks %q:\n%s", tr.Name, tr.Totals.Completed, want, r.stdout)
		}
	}
}
