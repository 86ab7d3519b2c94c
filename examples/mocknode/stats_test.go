package mocknode

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/valyala/fasthttp"
)

// TestStatsExactUnderLoad: over real TCP on 127.0.0.1, concurrent clients' own counts of
// statuses, methods, calls and errors equal the node's /stats exactly.
func TestStatsExactUnderLoad(t *testing.T) {
	// A limiter that rejects part of the flood, so 200 and 429 are both counted.
	n, addr := loopbackNode(t, Config{Rate: 2000, Burst: 50, NoDelay: true})
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

// TestEveryMethodCounted: each method the node knows is counted in /stats under its own
// name, its errors by code, and charged its items in the latency model.
func TestEveryMethodCounted(t *testing.T) {
	n, c := testNode(t, Config{})
	now := n.now()
	head, slot := n.ethBlock(now), n.slot(now)
	blockWithTxs := slot
	for skipped(blockWithTxs) {
		blockWithTxs--
	}
	ethWithTxs := head
	for ethTxCount(ethWithTxs) == 0 {
		ethWithTxs--
	}
	tracer := `{"tracer":"callTracer"}`
	params := map[string]struct {
		params string
		items  int // 0: one per element of the result
	}{
		"getBalance":                {`["` + solAddr + `"]`, 1},
		"getSlot":                   {`[]`, 1},
		"getBlocks":                 {`[0,0]`, 1},
		"getGenesisHash":            {`[]`, 1},
		"getFirstAvailableBlock":    {`[]`, 1},
		"getBlock":                  {fmt.Sprintf(`[%d]`, blockWithTxs), int(solTxCount(blockWithTxs))},
		"getTransaction":            {`["` + string(appendBase58ID(nil, dSolSig.key(blockWithTxs<<8), sigDigits)) + `"]`, 1},
		"getSignaturesForAddress":   {`["` + string(appendBase58ID(nil, dSolWallet.key(1), keyDigits)) + `",{"limit":7}]`, 7},
		"getAccountInfo":            {`["` + solAddr + `"]`, 1},
		"getLatestBlockhash":        {`[]`, 1},
		"getProgramAccounts":        {`["` + solProgramID(progToken) + `"]`, solWallets},
		"getSignatureStatuses":      {`[["` + string(appendBase58ID(nil, dSolSig.key(blockWithTxs<<8), sigDigits)) + `","` + string(appendBase58ID(nil, dSolSig.key(1), sigDigits)) + `"]]`, 2},
		"eth_chainId":               {`[]`, 1},
		"eth_blockNumber":           {`[]`, 1},
		"eth_getBalance":            {`["` + ethAddr + `","latest"]`, 1},
		"eth_getBlockByNumber":      {`["latest",false]`, 1},
		"eth_getBlockByHash":        {`[` + string(appendHash32(nil, dEthBlock, head)) + `,false]`, 1},
		"eth_getTransactionByHash":  {`[` + string(appendHash32(nil, dEthTx, head<<8)) + `]`, 1},
		"eth_getTransactionReceipt": {`[` + string(appendHash32(nil, dEthTx, head<<8)) + `]`, 1},
		"eth_getLogs":               {`[{"fromBlock":"latest"}]`, 0}, // one per log
		"eth_call":                  {`[{"to":"` + ethAddr + `"}]`, 1},
		"eth_getCode":               {`["` + ethAddr + `"]`, 1},
		"eth_getTransactionCount":   {`["` + ethAddr + `"]`, 1},
		"eth_gasPrice":              {`[]`, 1},
		"eth_feeHistory":            {`[3,"latest"]`, 3},
		"getBlockHeight":            {`[]`, 1},
		"getBlockTime":              {fmt.Sprintf(`[%d]`, blockWithTxs), 1},
		"getEpochInfo":              {`[]`, 1},
		"getBlocksWithLimit":        {fmt.Sprintf(`[%d,5]`, slot-100), 5},
		"getMultipleAccounts":       {`[["` + solAddr + `","` + solAddr + `","` + solAddr + `"]]`, 3},
		"getTokenAccountsByOwner":   {`["` + string(appendBase58ID(nil, dSolWallet.key(1), keyDigits)) + `",{"programId":"` + solProgramID(progToken) + `"}]`, 1},
		"eth_getBlockReceipts":      {`["latest"]`, 0}, // one per receipt
		"debug_traceTransaction":    {`[` + string(appendHash32(nil, dEthTx, ethWithTxs<<8)) + `,` + tracer + `]`, traceItems},
		"debug_traceBlockByNumber":  {`[` + hexq(ethWithTxs) + `,` + tracer + `]`, traceItems * int(ethTxCount(ethWithTxs))},
		"debug_storageRangeAt":      {`[` + string(appendHash32(nil, dEthBlock, head)) + `,0,` + string(appendEthAddress(nil, dEthToken, 0)) + `,"0x` + zeroHex64 + `",7]`, 7},
	}
	if len(params) != int(mOther) {
		t.Fatalf("%d methods tested, the node knows %d", len(params), mOther)
	}
	for m := range mOther {
		name := methodName(m)
		p, ok := params[name]
		if !ok || n.lookupMethod([]byte(name)) != m {
			t.Fatalf("method %d %q: untested, or its name does not find it", m, name)
		}
		s := new(scratch)
		n.answer(s, []byte(`{"id":1,"method":"`+name+`","params":`+p.params+`}`), now)
		if p.items == 0 {
			var a struct{ Result []json.RawMessage }
			_ = json.Unmarshal(s.out, &a)
			p.items = max(len(a.Result), 1) // an empty answer costs one
		}
		if s.tally.items != p.items || s.tally.methods[m] != 1 || strings.Contains(string(s.out), `"error"`) {
			t.Errorf("%s: %d items, want %d; answer %.200s", name, s.tally.items, p.items, s.out)
		}
		do(t, c, "POST", "/", `[{"id":1,"method":"`+name+`","params":`+p.params+`},{"id":2,"method":"`+name+`","params":{}}]`)
	}
	st := getStats(t, c, "/stats")
	for name := range params {
		if st.Methods[name] != 2 {
			t.Errorf("/stats counted %d %s, want 2", st.Methods[name], name)
		}
	}
	if st.RPCErrors["-32602"] == 0 || st.Calls != 2*int64(mOther) {
		t.Errorf("stats %+v: want every call and the invalid ones counted", st)
	}
}
