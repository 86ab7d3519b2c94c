package mocknode

import (
	"fmt"
	"math"
	"sync"
	"time"
)

// Limiter is nginx's limit_req with a single zone and a single key (every request shares one
// bucket), reproduced with nginx's own integer arithmetic so that a run against the mock node
// shows the same 200/429 pattern as a run against a real nginx with the same settings.
//
// The model, in nginx's units (ngx_http_limit_req_module.c):
//
//   - rate is kept in thousandths of a request per second, truncated: rate = ⌊r/s × 1000⌋.
//     10r/m is therefore 166, not 166.67, and a slot refills after 6025 ms rather than 6000.
//   - burst is kept as burst × 1000; excess (the requests queued above the rate) in thousandths.
//   - time is whole milliseconds; ms = now − last (ms < −60000 counts as 1, ms < 0 as 0).
//   - the first request ever creates the bucket with excess 0 and is accepted.
//   - each later request computes excess' = max(0, excess − rate×ms/1000 + 1000), the division
//     truncating. If excess' > burst the request is rejected and nothing changes. Otherwise the
//     bucket keeps excess' and, only if ms > 0, last = now (so the truncated remainder of the
//     leak is lost, as in nginx: frequent requests at low rates leak nothing).
//   - an accepted request is delayed by excess'×1000/rate milliseconds (truncated) unless
//     nodelay is set; the delayed requests are the ones queued "in the burst".
//
// This is the same as the textbook leaky bucket e' = max(0, e − rate×elapsed) + 1, reject when
// e' − 1 > burst, delay (e' − 1)/rate, with e = excess + 1; nginx simply stores e − 1.
//
// A Limiter is safe for concurrent use. The clock is a parameter of Admit, so tests drive it.
type Limiter struct {
	mu      sync.Mutex
	rate    int64 // thousandths of a request per second (nginx ctx->rate)
	burst   int64 // thousandths of a request (nginx limit->burst)
	nodelay bool
	epoch   time.Time // time zero of the millisecond clock
	excess  int64     // thousandths of a request (nginx lr->excess)
	last    int64     // ms since epoch of the last accepted request that moved the clock
	started bool      // the bucket exists (nginx creates it on the first request)
}

// NewLimiter makes a limiter of rate (at least 0.001/s, nginx's resolution), burst (≥ 0) and
// nodelay. epoch is time zero of its millisecond clock: any instant at or before the first
// request.
func NewLimiter(rate Rate, burst int, nodelay bool, epoch time.Time) (*Limiter, error) {
	milli := int64(math.Floor(float64(rate)*1000 + 1e-6)) // the epsilon undoes float noise like 0.1×1000 = 99.999…
	if rate < minRate || milli < 1 || rate > maxRate {
		return nil, fmt.Errorf("limiter rate %v/s: must be between 0.001/s and %s", float64(rate), maxRate)
	}
	if burst < 0 || burst > maxBurst {
		return nil, fmt.Errorf("limiter burst %d: must be between 0 and %d", burst, maxBurst)
	}
	return &Limiter{rate: milli, burst: int64(burst) * 1000, nodelay: nodelay, epoch: epoch}, nil
}

// Admit decides on one request arriving at now: whether it is accepted and, if so, how long
// nginx would hold it before passing it on (always 0 with nodelay).
func (l *Limiter) Admit(now time.Time) (accepted bool, delay time.Duration) {
	nowMs := now.Sub(l.epoch).Milliseconds()
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.started {
		l.started = true
		l.excess = 0
		l.last = nowMs
		return true, 0
	}
	ms := nowMs - l.last
	switch {
	case ms < -60000:
		ms = 1
	case ms < 0:
		ms = 0
	}
	excess := l.excess - leak(l.rate, ms) + 1000
	if excess < 0 {
		excess = 0
	}
	if excess > l.burst {
		return false, 0
	}
	l.excess = excess
	if ms != 0 {
		l.last = nowMs
	}
	if l.nodelay {
		return true, 0
	}
	return true, time.Duration(excess*1000/l.rate) * time.Millisecond
}

// leak is rate×ms/1000 in nginx's truncating integer arithmetic, saturating instead of
// overflowing after very long idle times (the bucket is empty by then anyway).
func leak(rate, ms int64) int64 {
	if ms > 0 && rate > math.MaxInt64/ms {
		return math.MaxInt64 / 2
	}
	return rate * ms / 1000
}
