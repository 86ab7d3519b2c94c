package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/rpcstress/rpcstress/engine/answers"
)

// SnapshotSchema names the snapshot format; readers refuse other values.
const SnapshotSchema = "rpcstress.snapshot/v1"

// ToolInfo names the program that wrote a snapshot.
type ToolInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Histograms holds the run's HDR histograms (microseconds), each in HdrHistogram's compressed V2
// encoding, base64: what makes merging runs exact. Total and Stages are latency from the intended
// send (coordinated-omission corrected); Service is from the actual send; ByOutcome is latency per
// outcome class ("ok", "limited", "failed"). ByRequest holds, per request name of the mix, the
// same for that request alone (Total, Stages and Service, at the precision the run kept them), so
// a merge rebuilds the per-request numbers exactly too; snapshots written before it have none.
type Histograms struct {
	Total     string                  `json:"total"`
	Stages    []string                `json:"stages"`
	Service   HistogramSet            `json:"service"`
	ByOutcome map[string]HistogramSet `json:"by_outcome"`
	ByRequest map[string]Histograms   `json:"by_request,omitempty"`
}

// HistogramSet is one kind of histogram for the whole run and for each stage.
type HistogramSet struct {
	Total  string   `json:"total"`
	Stages []string `json:"stages"`
}

// RunNotes is what a run notes beside its counts: the JSON-RPC error messages and rate-limit
// headers its target sent, and the seconds the generator fell behind. A snapshot holds it for
// its (first) target, a TargetRun for each target of several and the JSON summary copies it:
// one type embedded in each (encoding/json writes its fields in its place, as before), so a
// note added here reaches them all and a copy is one assignment.
type RunNotes struct {
	// RPCMessages maps a JSON-RPC error code to a message the target sent with it.
	RPCMessages map[string]string `json:"rpc_messages,omitempty"`
	// RateLimitHeaders are Retry-After and X-RateLimit-* as last seen.
	RateLimitHeaders map[string]string `json:"rate_limit_headers,omitempty"`
	// SaturatedSeconds counts timeline seconds in which the generator fell behind its schedule.
	SaturatedSeconds int `json:"saturated_seconds"`
}

// Snapshot is a saved run: everything a report, compare or merge needs. See DESIGN.md for the
// field contract; fields are added freely, never renamed.
type Snapshot struct {
	Schema    string          `json:"schema"`
	Tool      ToolInfo        `json:"tool"`
	Host      string          `json:"host"`
	Profile   json.RawMessage `json:"profile"` // resolved, secrets redacted
	Target    string          `json:"target"`  // display URL: no userinfo, no query
	Mode      Mode            `json:"mode"`
	StartedAt time.Time       `json:"started_at"`
	EndedAt   time.Time       `json:"ended_at"`
	EndReason string          `json:"end_reason"`
	Totals    Summary         `json:"totals"`
	Stages    []StageStats    `json:"stages"`
	Timeline  []Row           `json:"timeline"`
	Events    []Event         `json:"events"`
	RunNotes
	// Shard is "I/N" when this run sent 1/N of the planned rate as shard I of a multi-machine run.
	Shard string `json:"shard,omitempty"`
	// Merged lists the snapshots this one was merged from (host and start), if any.
	Merged     []string   `json:"merged,omitempty"`
	Histograms Histograms `json:"histograms"`
	// Search is the find-limit section: set only by `rpcstress find-limit`.
	Search *SearchResult `json:"search,omitempty"`
	// Thresholds are the profile's [thresholds] as judged at the end of the run.
	Thresholds []ThresholdResult `json:"thresholds,omitempty"`
	// Chain is the head the run followed (chain = "evm" | "solana"); absent when none.
	Chain *ChainStats `json:"chain,omitempty"`
	// Watch says what the run watched beside the load (processes, a node's metrics) and sums
	// it up per stage; the timeline's rows hold the readings. Absent when nothing was.
	Watch *WatchInfo `json:"watch,omitempty"`
	// Targets holds each target's share of a run that sent to several (Config.Targets), the
	// first one's also at the top level; absent for a single target.
	Targets []TargetRun `json:"targets,omitempty"`
	// Answers is the comparison of the targets' answers (compare_answers); absent when off.
	Answers *answers.Result `json:"answers,omitempty"`
	// Subscriptions are the run's WebSocket subscriptions ([[subscribe]]), one per table;
	// absent when it held none.
	Subscriptions []SubStats `json:"subscriptions,omitempty"`
}

// CheckInvariant verifies the bookkeeping every report promises:
// scheduled = sent + dropped; sent = completed + inflight; completed = Σ status + Σ errors.
func (s *Summary) CheckInvariant() error {
	var errs []error
	if s.Scheduled != s.Sent+s.Dropped+s.Queued {
		if s.Queued > 0 {
			errs = append(errs, fmt.Errorf("scheduled %d ≠ sent %d + dropped %d + queued %d", s.Scheduled, s.Sent, s.Dropped, s.Queued))
		} else {
			errs = append(errs, fmt.Errorf("scheduled %d ≠ sent %d + dropped %d", s.Scheduled, s.Sent, s.Dropped))
		}
	}
	if s.Sent != s.Completed+s.Inflight {
		errs = append(errs, fmt.Errorf("sent %d ≠ completed %d + inflight %d", s.Sent, s.Completed, s.Inflight))
	}
	var outcomes int64
	for _, n := range s.Status {
		outcomes += n
	}
	for _, n := range s.Errors {
		outcomes += n
	}
	if s.Completed != outcomes {
		errs = append(errs, fmt.Errorf("completed %d ≠ Σ status + Σ errors %d", s.Completed, outcomes))
	}
	return errors.Join(errs...)
}

// stageJSON is how a Stage reads in JSON: durations as text people can read, the rate both as a
// number per second (for tools) and as written.
type stageJSON struct {
	Name      string  `json:"name,omitempty"`
	Rate      float64 `json:"rate"`
	RateText  string  `json:"rate_text"`
	Duration  string  `json:"duration"`
	DurationS float64 `json:"duration_s"`
}

// MarshalJSON writes the stage with a readable duration ("30s") and rate ("240/m").
func (s Stage) MarshalJSON() ([]byte, error) {
	d := "0s"
	if s.Duration > 0 {
		d = s.Duration.String()
	}
	return json.Marshal(stageJSON{Name: s.Name, Rate: float64(s.Rate), RateText: s.Rate.String(), Duration: d, DurationS: s.Duration.Seconds()})
}

// UnmarshalJSON reads what MarshalJSON wrote.
func (s *Stage) UnmarshalJSON(b []byte) error {
	var j stageJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	d, err := time.ParseDuration(j.Duration)
	if err != nil {
		return fmt.Errorf("stage duration %q: %w", j.Duration, err)
	}
	*s = Stage{Name: j.Name, Rate: Rate(j.Rate), Duration: d}
	return nil
}
