package mocknode

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Bounds that keep the arithmetic exact and catch typos; nothing useful lies beyond them.
const (
	// minRate is nginx's resolution: it keeps rates in thousandths of a request per second.
	minRate Rate = 0.001
	// maxBurst keeps burst×1000 (nginx's unit) far from overflow.
	maxBurst = 1_000_000_000
	// maxDelay bounds each latency knob; a mock answering slower than this is a typo.
	maxDelay = time.Hour
	// defaultLimitStatus is what clients expect from a limiter; nginx's own default is 503.
	defaultLimitStatus = 429
)

// Config is how the mock node behaves. The zero value is a plain, fast, unlimited node.
type Config struct {
	// Rate is the limit_req rate; 0 turns the limiter off.
	Rate Rate
	// Burst is limit_req's burst: how many requests above the rate may be queued (or, with
	// NoDelay, answered at once) before rejecting.
	Burst int
	// NoDelay answers accepted burst requests at once instead of spacing them at Rate.
	NoDelay bool
	// LimitStatus is the HTTP status of rejected requests (nginx's limit_req_status); 0 means 429.
	LimitStatus int
	// Latency is added to every answer that reaches the node.
	Latency time.Duration
	// Jitter adds a uniform random [0, Jitter) on top of Latency.
	Jitter time.Duration
	// PerItem is added per item: per call of a batch, and per element of a call's answer where
	// it lists many (slots of getBlocks, transactions of getBlock, logs of eth_getLogs,
	// accounts of getProgramAccounts, signatures of getSignaturesForAddress, blocks of
	// eth_feeHistory), so heavy calls take longer as on a real node.
	PerItem time.Duration
	// Capacity is how many JSON-RPC calls per second the node serves, one after another;
	// beyond it answers queue and latency climbs. 0 means unlimited.
	Capacity Rate
	// StallEvery and StallFor freeze the node for StallFor once every StallEvery (the first
	// stall starts StallEvery after the node starts); both zero means never.
	StallEvery, StallFor time.Duration
	// Retain is how many blocks behind the head the node keeps, as a pruned node does: EVM
	// state (eth_getBalance, eth_call, eth_getTransactionCount, eth_getCode) at an older block
	// answers geth's "missing trie node" error, and Solana's ledger starts that many slots
	// behind its head (getFirstAvailableBlock). 0 is an archive node that keeps everything.
	Retain int
	// BlockTime is the EVM chain's block period: how fast eth_blockNumber grows and how often
	// newHeads subscribers hear of a block. 0 means mainnet's 12 s. Block timestamps stay
	// mainnet's (genesis + 12 s a block), so a block's content never depends on the setting.
	BlockTime time.Duration
	// WSRefuse answers every WebSocket upgrade with this HTTP status instead of 101, as a
	// server or proxy that does not speak WebSocket; 0 accepts upgrades.
	WSRefuse int
	// WSDropEvery drops a WebSocket connection when its Nth message arrives, unanswered (the
	// node half-closes it, then discards what the client still sends), as a proxy or node
	// restarting under its clients does; 0 never drops.
	WSDropEvery int
	// H2C serves HTTP/2 in cleartext with prior knowledge beside HTTP/1.1, through net/http's
	// server instead of fasthttp's (see h2c.go).
	H2C bool
	// SubLimit refuses a subscription while SubLimit are live on the node, with -32005 as a
	// provider caps them; 0 takes every one.
	SubLimit int
	// SubDropAfter closes a connection (close 1001, going away) once it has been sent that
	// many notifications, as a node restarting under its subscribers does; 0 never does.
	SubDropAfter int
	// SubSkipEvery leaves every block (or slot) whose number is a multiple of it out of every
	// subscription, as a node that drops what it cannot send in time: its subscribers see
	// gaps. 0 sends every one.
	SubSkipEvery int
	// NotifyQueued makes each notification wait for the Capacity server behind the calls
	// queued there, and take its turn as a call does: on a node whose one loop serves both, a
	// spike of calls sends notifications late. It needs a Capacity.
	NotifyQueued bool
	// WallClock stamps each EVM block with the time the node made it (whole seconds), not
	// mainnet's schedule, and starts the chain on a whole second: the lag of a newHeads
	// notification behind its block's timestamp is then the node's delay, as a subscriber
	// measures on a live chain. Blocks' contents then depend on when the node started.
	WallClock bool
}

