package profiles

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// loadErr loads src as "t.toml" (body files from testdata/) and returns its problems.
func loadErr(t *testing.T, src string, env map[string]string) *Error {
	t.Helper()
	_, err := LoadBytes("t.toml", []byte(src), "testdata", mapEnv(env))
	if err == nil {
		t.Fatalf("no error for:\n%s", src)
	}
	var pe *Error
	if !errors.As(err, &pe) {
		t.Fatalf("error %T is not *Error: %v", err, err)
	}
	for _, p := range pe.Problems {
		if p.Msg == "" || p.File != "t.toml" || p.Line < 1 {
			t.Errorf("incomplete problem %+v", p)
		}
	}
	return pe
}

// problemCase is a profile with a problem in it, and where the message about it stands and
// what it says.
type problemCase struct {
	name  string
	src   string
	env   map[string]string
	line  int
	field string // "" for syntax errors
	hint  string // part of the fix the message must offer
}

// checkProblems loads each case's profile and checks that one of its problems is at the line
// and field and offers the hint, also as the user reads it (Error).
func checkProblems(t *testing.T, tests []problemCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := loadErr(t, tt.src, tt.env)
			where := fmt.Sprintf("t.toml:%d: ", tt.line)
			if tt.field != "" {
				where += tt.field + ": "
			}
			for _, p := range e.Problems {
				if p.Line == tt.line && p.Field == tt.field && strings.Contains(p.Msg, tt.hint) &&
					strings.HasPrefix(p.Error(), where) && strings.Contains(p.Error(), tt.hint) {
					return
				}
			}
			t.Errorf("no problem starting %q and containing %q in:\n%v", where, tt.hint, e)
		})
	}
}

