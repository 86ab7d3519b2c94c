package engine

// Several targets side by side (issue 17). A run with Config.Targets sends every scheduled
// request to every target at the same intended time with the same rendered body. Each target
// is a lane: its own Client (connections, TLS, headers), workers, backlog and books
// (scheduled = sent + dropped per target) and Aggregator, so one slow target never slows or
// drops another's sends. The snapshot keeps a TargetRun per target; its top-level sections
// are the first target's, so a reader that knows nothing of targets reads a valid run.

// Target is one node of a run that sends to several.
type Target struct {
	// Name labels the target everywhere (columns, snapshot, thresholds): short, unique.
	Name string
	// URL is the full URL, secrets included; never display it, use DisplayURL.
	URL        string
	DisplayURL string
	// Headers add to (and replace by name) Config.Headers for this target.
	Headers []Header
	// TLS replaces Config.TLS for this target when set (a target's own CA, say).
	TLS *TLSConfig
	// Connections replaces Config.Connections for this target when > 0.
	Connections int
	// WSURL is the target's WebSocket endpoint, where the run's subscriptions
	// (Config.Subscriptions) subscribe on it; "" for its URL when that is a ws:// or wss://
	// one. Secrets included: display WSDisplayURL.
	WSURL        string
	WSDisplayURL string
}

// TargetRun is one target's share of a run with several: everything a single-target run
// has that depends on the target.
type TargetRun struct {
	Name     string       `json:"name"`
	Target   string       `json:"target"` // display URL
	Totals   Summary      `json:"totals"`
	Stages   []StageStats `json:"stages"`
	Timeline []Row        `json:"timeline"`
	RunNotes
	Histograms Histograms  `json:"histograms"`
	Chain      *ChainStats `json:"chain,omitempty"`
	// Subscriptions are the run's subscriptions as held on this target (Config.Subscriptions
	// subscribe on every target, at its WebSocket endpoint); absent when the run held none.
	Subscriptions []SubStats `json:"subscriptions,omitempty"`
}
