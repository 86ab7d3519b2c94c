package answers

import (
	"fmt"
	"sync"
	"testing"
)

// TestConcurrentAdd: three targets' workers add their answers at once, in no order, while a
// dashboard reads the live counts; every request is counted once, with its kind. Run with
// -race.
func TestConcurrentAdd(t *testing.T) {
	const (
		requests = 20_000
		workers  = 4 // per target
	)
	names := []string{"a", "b", "c"}
	c := newComparer(t, Options{Keep: 3}, names...)
	// Target c answers every 5th request differently, every 7th with an error; b drops every
	// 11th. The expected counts follow from seq alone.
	answer := func(target int, seq uint64) Answer {
		a := Answer{Target: target, Body: fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"result":"0x%x"}`, seq, seq)}
		switch {
		case target == 1 && seq%11 == 0:
			a = Answer{Target: target, Missing: true}
		case target == 2 && seq%7 == 0:
			a.Body = []byte(badArgs)
		case target == 2 && seq%5 == 0:
			a.Body = []byte(okOne)
		}
		return a
	}
	var want Counts
	for seq := range uint64(requests) {
		want.Compared++
		switch {
		case seq%7 == 0:
			want.ErrorVsResult++
		case seq%5 == 0:
			want.Mismatch++
		case seq%11 == 0:
			want.Incomplete++
		default:
			want.Match++
		}
	}

	var wg sync.WaitGroup
	stop := make(chan struct{})
	go func() { // the dashboard
		for {
			select {
			case <-stop:
				return
			default:
				if r := c.Live(); r.Totals.Compared > requests {
					t.Errorf("live: %d compared", r.Totals.Compared)
				}
			}
		}
	}()
	for target := range names {
		for w := range workers {
			wg.Go(func() {
				// Worker w of each target takes every workers-th request, from the end for
				// odd targets, so answers of one request meet in every order.
				for i := w; i < requests; i += workers {
					seq := uint64(i)
					if target%2 == 1 {
						seq = requests - 1 - uint64(i)
					}
					c.Add(seq, "r", nil, answer(target, seq))
				}
			})
		}
	}
	wg.Wait()
	close(stop)
	r := c.Result()
	if r.Totals != want || r.ByRequest["r"] != want {
		t.Errorf("totals %+v\nwant   %+v", r.Totals, want)
	}
	if len(r.Examples) != 2*3 { // Keep per kind: mismatch and error (a dropped answer shows nothing)
		t.Errorf("%d examples, want 6", len(r.Examples))
	}
}