// normalized checks c and returns it with defaults filled in. Every error says which knob is
// wrong and what would be right.
func (c Config) normalized() (Config, error) {
	// errors.Join drops the nils of the knobs that are right.
	errs := []error{rateProblem("rate", c.Rate, "to turn the limiter off", "nginx's resolution of 0.001/s (0.06/m)")}
	switch {
	case c.Burst < 0:
		errs = append(errs, fmt.Errorf("burst %d is negative: use 0 for no burst", c.Burst))
	case c.Burst > maxBurst:
		errs = append(errs, fmt.Errorf("burst %d is above the maximum of %d", c.Burst, maxBurst))
	case c.Burst > 0 && c.Rate == 0:
		errs = append(errs, fmt.Errorf("burst %d needs a rate: set a rate or drop the burst", c.Burst))
	}
	if c.NoDelay && c.Rate == 0 {
		errs = append(errs, errors.New("nodelay needs a rate: set a rate or drop nodelay"))
	}
	if c.LimitStatus == 0 {
		c.LimitStatus = defaultLimitStatus
	}
	if c.LimitStatus < 400 || c.LimitStatus > 599 {
		errs = append(errs, fmt.Errorf("limit status %d is not an HTTP error status: use 400–599 (429 or nginx's 503)", c.LimitStatus))
	}
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"latency", c.Latency}, {"jitter", c.Jitter}, {"per-item", c.PerItem}, {"stall-every", c.StallEvery}, {"stall-for", c.StallFor}} {
		if d.v < 0 {
			errs = append(errs, fmt.Errorf("%s %s is negative", d.name, d.v))
		} else if d.v > maxDelay {
			errs = append(errs, fmt.Errorf("%s %s is above the maximum of %s", d.name, d.v, maxDelay))
		}
	}
	errs = append(errs, rateProblem("capacity", c.Capacity, "for unlimited", "the minimum of 0.001/s"))
	errs = append(errs, c.wsProblems()...)
	if c.Retain < 0 {
		errs = append(errs, fmt.Errorf("retain %d is negative: use 0 for an archive node that keeps every block", c.Retain))
	}
	switch {
	case c.StallEvery == 0 && c.StallFor == 0:
	case c.StallEvery <= 0 || c.StallFor <= 0:
		errs = append(errs, fmt.Errorf("stall-every %s and stall-for %s: set both or neither", c.StallEvery, c.StallFor))
	case c.StallFor >= c.StallEvery:
		errs = append(errs, fmt.Errorf("stall-for %s must be shorter than stall-every %s, or the node never answers", c.StallFor, c.StallEvery))
	}
	if err := errors.Join(errs...); err != nil {
		return c, fmt.Errorf("mocknode config: %w", err)
	}
	return c, nil
}

// rateProblem checks a rate knob, where 0 means off (off says what): it may be neither
// negative nor so small that it falls below floor, minRate in words.
func rateProblem(name string, r Rate, off, floor string) error {
	switch {
	case r < 0:
		return fmt.Errorf("%s %s is negative: use 0 %s", name, r, off)
	case r > 0 && r < minRate:
		return fmt.Errorf("%s %v/s is below %s", name, float64(r), floor)
	}
	return nil
}

// String is the one-line summary of the settings that `rpcstress mocknode` and --demo print.
func (c Config) String() string {
	var b strings.Builder
	if c.Rate > 0 {
		b.WriteString("limit ")
		b.WriteString(c.Rate.String())
		b.WriteString(" burst ")
		b.WriteString(strconv.Itoa(c.Burst))
		if c.NoDelay {
			b.WriteString(" nodelay")
		} else {
			b.WriteString(" delaying")
		}
		status := c.LimitStatus
		if status == 0 {
			status = defaultLimitStatus
		}
		b.WriteString(", rejects with ")
		b.WriteString(strconv.Itoa(status))
	} else {
		b.WriteString("no limit")
	}
	b.WriteString("; latency ")
	b.WriteString(c.Latency.String())
	if c.Jitter > 0 {
		b.WriteString(" + jitter ")
		b.WriteString(c.Jitter.String())
	}
	if c.PerItem > 0 {
		b.WriteString(" + ")
		b.WriteString(c.PerItem.String())
		b.WriteString("/item")
	}
	if c.Capacity > 0 {
		b.WriteString("; capacity ")
		b.WriteString(c.Capacity.String())
	} else {
		b.WriteString("; capacity unlimited")
	}
	if c.StallEvery > 0 {
		b.WriteString("; stalls ")
		b.WriteString(c.StallFor.String())
		b.WriteString(" every ")
		b.WriteString(c.StallEvery.String())
	}
	c.wsString(&b)
	if c.Retain > 0 {
		b.WriteString("; keeps the last ")
		b.WriteString(strconv.Itoa(c.Retain))
		b.WriteString(" blocks")
	}
	if c.H2C {
		b.WriteString("; HTTP/2 cleartext (h2c) too")
	}
	return b.String()
}
