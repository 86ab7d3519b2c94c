package harvest

import (
	"fmt"
	"net/url"
	"strings"
	"time"
)

// Chains harvest knows.
const (
	EVM    = "evm"
	Solana = "solana"
)

// Defaults: modest enough for someone else's production node (a public endpoint allows tens of
// requests a second), fast enough for 1,000 blocks in well under a minute with batches.
const (
	DefaultBlocks = 1000
	DefaultRate   = 20.0
	DefaultBatch  = 20
	maxBlocks     = 1_000_000
	maxBatch      = 1000
)

// Options say what to harvest from where.
type Options struct {
	URL     string            // the reference node's JSON-RPC endpoint
	Chain   string            // EVM or Solana
	Blocks  int               // how many recent blocks (slots) to read, at most
	OutDir  string            // where the files go
	Rate    float64           // HTTP requests a second to the node, at most
	Batch   int               // calls per JSON-RPC batch (1: no batches)
	Timeout time.Duration     // one HTTP request's limit
	Headers map[string]string // sent with every request (an API key); never written out
	// Progress, when set, is told how the reading goes, at most a few times a second.
	Progress func(Progress)
}

// Progress is where a harvest stands.
type Progress struct {
	Phase    string        // what is being read: "window", "blocks", "logs"
	Done     int           // blocks (slots) read in this phase
	Total    int           // blocks (slots) this phase reads
	Requests int64         // HTTP requests sent so far
	Elapsed  time.Duration // since the harvest began
	ETA      time.Duration // left in this phase at the pace so far; 0 when unknown
}

// check fills defaults and refuses what cannot work, saying how to fix it.
func (o *Options) check() error {
	switch o.Chain {
	case EVM, Solana:
	case "":
		return fmt.Errorf("--chain is missing: say evm or solana")
	default:
		return fmt.Errorf("--chain %q: harvest knows evm and solana", o.Chain)
	}
	u, err := url.Parse(o.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("the URL %q is not an http:// or https:// address of a JSON-RPC node", o.URL)
	}
	if err := inRange(&o.Blocks, DefaultBlocks, 1, maxBlocks, "--blocks %d: give 1 to %d"); err != nil {
		return err
	}
	if err := inRange(&o.Rate, DefaultRate, 0.1, 10_000, "--rate %g: give 0.1 to %g requests a second"); err != nil {
		return err
	}
	if err := inRange(&o.Batch, DefaultBatch, 1, maxBatch, "--batch %d: give 1 (no batches) to %d"); err != nil {
		return err
	}
	if o.Timeout == 0 {
		o.Timeout = defaultTimeout
	}
	if o.OutDir == "" {
		return fmt.Errorf("no output folder: give --out DIR")
	}
	return nil
}

// Source is the node's URL as the manifest may keep it: scheme and host only. Providers put API
// keys in the userinfo, the query and the path (…/v2/KEY), so none of those is kept.
func Source(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "(an unparsable URL)"
	}
	s := u.Scheme + "://" + u.Host
	if strings.Trim(u.Path, "/") != "" || u.RawQuery != "" || u.User != nil {
		s += "/<path and query not kept>"
	}
	return s
}

// inRange sets *v to def when it is unset (0) and refuses it outside lo..hi with msg, which
// formats the value and hi.
func inRange[T int | float64](v *T, def, lo, hi T, msg string) error {
	if *v == 0 {
		*v = def
	}
	if *v < lo || *v > hi {
		return fmt.Errorf(msg, *v, hi)
	}
	return nil
}
