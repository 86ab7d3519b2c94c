package mocknode

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
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
	pos, err := parseFlags(fs, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		printHelp(stdout, Flags(new(Config), new(string))) // a fresh set: parseFlags wrapped fs's values
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
const About = "A mock JSON-RPC node following a fake Solana ledger (getSlot, getBlock, " +
	"getTransaction, getSignaturesForAddress, getBalance, getAccountInfo, getProgramAccounts, …) " +
	"and a fake EVM chain with ERC-20 tokens (eth_getBlockByNumber, eth_getTransactionReceipt, " +
	"eth_getLogs, eth_call balanceOf, eth_getBalance, …), the same for the same block every time, " +
	"with an nginx limit_req limiter, latency, capacity, stalls and pruning. GET /stats shows its " +
	"counts, POST /stats/reset zeroes them."
