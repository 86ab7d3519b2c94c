package mocknode

import (
	"context"
	"encoding/json"
	"net"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/valyala/fasthttp"
	"github.com/valyala/fasthttp/fasthttputil"
)

// testNode serves a node on an in-memory listener and returns a client for it; both are torn
// down when the test ends.
func testNode(t *testing.T, cfg Config) (*Node, *fasthttp.HostClient) {
	t.Helper()
	n := mustNode(t, cfg)
	ln := fasthttputil.NewInmemoryListener()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- n.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return n, &fasthttp.HostClient{
		Addr:     "mocknode",
		Dial:     func(string) (net.Conn, error) { return ln.Dial() },
		MaxConns: 1024,
	}
}

// loopbackNode starts a node on a free loopback port (real TCP, for what an in-memory
// listener cannot show: HTTP/2, WebSocket, many clients at once) and returns it with its
// address; it is closed, and must close cleanly, when the test ends.
func loopbackNode(t *testing.T, cfg Config) (*Node, string) {
	t.Helper()
	n, addr, err := Start(t.Context(), "127.0.0.1:0", cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := n.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return n, addr
}

// do sends one request and returns the status and body.
func do(t testing.TB, c *fasthttp.HostClient, method, path, body string) (int, string) {
	t.Helper()
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	req.Header.SetMethod(method)
	req.SetRequestURI("http://mocknode" + path)
	if body != "" {
		req.Header.SetContentType("application/json")
		req.SetBodyString(body)
	}
	if err := c.DoTimeout(req, resp, 5*time.Second); err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	return resp.StatusCode(), string(resp.Body())
}

func getStats(t testing.TB, c *fasthttp.HostClient, path string) Stats {
	t.Helper()
	code, body := do(t, c, fasthttp.MethodGet, path, "")
	if code != fasthttp.StatusOK {
		t.Fatalf("%s: status %d", path, code)
	}
	var st Stats
	if err := json.Unmarshal([]byte(body), &st); err != nil {
		t.Fatalf("%s: %v in %s", path, err, body)
	}
	return st
}

const getSlot = `{"jsonrpc":"2.0","id":1,"method":"getSlot"}`

func TestHTTPEndpoints(t *testing.T) {
	_, c := testNode(t, Config{})
	tests := []struct {
		name, method, path, body string
		status                   int
		want                     string // a part of the body
	}{
		// JSON-RPC is POST on any path (nodes are often mounted under a prefix).
		{"rpc on root", "POST", "/", getSlot, 200, `"result":300000000`},
		{"rpc on a path", "POST", "/rpc/v1", getSlot, 200, `"result":`},
		// A GET on the RPC endpoint is refused and counted.
		{"get rpc", "GET", "/", "", 405, `needs POST`},
		// Health checks are not counted.
		{"health", "GET", "/health", "", 200, `ok`},
		// Parse errors are HTTP 200 with a -32700 body, as JSON-RPC nodes answer.
		{"parse error", "POST", "/", `{`, 200, `"code":-32700`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, body := do(t, c, tt.method, tt.path, tt.body)
			if code != tt.status || !strings.Contains(body, tt.want) {
				t.Fatalf("got %d %s, want %d with %s", code, body, tt.status, tt.want)
			}
		})
	}
	st := getStats(t, c, "/stats")
	if st.Requests != 4 || st.Status["200"] != 3 || st.Status["405"] != 1 || st.Methods["getSlot"] != 2 || st.Calls != 3 || st.RPCErrors["-32700"] != 1 {
		t.Fatalf("stats %+v", st)
	}
}

func TestHTTPLimiter(t *testing.T) {
	tests := []struct {
		name      string
		cfg       Config
		sequence  []int // statuses of back-to-back requests
		limitBody string
	}{
		// 1r/s burst=2 nodelay: the first and two of burst pass, the rest are 429 at once.
		{"nodelay 429", Config{Rate: 1, Burst: 2, NoDelay: true}, []int{200, 200, 200, 429, 429}, `too many requests`},
		// The status is configurable (nginx's default is 503).
		{"status 503", Config{Rate: 1, NoDelay: true, LimitStatus: 503}, []int{200, 503}, `too many requests`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, c := testNode(t, tt.cfg)
			want := map[string]int64{}
			for i, ws := range tt.sequence {
				code, body := do(t, c, "POST", "/", getSlot)
				if code != ws {
					t.Fatalf("request %d: status %d, want %d", i, code, ws)
				}
				if code != 200 && !strings.Contains(body, tt.limitBody) {
					t.Fatalf("rejected body %q", body)
				}
				want[itoa(code)]++
			}
			st := n.Stats()
			if len(st.Status) != len(want) {
				t.Fatalf("status counts %v, want %v", st.Status, want)
			}
			for k, v := range want {
				if st.Status[k] != v {
					t.Fatalf("status counts %v, want %v", st.Status, want)
				}
			}
			// Rejected requests never reach the node: only accepted ones count as calls.
			if st.Methods["getSlot"] != want["200"] || st.Calls != want["200"] {
				t.Fatalf("methods %v calls %d, want %d", st.Methods, st.Calls, want["200"])
			}
		})
	}
}

