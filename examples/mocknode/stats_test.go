package mocknode

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/valyala/fasthttp"
)

// TestStatsExactUnderLoad: over real TCP on 127.0.0.1, concurrent clients' own counts of
// statuses, methods, calls and errors equal the node's /stats exactly.
func TestStatsExactUnderLoad(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// A limiter that rejects part of the flood, so 200 and 429 are both counted.
	n, addr, err := Start(ctx, "127.0.0.1:0", Config{Rate: 2000, Burst: 50, NoDelay: true})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := n.Close(); err != nil {
			t.Error(err)
		}
	}()
	c := &fasthttp.HostClient{Addr: addr, MaxConns: 64}

	bodies := []struct {
		body          string
		calls         int64
		method        string
		invalidParams int64
	}{
		{`{"id":1,"method":"getBalance","params":["` + solAddr + `"]}`, 1, "getBalance", 0},
		{`{"id":2,"method":"getBalance","params":["nope"]}`, 1, "getBalance", 1},
		{`[{"id":1,"method":"eth_blockNumber"},{"id":2,"method":"eth_blockNumber"},{"id":3,"method":"eth_blockNumber"}]`, 3, "eth_blockNumber", 0},
		{`{"id":"x","method":"getBlocks","params":[1,20]}`, 1, "getBlocks", 0},
	}
	const workers, each = 32, 63 // 2016 requests
	var mu sync.Mutex
	status := map[string]int64{}
	methods := map[string]int64{}
	var calls, invalid int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
			defer fasthttp.ReleaseRequest(req)
			defer fasthttp.ReleaseResponse(resp)
			for i := range each {
				b := bodies[(w+i)%len(bodies)]
				req.Reset()
				req.Header.SetMethod(fasthttp.MethodPost)
				req.SetRequestURI("http://" + addr + "/")
				req.SetBodyString(b.body)
				if err := c.DoTimeout(req, resp, 5*time.Second); err != nil {
					t.Errorf("request: %v", err)
					return
				}
				mu.Lock()
				status[strconv.Itoa(resp.StatusCode())]++
				if resp.StatusCode() == fasthttp.StatusOK {
					methods[b.method] += b.calls
					calls += b.calls
					invalid += b.invalidParams
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()

	_, body := do(t, c, "GET", "/stats", "")
	for _, st := range []struct {
		from string
		got  Stats
	}{{"Stats()", n.Stats()}, {"GET /stats", decodeStats(t, body)}} {
		if fmt.Sprint(st.got.Status) != fmt.Sprint(status) || fmt.Sprint(st.got.Methods) != fmt.Sprint(methods) ||
			st.got.Calls != calls || st.got.Requests != workers*each || st.got.RPCErrors["-32602"] != invalid {
			t.Fatalf("%s: %+v\nclients counted status %v methods %v calls %d requests %d -32602 %d",
				st.from, st.got, status, methods, calls, workers*each, invalid)
		}
	}
	if status["429"] == 0 || status["200"] == 0 {
		t.Logf("statuses %v: the limiter did not split the flood this time", status)
	}
}

func decodeStats(t *testing.T, body string) Stats {
	t.Helper()
	var st Stats
	if err := json.Unmarshal([]byte(body), &st); err != nil {
		t.Fatalf("stats %q: %v", body, err)
	}
	return st
}
