package engine

import (
	"math/rand/v2"
	"strings"
	"time"

	"github.com/rpcstress/rpcstress/engine/answers"
)

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

// Template renders a request body for one send. It is built once when the profile loads and
// shared by all workers, so it must be safe for concurrent use (per-send randomness comes from
// rng, which belongs to the calling worker; shared sequences use atomics).
type Template interface {
	// Append writes one rendering to dst and returns the extended slice. It must not allocate
	// once dst has grown to fit: it runs on the hot path, once per request.
	Append(dst []byte, rng *rand.Rand) []byte
}

// Request is one entry of the request mix: a ready body and its relative weight.
type Request struct {
	// Name labels the request in per-request numbers; defaults to the JSON-RPC method.
	Name string
	// Body is sent as is (pre-rendered JSON-RPC envelope or raw body). With a Template, Body is
	// one sample rendering, used for sizes and display.
	Body []byte
	// Template, when set, renders a fresh body for every send instead of Body.
	Template Template
	// Method and Path, when set, replace Config.Method and the URL's path and query for this
	// request (vegeta target files name them per target); Headers add to Config.Headers.
	Method  string
	Path    string
	Headers []Header
	// Weight is the relative share of this request in the mix; > 0.
	Weight int
	// Items is the number of JSON-RPC calls in Body (1, or N for a batch array).
	Items int
	// RPC, when the body is JSON-RPC calls, describes them (ParseRPCCalls), so that answers are
	// matched to calls by id and counted per call; nil for a raw HTTP API, whose answers are
	// judged by status. Its CallSpecs say what each call's result must pass and costs.
	RPC *RPCCalls
	// Cost is what one send of the request costs in a provider's units (compute units,
	// credits): the sum of its calls' costs, or the request's own for one that is not
	// JSON-RPC; 0 when the profile sets none. It is counted offered when the request is sent,
	// and accepted, call by call, when the answer is ok (Sample.CostOK).
	Cost uint32
}

// TLSConfig is how https targets are checked. Verification is on unless Insecure.
type TLSConfig struct {
	// Insecure skips certificate verification (self-signed test nodes); say so loudly.
	Insecure bool
	// CAFile is a PEM file of extra CA certificates to trust, e.g. a private node's CA.
	CAFile string
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
	// Connections is the maximum number of connections; with HTTP/1.1 also of requests in
	// flight (one per connection), with HTTP/2 and WebSocket InFlight says.
	Connections int
	// HTTP2 speaks HTTP/2 to an https target, agreed over TLS with ALPN "h2"; H2C to an http
	// one, in cleartext with prior knowledge. Either goes through net/http's HTTP/2 instead of
	// fasthttp's HTTP/1.1 (see http2.go). At most one is set, and neither for a ws:// URL.
	HTTP2, H2C bool
	// Streams is how many requests each HTTP/2 or WebSocket connection carries at once (0 is
	// 1); ignored over HTTP/1.1, which carries one.
	Streams int
	// SendTick is the grain of the open-loop schedule: the scheduler wakes on whole ticks and
	// sends everything due by then (0 is DefaultSendTick; see Scheduler). Intended times stay
	// exact whatever it is; a coarser tick costs less CPU and sends up to a tick late, in
	// bursts of rate × tick.
	SendTick time.Duration
	// Workers makes plain HTTP/1.1 in the open loop send from a goroutine per connection, as
	// every other transport does, instead of the event loop (loop_linux.go): for comparing
	// the two, and a way out should the loop misbehave on some system.
	Workers bool
	// Mode is open (rate-driven) or closed (back to back).
	Mode Mode
	// MaxRequests stops the run after this many requests were scheduled; 0 means no limit.
	MaxRequests int64
	// Requests is the weighted request mix; at least one, unless Source is set.
	Requests []Request
	// Source, when set, streams the requests instead (see Source): the run makes Requests a
	// table of SourceRequests entries that the Source describes as they appear.
	Source         Source
	SourceRequests int
	// Plan is the list of stages.
	Plan Plan
	// Limits classifies rate-limited answers.
	Limits Limits
	// MaxBodyBytes caps a response body; larger answers count as transport error "toolarge".
	MaxBodyBytes int
	// Backlog bounds how many due requests may wait for a free connection in open mode; beyond
	// it, requests are counted dropped. 0 picks a default.
	Backlog int
	// TLS configures https targets.
	TLS TLSConfig
	// Shard, when ShardCount > 1, makes this instance send 1/ShardCount of the planned rate.
	Shard, ShardCount int
	// Head, when it names a chain, has the run follow the target's head (see HeadConfig).
	Head HeadConfig
	// Targets, when set, are the nodes the run sends to side by side (see Target); URL,
	// DisplayURL are then the first target's. Empty: the one target URL.
	Targets []Target
	// CompareAnswers, with several Targets, compares their answers (package answers).
	CompareAnswers bool
	// Answers configures the comparison (its Targets are filled from Targets).
	Answers answers.Options
	// Subscriptions are the [[subscribe]] tables: WebSocket subscriptions held beside the
	// request load, or alone (then Requests may be empty and every stage's rate is 0).
	Subscriptions []Subscription
}

// UsesHTTP2 reports whether the run speaks HTTP/2 (HTTP2 or H2C).
func (c *Config) UsesHTTP2() bool { return c.HTTP2 || c.H2C }

// UsesWebSocket reports whether the run speaks JSON-RPC over WebSocket (a ws:// or wss://
// URL).
func (c *Config) UsesWebSocket() bool {
	scheme, _, _ := strings.Cut(c.URL, "://")
	return strings.EqualFold(scheme, "ws") || strings.EqualFold(scheme, "wss")
}

// InFlight is the most requests the run has in flight at once, so its number of workers:
// Connections over HTTP/1.1, Connections × Streams over HTTP/2 and WebSocket.
func (c *Config) InFlight() int {
	if !c.UsesHTTP2() && !c.UsesWebSocket() || c.Streams <= 1 {
		return c.Connections
	}
	return c.Connections * c.Streams
}
