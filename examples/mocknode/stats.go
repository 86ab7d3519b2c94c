package mocknode

import (
	"strconv"
	"sync/atomic"
)

// Stats is what the node has answered, as GET /stats reports it. Only non-zero entries appear
// in the maps; the maps are never nil.
type Stats struct {
	// Status counts HTTP answers by status code ("200", "429", …); it sums to Requests.
	Status map[string]int64 `json:"status"`
	// Methods counts JSON-RPC calls by method, each call of a batch on its own; methods the node
	// does not know are counted as "other". Rejected requests never reach the node and are not
	// here.
	Methods map[string]int64 `json:"methods"`
	// Requests counts HTTP requests answered on the JSON-RPC endpoint (a batch is one).
	Requests int64 `json:"requests"`
	// Calls counts JSON-RPC calls answered (each call of a batch, and each unparsable or
	// invalid request, counts one).
	Calls int64 `json:"calls"`
	// RPCErrors counts JSON-RPC error answers by code ("-32602", …), per call.
	RPCErrors map[string]int64 `json:"rpc_errors"`
	// WS counts the WebSocket side; its calls are in Calls, Methods and RPCErrors too.
	WS WSStats `json:"ws"`
}

// WSStats counts the WebSocket endpoint. An upgrade is an HTTP request: it is in Requests and
// in Status (as 101, or the refusing status) as well.
type WSStats struct {
	// Upgrades counts connections accepted; Refused, upgrades answered with Config.WSRefuse.
	Upgrades int64 `json:"upgrades"`
	Refused  int64 `json:"refused"`
	// Messages counts JSON-RPC messages answered (a batch is one), Limited among them the
	// ones the limiter answered with -32005 for every call (those calls reach no method and
	// are not in Calls).
	Messages int64 `json:"messages"`
	Limited  int64 `json:"limited"`
	// Dropped counts messages that arrived and were never answered because the node dropped
	// their connection (Config.WSDropEvery: the message that triggers it and any after), and
	// Drops the connections dropped (by Config.WSDropEvery or Config.SubDropAfter).
	Dropped int64 `json:"dropped"`
	Drops   int64 `json:"drops"`
	// Subscriptions counts subscriptions made; Notifications, notifications written.
	Subscriptions int64 `json:"subscriptions"`
	Notifications int64 `json:"notifications"`
	// Skipped counts the notifications left out (Config.SubSkipEvery).
	Skipped int64 `json:"skipped"`
}

// HTTP statuses are counted in a flat array: the node only ever answers 100–599.
const maxStatus = 600

// counters are the node's live counts: atomics only, so counting never blocks an answer.
type counters struct {
	status    [maxStatus]atomic.Int64
	requests  atomic.Int64
	calls     atomic.Int64
	methods   [numMethods]atomic.Int64
	rpcErrors [numCodes]atomic.Int64
	ws        wsCounters
}

// wsCounters are WSStats's live counts.
type wsCounters struct {
	upgrades, refused, messages, limited, dropped, drops, subscriptions, notifications, skipped atomic.Int64
}

// tally is one request's counts, gathered while answering and committed when the answer is
// written, so /stats never shows calls whose answer has not left.
type tally struct {
	calls   int
	items   int
	methods [numMethods]int32
	errors  [numCodes]int32
}

func (t *tally) reset() { *t = tally{} }

// commit counts one answered HTTP request.
func (c *counters) commit(status int, t *tally) {
	if status >= 0 && status < maxStatus {
		c.status[status].Add(1)
	}
	c.requests.Add(1)
	c.commitCalls(t, 1)
}

// commitCalls counts the calls of one answered message (HTTP or WebSocket), or with sign -1
// takes back the count of an answer that could not be written; t may be nil.
func (c *counters) commitCalls(t *tally, sign int64) {
	if t == nil {
		return
	}
	c.calls.Add(sign * int64(t.calls))
	for i, n := range t.methods {
		if n != 0 {
			c.methods[i].Add(sign * int64(n))
		}
	}
	for i, n := range t.errors {
		if n != 0 {
			c.rpcErrors[i].Add(sign * int64(n))
		}
	}
}

// snapshot reads the counters; with zero set it also zeroes them, each counter swapped
// atomically so that no answer counted meanwhile is lost.
func (c *counters) snapshot(zero bool) Stats {
	read := func(a *atomic.Int64) int64 {
		if zero {
			return a.Swap(0)
		}
		return a.Load()
	}
	s := Stats{Status: map[string]int64{}, Methods: map[string]int64{}, RPCErrors: map[string]int64{}}
	for code := range c.status {
		if n := read(&c.status[code]); n != 0 {
			s.Status[strconv.Itoa(code)] = n
		}
	}
	for i := range c.methods {
		if n := read(&c.methods[i]); n != 0 {
			s.Methods[methodName(method(i))] = n
		}
	}
	for i := range c.rpcErrors {
		if n := read(&c.rpcErrors[i]); n != 0 {
			s.RPCErrors[codeText(errCode(i))] = n
		}
	}
	s.Requests = read(&c.requests)
	s.Calls = read(&c.calls)
	w := &c.ws
	s.WS = WSStats{
		Upgrades: read(&w.upgrades), Refused: read(&w.refused),
		Messages: read(&w.messages), Limited: read(&w.limited),
		Dropped: read(&w.dropped), Drops: read(&w.drops),
		Subscriptions: read(&w.subscriptions), Notifications: read(&w.notifications),
		Skipped: read(&w.skipped),
	}
	return s
}
