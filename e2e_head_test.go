package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/rpcstress/rpcstress/examples/mocknode"
	"github.com/rpcstress/rpcstress/internal/headtest"
)

// slotRecorder stands in front of a node and records the first param of every call of one
// method on its way there: what the node saw. It parses the calls itself (encoding/json),
// sharing nothing with the tester.
type slotRecorder struct {
	url    string
	method string
	mu     sync.Mutex
	seen   map[string][]uint64 // request id's kind ("head", "recent") → params[0]
}

// startRecorder puts a recorder of method's calls in front of node for the rest of the test.
func startRecorder(t *testing.T, node, method string) *slotRecorder {
	rec := &slotRecorder{method: method, seen: map[string][]uint64{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var call struct {
			Method string            `json:"method"`
			Params []json.RawMessage `json:"params"`
			ID     string            `json:"id"`
		}
		if json.Unmarshal(body, &call) == nil && call.Method == method && len(call.Params) > 0 {
			var slot uint64
			if json.Unmarshal(call.Params[0], &slot) == nil {
				kind, _, _ := strings.Cut(call.ID, "-")
				rec.mu.Lock()
				rec.seen[kind] = append(rec.seen[kind], slot)
				rec.mu.Unlock()
			}
		}
		resp, err := http.Post(node, "application/json", bytes.NewReader(body))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(resp.StatusCode)
		_, _ = io.Copy(w, resp.Body)
	}))
	t.Cleanup(srv.Close)
	rec.url = srv.URL + "/"
	return rec
}

func (r *slotRecorder) values(kind string) []uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]uint64(nil), r.seen[kind]...)
}

