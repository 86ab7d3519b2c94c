package profiles

import (
	"slices"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/engine/search"
	"github.com/rpcstress/rpcstress/engine/thresholds"
)

// Profile is a loaded, validated and compiled profile.
type Profile struct {
	// Path is the file the profile came from, as given to Load (the name for LoadBytes).
	Path string
	// Name is the profile's name: its name key, else the file name without .toml.
	Name string
	// Config is compiled and ready for the engine; Apply recomputes it from the file's values
	// and the command-line overrides.
	Config *engine.Config
	// Demo holds the embedded mock node's settings for `rpcstress --demo` (the [demo] table).
	Demo DemoNode
	// Ramp is the [ramp] the plan was expanded from; nil for [[stage]] plans.
	Ramp *Ramp
	// Search is the [search] table for `rpcstress find-limit`, defaults filled in; HasSearch
	// reports whether the profile had one.
	Search    search.Config
	HasSearch bool
	// Thresholds are the [thresholds] a run is judged by at its end.
	Thresholds []thresholds.Threshold
	// Watch is what the profile watches beside the load (watch, [node_metrics]).
	Watch NodeWatch
	// DataDir is the folder the {{line}} and {{lineSeq}} files were read from (data_dir, or
	// --data over it); "" when they are next to the profile.
	DataDir string
	// Overridden lists the overrides the last Apply made, as flags ("--rate 500/s"), for
	// Describe and snapshots.
	Overridden []string

	base        engine.Config // as compiled from the file, before overrides
	info        []requestInfo // per Config.Requests entry
	planChanged bool          // the last Apply replaced or cut the plan
	perMinute   bool          // the plan's rates were written per minute
	closedWhere string        // "p.toml:4: mode" when mode = "closed", for --url NAME=URL
	subURLWhere string        // "p.toml:9: subscribe[1].url": the first [[subscribe]] with a url of its own
}

// DemoNode is the [demo] table: how the embedded mock node behaves under `rpcstress --demo`.
// Zero values mean "off": no limiter, no added latency, no capacity bound, no stalls.
type DemoNode struct {
	// Rate and Burst are the node's nginx-like limit_req rate and burst; NoDelay answers the
	// burst at once instead of spacing it out.
	Rate    engine.Rate
	Burst   int
	NoDelay bool
	// Latency plus a uniform random [0, Jitter) is added to every answer.
	Latency, Jitter time.Duration
	// Capacity is how many calls per second the node serves before answers queue.
	Capacity engine.Rate
	// StallEvery and StallFor freeze the node for StallFor once every StallEvery.
	StallEvery, StallFor time.Duration
}

// Overrides are the run flags --url, --rate, --duration, --connections, --timeout and the
// request-count limit. Zero values mean "not given".
type Overrides struct {
	URL         string
	Rate        *engine.Rate
	Duration    time.Duration
	Connections int
	Timeout     time.Duration
	MaxRequests int64
	// RefURL is --ref-url: the reference node the target's head is compared with.
	RefURL string
	// Targets are --url NAME=URL, 2 to 4 (see URLFlags): the run's targets side by side, all
	// of them, replacing the profile's url or [[target]] tables; URL is then empty.
	Targets []TargetURL
	// Equality is --equality: compare the targets' answers (compare_answers = true).
	Equality bool
	// HTTP2 and H2C are --http2 and --h2c, Streams --streams (see engine.Config).
	HTTP2, H2C bool
	Streams    int
	// SendTick is --send-tick: the schedule's grain (see engine.Config).
	SendTick time.Duration
	// Workers is --workers: plain HTTP/1.1 sends from a goroutine per connection, not the
	// event loop (engine.Config.Workers).
	Workers bool
}

// cloneConfig copies c deeply enough that changing the copy's slices never touches c. Bodies
// are shared: nothing writes to them.
func cloneConfig(c engine.Config) *engine.Config {
	c.Headers = slices.Clone(c.Headers)
	c.Requests = slices.Clone(c.Requests)
	c.Plan.Stages = slices.Clone(c.Plan.Stages)
	c.Subscriptions = slices.Clone(c.Subscriptions)
	c.Limits.Statuses = slices.Clone(c.Limits.Statuses)
	c.Limits.RPCCodes = slices.Clone(c.Limits.RPCCodes)
	c.Targets = slices.Clone(c.Targets)
	for i := range c.Targets {
		c.Targets[i].Headers = slices.Clone(c.Targets[i].Headers)
	}
	c.Answers.Targets = slices.Clone(c.Answers.Targets)
	return &c
}
