package profiles

import (
	"bufio"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// writeTargetsFile writes n json targets, each an eth_getBalance of its own address, the way
// a replay file looks, and returns its path and size.
func writeTargetsFile(t testing.TB, n int) (string, int64) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "replay.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for i := range n {
		body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"eth_getBalance","params":["0x%040x","latest"]}`, i*7919)
		fmt.Fprintf(w, `{"method":"POST","url":"http://127.0.0.1:8545/","body":"%s"}`+"\n", base64.StdEncoding.EncodeToString([]byte(body)))
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, st.Size()
}

// peakHeap runs f and reports the most heap in use seen while it ran (sampled every
// millisecond, so a short peak may be missed: the bound it is held to is wide) and the heap
// still live after it, holding what f returned.
func peakHeap(f func() any) (peak, kept uint64) {
	defer debug.SetGCPercent(debug.SetGCPercent(100)) // the default, whatever GOGC says
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	done, result := make(chan struct{}), make(chan uint64)
	go func() {
		var top uint64
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			top = max(top, m.HeapInuse)
			select {
			case <-done:
				result <- top
				return
			case <-tick.C:
			}
		}
	}()
	held := f()
	close(done)
	peak = <-result
	runtime.GC()
	runtime.ReadMemStats(&ms)
	runtime.KeepAlive(held)
	return peak - min(peak, base), ms.HeapInuse - min(ms.HeapInuse, base)
}

// TestTargetsMemory: a target file takes memory in proportion to its bodies while it loads,
// not several copies of the file: a 1,000,000-line json file of 206 MiB peaked at 4× its size
// (read whole, copied into one string, a target kept per line), and a file over 64 MiB was
// refused as "larger than the maximum body". Now it is read a line at a time and its decoded
// bodies kept in blocks (about 0.65× a base64 file, 1.2× to 1.9× at the peak). The bounds are
// wide (3× at the peak, 1× kept), for the collector's slack.
func TestTargetsMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and loads an 8 MB target file")
	}
	const n = 40_000
	path, size := writeTargetsFile(t, n)
	var weight int
	peak, kept := peakHeap(func() any {
		p, err := FromTargets(path, TargetOptions{Rate: 1, Duration: time.Second}, nil)
		if err != nil {
			t.Fatal(err)
		}
		weight = p.Config.Requests[0].Weight
		return p
	})
	if weight != n {
		t.Fatalf("the targets make a request of weight %d, want %d", weight, n)
	}
	mib := func(b uint64) float64 { return float64(b) / (1 << 20) }
	t.Logf("a %.1f MiB file: %.1f MiB at the peak, %.1f MiB kept", mib(uint64(size)), mib(peak), mib(kept))
	if limit := uint64(size) * 3; peak > limit {
		t.Errorf("loading a %.1f MiB target file took up to %.1f MiB of heap, want at most %.1f (3×)", mib(uint64(size)), mib(peak), mib(limit))
	}
	if kept > uint64(size) {
		t.Errorf("a %.1f MiB target file keeps %.1f MiB, more than its size", mib(uint64(size)), mib(kept))
	}
}
