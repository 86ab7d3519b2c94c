package profiles

import (
	"strings"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
)

// threeStages is a 10s + 20s + 30s plan at 1, 2 and 3 per second.
const threeStages = `url = "http://127.0.0.1:8899"
[[request]]
method = "getSlot"
[[stage]]
rate = 1
duration = "10s"
[[stage]]
rate = 2
duration = "20s"
[[stage]]
rate = 3
duration = "30s"
`

func ratePtr(r engine.Rate) *engine.Rate { return &r }

// st builds a stage; durations in seconds.
func st(rate engine.Rate, secs int) engine.Stage {
	return engine.Stage{Rate: rate, Duration: time.Duration(secs) * time.Second}
}

func TestApplyPlan(t *testing.T) {
	openEnded := strings.Replace(threeStages, "rate = 3\nduration = \"30s\"", "rate = 3", 1)
	tests := []struct {
		name string
		src  string
		o    Overrides
		want []engine.Stage
	}{
		// No overrides: the file's plan.
		{"none", threeStages, Overrides{}, []engine.Stage{st(1, 10), st(2, 20), st(3, 30)}},
		// --rate alone keeps the planned time in one stage.
		{"rate", threeStages, Overrides{Rate: ratePtr(50)}, []engine.Stage{st(50, 60)}},
		// --rate with --duration.
		{"rate and duration", threeStages, Overrides{Rate: ratePtr(50), Duration: 5 * time.Second}, []engine.Stage{st(50, 5)}},
		// --rate on an open-ended plan stays open-ended.
		{"rate open-ended", openEnded, Overrides{Rate: ratePtr(50)}, []engine.Stage{st(50, 0)}},
		// --duration cuts inside the second stage and drops the third.
		{"duration cuts", threeStages, Overrides{Duration: 15 * time.Second}, []engine.Stage{st(1, 10), st(2, 5)}},
		// --duration on a stage boundary drops what follows.
		{"duration on boundary", threeStages, Overrides{Duration: 30 * time.Second}, []engine.Stage{st(1, 10), st(2, 20)}},
		// --duration longer than the plan lengthens the last stage.
		{"duration extends", threeStages, Overrides{Duration: 90 * time.Second}, []engine.Stage{st(1, 10), st(2, 20), st(3, 60)}},
		// --duration bounds an open-ended last stage.
		{"duration bounds open end", openEnded, Overrides{Duration: 45 * time.Second}, []engine.Stage{st(1, 10), st(2, 20), st(3, 15)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustLoad(t, tt.src)
			if err := p.Apply(tt.o); err != nil {
				t.Fatal(err)
			}
			got := p.Config.Plan.Stages
			if len(got) != len(tt.want) {
				t.Fatalf("stages = %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i].Rate != tt.want[i].Rate || got[i].Duration != tt.want[i].Duration {
					t.Errorf("stage %d = %v, want %v", i+1, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestApplySettings(t *testing.T) {
	p := mustLoad(t, threeStages)
	err := p.Apply(Overrides{URL: "https://user:pw@node.example/rpc?key=abc", Connections: 7, Timeout: time.Second, MaxRequests: 99})
	if err != nil {
		t.Fatal(err)
	}
	c := p.Config
	if c.URL != "https://user:pw@node.example/rpc?key=abc" || c.DisplayURL != "https://node.example/rpc" {
		t.Errorf("url = %q, display %q", c.URL, c.DisplayURL)
	}
	if c.Connections != 7 || c.Timeout != time.Second || c.MaxRequests != 99 {
		t.Errorf("config = %+v", c)
	}
	// Apply starts from the file again: an empty override restores it.
	if err := p.Apply(Overrides{}); err != nil {
		t.Fatal(err)
	}
	if p.Config.Connections != defaultConnections || p.Config.URL != "http://127.0.0.1:8899" || len(p.Overridden) != 0 {
		t.Errorf("Apply(empty) = %+v", p.Config)
	}
}

func TestApplyErrors(t *testing.T) {
	tests := []struct {
		name string
		o    Overrides
		want string
	}{
		// Negative connections (0 means "not given").
		{"connections", Overrides{Connections: -1}, "--connections -1: must be from 1"},
		// A URL that is not HTTP.
		{"url scheme", Overrides{URL: "ftp://x"}, "--url: scheme \"ftp\""},
		// A URL without a scheme.
		{"url no scheme", Overrides{URL: "localhost:8899"}, "--url: \"localhost:8899\" has no scheme"},
		// A negative rate.
		{"rate", Overrides{Rate: ratePtr(-1)}, "--rate"},
		// A negative timeout.
		{"timeout", Overrides{Timeout: -time.Second}, "--timeout -1s: must be more than 0"},
		// A negative duration.
		{"duration", Overrides{Duration: -time.Second}, "--duration -1s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := applyRefused(t, mustLoad(t, threeStages), tt.o); !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

// TestApplyDoesNotAlias checks that changing the applied Config leaves the file's values alone.
func TestApplyDoesNotAlias(t *testing.T) {
	p := mustLoad(t, threeStages)
	p.Config.Plan.Stages[0].Rate = 999
	p.Config.Headers[0].Value = "x"
	if err := p.Apply(Overrides{}); err != nil {
		t.Fatal(err)
	}
	if p.Config.Plan.Stages[0].Rate != 1 || p.Config.Headers[0].Value != "application/json" {
		t.Errorf("base was modified through Config: %+v", p.Config)
	}
}
