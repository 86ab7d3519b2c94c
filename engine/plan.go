package engine

import "time"

// Stage is one step of a Plan: a Rate held for a Duration. In closed mode the Rate is ignored
// and the stage only bounds time. A Duration of 0 means "until stopped or the request limit".
type Stage struct {
	Name     string        `json:"name,omitempty"`
	Rate     Rate          `json:"rate"`
	Duration time.Duration `json:"duration"`
}

// Plan is the ordered list of stages a run walks through. Ramps are expanded into stages when a
// profile compiles, so the engine only ever sees stages.
type Plan struct {
	Stages []Stage `json:"stages"`
}

// Total is the planned run time; zero when any stage is open-ended.
func (p Plan) Total() time.Duration {
	var t time.Duration
	for _, s := range p.Stages {
		if s.Duration <= 0 {
			return 0
		}
		t += s.Duration
	}
	return t
}
