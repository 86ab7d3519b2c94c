package profiles

import (
	"fmt"

	"github.com/rpcstress/rpcstress/engine"
)

// limits reads [limits]: which HTTP statuses and JSON-RPC error codes mean "rate-limited".
// Keys left out keep engine.DefaultLimits.
func (c *checker) limits(doc table) engine.Limits {
	l := engine.DefaultLimits()
	t, ok := c.subTable(doc, "", "limits", "[limits] with statuses = [429]")
	if !ok {
		return l
	}
	c.unknownKeys(t, "limits", limitsKeys())
	if s, ok := c.intList(t, "limits", "statuses", 100, 599, "statuses = [429, 503]"); ok {
		l.Statuses = s
	}
	if s, ok := c.intList(t, "limits", "rpc_codes", -1<<31, 1<<31-1, "rpc_codes = [-32005, 429]"); ok {
		l.RPCCodes = s
	}
	return l
}

// intList reads an array of integers within [lo, hi]; an empty array is a valid empty list.
func (c *checker) intList(t table, path, key string, lo, hi int64, example string) ([]int, bool) {
	list, ok := value[[]any](c, t, path, key, "a list of whole numbers", example)
	if !ok {
		return nil, false
	}
	field := joinPath(path, key)
	out := make([]int, 0, len(list))
	good := true
	for i, e := range list {
		n, ok := e.(int64)
		switch {
		case !ok:
			c.addf(field, "item %d is %s: write a list of whole numbers, e.g. %s", i+1, describeValue(e), example)
			good = false
		case n < lo || n > hi:
			c.addf(field, "item %d, %d, is out of range: use %s", i+1, n, rangeText(lo, hi))
			good = false
		default:
			out = append(out, int(n))
		}
	}
	return out, good
}

func rangeText(lo, hi int64) string {
	if lo == 100 && hi == 599 {
		return "HTTP statuses from 100 to 599"
	}
	return fmt.Sprintf("numbers from %d to %d", lo, hi)
}

// demo reads [demo]: the embedded mock node's settings for `rpcstress --demo`. Keys left out
// are zero, which the mock node reads as "off" (no limiter, no added latency).
func (c *checker) demo(doc table) DemoNode {
	var d DemoNode
	t, ok := c.subTable(doc, "", "demo", `[demo] with rate = "1000/s", burst = 60`)
	if !ok {
		return d
	}
	c.unknownKeys(t, "demo", demoKeys())
	d.Rate, _ = c.rate(t, "demo", "rate")
	if n, ok := c.integer(t, "demo", "burst", 0, 1_000_000_000, "burst = 60"); ok {
		d.Burst = int(n)
	}
	d.NoDelay, _ = c.boolean(t, "demo", "nodelay", "nodelay = true")
	d.Latency, _ = c.duration(t, "demo", "latency", `latency = "2ms"`)
	d.Jitter, _ = c.duration(t, "demo", "jitter", `jitter = "1ms"`)
	d.Capacity, _ = c.rate(t, "demo", "capacity")
	d.StallEvery, _ = c.duration(t, "demo", "stall_every", `stall_every = "10s"`)
	d.StallFor, _ = c.duration(t, "demo", "stall_for", `stall_for = "1s"`)
	if d.Burst > 0 && d.Rate == 0 {
		c.addf("demo.burst", `needs a rate: set demo.rate, e.g. rate = "1000/s", or drop burst`)
	}
	if (d.StallEvery == 0) != (d.StallFor == 0) {
		c.addf("demo.stall_for", `stall_every and stall_for go together: set both (e.g. "10s" and "1s") or neither`)
	} else if d.StallFor > 0 && d.StallFor >= d.StallEvery {
		c.addf("demo.stall_for", "must be shorter than stall_every, or the node never answers")
	}
	return d
}
