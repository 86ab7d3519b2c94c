package mocknode

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"
)

type testCallFrame struct {
	From, To, Gas, GasUsed, Input, Output, Value, Type string
}

// TestEVMBlockReceipts: a block's receipts are its transactions' receipts, by number or
// hash, the same an hour later; null beyond the head or for a hash of no block.
func TestEVMBlockReceipts(t *testing.T) {
	n := mustNode(t, Config{})
	now := n.epoch
	head := n.ethBlock(now)
	seen := 0
	for b := head - 10; b <= head; b++ {
		var blk testEthBlock
		rpcResult(t, n, now, "eth_getBlockByNumber", "["+hexq(b)+",false]", &blk)
		var receipts []json.RawMessage
		raw := rpcResult(t, n, now, "eth_getBlockReceipts", "["+hexq(b)+"]", &receipts)
		if len(receipts) != len(blk.Transactions) {
			t.Fatalf("block %d: %d receipts for %d transactions", b, len(receipts), len(blk.Transactions))
		}
		for i, h := range blk.Transactions {
			one := rpcResult(t, n, now, "eth_getTransactionReceipt", "["+string(h)+"]", nil)
			if string(one) != string(receipts[i]) {
				t.Fatalf("block %d receipt %d:\n%s\neth_getTransactionReceipt:\n%s", b, i, receipts[i], one)
			}
			seen++
		}
		if byHash := rpcResult(t, n, now.Add(time.Hour), "eth_getBlockReceipts", "["+q(blk.Hash)+"]", nil); string(byHash) != string(raw) {
			t.Fatalf("block %d by hash an hour later differs", b)
		}
		if items := itemsAt(t, n, now, "eth_getBlockReceipts", "["+hexq(b)+"]"); items != max(len(receipts), 1) {
			t.Fatalf("block %d: %d receipts cost %d items", b, len(receipts), items)
		}
	}
	if seen == 0 {
		t.Fatal("11 blocks without a transaction")
	}
	checkNulls(t, n, now, []errorCase{
		// A block beyond the head does not exist yet.
		{name: "beyond head", method: "eth_getBlockReceipts", params: "[" + hexq(head+1) + "]"},
		// A well-formed hash of no block.
		{name: "unknown hash", method: "eth_getBlockReceipts", params: `["0x` + zeroHex64 + `"]`},
	})
	checkErrors(t, n, now, []errorCase{
		// Not a block.
		{"garbage", "eth_getBlockReceipts", `["x"]`, -32602, msgEthBlockOrHash},
		// One parameter only.
		{"two params", "eth_getBlockReceipts", `["latest",true]`, -32602, msgEthBlockOrHash},
	})
}

// TestEVMTraces: debug_traceBlockByNumber's frames are debug_traceTransaction's, and both
// say what the transaction did: the sender, the recipient or token, the input, the value.
func TestEVMTraces(t *testing.T) {
	n := mustNode(t, Config{Retain: 100})
	now := n.epoch.Add(time.Hour)
	head := n.ethBlock(now)
	tracer := `{"tracer":"callTracer"}`
	var tokens, transfers int
	for b := head - 10; b <= head; b++ {
		var full testEthBlock
		rpcResult(t, n, now, "eth_getBlockByNumber", "["+hexq(b)+",true]", &full)
		var traces []struct {
			TxHash string
			Result json.RawMessage
		}
		rpcResult(t, n, now, "debug_traceBlockByNumber", "["+hexq(b)+","+tracer+"]", &traces)
		if len(traces) != len(full.Transactions) {
			t.Fatalf("block %d: %d traces for %d transactions", b, len(traces), len(full.Transactions))
		}
		if items := itemsAt(t, n, now, "debug_traceBlockByNumber", "["+hexq(b)+","+tracer+"]"); items != traceItems*max(len(traces), 1) {
			t.Fatalf("block %d: %d traces cost %d items", b, len(traces), items)
		}
		for i, txRaw := range full.Transactions {
			var tx testEthTx
			_ = json.Unmarshal(txRaw, &tx)
			one := rpcResult(t, n, now, "debug_traceTransaction", "["+q(tx.Hash)+","+tracer+"]", nil)
			var f testCallFrame
			_ = json.Unmarshal(one, &f)
			if traces[i].TxHash != tx.Hash || string(traces[i].Result) != string(one) ||
				f.From != tx.From || f.To != tx.To || f.Input != tx.Input || f.Value != tx.Value || f.Type != "CALL" {
				t.Fatalf("block %d tx %d %+v: trace %s, in the block's %s", b, i, tx, one, traces[i].Result)
			}
			if strings.HasPrefix(tx.Input, "0x"+selTransfer) {
				tokens++
				if f.Output != strings.Trim(transferOK, `"`) || f.GasUsed != strings.Trim(hexq(gasToken), `"`) {
					t.Fatalf("token call %s: %+v, want output true and gas used %d", tx.Hash, f, gasToken)
				}
			} else {
				transfers++
			}
		}
	}
	if tokens == 0 || transfers == 0 {
		t.Fatalf("11 blocks with %d token calls and %d transfers: the chain should have both", tokens, transfers)
	}
	old := uint64(5) // an old block with a transaction
	for ethTxCount(old) == 0 {
		old++
	}
	// The block after the window's first is traceable.
	rpcResult(t, n, now, "debug_traceBlockByNumber", "["+hexq(head-99)+","+tracer+"]", nil)
	checkErrors(t, n, now, []errorCase{
		// A block beyond the head, as geth words it.
		{"block beyond head", "debug_traceBlockByNumber", "[" + hexq(head+1) + "," + tracer + "]", -32000, "block #" + strconv.FormatUint(head+1, 10) + " not found"},
		// Genesis has nothing to re-execute.
		{"genesis", "debug_traceBlockByNumber", `["0x0",` + tracer + `]`, -32000, msgGenesisTrace},
		// Past the retention window the state is gone.
		{"state gone", "debug_traceBlockByNumber", "[" + hexq(head-200) + "," + tracer + "]", -32000, msgStateGone},
		// The window's first block is served, but its parent's state, where a trace starts, is gone.
		{"window start", "debug_traceBlockByNumber", "[" + hexq(head-100) + "," + tracer + "]", -32000, msgStateGone},
		// A tracer the node does not write.
		{"prestate", "debug_traceBlockByNumber", `["latest",{"tracer":"prestateTracer"}]`, -32602, "callTracer only"},
		// The config is required: geth's default struct logger is not written.
		{"no config", "debug_traceBlockByNumber", `["latest"]`, -32602, msgTraceBlockParams},
		// A hash of no transaction.
		{"tx unknown", "debug_traceTransaction", `["0x` + zeroHex64 + `",` + tracer + `]`, -32000, msgTxNotFound},
		// A transaction past the retention window.
		{"tx state gone", "debug_traceTransaction", "[" + string(appendHash32(nil, dEthTx, old<<8)) + "," + tracer + "]", -32000, msgStateGone},
		// Not a hash.
		{"tx garbage", "debug_traceTransaction", `["0x12",` + tracer + `]`, -32602, msgTraceTxParams},
	})
}
