package profiles

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/rpcstress/rpcstress/engine"
)

// TestURLFlags: the values of --url read as one URL or as NAME=URL targets, and every wrong
// mix or value is refused with the flag, what is wrong and the fix.
func TestURLFlags(t *testing.T) {
	tests := []struct {
		in      []string
		url     string
		targets []TargetURL
		err     string // the whole message; "" for none
	}{
		// None: the profile decides.
		{nil, "", nil, ""},
		// One URL, today's meaning, its own = in the query included.
		{[]string{"http://h:1/?key=a=b"}, "http://h:1/?key=a=b", nil, ""},
		// Targets side by side, in the order given.
		{[]string{"geth=http://a:1", "reth=https://b/v1?k=s"}, "", []TargetURL{{"geth", "http://a:1"}, {"reth", "https://b/v1?k=s"}}, ""},
		// Four, the most.
		{[]string{"a=http://a", "b=http://b", "c=http://c", "d=http://d"}, "", []TargetURL{{"a", "http://a"}, {"b", "http://b"}, {"c", "http://c"}, {"d", "http://d"}}, ""},
		// A URL without its scheme, as before.
		{[]string{"10.0.0.5:8899"}, "", nil, `--url "10.0.0.5:8899": write the scheme too, e.g. http://10.0.0.5:8899`},
		// Two plain URLs: which one?
		{[]string{"http://a", "http://b"}, "", nil, "--url is given 2 times: give one --url URL for one target, or name each to send side by side: --url a=URL --url b=URL"},
		// The two forms mixed; the query's secret is not shown.
		{[]string{"http://a/?key=SECRET", "b=http://b"}, "", nil, "--url http://a/ and --url b=http://b: name every target to send side by side (--url a=URL --url b=URL), or give one --url URL"},
		// One named target is no side by side.
		{[]string{"geth=http://a"}, "", nil, "--url geth=http://a: one named target: side by side needs 2 to 4 (--url geth=http://a --url b=URL); for one target, give --url URL without a name"},
		// Five are too many.
		{[]string{"a=http://a", "b=http://b", "c=http://c", "d=http://d", "e=http://e"}, "", nil, "--url: 5 named targets: at most 4 go side by side (the dashboard has a column for each, and answers are compared pair by pair): run the others in a second run"},
		// A name given twice.
		{[]string{"a=http://a", "a=http://b"}, "", nil, "--url a=http://b: the name a is given twice: give each target its own name"},
		// An empty name, a name with a space.
		{[]string{"=http://a", "b=http://b"}, "", nil, "--url =http://a: the name is empty: a target's name is 1 to 16 letters, digits, - and _ (e.g. geth-a): it heads the target's column and names it in [thresholds.target.NAME]"},
		{[]string{"my node=http://a", "b=http://b"}, "", nil, `--url my node=http://a: the name "my node" holds ' ': a target's name is 1 to 16 letters, digits, - and _ (e.g. geth-a): it heads the target's column and names it in [thresholds.target.NAME]`},
		// A target's URL without its scheme, or of another scheme; userinfo never shown.
		{[]string{"a=10.0.0.5:8545", "b=http://b"}, "", nil, "--url a=10.0.0.5:8545: write the scheme too, e.g. a=http://10.0.0.5:8545"},
		{[]string{"a=ftp://u:pw@h", "b=http://b"}, "", nil, `--url a=ftp://h: scheme "ftp" is not supported: use http://, https://, ws:// or wss://`},
		{[]string{"a=", "b=http://b"}, "", nil, `--url a=: is empty: write it as "http://127.0.0.1:8899"`},
		// Two problems at once: both said.
		{[]string{"a=http://a", "a=x"}, "", nil, "--url a=x: the name a is given twice: give each target its own name\n--url a=x: write the scheme too, e.g. a=http://x"},
	}
	for _, tt := range tests {
		url, targets, err := URLFlags(tt.in)
		if got := errText(err); got != tt.err || url != tt.url || !reflect.DeepEqual(targets, tt.targets) {
			t.Errorf("URLFlags(%q) = %q, %v, %q\nwant %q, %v, %q", tt.in, url, targets, got, tt.url, tt.targets, tt.err)
		}
	}
}

