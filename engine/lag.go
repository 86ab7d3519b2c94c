package engine

import (
	"sync/atomic"
	"time"
)

// A second is flagged "tester behind" (Row.Saturated) when, during it, the scheduler handed out
// sends later than the tick they were due at (the grain's own wait, up to a send_tick, is the
// user's choice and shows as send lag, not here) by more than both of these:
//
//   - saturationLag: 10 ms is 1 % of a second, so the sends delayed (those due while the
//     scheduler was late) are enough to reach that second's p99. Below it the tester's delay
//     cannot show in the percentiles people quote.
//   - a tenth of that second's p99 latency: against a target answering in 500 ms, 15 ms of the
//     tester's own is noise; against one answering in 4 ms it is most of the tail.
//
// Both keep the flag true when shown: the seconds' latencies do include that much of the
// tester's own delay. Measured on this project's 2-core VM shared with other builds, the demo
// at 250/s used a tenth of a core and still woke up to 109 ms late in 20 of 32 s: other
// processes held the CPU. The flag used to stay up for a second after any 10 ms wake and be
// read when a row closed half a second later, so it also marked seconds without any lag.
const (
	saturationLag = 10 * time.Millisecond
	lagShareOfP99 = 0.1
)

// lagSlots is how many recent seconds the lag book keeps; the aggregator reads a second about
// 1.5 s after it began (rowGrace), well within them.
const lagSlots = 8

// lagBook records, per second of the run, how late the scheduler handed out sends at worst.
// The scheduler writes it on every wake that was late; the aggregator reads a second when it
// closes that second's row. Each slot packs the second and the lag (µs) in one word, so a
// reader never mixes one second's lag with another's.
type lagBook struct {
	slots [lagSlots]atomic.Int64
}

const lagBits = 24 // µs: lags up to 16.7 s, then capped

func packLag(second int, lag time.Duration) int64 {
	us := min(max(lag.Microseconds(), 0), 1<<lagBits-1)
	return int64(second)<<lagBits | us
}

// record notes a send handed out lag late during second.
func (b *lagBook) record(second int, lag time.Duration) {
	slot := &b.slots[second%lagSlots]
	want := packLag(second, lag)
	for {
		old := slot.Load()
		if old>>lagBits == int64(second) && old >= want {
			return // this second already saw a worse lag
		}
		if slot.CompareAndSwap(old, want) {
			return
		}
	}
}

// worst is the worst lag recorded during second (0 when none, or when the slot was reused).
func (b *lagBook) worst(second int) time.Duration {
	v := b.slots[second%lagSlots].Load()
	if v>>lagBits != int64(second) {
		return 0
	}
	return time.Duration(v&(1<<lagBits-1)) * time.Microsecond
}

// testerBehind reports whether a second whose sends left up to lag late and whose answers had
// p99ms as their p99 latency is one where the tester's own delay shows (see saturationLag).
func testerBehind(lag time.Duration, p99ms float64) bool {
	return lag > saturationLag && lag.Seconds()*1000 > lagShareOfP99*p99ms
}

// TesterLoad is the tester's own health in the last complete second: how late it sent at worst
// and how much CPU it used, so a warning can say whether the machine or the tester is short.
type TesterLoad struct {
	Lag    time.Duration // the worst send lag of the scheduler in that second
	Behind bool          // the lag shows in that second's latency (Row.Saturated)
	CPU    float64       // cores this process used over that second; < 0 when unknown
	Cores  int           // cores it may use (GOMAXPROCS)
}
