package mocknode

import (
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
}
