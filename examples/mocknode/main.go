package mocknode

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"strings"

	"github.com/rpcstress/rpcstress/internal/cliflag"
)

// Exit codes of Main, following the usual convention of Go tools.
const (
	exitOK    = 0
	exitError = 1 // could not listen or serve
	exitUsage = 2 // bad flags
)

// Main is the `rpcstress mocknode` subcommand: it parses args (the flags after the verb),
// serves until ctx is cancelled (the caller turns signals into cancellation) and returns the
// process exit code. It prints one line saying where it listens and how it behaves, and one
// with the final counts when it stops.
func Main(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	const name = "rpcstress mocknode"
	var cfg Config
	var listen string
	fs := Flags(&cfg, &listen)
	pos, err := cliflag.Parse(fs, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		_, _ = fmt.Fprintf(stdout, "usage: %s [flags]\n\n%s\n\nflags:\n", name, cliflag.Wrap(About, cliflag.Width))
		cliflag.PrintFlags(stdout, fs)
		return exitOK
	case err != nil:
		_, _ = fmt.Fprintf(stderr, "%s: %v\n%s --help for the flags\n", name, err, name)
		return exitUsage
	}
	if len(pos) > 0 {
		_, _ = fmt.Fprintf(stderr, "%s: unexpected argument %q: every setting is a flag (see --help)\n", name, pos[0])
		return exitUsage
	}
	n, err := New(cfg)
	if err != nil {
		_, _ = fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return exitUsage
	}

	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", listen)
	if err != nil {
		_, _ = fmt.Fprintf(stderr, "%s: cannot listen on %s: %v (is another node running there? try --listen 127.0.0.1:0)\n", name, listen, err)
		return exitError
	}
	_, _ = fmt.Fprintf(stdout, "mocknode listening on http://%s (%s)\n", ln.Addr(), n.Config())
	if err := n.Serve(ctx, ln); err != nil {
		_, _ = fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return exitError
	}
	final, _ := json.Marshal(n.Stats()) // maps of strings to integers always marshal
	_, _ = fmt.Fprintf(stdout, "mocknode stopped: %s\n", final)
	return exitOK
}

// About says what the mock node is, for its help.
const About = "A mock JSON-RPC node (getBalance, getSlot, getBlocks, eth_blockNumber, " +
	"eth_getBalance, eth_getBlockByNumber) with an nginx limit_req limiter, latency, capacity " +
	"and stalls. GET /stats shows its counts, POST /stats/reset zeroes them."

// Flags is the mock node's flag set, writing into cfg and listen: Main parses it, and
// rpcstress's help and shell completion list it.
func Flags(cfg *Config, listen *string) *flag.FlagSet {
	fs := flag.NewFlagSet("rpcstress mocknode", flag.ContinueOnError)
	fs.StringVar(listen, "listen", "127.0.0.1:8899", "`address` to listen on; port 0 picks a free port")
	fs.Var(rateValue{&cfg.Rate}, "rate", "limit_req `rate`: 1000/s, 240/m, 240r/m or a number per second (default off)")
	fs.IntVar(&cfg.Burst, "burst", 0, "limit_req burst: requests above the rate queued (or, with --nodelay, let through) before rejecting")
	fs.BoolVar(&cfg.NoDelay, "nodelay", false, "answer burst requests at once instead of spacing them at the rate")
	fs.IntVar(&cfg.LimitStatus, "status", defaultLimitStatus, "HTTP `status` of rejected requests (nginx's limit_req_status; nginx defaults to 503)")
	cliflag.DurationVar(fs, &cfg.Latency, "latency", 0, "base latency of every answer")
	cliflag.DurationVar(fs, &cfg.Jitter, "jitter", 0, "uniform random latency added on top, [0, jitter)")
	cliflag.DurationVar(fs, &cfg.PerItem, "per-item", 0, "latency per item: per call of a batch, per slot of a getBlocks range")
	fs.Var(rateValue{&cfg.Capacity}, "capacity", "JSON-RPC calls per second the node serves one after another; beyond it answers queue (default unlimited)")
	cliflag.DurationVar(fs, &cfg.StallEvery, "stall-every", 0, "freeze the node once every `interval` (needs --stall-for)")
	cliflag.DurationVar(fs, &cfg.StallFor, "stall-for", 0, "how long each freeze holds answers")
	return fs
}

// rateValue is a flag.Value for rates, parsed by parseRate; "off", "unlimited" and 0
// mean none.
type rateValue struct{ r *Rate }

// String shows the rate, or "off"; flag also calls it on a zero rateValue.
func (v rateValue) String() string {
	if v.r == nil || *v.r == 0 {
		return "off"
	}
	return v.r.String()
}

// Set parses a rate.
func (v rateValue) Set(s string) error {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "off", "none", "unlimited":
		*v.r = 0
		return nil
	}
	r, err := parseRate(s)
	if err != nil {
		return fmt.Errorf("bad rate: %w", err)
	}
	*v.r = r
	return nil
}
