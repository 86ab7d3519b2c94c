package engine

import (
	"time"

	"github.com/rpcstress/rpcstress/engine/answers"
)

// Percentiles are latency figures in milliseconds.
type Percentiles struct {
	Min  float64 `json:"min"`
	P50  float64 `json:"p50"`
	P75  float64 `json:"p75"`
	P90  float64 `json:"p90"`
	P95  float64 `json:"p95"`
	P99  float64 `json:"p99"`
	P999 float64 `json:"p999"`
	Max  float64 `json:"max"`
	Mean float64 `json:"mean"`
}

// RowLatency is the short percentile set kept per timeline second.
type RowLatency struct {
	P50 float64 `json:"p50"`
	P90 float64 `json:"p90"`
	P99 float64 `json:"p99"`
	Max float64 `json:"max"`
	// P95 and P999 came after the first snapshots: older files leave them 0, which the
	// dashboard and reports show as missing rather than as 0 ms.
	P95  float64 `json:"p95,omitempty"`
	P999 float64 `json:"p999,omitempty"`
}

// Connections describes connection setup, measured apart from request latency.
type Connections struct {
	Dialed   int64   `json:"dialed"`
	DialMean float64 `json:"dial_mean_ms"`
	DialMax  float64 `json:"dial_max_ms"`
	// Redialed counts WebSocket connections dialed again after one closed (or a dial failed);
	// they are among Dialed when they connected. Over HTTP it stays 0.
	Redialed int64 `json:"redialed,omitempty"`
}

// Summary is the full set of numbers for a span of a run (the whole run or one stage).
// Invariant: Scheduled = Sent + Dropped + Queued; Sent = Completed + Inflight;
// Completed = Σ Status + Σ Errors.
type Summary struct {
	Scheduled int64 `json:"scheduled"`
	Sent      int64 `json:"sent"`
	Completed int64 `json:"completed"`
	Inflight  int64 `json:"inflight"`
	Dropped   int64 `json:"dropped"`
	// Queued is what was scheduled and still waits in the backlog for a connection: only a
	// snapshot taken while the run goes has any (a finished run has sent or dropped them all).
	Queued    int64            `json:"queued,omitempty"`
	Status    map[string]int64 `json:"status"`
	Errors    map[string]int64 `json:"errors"`
	RPCErrors map[string]int64 `json:"rpc_errors"`
	BytesIn   int64            `json:"bytes_in"`
	BytesOut  int64            `json:"bytes_out"`
	DurationS float64          `json:"duration_s"`
	RPS       float64          `json:"rps"`
	OK        int64            `json:"ok"`
	Limited   int64            `json:"limited"`
	Failed    int64            `json:"failed"`
	Latency   Percentiles      `json:"latency_ms"`
	Service   Percentiles      `json:"service_ms"`
	// SendLag is how late requests went out after their intended time: the tester's own delay
	// (timer granularity, a full pool, a busy machine), included in Latency. In open loop it
	// should stay well under the latencies measured; in closed loop it is 0. Left out of the
	// JSON when not measured (per-request summaries, closed loop) rather than written as 0 ms.
	SendLag          Percentiles            `json:"send_lag_ms,omitzero"`
	LatencyByOutcome map[string]Percentiles `json:"latency_by_outcome"`
	Connections      Connections            `json:"connections"`
	// ByRequest is the same per request name of the mix (its JSON-RPC method unless named);
	// a request is picked when it is sent, so its dropped count is always 0.
	ByRequest map[string]Summary `json:"by_request,omitempty"`
	// Calls counts JSON-RPC calls beside the requests above; left out when none was sent.
	Calls CallStats `json:"calls,omitzero"`
	// Expect counts the answers that broke the requests' expect rules; present when the
	// requests counted here have rules (so 0 invalid reads as checked and clean).
	Expect *ExpectStats `json:"expect,omitempty"`
	// Cost is the load in a provider's units (compute units, credits) offered and accepted;
	// present when the requests counted here have a cost.
	Cost *CostStats `json:"cost,omitempty"`
}

// ExpectStats counts what broke the expect rules: an answer whose result breaks its call's
// rule (a null block, an empty list, a value that does not match) fails that call, and the
// request (unless a rate limit wins), as invalid. Invalid requests are among Summary.Failed,
// invalid calls among CallStats.Failed.
type ExpectStats struct {
	// Invalid is the requests failed with an invalid call.
	Invalid int64 `json:"invalid"`
	// Calls is the invalid calls (a batch may have several).
	Calls int64 `json:"calls"`
	// ByRule counts the invalid calls by the rule each broke first, by its label
	// (`result present`, `result.hash matches "^0x"`).
	ByRule map[string]int64 `json:"by_rule,omitempty"`
}