func itoa(code int) string {
	b, _ := json.Marshal(code)
	return string(b)
}

// TestHTTPLimiterDelays: without nodelay, a burst is spaced at the rate, as nginx queues it.
func TestHTTPLimiterDelays(t *testing.T) {
	_, c := testNode(t, Config{Rate: 20, Burst: 3})
	latencies := concurrentLatencies(t, c, 4, getSlot)
	// Delays 0, 50, 100, 150 ms; which request gets which depends on arrival order.
	if latencies[3] < 140*time.Millisecond || latencies[3] > 2*time.Second {
		t.Fatalf("slowest of a burst of 4 at 20r/s took %s, want ≈150ms", latencies[3])
	}
	if latencies[0] > 100*time.Millisecond {
		t.Fatalf("fastest of the burst took %s, want ≈0", latencies[0])
	}
}

// concurrentLatencies fires k requests at once and returns their latencies, sorted.
func concurrentLatencies(t *testing.T, c *fasthttp.HostClient, k int, body string) []time.Duration {
	t.Helper()
	out := make([]time.Duration, k)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range k {
		wg.Go(func() {
			code, _ := do(t, c, "POST", "/", body)
			if code != 200 {
				t.Errorf("status %d", code)
			}
			out[i] = time.Since(start)
		})
	}
	wg.Wait()
	sort.Slice(out, func(a, b int) bool { return out[a] < out[b] })
	return out
}

// TestHTTPCapacityQueues: past its capacity the node answers one after another, so latency
// climbs with the queue, as a saturated node's does.
func TestHTTPCapacityQueues(t *testing.T) {
	_, c := testNode(t, Config{Capacity: 100})
	lat := concurrentLatencies(t, c, 20, getSlot)
	// 20 requests at 10 ms each: the first ≈10 ms, the last ≈200 ms.
	if lat[0] > 100*time.Millisecond || lat[19] < 180*time.Millisecond || lat[19] > 3*time.Second {
		t.Fatalf("latencies %v: want a climb from ≈10ms to ≈200ms", lat)
	}
	if lat[19] < 4*lat[0] {
		t.Fatalf("latencies %v did not climb", lat)
	}
}

// TestHTTPStallHolds: an answer due inside a stall window leaves when the window ends.
func TestHTTPStallHolds(t *testing.T) {
	n, c := testNode(t, Config{StallEvery: 300 * time.Millisecond, StallFor: 200 * time.Millisecond})
	time.Sleep(time.Until(n.epoch.Add(320 * time.Millisecond))) // inside [300ms, 500ms)
	sent := time.Now()
	do(t, c, "POST", "/", getSlot)
	if answered := time.Since(n.epoch); answered < 500*time.Millisecond {
		t.Fatalf("answered %s after start, inside the stall [300ms, 500ms)", answered)
	}
	if held := time.Since(sent); held > 3*time.Second {
		t.Fatalf("held %s, far past the stall's end", held)
	}
}

// TestHTTPResetStats: /reset reports the counts and zeroes them; the stats endpoints do not
// count themselves.
func TestHTTPResetStats(t *testing.T) {
	n, c := testNode(t, Config{})
	do(t, c, "POST", "/", `[`+getSlot+`,`+getSlot+`]`)
	before := getStats(t, c, "/reset")
	if before.Requests != 1 || before.Calls != 2 || before.Methods["getSlot"] != 2 {
		t.Fatalf("reset reported %+v", before)
	}
	if st := getStats(t, c, "/stats"); st.Requests != 0 || len(st.Status) != 0 || len(st.Methods) != 0 {
		t.Fatalf("after reset %+v", st)
	}
	do(t, c, "POST", "/", getSlot)
	code, _ := do(t, c, "POST", "/stats/reset", "")
	if code != 200 || n.Stats().Requests != 0 {
		t.Fatalf("POST /stats/reset: %d, left %+v", code, n.Stats())
	}
}

// TestCloseReleasesSleepers: closing a node with answers held by latency does not wait for
// the latency.
func TestCloseReleasesSleepers(t *testing.T) {
	n := mustNode(t, Config{Latency: time.Hour})
	ln := fasthttputil.NewInmemoryListener()
	go func() { _ = n.Serve(context.Background(), ln) }()
	c := &fasthttp.HostClient{Addr: "mocknode", Dial: func(string) (net.Conn, error) { return ln.Dial() }}
	errc := make(chan error, 1)
	go func() {
		req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
		req.Header.SetMethod("POST")
		req.SetRequestURI("http://mocknode/")
		req.SetBodyString(getSlot)
		errc <- c.Do(req, resp)
	}()
	time.Sleep(50 * time.Millisecond) // let the request reach its sleep
	start := time.Now()
	if err := n.Close(); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("Close took %s", took)
	}
	<-errc // answered or cut off; either way not an hour later
	if err := n.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

func TestServeTwice(t *testing.T) {
	n, _, err := Start(t.Context(), "127.0.0.1:0", Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	if err := n.Serve(t.Context(), fasthttputil.NewInmemoryListener()); err == nil {
		t.Fatal("second Serve did not fail")
	}
}