// errText is err's message, "" for nil.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// oneURL is a profile of one url, with a header of its own.
const oneURL = "url = \"http://one\"\n[headers]\nX-A = \"1\"\n[[request]]\nmethod = \"m\"\n[[stage]]\nrate = 1\nduration = \"1s\"\n"

// TestApplySideBySide: --url NAME=URL and --equality over a profile of one url and over one
// of targets; the targets the engine gets, and what the run records as overridden.
func TestApplySideBySide(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		o       Overrides
		targets []engine.Target
		compare bool
		done    []string
	}{
		// A profile of one url made side by side; its headers stay the run's (Config.Headers).
		{"url profile", oneURL, Overrides{Targets: []TargetURL{{"a", "http://a/?k=s"}, {"b", "http://b"}}, Equality: true},
			[]engine.Target{{Name: "a", URL: "http://a/?k=s", DisplayURL: "http://a/"}, {Name: "b", URL: "http://b", DisplayURL: "http://b"}},
			true, []string{"--url a=http://a/", "--url b=http://b", "--equality"}},
		// A profile's targets: a name it has keeps its connections and headers under the new
		// URL; a new name starts bare; the profile's other targets are not run.
		{"targets profile", sideBase + "[[target]]\nname = \"c\"\nurl = \"http://c\"\nconnections = 3\n[target.headers]\nX-C = \"c\"\n",
			Overrides{Targets: []TargetURL{{"c", "http://new-c"}, {"d", "http://d"}}},
			[]engine.Target{{Name: "c", URL: "http://new-c", DisplayURL: "http://new-c", Connections: 3, Headers: []engine.Header{{Name: "X-C", Value: "c"}}},
				{Name: "d", URL: "http://d", DisplayURL: "http://d"}},
			false, []string{"--url c=http://new-c", "--url d=http://d"}},
		// --connections is every target's: their own counts give way.
		{"connections", sideBase + "[[target]]\nname = \"c\"\nurl = \"http://c\"\nconnections = 3\n", Overrides{Connections: 9},
			[]engine.Target{{Name: "a", URL: "http://127.0.0.1:1", DisplayURL: "http://127.0.0.1:1"}, {Name: "b", URL: "http://127.0.0.1:2", DisplayURL: "http://127.0.0.1:2"},
				{Name: "c", URL: "http://c", DisplayURL: "http://c"}},
			false, []string{"--connections 9"}},
		// --equality over the profile's own targets.
		{"equality", sideBase, Overrides{Equality: true},
			[]engine.Target{{Name: "a", URL: "http://127.0.0.1:1", DisplayURL: "http://127.0.0.1:1"}, {Name: "b", URL: "http://127.0.0.1:2", DisplayURL: "http://127.0.0.1:2"}},
			true, []string{"--equality"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustLoad(t, tt.src)
			if err := p.Apply(tt.o); err != nil {
				t.Fatal(err)
			}
			c := p.Config
			if !reflect.DeepEqual(c.Targets, tt.targets) || c.CompareAnswers != tt.compare || !reflect.DeepEqual(p.Overridden, tt.done) {
				t.Errorf("targets %+v compare %v done %q\nwant %+v %v %q", c.Targets, c.CompareAnswers, p.Overridden, tt.targets, tt.compare, tt.done)
			}
			if c.URL != tt.targets[0].URL || !reflect.DeepEqual(c.Answers.Targets, targetNamesOf(tt.targets)) {
				t.Errorf("URL %q answers' targets %q", c.URL, c.Answers.Targets)
			}
			// Applying nothing gives the profile's own again.
			if err := p.Apply(Overrides{}); err != nil || !reflect.DeepEqual(p.Config.Targets, p.base.Targets) {
				t.Errorf("Apply(nothing) = %v, targets %+v", err, p.Config.Targets)
			}
		})
	}
}

