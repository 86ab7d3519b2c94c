package mocknode

import (
	"net"
	"strings"
	"testing"

	"github.com/valyala/fasthttp"
)

// BenchmarkHandler measures the fasthttp handler alone (no network), per kind of request.
// The common paths must not allocate.
func BenchmarkHandler(b *testing.B) {
	batch := `[` + getSlot + `,` + getSlot + `,` + getSlot + `,` + getSlot + `,` + getSlot + `,` +
		getSlot + `,` + getSlot + `,` + getSlot + `,` + getSlot + `,` + getSlot + `]`
	cases := []struct {
		name string
		cfg  Config
		body string
	}{
		{"getBalance", Config{}, `{"jsonrpc":"2.0","id":1,"method":"getBalance","params":["` + solAddr + `"]}`},
		{"getBalance_invalid", Config{}, `{"jsonrpc":"2.0","id":1,"method":"getBalance","params":["x"]}`},
		{"eth_getBlockByNumber", Config{}, `{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["latest",false]}`},
		{"batch10", Config{}, batch},
		{"getBlocks100", Config{}, `{"jsonrpc":"2.0","id":1,"method":"getBlocks","params":[1000,1099]}`},
		{"eth_getBlockByNumber_full", Config{}, `{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["latest",true]}`},
		{"eth_getTransactionReceipt", Config{}, `{"jsonrpc":"2.0","id":1,"method":"eth_getTransactionReceipt","params":[` + string(appendHash32(nil, dEthTx, ethFirstBlock<<8)) + `]}`},
		{"eth_call_balanceOf", Config{}, `{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{"to":` + string(appendEthAddress(nil, dEthToken, 0)) + `,"data":"0x70a08231` + zeroHex64[:24] + string(appendEthAddressHex(nil, dEthWallet, 1)) + `"},"latest"]}`},
		{"eth_getLogs10", Config{}, `{"jsonrpc":"2.0","id":1,"method":"eth_getLogs","params":[{"fromBlock":"0x1312cf7","toBlock":"0x1312d00"}]}`},
		{"getBlock", Config{}, `{"jsonrpc":"2.0","id":1,"method":"getBlock","params":[299999999,{"maxSupportedTransactionVersion":0}]}`},
		{"getTransaction", Config{}, `{"jsonrpc":"2.0","id":1,"method":"getTransaction","params":["` + string(appendBase58ID(nil, dSolSig.key(299999999<<8), sigDigits)) + `"]}`},
		{"getSignaturesForAddress", Config{}, `{"jsonrpc":"2.0","id":1,"method":"getSignaturesForAddress","params":["` + string(appendBase58ID(nil, dSolWallet.key(1), keyDigits)) + `",{"limit":10}]}`},
		{"getProgramAccounts", Config{}, `{"jsonrpc":"2.0","id":1,"method":"getProgramAccounts","params":["TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"]}`},
		{"getMultipleAccounts10", Config{}, `{"jsonrpc":"2.0","id":1,"method":"getMultipleAccounts","params":[["` + strings.Repeat(solAddr+`","`, 9) + solAddr + `"],{"encoding":"base64"}]}`},
		{"debug_traceBlockByNumber", Config{}, `{"jsonrpc":"2.0","id":1,"method":"debug_traceBlockByNumber","params":["latest",{"tracer":"callTracer"}]}`},
		{"debug_storageRangeAt1024", Config{}, `{"jsonrpc":"2.0","id":1,"method":"debug_storageRangeAt","params":[` + string(appendHash32(nil, dEthBlock, ethFirstBlock)) + `,0,` + string(appendEthAddress(nil, dEthToken, 1)) + `,"0x` + zeroHex64 + `",1024]}`},
		{"parse_error", Config{}, `{"jsonrpc":`},
		{"limited_429", Config{Rate: 1, NoDelay: true}, getSlot},
		{"limiter_pass", Config{Rate: 1e7, Burst: 1e9, NoDelay: true}, getSlot},
	}
	for _, bc := range cases {
		b.Run(bc.name, func(b *testing.B) {
			n := mustNode(b, bc.cfg)
			var req fasthttp.Request
			req.Header.SetMethod(fasthttp.MethodPost)
			req.SetRequestURI("/")
			req.SetBodyString(bc.body)
			var ctx fasthttp.RequestCtx
			ctx.Init(&req, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 1}, nil)
			n.handle(&ctx) // warm the pools
			b.ReportAllocs()
			b.SetBytes(int64(len(bc.body)))
			b.ResetTimer()
			for b.Loop() {
				ctx.Response.Reset()
				n.handle(&ctx)
			}
		})
	}
}

