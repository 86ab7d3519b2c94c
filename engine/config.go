package engine

import "time"

// Mode says who sets the pace of a run.
type Mode string

const (
	// ModeOpen sends on a schedule fixed by the rate plan, whatever the answers do (default).
	ModeOpen Mode = "open"
	// ModeClosed keeps Connections requests in flight back to back, bombardier/wrk style.
	ModeClosed Mode = "closed"
)

// Header is one HTTP request header. Secret values are never shown in the UI or snapshots.
type Header struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Secret bool   `json:"secret,omitempty"`
}

// Request is one entry of the request mix: a ready body and its relative weight.
type Request struct {
	// Name labels the request in per-request numbers; defaults to the JSON-RPC method.
	Name string
	// Body is sent as is (pre-rendered JSON-RPC envelope or raw body).
	Body []byte
	// Weight is the relative share of this request in the mix; > 0.
	Weight int
	// Items is the number of JSON-RPC calls in Body (1, or N for a batch array).
	Items int
}

// Limits says which answers count as "rate-limited" rather than success or failure.
type Limits struct {
	// Statuses are HTTP statuses that mean rate-limited (default 429).
	Statuses []int
	// RPCCodes are JSON-RPC error codes that mean rate-limited (default -32005, -32012, -32016, 429).
	RPCCodes []int
}

// DefaultLimits are the statuses and JSON-RPC codes RPC providers use to say "slow down".
func DefaultLimits() Limits {
	return Limits{Statuses: []int{429}, RPCCodes: []int{-32005, -32012, -32016, 429}}
}

// Config is everything the engine needs for one run, already validated.
type Config struct {
	// Name is the profile name, shown in the UI and used in snapshot file names.
	Name string
	// URL is the full target URL, secrets included; never display it, use DisplayURL.
	URL string
	// DisplayURL is URL with userinfo and query removed.
	DisplayURL string
	// Method is the HTTP method; POST when empty.
	Method string
	// Headers are sent with every request; Content-Type defaults to application/json.
	Headers []Header
	// Timeout bounds one request, from the actual send to the last response byte.
	Timeout time.Duration
	// Connections is the maximum number of connections, so of requests in flight.
	Connections int
	// Mode is open (rate-driven) or closed (back to back).
	Mode Mode
	// MaxRequests stops the run after this many requests were scheduled; 0 means no limit.
	MaxRequests int64
	// Requests is the weighted request mix; at least one.
	Requests []Request
	// Plan is the list of stages.
	Plan Plan
	// Limits classifies rate-limited answers.
	Limits Limits
	// MaxBodyBytes caps a response body; larger answers count as transport error "toolarge".
	MaxBodyBytes int
	// Backlog bounds how many due requests may wait for a free connection in open mode; beyond
	// it, requests are counted dropped. 0 picks a default.
	Backlog int
	// Shard, when ShardCount > 1, makes this instance send 1/ShardCount of the planned rate.
	Shard, ShardCount int
}
