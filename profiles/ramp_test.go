package profiles

import (
	"math"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
)

func TestRampStages(t *testing.T) {
	tests := []struct {
		name  string
		ramp  Ramp
		rates []float64 // per second
	}{
		// Seed 002: 240/m doubling to 15360/m is 4/s … 256/s, seven stages.
		{"seed 002", Ramp{From: 4, To: 256, Factor: 2, Every: 30 * time.Second}, []float64{4, 8, 16, 32, 64, 128, 256}},
		// The demo ramp: 250/s doubling to 2000/s.
		{"demo", Ramp{From: 250, To: 2000, Factor: 2, Every: 8 * time.Second}, []float64{250, 500, 1000, 2000}},
		// Tripling overshoots 1000 after 900: the last stage is clamped to 1000.
		{"factor overshoot", Ramp{From: 100, To: 1000, Factor: 3, Every: time.Second}, []float64{100, 300, 900, 1000}},
		// A linear ramp that lands exactly on its end.
		{"step exact", Ramp{From: 100, To: 400, Step: 100, Every: time.Second}, []float64{100, 200, 300, 400}},
		// A linear ramp that would overshoot: 100, 200, 300, then 350 instead of 400.
		{"step overshoot", Ramp{From: 100, To: 350, Step: 100, Every: time.Second}, []float64{100, 200, 300, 350}},
		// One step is enough when the first step reaches the end.
		{"single step", Ramp{From: 1, To: 2, Factor: 5, Every: time.Second}, []float64{1, 2}},
		// Per-minute rates whose float sums would drift: 0.1/s steps to 1/s.
		{"fractional steps", Ramp{From: 0.1, To: 1, Step: 0.1, Every: time.Second}, []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1}},
		// A linear ramp may start at 0.
		{"step from zero", Ramp{From: 0, To: 20, Step: 10, Every: time.Second}, []float64{0, 10, 20}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stages, err := tt.ramp.Stages()
			if err != nil {
				t.Fatal(err)
			}
			if len(stages) != len(tt.rates) {
				t.Fatalf("got %d stages %v, want %v", len(stages), stages, tt.rates)
			}
			for i, st := range stages {
				if math.Abs(st.Rate.PerSecond()-tt.rates[i]) > 1e-9 {
					t.Errorf("stage %d rate = %v, want %v", i+1, st.Rate.PerSecond(), tt.rates[i])
				}
				if st.Duration != tt.ramp.Every {
					t.Errorf("stage %d duration = %v, want %v", i+1, st.Duration, tt.ramp.Every)
				}
			}
			if last := stages[len(stages)-1].Rate; last != tt.ramp.To {
				t.Errorf("last rate = %v, want exactly To = %v", last, tt.ramp.To)
			}
		})
	}
}

func TestRampInvalid(t *testing.T) {
	tests := []struct {
		name  string
		ramp  Ramp
		field string
	}{
		// Going down is not a ramp.
		{"descending", Ramp{From: 10, To: 5, Factor: 2, Every: time.Second}, "ramp.to"},
		// Equal ends.
		{"flat", Ramp{From: 5, To: 5, Step: 1, Every: time.Second}, "ramp.to"},
		// Factor below 1 shrinks.
		{"factor below 1", Ramp{From: 1, To: 5, Factor: 0.5, Every: time.Second}, "ramp.factor"},
		// Factor NaN.
		{"factor NaN", Ramp{From: 1, To: 5, Factor: math.NaN(), Every: time.Second}, "ramp.factor"},
		// Negative step.
		{"negative step", Ramp{From: 1, To: 5, Step: -1, Every: time.Second}, "ramp.step"},
		// No time per step.
		{"no every", Ramp{From: 1, To: 5, Factor: 2}, "ramp.every"},
		// A factor barely above 1 needs too many stages.
		{"too many stages", Ramp{From: 1, To: 1000, Factor: 1.0001, Every: time.Second}, "ramp"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.ramp.Stages()
			fe, ok := err.(*fieldError)
			if !ok || fe.field != tt.field {
				t.Fatalf("err = %v, want a problem with %s", err, tt.field)
			}
		})
	}
}

// TestRampFromProfile checks the three-line ramp of seed 002 end to end, written per minute.
func TestRampFromProfile(t *testing.T) {
	p, err := LoadBundled("ratelimit-ramp.toml", nil)
	if err != nil {
		t.Fatal(err)
	}
	st := p.Config.Plan.Stages
	if len(st) != 7 || st[0].Rate != 4 || st[6].Rate != engine.Rate(15360.0/60) {
		t.Fatalf("stages = %v", st)
	}
	if got := p.Config.Plan.Total(); got != 210*time.Second {
		t.Errorf("total = %v, want 3m30s", got)
	}
}