// Add adds o's counts to e: the one place they are summed (merge, find-limit totals).
func (e *ExpectStats) Add(o *ExpectStats) {
	if o == nil {
		return
	}
	e.Invalid += o.Invalid
	e.Calls += o.Calls
	if len(o.ByRule) > 0 && e.ByRule == nil {
		e.ByRule = map[string]int64{}
	}
	for k, n := range o.ByRule {
		e.ByRule[k] += n
	}
}

// CostStats is the load in cost units: Request.Cost per send offered, the cost of the calls
// answered ok accepted, and both per second over the span's duration.
type CostStats struct {
	Offered      int64   `json:"offered"`
	Accepted     int64   `json:"accepted"`
	OfferedRate  float64 `json:"offered_rate"`
	AcceptedRate float64 `json:"accepted_rate"`
}

// Add adds o's counts to c; the rates are set with the duration (Summary.SetDuration).
func (c *CostStats) Add(o *CostStats) {
	if o == nil {
		return
	}
	c.Offered += o.Offered
	c.Accepted += o.Accepted
}

// CallStats counts JSON-RPC calls apart from requests: a batch of N calls is one request and N
// calls, and a request that is not JSON-RPC (a raw HTTP API) counts none. A request has one
// outcome; its calls have one each: a batch with one good and one failing call is a failed
// request, 1 call ok and 1 call failed. Failed calls are counted by JSON-RPC error code in the
// summary's RPCErrors, and by Faults where the answer broke JSON-RPC. Sent = OK + Limited +
// Failed + the calls of requests in flight.
type CallStats struct {
	Sent    int64 `json:"sent"`
	OK      int64 `json:"ok"`
	Limited int64 `json:"limited"`
	Failed  int64 `json:"failed"`
	// Faults counts the answers' faults by kind (Fault's names): "missing" (a call got no
	// answer), "foreign id" (a single call answered with another id), "not JSON-RPC" (per call,
	// or per answer item that is no answer), "unknown id" and "extra" (per answer item of a
	// batch that matches no call, or repeats one).
	Faults map[string]int64 `json:"faults,omitempty"`
}

// Add adds o's counts to c: the one place call counts are summed (merge, find-limit totals).
func (c *CallStats) Add(o CallStats) {
	c.Sent += o.Sent
	c.OK += o.OK
	c.Limited += o.Limited
	c.Failed += o.Failed
	if len(o.Faults) > 0 && c.Faults == nil {
		c.Faults = map[string]int64{}
	}
	for k, n := range o.Faults {
		c.Faults[k] += n
	}
}

// Completed is the calls answered (ok, limited or failed).
func (c CallStats) Completed() int64 { return c.OK + c.Limited + c.Failed }

// Row is one second of the timeline. T is whole seconds since the start; the row holds the
// requests that completed during [T, T+1).
type Row struct {
	T          int              `json:"t"`
	Stage      int              `json:"stage"`
	TargetRate float64          `json:"target_rate"`
	RPS        float64          `json:"rps"`
	Status     map[string]int64 `json:"status"`
	Errors     map[string]int64 `json:"errors"`
	RPCErrors  map[string]int64 `json:"rpc_errors"`
	OK         int64            `json:"ok"`
	Limited    int64            `json:"limited"`
	Failed     int64            `json:"failed"`
	Inflight   int64            `json:"inflight"`
	Dropped    int64            `json:"dropped"`
	Latency    RowLatency       `json:"latency_ms"`
	BytesIn    int64            `json:"bytes_in"`
	Saturated  bool             `json:"saturated,omitempty"`
	// The JSON-RPC calls of the requests completed in that second (see CallStats); left out
	// when there were none.
	CallsOK      int64 `json:"calls_ok,omitempty"`
	CallsLimited int64 `json:"calls_limited,omitempty"`
	CallsFailed  int64 `json:"calls_failed,omitempty"`
	// Head is the target's head as last read when the second closed, RefHead the reference
	// node's; HeadStale is set when the last read of the target's failed. Left out when the
	// run follows no head (or before one was read).
	Head      *uint64 `json:"head,omitempty"`
	RefHead   *uint64 `json:"ref_head,omitempty"`
	HeadStale bool    `json:"head_stale,omitempty"`
	// Invalid is the requests of that second failed by a result that broke an expect rule
	// (among Failed); left out when there were none.
	Invalid int64 `json:"invalid,omitempty"`
	// CostOffered and CostAccepted are the cost units sent and answered ok during the second,
	// per second (scaled like RPS); left out when the requests have no cost or none moved.
	CostOffered  float64 `json:"cost_offered,omitempty"`
	CostAccepted float64 `json:"cost_accepted,omitempty"`
	// Sent is the requests that went out during the second, per second (a partial last second
	// scaled like RPS), for the dashboard's "sent/s" beside what came back. Live only: the
	// snapshot's rows keep their v1 fields (rps is the answers).
	Sent float64 `json:"-"`
	// Watch is what the watchers read over the second (--watch-pid, --node-metrics); left
	// out when the run watches nothing, or nothing was read for that second.
	Watch *WatchRow `json:"watch,omitempty"`
	// Subs is each subscription's second (Config.Subscriptions' order); left out when the
	// run holds none.
	Subs []SubRow `json:"subs,omitempty"`
}