// nodeSlot asks a Solana node for its slot.
func nodeSlot(t *testing.T, url string) uint64 {
	t.Helper()
	n, err := slotOf(url)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// slotOf is nodeSlot for a goroutine that is not the test's.
func slotOf(url string) (uint64, error) {
	resp, err := http.Post(url, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"getSlot"}`))
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	var answer struct{ Result uint64 }
	err = json.NewDecoder(resp.Body).Decode(&answer)
	return answer.Result, err
}

// headProfile sends getBlocks from the head and from one of the last 20 slots, with ids that
// say which (a raw body: the id is the recorder's label), following the head every 200 ms.
const headProfile = `chain = "solana"
head_every = "200ms"
[[request]]
body = '{"jsonrpc":"2.0","id":"head-{{seq}}","method":"getBlocks","params":[{{head}}]}'
[[request]]
body = '{"jsonrpc":"2.0","id":"recent-{{seq}}","method":"getBlocks","params":[{{recent 20}}]}'
[[stage]]
rate = "60/s"
duration = "3s"
`

// TestE2EHeadTemplates: a run whose params say {{head}} sends the chain's head as the node
// knows it: every value the node saw lies within [its slot before the run, its slot after],
// and the values move with the chain; {{recent 20}} stays within the 20 slots below. The
// snapshot keeps the head per second, and every answer was ok (the node serves those slots).
func TestE2EHeadTemplates(t *testing.T) {
	t.Parallel()
	_, node := startNode(t, mocknode.Config{})
	rec := startRecorder(t, node, "getBlocks")
	p := writeProfile(t, rec.url, 8, headProfile)
	before := nodeSlot(t, node)
	r := runCLI(t, nil, p, "--rate", "60/s", "--duration", "3s")
	after := nodeSlot(t, node)
	if r.code != 0 || r.snap == nil {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	heads, recents := rec.values("head"), rec.values("recent")
	if len(heads)+len(recents) != int(r.snap.Totals.Completed) || r.snap.Totals.OK != r.snap.Totals.Completed {
		t.Errorf("the node saw %d+%d getBlocks; the run completed %d, ok %d", len(heads), len(recents), r.snap.Totals.Completed, r.snap.Totals.OK)
	}
	distinct := map[uint64]bool{}
	for _, h := range heads {
		if h < before || h > after {
			t.Errorf("{{head}} sent %d, outside the node's [%d, %d]", h, before, after)
		}
		distinct[h] = true
	}
	for _, h := range recents {
		if h+19 < before || h > after {
			t.Errorf("{{recent 20}} sent %d, outside [%d-19, %d]", h, before, after)
		}
	}
	// 3 s of 400 ms slots, read every 200 ms: the head moves several times.
	if len(distinct) < 3 {
		t.Errorf("{{head}} sent %d distinct slots in 3s (%d..%d on the node): it did not follow the chain", len(distinct), before, after)
	}
	c := r.snap.Chain
	if c == nil || c.Name != "solana" || c.HeadStart < before || c.Target.Reads < 5 || c.Target.Failures != 0 {
		t.Fatalf("chain %+v (node at %d before)", c, before)
	}
	for _, row := range r.snap.Timeline {
		if row.Head == nil || *row.Head < before || *row.Head > after {
			t.Errorf("row %d: head %v outside [%d, %d]", row.T, row.Head, before, after)
		}
	}
	if !regexp.MustCompile(`⟶ \d\.0s head 3\d\d,\d\d\d,\d\d\d`).MatchString(r.stdout) {
		t.Errorf("the lines do not show the head:\n%s", r.stdout)
	}
}

// TestE2EHeadRefLag: with --ref-url naming a node 100 slots ahead of the target, the timeline
// holds both heads every second, 100 apart, and the lines say the lag.
func TestE2EHeadRefLag(t *testing.T) {
	t.Parallel()
	_, node := startNode(t, mocknode.Config{})
	ahead := headtest.Start(t, "solana", 0)
	ahead.Follow(func() uint64 {
		n, _ := slotOf(node) // a failed read answers 100: a lag the test sees as wrong
		return n + 100
	})
	p := writeProfile(t, node, 8, headProfile)
	r := runCLI(t, nil, p, "--ref-url", ahead.URL, "--rate", "20/s", "--duration", "2s")
	if r.code != 0 || r.snap == nil {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if c := r.snap.Chain; c == nil || c.Ref == nil || c.Ref.URL != ahead.URL || c.Ref.Reads < 3 {
		t.Fatalf("chain %+v", c)
	}
	rows := 0
	for _, row := range r.snap.Timeline {
		if row.Head == nil || row.RefHead == nil {
			continue
		}
		rows++
		// The two are read apart, by up to a read interval and more on a busy machine: a few
		// slots either way.
		if lag := int64(*row.RefHead) - int64(*row.Head); lag < 95 || lag > 105 {
			t.Errorf("row %d: head %d, reference %d: lag %d, want 100 ± 5", row.T, *row.Head, *row.RefHead, lag)
		}
	}
	if rows < 2 {
		t.Errorf("%d rows hold both heads: %+v", rows, r.snap.Timeline)
	}
	if !regexp.MustCompile(`head 3[\d,]+, lag (9[5-9]|10[0-5]) slots`).MatchString(r.stdout) {
		t.Errorf("the lines do not say the lag:\n%s", r.stdout)
	}
}

// TestE2EHeadBadInput: a target that cannot say its head stops the run before anything is
// sent (exit 3, no snapshot), naming the method and the URL; --ref-url without a chain is bad
// usage.
func TestE2EHeadBadInput(t *testing.T) {
	t.Parallel()
	p := writeProfile(t, "http://127.0.0.1:1/", 8, headProfile)
	r := runCLI(t, nil, p, "--rate", "10/s", "--duration", "1s")
	want := "rpcstress: chain = solana but getSlot at http://127.0.0.1:1/ failed: dial tcp 127.0.0.1:1: connect: connection refused: check the URL and that the node is up; the head is read before the first request is sent\n"
	if r.code != exitRunFailed || r.stderr != want || r.snap != nil {
		t.Errorf("exit %d, snapshot %v, stderr:\n%s\nwant:\n%s", r.code, r.snap != nil, r.stderr, want)
	}
	_, node := startNode(t, mocknode.Config{})
	plain := writeProfile(t, node, 8, getBalance+"[[stage]]\nrate = 1\nduration = \"1s\"\n")
	r = runCLI(t, nil, plain, "--ref-url", "http://127.0.0.1:2/", "--rate", "10/s", "--duration", "1s")
	want = "rpcstress: --ref-url: the profile names no chain whose head to compare: add chain = \"evm\" or chain = \"solana\" to it\n"
	if r.code != exitUsage || r.stderr != want {
		t.Errorf("exit %d, stderr:\n%s\nwant:\n%s", r.code, r.stderr, want)
	}
}
