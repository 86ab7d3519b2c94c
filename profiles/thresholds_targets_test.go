package profiles

import (
	"strings"
	"testing"

	"github.com/rpcstress/rpcstress/engine"
)

func TestTargetThresholdErrors(t *testing.T) {
	stage := searchBase + "[[stage]]\nrate = \"1/s\"\n"
	checkProblems(t, []problemCase{
		// A typo in a target's table suggests the metric.
		{"target typo", stage + "[thresholds.target.geth]\np99x = \"< 50ms\"\n", nil, 7, "thresholds.target.geth.p99x", `did you mean "p99"?`},
		// A bad bound in a target's stage table points at its line.
		{"target stage bound", stage + "[thresholds.target.geth.stage.1]\np99 = \"< 50\"\n", nil, 7, "thresholds.target.geth.stage.1.p99", "has no unit"},
		// A target's stage the plan does not have.
		{"target stage out of range", stage + "[thresholds.target.geth.stage.4]\nrps = \"> 1\"\n", nil, 6, "thresholds.target.geth.stage.4", "the plan has 1 stage"},
		// target must be a table of names.
		{"target not a table", stage + "[thresholds]\ntarget = \"geth\"\n", nil, 7, "thresholds.target", "a table of target names"},
		// One target's conditions must be a table.
		{"target name not a table", stage + "[thresholds.target]\ngeth = \"< 50ms\"\n", nil, 7, "thresholds.target.geth", "must be a table"},
		// The answers are the run's, not a stage's.
		{"answers in a stage", stage + "[thresholds.stage.1]\nanswers_mismatch = \"== 0\"\n", nil, 7, "thresholds.stage.1.answers_mismatch", "write it in [thresholds], not [thresholds.stage.1]"},
		// … nor one target's.
		{"answers in a target", stage + "[thresholds.target.geth]\nanswers_match = \"> 99%\"\n", nil, 7, "thresholds.target.geth.answers_match", "across all targets"},
		// "target" misspelt at the top suggests it.
		{"targets for target", stage + "[thresholds.targets.geth]\np99 = \"< 50ms\"\n", nil, 6, "thresholds.targets", `did you mean "target"?`},
	})
}

// TestCheckThresholdsRun: a target's conditions need that target in the run, and the answers'
// need a comparison; each problem names the file:line, the field and the fix.
func TestCheckThresholdsRun(t *testing.T) {
	p := mustLoad(t, thresholdsSrc)
	two := []engine.Target{{Name: "geth"}, {Name: "erigon"}}
	tests := []struct {
		name    string
		targets []engine.Target
		compare bool
		want    []string // the problems as the user reads them
	}{
		// the run has erigon and compares: nothing to say
		{"all there", two, true, nil},
		// a single target: erigon's table cannot be judged, nor the answers
		{"single target", nil, false, []string{
			`t.toml:12: thresholds.answers_mismatch: answers_mismatch measures the targets' answers compared, and this run compares none: add compare_answers = true (or run with --equality), or remove the threshold`,
			`t.toml:16: thresholds.target.erigon: the run sends to a single target, so there is no target "erigon" to judge: name the targets ([[target]] tables, or --url erigon=URL for each), or write the conditions in [thresholds]`}},
		// a near name: said once for its two conditions, with a suggestion
		{"misspelt target", []engine.Target{{Name: "geth"}, {Name: "erigon2"}}, true, []string{
			`t.toml:16: thresholds.target.erigon: the run has no target "erigon" (its targets: geth, erigon2): did you mean "erigon2"?`}},
	}
	for _, tt := range tests {
		var got []string
		for _, pr := range checkThresholdsRun(p.Thresholds, &engine.Config{Targets: tt.targets, CompareAnswers: tt.compare}) {
			got = append(got, pr.Error())
		}
		if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
	// A run with a single target, as the profile asks: Apply refuses it with the line.
	if err := p.Apply(Overrides{}); err == nil || !strings.Contains(err.Error(), `t.toml:16: thresholds.target.erigon: the run sends to a single target`) {
		t.Errorf("Apply: %v", err)
	}
	// The command line makes the targets and compares: Apply takes it; validate, which has no
	// command line, leaves a profile without targets to it.
	if err := p.Apply(Overrides{Targets: []TargetURL{{"geth", "http://a"}, {"erigon", "http://b"}}, Equality: true}); err != nil {
		t.Errorf("Apply with --url geth=… --url erigon=… --equality: %v", err)
	}
	if err := p.CheckTargets(); err != nil {
		t.Errorf("CheckTargets of a profile without targets: %v", err)
	}
}

// TestCheckTargetsOfTheProfile: a profile with its own targets loads whatever its thresholds
// name (the command line may replace the targets); validate's CheckTargets holds them to the
// profile's own targets, and a run's Apply to the command line's.
func TestCheckTargetsOfTheProfile(t *testing.T) {
	src := strings.Replace(thresholdsSrc, `url = "http://h"`+"\n",
		"[[target]]\nname = \"geth\"\nurl = \"http://a\"\n[[target]]\nname = \"erigon2\"\nurl = \"http://b\"\n", 1)
	p := mustLoad(t, src)
	err := p.CheckTargets()
	for _, want := range []string{`thresholds.target.erigon: the run has no target "erigon" (its targets: geth, erigon2): did you mean "erigon2"?`,
		"thresholds.answers_mismatch: answers_mismatch measures the targets' answers compared, and this run compares none"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("CheckTargets: %v, want %q", err, want)
		}
	}
	// --url geth=… --url erigon=… --equality replace them: the run holds every condition.
	if err := p.Apply(Overrides{Targets: []TargetURL{{"geth", "http://a"}, {"erigon", "http://b"}}, Equality: true}); err != nil {
		t.Errorf("Apply: %v", err)
	}
}