// Event is something that happened to the run: a stage change, a control action, a save.
type Event struct {
	T      float64 `json:"t"` // seconds since start
	Kind   string  `json:"kind"`
	Detail string  `json:"detail"`
}

// State is what the run is doing now.
type State string

// Run states shown in the header of the dashboard.
const (
	StateRunning  State = "running"
	StatePaused   State = "paused"
	StateHeld     State = "held"
	StateDraining State = "draining"
	StateDone     State = "done"
)

// PlanState is the scheduler's position in the plan, read by the aggregator when it publishes.
type PlanState struct {
	State      State
	Stage      int
	StageCount int
	StageStart time.Duration // elapsed time when the current stage began
	StageLeft  time.Duration // time left in the current stage; 0 when open-ended or held
	DrainLeft  time.Duration // while draining: how long the wait for answers in flight may last
	TargetRate Rate          // the rate being sent now (after live changes), per this instance
	Saturated  bool          // the tester sent late in the last complete second (Row.Saturated)
}

// StageStats is one stage's spec and numbers.
type StageStats struct {
	Index   int     `json:"index"`
	Spec    Stage   `json:"spec"`
	Summary Summary `json:"summary"`
}

// Bucket is one bar of the latency histogram view: [From, To) milliseconds; To < 0 means no
// upper bound (slower than the last edge).
type Bucket struct {
	From, To float64
	Count    int64
}

// Stats is an immutable view of a run, published by the aggregator a few times a second. Readers
// must not modify it; a new one replaces it.
type Stats struct {
	Name       string
	Target     string // display URL, no secrets
	Mode       Mode
	Elapsed    time.Duration
	Plan       PlanState
	Total      Summary
	Current    Summary // the current stage so far
	Last       Row     // the last complete second
	Timeline   []Row   // the most recent seconds, oldest first (bounded)
	Stages     []StageStats
	Events     []Event
	RPCMessage map[string]string // JSON-RPC error code -> a message seen with it
	Headers    map[string]string // rate-limit headers, last value seen
	Histogram  []Bucket          // latency buckets of the current stage
	// LatencyByRequest is the whole run's latency per request row (the names of
	// Total.ByRequest) in the fixed buckets of LatencyEdges. The rows share out the requests,
	// so their sum is the run's.
	LatencyByRequest map[string]LatencyCounts
	Tester           TesterLoad // the tester's own health in the last complete second
	Head             *HeadState // the chain's head the run follows; nil when none
	Watch            *WatchInfo // what the run watches (the rows hold the readings); nil: nothing
	Subs             []SubStats // each subscription's figures so far; nil when the run holds none
	Done             bool       // the run ended; Total is final
	EndReason        string
	// TargetName is the target's name (Target.Name) in a run with several; "" with one.
	TargetName string
	// Targets holds each target's view in a run with several (Config.Targets), the first's
	// included: this view is the first target's, so a reader that knows nothing of targets
	// reads a valid run. Nil with one target.
	Targets []*Stats
	// Answers is the comparison of the targets' answers so far (Config.CompareAnswers),
	// counts only, no examples; nil when the answers are not compared.
	Answers *answers.Result
}
