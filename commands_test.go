package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/rpcstress/rpcstress/internal/cliflag"
)

// checkWidth fails for every line wider than 80 terminal cells.
func checkWidth(t *testing.T, what, text string) {
	t.Helper()
	for _, l := range strings.Split(text, "\n") {
		if w := ansi.StringWidth(l); w > 80 {
			t.Errorf("%s: a line of %d cells: %q", what, w, l)
		}
	}
}

// TestMistakesSayWhatWasMeant: a mistyped verb or flag gets a "did you mean", a flag error is
// one line and a pointer to the help (no page of usage), a duration without a unit says so.
func TestMistakesSayWhatWasMeant(t *testing.T) {
	tests := []struct {
		args []string
		want string // the whole of stderr
	}{
		// a verb one letter off
		{[]string{"valdate", "x.toml"}, "rpcstress: unknown command \"valdate\": did you mean \"validate\"?\nrpcstress --help for the commands\n"},
		// two letters swapped
		{[]string{"completoin", "bash"}, "rpcstress: unknown command \"completoin\": did you mean \"completion\"?\nrpcstress --help for the commands\n"},
		// nothing like a verb, and no such file
		{[]string{"zzz"}, "rpcstress: \"zzz\" is neither a command nor a profile file (a .toml file)\nrpcstress --help for the commands\n"},
		// a run flag one letter off
		{[]string{"--rat", "100/s", "x.toml"}, "rpcstress: unknown flag --rat: did you mean --rate?\nrpcstress --help for the flags\n"},
		// a duration without its unit
		{[]string{"x.toml", "--duration", "5"}, "rpcstress: --duration 5: needs a unit: 5s, 5m (units: ms, s, m, h)\nrpcstress --help for the flags\n"},
		// a verb's flag, pointing at the verb's help
		{[]string{"report", "x.json", "--formt", "html"}, "rpcstress: unknown flag --formt: did you mean --format?\nrpcstress report --help for the flags\n"},
		// find-limit's own durations
		{[]string{"find-limit", "--demo", "--probe", "10"}, "rpcstress: --probe 10: needs a unit: 10s, 10m (units: ms, s, m, h)\nrpcstress find-limit --help for the flags\n"},
		// a flag on a verb that has none
		{[]string{"compare", "--rate", "5/s", "a.json"}, "rpcstress: unknown flag --rate\nrpcstress compare --help for the flags\n"},
		// help for a verb that does not exist
		{[]string{"help", "reprot"}, "rpcstress: unknown command \"reprot\": did you mean \"report\"?\n"},
		// a shell nobody supports yet
		{[]string{"completion", "tcsh"}, "rpcstress: completion tcsh: use bash, zsh or fish\n"},
	}
	for _, tt := range tests {
		r := runVerb(t, tt.args...)
		if r.code != exitUsage || r.stderr != tt.want {
			t.Errorf("%q: exit %d, stderr\n%s\nwant exit 2 and\n%s", tt.args, r.code, r.stderr, tt.want)
		}
		checkWidth(t, strings.Join(tt.args, " "), r.stderr)
	}
}

// TestHelpEverywhere: -h and --help work for every verb (not taken for a file name): usage,
// examples and flags on standard output, exit 0, within 80 columns.
func TestHelpEverywhere(t *testing.T) {
	for _, cmd := range commands() {
		for _, h := range []string{"-h", "--help"} {
			args := []string{h}
			if cmd.name != "" {
				args = []string{cmd.name, h}
			}
			r := runVerb(t, args...)
			if r.code != exitOK || r.stderr != "" {
				t.Errorf("%q: exit %d, stderr %q", args, r.code, r.stderr)
				continue
			}
			if !strings.Contains(r.stdout, "usage: "+usageLine(cmd)) && !strings.Contains(r.stdout, "  "+usageLine(cmd)) {
				t.Errorf("%q: no usage line %q:\n%s", args, usageLine(cmd), r.stdout)
			}
			if len(cmd.examples) > 0 && !strings.Contains(r.stdout, "examples:\n") {
				t.Errorf("%q: no examples:\n%s", args, r.stdout)
			}
			if cmd.flags != nil && len(cliflag.Flags(cmd.flags())) > 0 && !strings.Contains(r.stdout, "flags") {
				t.Errorf("%q: no flags:\n%s", args, r.stdout)
			}
			checkWidth(t, strings.Join(args, " "), r.stdout)
		}
	}
	top := runVerb(t, "--help").stdout
	for _, want := range []string{"examples:\n", "On a terminal the live\ndashboard is the default", "rpcstress --demo", "--targets -", "rpcstress completion"} {
		if !strings.Contains(top, want) {
			t.Errorf("rpcstress --help lacks %q:\n%s", want, top)
		}
	}
	if r := runVerb(t, "help", "find-limit"); r.code != exitOK || !strings.Contains(r.stdout, "--p99 DURATION") {
		t.Errorf("help find-limit: exit %d\n%s", r.code, r.stdout)
	}
}

// completionScript writes `rpcstress completion SHELL` to a file.
func completionScript(t *testing.T, shell string) string {
	t.Helper()
	r := runVerb(t, "completion", shell)
	if r.code != exitOK {
		t.Fatalf("completion %s: exit %d: %s", shell, r.code, r.stderr)
	}
	return writeFile(t, t.TempDir(), "rpcstress."+shell, r.stdout)
}

// shell finds a shell, skipping the test where it is absent (unless in CI).
func shell(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is needed in CI: %v", name, err)
		}
		t.Skipf("%s not installed", name)
	}
	return p
}