// BenchmarkHandlerParallel is the getBalance path from many goroutines, as fasthttp runs it.
func BenchmarkHandlerParallel(b *testing.B) {
	n := mustNode(b, Config{})
	body := `{"jsonrpc":"2.0","id":1,"method":"getBalance","params":["` + solAddr + `"]}`
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		var req fasthttp.Request
		req.Header.SetMethod(fasthttp.MethodPost)
		req.SetRequestURI("/")
		req.SetBodyString(body)
		var ctx fasthttp.RequestCtx
		ctx.Init(&req, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 1}, nil)
		for pb.Next() {
			ctx.Response.Reset()
			n.handle(&ctx)
		}
	})
}

// TestAnswersDoNotAllocate: once a scratch is warm, answering any method allocates nothing,
// errors with a variable message included (the handler's fasthttp buffers aside).
func TestAnswersDoNotAllocate(t *testing.T) {
	n := mustNode(t, Config{Retain: 10})
	bodies := []string{
		`{"id":1,"method":"eth_getBlockByNumber","params":["latest",true]}`,
		`{"id":1,"method":"eth_getBlockByHash","params":[` + string(appendHash32(nil, dEthBlock, ethFirstBlock)) + `,true]}`,
		`{"id":1,"method":"eth_getTransactionReceipt","params":[` + string(appendHash32(nil, dEthTx, ethFirstBlock<<8)) + `]}`,
		`{"id":1,"method":"eth_getLogs","params":[{"fromBlock":"0x1312cf7","topics":["` + transferTopic + `",null,["0x` + zeroHex64 + `"]]}]}`,
		`{"id":1,"method":"eth_call","params":[{"to":` + string(appendEthAddress(nil, dEthToken, 0)) + `,"data":"0x313ce567"},"latest"]}`,
		`{"id":1,"method":"eth_getBalance","params":["` + ethAddr + `","0x1"]}`, // missing trie node
		`{"id":1,"method":"eth_feeHistory","params":[4,"latest",[10,90]]}`,
		`{"id":1,"method":"getBlock","params":[299999999,{"maxSupportedTransactionVersion":0}]}`,
		`{"id":1,"method":"getBlock","params":[5]}`, // cleaned up
		`{"id":1,"method":"getTransaction","params":["` + string(appendBase58ID(nil, dSolSig.key(299999999<<8), sigDigits)) + `"]}`,
		`{"id":1,"method":"getSignaturesForAddress","params":["MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr",{"limit":5}]}`,
		`{"id":1,"method":"getAccountInfo","params":["` + string(appendBase58ID(nil, dSolTokenAcct.key(1), keyDigits)) + `"]}`,
		`{"id":1,"method":"getProgramAccounts","params":["TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",{"filters":[{"dataSize":165}]}]}`,
		`{"id":1,"method":"getLatestBlockhash"}`,
		`{"id":1,"method":"getBlockHeight"}`,
		`{"id":1,"method":"getBlockTime","params":[299999999]}`,
		`{"id":1,"method":"getBlockTime","params":[5]}`, // cleaned up
		`{"id":1,"method":"getEpochInfo","params":[{"commitment":"finalized"}]}`,
		`{"id":1,"method":"getBlocksWithLimit","params":[299999990,20]}`,
		`{"id":1,"method":"getMultipleAccounts","params":[["` + solAddr + `","` + string(appendBase58ID(nil, dSolTokenAcct.key(1), keyDigits)) + `"],{"encoding":"base64"}]}`,
		`{"id":1,"method":"getTokenAccountsByOwner","params":["` + string(appendBase58ID(nil, dSolWallet.key(1), keyDigits)) + `",{"programId":"TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"},{"encoding":"base64"}]}`,
		`{"id":1,"method":"eth_getBlockReceipts","params":["latest"]}`,
		`{"id":1,"method":"debug_traceBlockByNumber","params":["latest",{"tracer":"callTracer"}]}`,
		`{"id":1,"method":"debug_traceBlockByNumber","params":["0x1",{"tracer":"callTracer"}]}`, // state gone
		`{"id":1,"method":"debug_traceTransaction","params":[` + string(appendHash32(nil, dEthTx, ethFirstBlock<<8)) + `,{"tracer":"callTracer"}]}`,
		`{"id":1,"method":"debug_storageRangeAt","params":[` + string(appendHash32(nil, dEthBlock, ethFirstBlock)) + `,0,` + string(appendEthAddress(nil, dEthToken, 1)) + `,"0x` + zeroHex64 + `",64]}`,
		`{"id":1,"method":"debug_storageRangeAt","params":["0x` + zeroHex64 + `",0,"` + ethAddr + `","0x` + zeroHex64 + `",64]}`, // no such block
	}
	s := new(scratch)
	for _, text := range bodies {
		body := []byte(text)
		n.answer(s, body, n.epoch) // warm the buffers
		if a := testing.AllocsPerRun(20, func() { n.answer(s, body, n.epoch) }); a != 0 {
			t.Errorf("%.60s…: %.1f allocations", text, a)
		}
	}
}
