package answers

import (
	"fmt"
	"runtime"
	"testing"
)

// heapAfterGC is the live heap, collected first.
func heapAfterGC() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestFlatMemory: a run of 1,000,000 requests to two targets, 256 in flight at any time, a
// third of them mismatching and some answered with errors or not at all, holds the same memory
// after its first 100,000 requests as at its end: pending entries only for requests in flight,
// examples only the first few per name and kind. (A tenth of that under -race.)
func TestFlatMemory(t *testing.T) {
	const inFlight = 256
	requests, mark := uint64(1_000_000), uint64(100_000)
	if raceDetector {
		requests, mark = requests/10, mark/10
	}
	c := newComparer(t, Options{}, "a", "b")
	names := []string{"eth_getBalance", "eth_call", "eth_blockNumber", "eth_getCode"}
	answers := make([][]byte, 16)
	for i := range answers {
		answers[i] = fmt.Appendf(nil, `{"jsonrpc":"2.0","id":1,"result":"0x%x"}`, i)
	}
	errAnswer := []byte(badArgs)
	var atMark uint64
	for seq := range requests + inFlight {
		if seq < requests { // target a answers at once
			c.Add(seq, names[seq%4], nil, Answer{Target: 0, Body: answers[0]})
		}
		if seq >= inFlight { // target b answers inFlight requests later
			s := seq - inFlight
			b := Answer{Target: 1, Body: answers[0]}
			switch s % 6 {
			case 1, 4:
				b.Body = answers[1+s%15]
			case 3:
				b.Body = errAnswer
			case 5:
				b.Missing = s%12 == 5 // every other one of these: no answer
			}
			c.Add(s, names[s%4], nil, b)
		}
		if seq == mark {
			atMark = heapAfterGC()
		}
	}
	atEnd := heapAfterGC()
	r := c.Result()
	if r.Totals.Compared != int64(requests) || len(c.pending) != 0 {
		t.Fatalf("compared %d, %d pending: want %d and none", r.Totals.Compared, len(c.pending), requests)
	}
	grew := int64(atEnd) - int64(atMark)
	t.Logf("heap after %d requests %d KiB, after %d %d KiB (grew %d KiB); %d examples; totals %+v",
		mark, atMark>>10, requests, atEnd>>10, grew>>10, len(r.Examples), r.Totals)
	if grew > 512<<10 {
		t.Errorf("the heap grew %d KiB from request %d to %d: memory must stay flat", grew>>10, mark, requests)
	}
}