// TestCompletionBash: the script loads, registers rpcstress, and completes verbs, flags of
// the run and of a verb, a verb's words and its files.
func TestCompletionBash(t *testing.T) {
	bash := shell(t, "bash")
	script := completionScript(t, "bash")
	dir := t.TempDir()
	for _, f := range []string{"p.toml", "run.json"} {
		writeFile(t, dir, f, "")
	}
	probe := `source "$1"; complete -p rpcstress
t() { COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); _rpcstress; echo "$*: ${COMPREPLY[*]}"; }
t rpcstress vali
t rpcstress --ra
t rpcstress p.toml --dur
t rpcstress report --fo
t rpcstress report ''
t rpcstress completion ''
t rpcstress find-limit --p9
t rpcstress --rate ''
`
	cmd := exec.Command(bash, "-c", probe, "bash", script)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("bash: %v\n%s", err, out)
	}
	for _, want := range []string{
		"complete -o filenames -F _rpcstress rpcstress\n", // registered
		"rpcstress vali: validate\n",                      // a verb
		"rpcstress --ra: --rate\n",                        // a run flag
		"rpcstress p.toml --dur: --duration\n",            // after the profile too
		"rpcstress report --fo: --format\n",               // a verb's flag
		"rpcstress report : run.json\n",                   // a verb's files, by extension
		"rpcstress completion : bash zsh fish\n",          // a verb's words
		"rpcstress find-limit --p9: --p99\n",              // find-limit's own flags
		"rpcstress --rate : \n",                           // a rate is no file
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("bash completion lacks %q:\n%s", want, out)
		}
	}
}

// TestCompletionZshFish: the zsh and fish scripts parse, and fish (which can list what it
// would complete) completes verbs and flags.
func TestCompletionZshFish(t *testing.T) {
	t.Run("zsh", func(t *testing.T) {
		zsh := shell(t, "zsh")
		script := completionScript(t, "zsh")
		if out, err := exec.Command(zsh, "-n", script).CombinedOutput(); err != nil {
			t.Fatalf("zsh -n: %v\n%s", err, out)
		}
		out, err := exec.Command(zsh, "-f", "-c", `autoload -U compinit; compinit -u -d "$2"; source "$1"; print -r -- $_comps[rpcstress]`,
			"zsh", script, filepath.Join(t.TempDir(), "zcompdump")).CombinedOutput()
		if err != nil || strings.TrimSpace(string(out)) != "_rpcstress" {
			t.Fatalf("zsh did not register the completion: %v\n%s", err, out)
		}
	})
	t.Run("fish", func(t *testing.T) {
		fish := shell(t, "fish")
		script := completionScript(t, "fish")
		if out, err := exec.Command(fish, "-n", script).CombinedOutput(); err != nil {
			t.Fatalf("fish -n: %v\n%s", err, out)
		}
		out, err := exec.Command(fish, "--no-config", "-c", `source $argv[1]; complete -C "rpcstress vali"; complete -C "rpcstress report --fo"; complete -C "rpcstress --targ"`, script).CombinedOutput()
		if err != nil {
			t.Fatalf("fish: %v\n%s", err, out)
		}
		for _, want := range []string{"validate\t", "--format\t", "--targets\t"} {
			if !strings.Contains(string(out), want) {
				t.Errorf("fish completion lacks %q:\n%s", want, out)
			}
		}
	})
}

// TestHelpText: help.txt reads without a mistake, names only verbs there are, and gives every
// verb that shows examples its words and examples; a line it cannot place is an error that
// names it.
func TestHelpText(t *testing.T) {
	texts, err := parseHelp(helpText)
	if err != nil {
		t.Fatal(err)
	}
	for name := range texts {
		if name != "" && lookup(name) == nil {
			t.Errorf("help.txt has a section [%s], which is no verb", name)
		}
	}
	for _, cmd := range commands() {
		if cmd.name == "version" || cmd.name == "help" {
			continue // their summary says it all
		}
		if cmd.about == "" || len(cmd.examples) == 0 {
			t.Errorf("%q: about %q, %d examples; want both", cmd.name, cmd.about, len(cmd.examples))
		}
	}
	tests := []struct {
		text string
		want string // the error
	}{
		// Words before any verb: whose are they?
		{"Sends requests.\n[validate]\n", `help.txt:1: "Sends requests." stands before the first [verb]`},
		// An indented line that is no example.
		{"[validate]\nChecks.\n  rpcstress validate p.toml\n", `help.txt:3: "  rpcstress validate p.toml" is neither words, an example nor a [verb]`},
		// What an example does, with no command line under it.
		{"[validate]\n  # check it\n", `help.txt:2: "  # check it" is neither words, an example nor a [verb]`},
	}
	for _, tt := range tests {
		if _, err := parseHelp(tt.text); fmt.Sprint(err) != tt.want {
			t.Errorf("parseHelp(%q): %v, want %s", tt.text, err, tt.want)
		}
	}
	got, err := parseHelp("# a note\n[rpcstress]\nSends\nrequests.\n\n  # try it\n  rpcstress --demo\n")
	want := map[string]verbHelp{"": {about: "Sends requests.", examples: [][2]string{{"rpcstress --demo", "try it"}}}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("parseHelp: %+v, %v; want %+v", got, err, want)
	}
}

// TestHelpCompletesEveryVerb: `rpcstress help <TAB>` offers every verb but the run itself and
// help; a verb added to the table and not to help's words would be missing from completion.
func TestHelpCompletesEveryVerb(t *testing.T) {
	var words string
	for _, c := range commands() {
		if c.name == "help" {
			words = " " + c.argWords + " "
		}
	}
	for _, c := range commands() {
		if c.name != "" && c.name != "help" && !strings.Contains(words, " "+c.name+" ") {
			t.Errorf("help's completion words lack %q: %q", c.name, words)
		}
	}
}