func TestErrors(t *testing.T) {
	checkProblems(t, []problemCase{
		// A typo'd top-level key suggests the real one.
		{"unknown key", "url = \"http://h\"\nconections = 3\n[[request]]\nmethod = \"a\"\n[[stage]]\nrate = \"1/s\"\nduration = \"1s\"\n",
			nil, 2, "conections", `did you mean "connections"?`},
		// A typo inside the second [[request]] names that request.
		{"unknown key in request", "url = \"http://h\"\n[[request]]\nmethod = \"a\"\n[[request]]\nmethod = \"b\"\nwieght = 3\n[[stage]]\nrate = \"1/s\"\n",
			nil, 6, "request[2].wieght", `did you mean "weight"?`},
		// A key like nothing valid lists the valid keys.
		{"unknown key without suggestion", "url = \"http://h\"\nzzz = 1\n[[request]]\nmethod = \"a\"\n[[stage]]\nrate = \"1/s\"\n",
			nil, 2, "zzz", "remove it, or use one of: name, url"},
		// Case slips are typos too.
		{"unknown key case", "URL = \"http://h\"\n", nil, 1, "URL", `did you mean "url"?`},
		// A typo in [demo].
		{"unknown demo key", "url = \"http://h\"\n[[request]]\nmethod = \"a\"\n[[stage]]\nrate = \"1/s\"\n[demo]\nrat = \"1/s\"\n",
			nil, 7, "demo.rat", `did you mean "rate"?`},
		// A string where a number belongs.
		{"wrong type connections", "url = \"http://h\"\nconnections = \"many\"\n", nil, 2, "connections", "must be a whole number, not a string \"many\": write it as connections = 128"},
		// A boolean where a rate belongs.
		{"wrong type rate", "url = \"http://h\"\n[[request]]\nmethod = \"a\"\n[[stage]]\nrate = true\n", nil, 5, "stage[1].rate", `must be a rate, not a boolean true: write it as "500/s"`},
		// A duration without quotes.
		{"wrong type duration", "url = \"http://h\"\ntimeout = 5\n", nil, 2, "timeout", `must be a duration in quotes, not an integer 5: write it as timeout = "5s"`},
		// A duration without a unit.
		{"bad duration", "url = \"http://h\"\ntimeout = \"5\"\n", nil, 2, "timeout", `is not a duration: write a number with a unit, e.g. timeout = "5s"`},
		// A stage duration that does not parse names the stage.
		{"bad stage duration", "url = \"http://h\"\n[[request]]\nmethod = \"a\"\n[[stage]]\nrate = \"1/s\"\nduration = \"1s\"\n[[stage]]\nrate = \"2/s\"\nduration = \"20 secs\"\n",
			nil, 9, "stage[2].duration", `e.g. duration = "30s"`},
		// The rate example from the brief, word for word.
		{"bad rate unit", "url = \"http://h\"\n[[request]]\nmethod = \"a\"\n[[stage]]\nrate = \"1/s\"\nduration = \"1s\"\n[[stage]]\nrate = \"300/x\"\n",
			nil, 8, "stage[2].rate", `"300/x": unknown unit "x": use /s, /m or /h`},
		// A rate that is not a number.
		{"bad rate number", "url = \"http://h\"\n[[request]]\nmethod = \"a\"\n[[stage]]\nrate = \"fast\"\n", nil, 5, "stage[1].rate", "write it as 500/s, 240/m or a plain number"},
		// Negative rates make no schedule.
		{"negative rate", "url = \"http://h\"\n[[request]]\nmethod = \"a\"\n[[stage]]\nrate = -5\n", nil, 5, "stage[1].rate", "is negative"},
		// Nothing to send at all.
		{"no requests", "url = \"http://h\"\n[[stage]]\nrate = \"1/s\"\n", nil, 1, "request", "add at least one [[request]] table"},
		// Weight zero would never send the request.
		{"weight zero", "url = \"http://h\"\n[[request]]\nmethod = \"a\"\nweight = 0\n[[stage]]\nrate = \"1/s\"\n", nil, 4, "request[1].weight", "must be 1 or more"},
		// Negative weights likewise.
		{"weight negative", "url = \"http://h\"\n[[request]]\nmethod = \"a\"\nweight = -2\n[[stage]]\nrate = \"1/s\"\n", nil, 4, "request[1].weight", "must be 1 or more"},
		// Weights are whole numbers.
		{"weight fraction", "url = \"http://h\"\n[[request]]\nmethod = \"a\"\nweight = 1.5\n[[stage]]\nrate = \"1/s\"\n", nil, 4, "request[1].weight", "must be a whole number"},
		// A body file that is not there.
		{"body_file missing", "url = \"http://h\"\n[[request]]\nbody_file = \"nope.json\"\n[[stage]]\nrate = \"1/s\"\n", nil, 3, "request[1].body_file", `"nope.json" not found`},
		// A request that sends nothing points at its table.
		{"request without body", "url = \"http://h\"\n[[request]]\nweight = 2\n[[stage]]\nrate = \"1/s\"\n", nil, 2, "request[1]", `add method = "getBalance" (JSON-RPC), body = '{…}' or body_file`},
		// Two bodies in one request.
		{"request with method and body", "url = \"http://h\"\n[[request]]\nmethod = \"a\"\nbody = \"{}\"\n[[stage]]\nrate = \"1/s\"\n", nil, 4, "request[1].body", "split it into two [[request]] tables"},
		// body and body_file together.
		{"request with body and body_file", "url = \"http://h\"\n[[request]]\nbody = \"{}\"\nbody_file = \"heavy.json\"\n[[stage]]\nrate = \"1/s\"\n", nil, 4, "request[1].body_file", "sends one of method, body or body_file"},
		// params without a method have nowhere to go.
		{"params with body", "url = \"http://h\"\n[[request]]\nbody = \"{}\"\nparams = [1]\n[[stage]]\nrate = \"1/s\"\n", nil, 4, "request[1].params", "params go with method"},
		// NaN is valid TOML but not JSON.
		{"params not json", "url = \"http://h\"\n[[request]]\nmethod = \"a\"\nparams = [nan]\n[[stage]]\nrate = \"1/s\"\n", nil, 4, "request[1].params", "cannot be written as JSON"},
		// An empty raw body.
		{"empty body", "url = \"http://h\"\n[[request]]\nbody = \" \"\n[[stage]]\nrate = \"1/s\"\n", nil, 3, "request[1].body", "the body is empty"},
		// Two requests may not share an explicit name.
		{"duplicate request names", "url = \"http://h\"\n[[request]]\nname = \"x\"\nmethod = \"a\"\n[[request]]\nname = \"x\"\nmethod = \"b\"\n[[stage]]\nrate = \"1/s\"\n", nil, 6, "request[2].name", "give each request its own name"},
		// A ramp whose end lies below its start never ends.
		{"ramp never reaches", "url = \"http://h\"\n[[request]]\nmethod = \"a\"\n[ramp]\nfrom = \"10/s\"\nto = \"5/s\"\nfactor = 2\nevery = \"1s\"\n", nil, 6, "ramp.to", "never reaches its end: make to larger than from"},
		// Multiplying by 1 never climbs.
		{"ramp factor 1", "url = \"http://h\"\n[[request]]\nmethod = \"a\"\n[ramp]\nfrom = \"1/s\"\nto = \"5/s\"\nfactor = 1\nevery = \"1s\"\n", nil, 7, "ramp.factor", "use a factor above 1"},
		// Adding 0 never climbs.
		{"ramp step 0", "url = \"http://h\"\n[[request]]\nmethod = \"a\"\n[ramp]\nfrom = \"1/s\"\nto = \"5/s\"\nstep = 0\nevery = \"1s\"\n", nil, 7, "ramp.step", "use a positive step"},
		// 0 times anything stays 0.
		{"ramp from 0 factor", "url = \"http://h\"\n[[request]]\nmethod = \"a\"\n[ramp]\nfrom = 0\nto = \"5/s\"\nfactor = 2\nevery = \"1s\"\n", nil, 5, "ramp.from", "start above 0, or climb by step"},
		// Exactly one of factor and step.
		{"ramp factor and step", "url = \"http://h\"\n[[request]]\nmethod = \"a\"\n[ramp]\nfrom = 1\nto = 5\nfactor = 2\nstep = 1\nevery = \"1s\"\n", nil, 8, "ramp.step", "delete one"},
		// Neither factor nor step.
		{"ramp without factor or step", "url = \"http://h\"\n[[request]]\nmethod = \"a\"\n[ramp]\nfrom = 1\nto = 5\nevery = \"1s\"\n", nil, 4, "ramp", "add factor = 2"},
		// A missing key points at the [ramp] table.
		{"ramp without every", "url = \"http://h\"\n[[request]]\nmethod = \"a\"\n[ramp]\nfrom = 1\nto = 5\nfactor = 2\n", nil, 4, "ramp.every", `every = "30s"`},
		// A step so small the ramp would need 10000 stages.
		{"ramp too many stages", "url = \"http://h\"\n[[request]]\nmethod = \"a\"\n[ramp]\nfrom = 1\nto = 10001\nstep = 1\nevery = \"1s\"\n", nil, 4, "ramp", "more than the maximum of 1000"},
		// [ramp] and [[stage]] cannot both be the plan.
		{"ramp and stages", "url = \"http://h\"\n[[request]]\nmethod = \"a\"\n[[stage]]\nrate = 1\n[ramp]\nfrom = 1\nto = 5\nfactor = 2\nevery = \"1s\"\n", nil, 6, "ramp", "not both: delete one of them"},
		// Open mode needs a plan.
		{"no plan", "url = \"http://h\"\n[[request]]\nmethod = \"a\"\n", nil, 1, "stage", `add a [[stage]] with rate = "100/s" and duration = "30s", or a [ramp]`},
		// Only the last stage may be open-ended.
		{"stage without duration", "url = \"http://h\"\n[[request]]\nmethod = \"a\"\n[[stage]]\nrate = 1\n[[stage]]\nrate = 2\n", nil, 4, "stage[1].duration", "only the last stage may run until stopped"},
		// An explicit zero on the last stage.
		{"last stage duration 0", "url = \"http://h\"\n[[request]]\nmethod = \"a\"\n[[stage]]\nrate = 1\nduration = \"0s\"\n", nil, 6, "stage[1].duration", "leave duration out of the last stage"},
		// Open mode stages need a rate.
		{"stage without rate", "url = \"http://h\"\n[[request]]\nmethod = \"a\"\n[[stage]]\nduration = \"1s\"\n", nil, 4, "stage[1].rate", `rate = "300/s"`},
		// [stage] instead of [[stage]].
		{"stage as single table", "url = \"http://h\"\n[[request]]\nmethod = \"a\"\n[stage]\nrate = 1\n", nil, 4, "stage", "[[stage]] (double brackets)"},
		// [[requests]] instead of [[request]].
		{"requests as tables", "url = \"http://h\"\n[[requests]]\nmethod = \"a\"\n", nil, 2, "requests", "written as [[request]] tables"},
		// Modes are open or closed.
		{"unknown mode", "url = \"http://h\"\nmode = \"closd\"\n", nil, 2, "mode", `did you mean "closed"? use "open"`},
		// url is required.
		{"url missing", "[[request]]\nmethod = \"a\"\n", nil, 1, "url", `url = "http://127.0.0.1:8899"`},
		// A URL that does not parse.
		{"url unparsable", "url = \"http://[::1\"\n", nil, 1, "url", "is not a valid URL"},
		// host:port without a scheme.
		{"url without scheme", "url = \"127.0.0.1:8899\"\n", nil, 1, "url", `has no scheme: write it as "http://127.0.0.1:8899"`},
		// Only HTTP and WebSocket.
		{"url scheme", "url = \"ftp://h/x\"\n", nil, 1, "url", "use http://, https://, ws:// or wss://"},
		// A URL without a host.
		{"url without host", "url = \"http:///x\"\n", nil, 1, "url", "has no host"},
		// An unset variable names itself and how to set it.
		{"env unset header", "url = \"http://h\"\n[headers]\nAuthorization = \"Bearer ${RPC_TOKEN}\"\n", nil, 3, "headers.Authorization", "${RPC_TOKEN} is not set: export RPC_TOKEN=…"},
		// Also in the URL.
		{"env unset url", "url = \"https://h/v3/${INFURA_KEY}\"\n", nil, 1, "url", "export INFURA_KEY=…"},
		// ${ without }.
		{"env unterminated", "url = \"http://h\"\n[headers]\nX-Key = \"${KEY\"\n", nil, 3, "headers.X-Key", `has no closing "}"`},
		// connections below 1.
		{"connections zero", "url = \"http://h\"\nconnections = 0\n", nil, 2, "connections", "use a value from 1 to 100000"},
		// connections above the bound.
		{"connections huge", "url = \"http://h\"\nconnections = 1000000\n", nil, 2, "connections", "use a value from 1 to 100000"},
		// A zero timeout would fail every request.
		{"timeout zero", "url = \"http://h\"\ntimeout = \"0s\"\n", nil, 2, "timeout", "must be more than 0"},
		// Negative durations.
		{"timeout negative", "url = \"http://h\"\ntimeout = \"-1s\"\n", nil, 2, "timeout", "is negative"},
		// The JSON-RPC method at the top level.
		{"top-level rpc method", "url = \"http://h\"\nmethod = \"getBalance\"\n", nil, 2, "method", "goes into a [[request]] table"},
		// max_body with a made-up unit.
		{"max_body unit", "url = \"http://h\"\nmax_body = \"4 parsecs\"\n", nil, 2, "max_body", "use B, KiB, MiB, KB or MB"},
		// secret naming a header that is not there.
		{"secret unknown header", "url = \"http://h\"\nsecret = [\"X-Nope\"]\n", nil, 2, "secret", "add it there or remove it from secret"},
		// Statuses are HTTP statuses.
		{"limits status range", "url = \"http://h\"\n[limits]\nstatuses = [42]\n", nil, 3, "limits.statuses", "from 100 to 599"},
		// Header values are strings.
		{"header not string", "url = \"http://h\"\n[headers]\nX-Count = 3\n", nil, 3, "headers.X-Count", `"X-Count" = "value"`},
		// The name ends up in file names.
		{"name with slash", "name = \"a/b\"\nurl = \"http://h\"\n", nil, 1, "name", "snapshot file names"},
		// Syntax: an unquoted string; the parser's line and a fix.
		{"syntax unquoted", "url = \"http://h\"\nconnections = many\n", nil, 2, "", `syntax error: expected value but found "many"`},
		// Syntax: a key twice.
		{"syntax duplicate", "url = \"http://h\"\nurl = \"http://g\"\n", nil, 2, "", "a key may appear once per table"},
		// Syntax: a string broken over lines uses the parser's own help.
		{"syntax newline in string", "url = \"http://h\n\"\n", nil, 1, "", "Strings must always be on a single line"},
	})
}

