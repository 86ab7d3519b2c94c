// Package gethtest starts a real go-ethereum node (geth --dev) for tests and gives it a history:
// transfers between accounts and a contract that emits ERC-20 Transfer logs. Tests that need it
// skip where geth is absent, unless CI is set (CI installs it: .ci/run).
package gethtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/internal/proctest"
)

// Node is a running geth --dev.
type Node struct {
	URL     string
	Dev     string // the funded developer account
	Emitter string // the log-emitting contract, after History
	PID     int    // its process
	// MetricsURL is its Prometheus endpoint (Options.Metrics); empty without.
	MetricsURL string
	// WSURL is its WebSocket endpoint, ws://… (Options.WS); empty without.
	WSURL string
}

// Options change how geth starts; the zero value is Start's.
type Options struct {
	// Metrics opens geth's Prometheus endpoint (--metrics) on the next free port.
	Metrics bool
	// WS opens geth's WebSocket endpoint (--ws, the eth, net and web3 APIs) on the port after.
	WS bool
	// DevPeriod seals a block every that many seconds (--dev.period) instead of only when a
	// transaction comes: newHeads subscribers then hear of a block a period.
	DevPeriod int
}

// Start starts geth --dev on a free port below 32768 (the machine is shared: ephemeral ports are
// everyone's) with only HTTP open, and stops it when the test ends.
func Start(tb testing.TB) *Node { return StartWith(tb, Options{}) }

// StartWith is Start with options.
func StartWith(tb testing.TB, opts Options) *Node {
	tb.Helper()
	bin, err := exec.LookPath("geth")
	if err != nil {
		if os.Getenv("CI") != "" {
			tb.Fatal("geth is not installed, and CI must run the real-node tests (.ci/run installs it)")
		}
		tb.Skip("geth is not installed (go install github.com/ethereum/go-ethereum/cmd/geth@v1.17.8)")
	}
	dir := tb.TempDir()
	for try := 0; try < 20; try++ {
		port := 20000 + rand.IntN(10000)
		if !free(port) || !free(port+1) || opts.Metrics && !free(port+2) || opts.WS && !free(port+3) {
			continue
		}
		args := []string{"--dev", "--datadir", dir, "--http", "--http.addr", "127.0.0.1",
			"--http.port", strconv.Itoa(port), "--http.api", "eth,net,web3,debug",
			// Any Host header: a proxy in front (nginx's upstream name) must not be refused 403.
			"--http.vhosts", "*",
			"--authrpc.port", strconv.Itoa(port + 1), "--port", "0", "--nodiscover", "--maxpeers", "0",
			"--ipcdisable", "--verbosity", "2"}
		metricsURL := ""
		if opts.Metrics {
			args = append(args, "--metrics", "--metrics.addr", "127.0.0.1", "--metrics.port", strconv.Itoa(port+2))
			metricsURL = fmt.Sprintf("http://127.0.0.1:%d/debug/metrics/prometheus", port+2)
		}
		wsURL := ""
		if opts.WS {
			args = append(args, "--ws", "--ws.addr", "127.0.0.1", "--ws.port", strconv.Itoa(port+3), "--ws.api", "eth,net,web3")
			wsURL = fmt.Sprintf("ws://127.0.0.1:%d", port+3)
		}
		if opts.DevPeriod > 0 {
			args = append(args, "--dev.period", strconv.Itoa(opts.DevPeriod))
		}
		p, err := proctest.Start(tb, exec.Command(bin, args...))
		if err != nil {
			tb.Fatal(err)
		}
		n := &Node{URL: fmt.Sprintf("http://127.0.0.1:%d", port), PID: p.Cmd.Process.Pid, MetricsURL: metricsURL, WSURL: wsURL}
		answers := func() bool {
			var accts []string
			if n.call(&accts, "eth_accounts") == nil && len(accts) > 0 {
				n.Dev = accts[0]
			}
			return n.Dev != ""
		}
		if err := p.Await(30*time.Second, "answer to eth_accounts on "+n.URL, answers); err != nil {
			tb.Fatalf("geth --dev: %v", err)
		}
		return n
	}
	tb.Fatal("no free port for geth in 20000-29999")
	return nil
}

func free(port int) bool {
	l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		return false
	}
	_ = l.Close()
	return true
}