func targetNamesOf(ts []engine.Target) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Name)
	}
	return out
}

// TestApplySideBySideErrors: the command line and the profile that do not go together, each
// said with the flag, the profile's line when a key of it is the other half, and the fix.
func TestApplySideBySideErrors(t *testing.T) {
	two := []TargetURL{{"a", "http://a"}, {"b", "http://b"}}
	tests := []struct {
		name, src string
		o         Overrides
		want      string
	}{
		// One --url for a profile of targets: which one?
		{"plain url, targets profile", sideBase, Overrides{URL: "http://x/?k=SECRET"},
			"--url http://x/: the profile sends to 2 targets side by side (a, b): give each its URL with --url NAME=URL (--url a=http://x/ …), or use a profile with one url"},
		// Targets and closed mode: the profile's line of mode.
		{"closed", "mode = \"closed\"\n" + oneURL, Overrides{Targets: two},
			`--url NAME=URL: side by side sends every request to every target at the same intended time, on one schedule, and t.toml:1: mode = "closed": use mode = "open" (the default) with a rate`},
		// A comparison of one target.
		{"equality alone", oneURL, Overrides{Equality: true},
			"--equality compares the answers of several targets, and the run has one: give 2 to 4 with --url NAME=URL (--url a=URL --url b=URL), or [[target]] tables in the profile"},
		// Bad targets reaching Apply without URLFlags are refused as well.
		{"bad targets", oneURL, Overrides{Targets: []TargetURL{{"a b", "http://a"}, {"c", "http://c"}}}, `--url a b=http://a: the name "a b" holds ' '`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := applyRefused(t, mustLoad(t, tt.src), tt.o); !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("err = %v\nwant %q", err, tt.want)
			}
		})
	}
}

// TestSideBySideRedaction: no secret of a target, from the profile or from --url NAME=URL,
// shows in validate's output, the snapshot's profile or the overrides it records; the
// engine still gets every value.
func TestSideBySideRedaction(t *testing.T) {
	src := strings.Replace(sideProfile, "X-Team = \"t\"", "X-Team = \"TEAMSECRET\"\nX-Api-Key = \"APIKEYSECRET\"", 1)
	src = strings.Replace(src, "https://u:p@", "https://alice:hunter2@", 1)
	src = strings.Replace(src, "?token=q", "?token=QUERYSECRET", 1)
	p := mustLoadIn(t, src, "testdata", map[string]string{"KEY": "PATHSECRET", "TOKEN": "AUTHSECRET"})
	secrets := []string{"PATHSECRET", "AUTHSECRET", "TEAMSECRET", "APIKEYSECRET", "hunter2", "alice", "QUERYSECRET"}
	check := func(when string) {
		js, err := json.Marshal(p.Redacted())
		if err != nil {
			t.Fatal(err)
		}
		checkHidden(t, secrets, map[string]string{when + ": Describe": described(p), when + ": Redacted": string(js),
			when + ": Overridden": strings.Join(p.Overridden, " ")})
		var r Resolved
		if err := json.Unmarshal(js, &r); err != nil {
			t.Fatal(err)
		}
		if h := r.Targets[1].Headers[1]; h != (engine.Header{Name: "Authorization", Value: redactedValue, Secret: true}) {
			t.Errorf("%s: the target's secret header reads %+v", when, h)
		}
	}
	check("as loaded")
	tg := p.Config.Targets[1]
	if !strings.Contains(tg.URL, "hunter2") || !strings.Contains(tg.URL, "PATHSECRET") || tg.Headers[1].Value != "Bearer AUTHSECRET" {
		t.Errorf("the engine lost a secret: %+v", tg)
	}
	// The same target by name from the command line, its URL full of secrets: its headers stay.
	if err := p.Apply(Overrides{Targets: []TargetURL{{"geth", "http://x"}, {"reth_2", "https://alice:hunter2@h/?token=QUERYSECRET"}}}); err != nil {
		t.Fatal(err)
	}
	check("with --url NAME=URL")
}
