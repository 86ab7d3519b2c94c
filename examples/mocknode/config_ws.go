package mocknode

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// minBlockTime keeps newHeads subscribers' notifications countable: a block a millisecond
// would be a flood, not a chain.
const minBlockTime = 10 * time.Millisecond

// wsProblems checks the WebSocket and chain-clock knobs; it fills in BlockTime's default.
func (c *Config) wsProblems() []error {
	var errs []error
	switch {
	case c.BlockTime == 0:
		c.BlockTime = ethBlockTime
	case c.BlockTime < minBlockTime || c.BlockTime > maxDelay:
		errs = append(errs, fmt.Errorf("block-time %s is outside %s to %s (0 means mainnet's %s)", c.BlockTime, minBlockTime, maxDelay, ethBlockTime))
	}
	if c.WSRefuse != 0 && (c.WSRefuse < 400 || c.WSRefuse > 599) {
		errs = append(errs, fmt.Errorf("ws-refuse %d is not an HTTP error status: use 400–599 (403 as a proxy that forbids upgrades), or 0 to accept them", c.WSRefuse))
	}
	if c.WSDropEvery < 0 {
		errs = append(errs, fmt.Errorf("ws-drop-every %d is negative: use 0 to never drop a connection", c.WSDropEvery))
	}
	return append(errs, c.subProblems()...)
}

// subProblems checks the subscription knobs.
func (c *Config) subProblems() []error {
	var errs []error
	for _, k := range []struct {
		name, zero string
		v          int
	}{{"sub-limit", "to take every subscription", c.SubLimit}, {"sub-drop-after", "to never drop a subscriber", c.SubDropAfter},
		{"sub-skip-every", "to send every notification", c.SubSkipEvery}} {
		if k.v < 0 {
			errs = append(errs, fmt.Errorf("%s %d is negative: use 0 %s", k.name, k.v, k.zero))
		}
	}
	if c.SubSkipEvery == 1 {
		errs = append(errs, errors.New("sub-skip-every 1 leaves every notification out: use 2 or more, or 0 to send every one"))
	}
	if c.NotifyQueued && c.Capacity == 0 {
		errs = append(errs, errors.New("notify-queued needs a capacity whose queue notifications wait in: set capacity, or drop notify-queued"))
	}
	return errs
}

// wsString adds the WebSocket and chain-clock settings to the one-line summary, when they
// differ from the defaults.
func (c Config) wsString(b *strings.Builder) {
	if c.BlockTime != 0 && c.BlockTime != ethBlockTime {
		b.WriteString("; a block every ")
		b.WriteString(c.BlockTime.String())
	}
	if c.WSRefuse != 0 {
		b.WriteString("; refuses WebSocket with ")
		b.WriteString(strconv.Itoa(c.WSRefuse))
	}
	if c.WSDropEvery > 0 {
		b.WriteString("; drops a WebSocket every ")
		b.WriteString(strconv.Itoa(c.WSDropEvery))
		b.WriteString(" messages")
	}
	for _, k := range []struct {
		text string
		v    int
	}{{"; at most %d subscriptions", c.SubLimit}, {"; drops a subscriber after %d notifications", c.SubDropAfter},
		{"; leaves out the notifications of blocks numbered a multiple of %d", c.SubSkipEvery}} {
		if k.v > 0 {
			fmt.Fprintf(b, k.text, k.v)
		}
	}
	if c.NotifyQueued {
		b.WriteString("; notifications queue behind calls")
	}
	if c.WallClock {
		b.WriteString("; blocks stamped with the wall clock")
	}
}