// TestErrorsAll checks that problems are collected, not stopped at the first, and come in
// file order. Each row is a line of one profile and the field of the problem found on it.
func TestErrorsAll(t *testing.T) {
	lines := []struct{ toml, problem string }{
		{`name = "all"`, ""},
		{`url = "ftp://h"`, "url"},
		{`connections = "many"`, "connections"},
		{`timeout = "soon"`, "timeout"},
		{`[[request]]`, "request[1]"}, // sends nothing
		{`weight = 0`, "request[1].weight"},
		{`[[stage]]`, ""},
		{`rate = "300/x"`, "stage[1].rate"},
		{`duration = "1s"`, ""},
		{`[[stage]]`, ""},
		{`rate = "1/s"`, ""},
		{`duration = "forever"`, "stage[2].duration"},
	}
	var src string
	var want []string
	for i, l := range lines {
		src += l.toml + "\n"
		if l.problem != "" {
			want = append(want, fmt.Sprintf("t.toml:%d: %s:", i+1, l.problem))
		}
	}
	e := loadErr(t, src, nil)
	if len(e.Problems) != len(want) {
		t.Fatalf("got %d problems, want %d:\n%v", len(e.Problems), len(want), e)
	}
	for i, p := range e.Problems {
		if !strings.HasPrefix(p.Error(), want[i]) {
			t.Errorf("problem %d = %q, want prefix %q", i, p.Error(), want[i])
		}
	}
	if n := strings.Count(e.Error(), "\n"); n != len(want)-1 {
		t.Errorf("Error() has %d lines, want one per problem", n+1)
	}
}

