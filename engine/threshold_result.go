package engine

// ThresholdResult is one [thresholds] condition of a profile, judged against a finished run
// (package engine/thresholds evaluates them). Units: ms for latency, % for shares, count for
// counts, /s for rates.
type ThresholdResult struct {
	// Metric is the name as written in the profile: p99, limited, rps …
	Metric string `json:"metric"`
	// Stage is 0 for the whole run, else the 1-based stage it applies to.
	Stage int `json:"stage,omitempty"`
	// Condition is the bound as written: "< 50ms".
	Condition string  `json:"condition"`
	Op        string  `json:"op"`
	Bound     float64 `json:"bound"`
	Unit      string  `json:"unit"`
	// Measured is the run's value in Unit; meaningless when Note says nothing was measured.
	Measured float64 `json:"measured"`
	Pass     bool    `json:"pass"`
	// Margin is how far the measured value is inside the bound (positive) or outside it
	// (negative), in Unit.
	Margin float64 `json:"margin"`
	// Note explains a failure that is not a number: a stage that never ran, no answers to
	// measure a latency on.
	Note string `json:"note,omitempty"`
	// Where is the profile's file:line of the condition.
	Where string `json:"where,omitempty"`
	// Target names the target judged, in a run with several (Snapshot.Targets): a plain
	// [thresholds] condition is judged on every target, one result each; one written in
	// [thresholds.target.NAME] (Targeted) on that target alone. "" for a single target, and
	// for a condition on the run as a whole (the answers compared).
	Target   string `json:"target,omitempty"`
	Targeted bool   `json:"targeted,omitempty"`
}