// transferTopic is keccak256("Transfer(address,address,uint256)").
const transferTopic = "ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"

// emitterCode deploys a contract whose every call emits Transfer(caller, calldata[0:32], 1):
// an ERC-20 Transfer log as a token would write it. Runtime (48 bytes):
// PUSH1 1 PUSH1 0 MSTORE (the amount) · PUSH1 0 CALLDATALOAD (topic 2: to) · CALLER (topic 1:
// from) · PUSH32 transferTopic · PUSH1 32 PUSH1 0 LOG3 · STOP. The 12-byte constructor copies it
// out: PUSH1 48 PUSH1 12 PUSH1 0 CODECOPY PUSH1 48 PUSH1 0 RETURN.
const emitterCode = "0x6030600c60003960306000f3" + "600160005260003533" + "7f" + transferTopic + "60206000a300"

// History makes blocks: transfers from the developer account to fresh addresses and calls of a
// Transfer-emitting contract, one transaction a block (geth --dev seals each at once). It
// returns the head after.
func (n *Node) History(tb testing.TB, transfers, logCalls int) int64 {
	tb.Helper()
	var created string
	if err := n.call(&created, "eth_sendTransaction", map[string]string{"from": n.Dev, "data": emitterCode, "gas": "0x30000"}); err != nil {
		tb.Fatalf("deploy the emitter: %v", err)
	}
	rcpt := n.receipt(tb, created)
	n.Emitter = rcpt.ContractAddress
	// Each transaction waits for its receipt: sent back to back while geth --dev seals a block,
	// two would take the same nonce ("replacement transaction underpriced").
	for i := 0; i < transfers; i++ {
		to := fmt.Sprintf("0x%040x", 0x1000+i)
		var h string
		if err := n.call(&h, "eth_sendTransaction", map[string]string{"from": n.Dev, "to": to, "value": "0x1"}); err != nil {
			tb.Fatalf("transfer %d: %v", i, err)
		}
		n.receipt(tb, h)
	}
	for i := 0; i < logCalls; i++ {
		data := fmt.Sprintf("0x%064x", 0x2000+i)
		var h string
		if err := n.call(&h, "eth_sendTransaction", map[string]string{"from": n.Dev, "to": n.Emitter, "data": data, "gas": "0x10000"}); err != nil {
			tb.Fatalf("log call %d: %v", i, err)
		}
		n.receipt(tb, h)
	}
	var head string
	if err := n.call(&head, "eth_blockNumber"); err != nil {
		tb.Fatal(err)
	}
	h, _ := strconv.ParseInt(strings.TrimPrefix(head, "0x"), 16, 64)
	return h
}

type receipt struct {
	ContractAddress string `json:"contractAddress"`
	Status          string `json:"status"`
}

// receipt waits for a transaction's receipt (dev mode seals within a second).
func (n *Node) receipt(tb testing.TB, tx string) receipt {
	tb.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		var r *receipt
		if err := n.call(&r, "eth_getTransactionReceipt", tx); err == nil && r != nil {
			if r.Status != "0x1" {
				tb.Fatalf("transaction %s failed: %+v", tx, r)
			}
			return *r
		}
		time.Sleep(50 * time.Millisecond)
	}
	tb.Fatalf("no receipt for %s in 20 s", tx)
	return receipt{}
}

// call makes one JSON-RPC call.
func (n *Node) call(out any, method string, params ...any) error {
	if params == nil {
		params = []any{}
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	resp, err := http.Post(n.URL, "application/json", bytes.NewReader(body))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var a struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&a); err != nil {
		return err
	}
	if a.Error != nil {
		return fmt.Errorf("%s: %d %s", method, a.Error.Code, a.Error.Message)
	}
	return json.Unmarshal(a.Result, out)
}

// Head is the node's latest block number.
func (n *Node) Head(tb testing.TB) uint64 {
	tb.Helper()
	var head string
	if err := n.call(&head, "eth_blockNumber"); err != nil {
		tb.Fatal(err)
	}
	h, err := strconv.ParseUint(strings.TrimPrefix(head, "0x"), 16, 64)
	if err != nil {
		tb.Fatalf("eth_blockNumber %q: %v", head, err)
	}
	return h
}