// TestErrorsKeepCauses checks that causes stay reachable through %w-style unwrapping.
func TestErrorsKeepCauses(t *testing.T) {
	e := loadErr(t, "url = \"http://h\"\n[[request]]\nbody_file = \"nope.json\"\n[[stage]]\nrate = 1\n", nil)
	var p *Problem
	if !errors.As(e, &p) || p.Err == nil {
		t.Fatalf("no cause in %v", e)
	}
}

// TestLoadMissingFile checks the message for a profile path that does not exist.
func TestLoadMissingFile(t *testing.T) {
	_, err := Load("testdata/none.toml", nil)
	if err == nil || !strings.Contains(err.Error(), "testdata/none.toml") || !strings.Contains(err.Error(), "check the path") {
		t.Fatalf("err = %v", err)
	}
}

// TestLoadBundledUnknown lists the bundled profiles when the name is wrong.
func TestLoadBundledUnknown(t *testing.T) {
	_, err := LoadBundled("nope.toml", nil)
	if err == nil || !strings.Contains(err.Error(), "getBalance.toml") {
		t.Fatalf("err = %v", err)
	}
}

// TestTemplateErrorsAllAtOnce: several bad templates in one request's params are all reported,
// each at its own field, not just the first.
func TestTemplateErrorsAllAtOnce(t *testing.T) {
	src := `url = "http://127.0.0.1:8899"
[[request]]
method = "getBlocks"
params = ["{{randInt 9 1}}", "{{nope}}", {commitment = "{{pick}}"}]
[[stage]]
rate = "10/s"
duration = "1s"
`
	pe := loadErr(t, src, nil)
	want := []string{"params[1]", "params[2]", "commitment"}
	if len(pe.Problems) != len(want) {
		t.Fatalf("%d problems, want %d: %v", len(pe.Problems), len(want), pe)
	}
	for i, w := range want {
		if p := pe.Problems[i]; !strings.Contains(p.Field, w) || p.Line != 4 {
			t.Errorf("problem %d: %+v, want field %s at line 4", i, p, w)
		}
	}
}

// TestParamsElementLines: a mistake inside a multi-line params = [...] (or a batch list, or
// an inline table spread over lines) is reported at the line of the element, at any depth,
// not at the line of the key holding the array.
func TestParamsElementLines(t *testing.T) {
	src := `url = "http://127.0.0.1:8899"
[[request]]
method = "getBlocks"
params = [
  "{{randInt 1 2}}",
  # a comment, and a string holding brackets: "[{"
  "[{ {{randInt 9 1}}",
  {commitment = "finalized", filter = "{{pick}}"},
  [1, 2,
   "{{seq x}}"],
  {nested = {deep = ["ok", """
two lines""", "{{nope}}"]}},
]

[[request]]
batch = [
  {method = "getSlot"},
  {method = "getBalance", params = [
    "{{randHex 0}}"]},
]
[[stage]]
rate = "10/s"
duration = "1s"
`
	pe := loadErr(t, src, nil)
	want := []struct {
		field string
		line  int
	}{
		{"request[1].params[2]", 7},                 // a string element, after a comment
		{"request[1].params[3].filter", 8},          // a key of an inline table
		{"request[1].params[4][3]", 10},             // an element of an array in an array, on its own line
		{"request[1].params[5].nested.deep[3]", 12}, // after a multi-line string
		{"request[2].batch[2].params[1]", 19},       // in a batch list's call
	}
	if len(pe.Problems) != len(want) {
		t.Fatalf("%d problems, want %d:\n%v", len(pe.Problems), len(want), pe)
	}
	for i, w := range want {
		if p := pe.Problems[i]; p.Field != w.field || p.Line != w.line {
			t.Errorf("problem %d: %s at line %d, want %s at line %d", i, p.Field, p.Line, w.field, w.line)
		}
	}
}
