package main

import (
	"encoding/json"
	"fmt"
	"github.com/rpcstress/rpcstress/harvest"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestHarvestBadInput: every mistake on the command line is exit 2 with what and how to fix it,
// and nothing is asked of any node.
func TestHarvestBadInput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no URL", []string{"harvest", "--chain", "evm"}, "usage: rpcstress harvest URL --chain evm|solana"},
		{"no chain", []string{"harvest", "http://127.0.0.1:1"}, "--chain is missing: say evm or solana"},
		{"another chain", []string{"harvest", "http://127.0.0.1:1", "--chain", "bitcoin"}, `--chain "bitcoin": harvest knows evm and solana`},
		{"zero blocks", []string{"harvest", "http://127.0.0.1:1", "--chain", "evm", "--blocks", "0"}, "--blocks 0: give a positive number"},
		{"too polite to finish", []string{"harvest", "http://127.0.0.1:1", "--chain", "evm", "--rate", "0.01"}, "--rate 0.01: give 0.1 to 10000"},
		{"a WebSocket URL", []string{"harvest", "ws://127.0.0.1:1", "--chain", "evm"}, "not an http:// or https:// address"},
		{"an output that is a file", []string{"harvest", "http://127.0.0.1:1", "--chain", "evm", "--out", "/etc/hostname"}, "--out /etc/hostname is a file, not a folder"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runVerb(t, tt.args...)
			if r.code != exitUsage || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit 2 and %q", r.code, r.stderr, tt.want)
			}
		})
	}
}

// slowEVM answers like an EVM archive node with a head of 5000, each answer after delay: a
// harvest of it takes long enough to be interrupted.
func slowEVM(t *testing.T, delay time.Duration) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var qs []struct {
			ID     int               `json:"id"`
			Method string            `json:"method"`
			Params []json.RawMessage `json:"params"`
		}
		batch := len(body) > 0 && body[0] == '['
		if !batch {
			body = append(append([]byte("["), body...), ']')
		}
		_ = json.Unmarshal(body, &qs)
		time.Sleep(delay)
		out := make([]string, 0, len(qs))
		for _, q := range qs {
			res := `"0x0"`
			switch q.Method {
			case "eth_chainId":
				res = `"0x1"`
			case "eth_blockNumber":
				res = `"0x1388"`
			case "eth_getBlockByNumber":
				var n string
				_ = json.Unmarshal(q.Params[0], &n)
				res = fmt.Sprintf(`{"number":%q,"hash":"0x%064x","transactions":[]}`, n, len(n))
			case "eth_getLogs":
				res = `[]`
			}
			out = append(out, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":%s}`, q.ID, res))
		}
		if batch {
			_, _ = w.Write([]byte("[" + strings.Join(out, ",") + "]"))
		} else if len(out) == 1 {
			_, _ = w.Write([]byte(out[0]))
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestHarvestInterrupted: Ctrl-C in the middle keeps what was read, the manifest says partial,
// the exit status is 130.
func TestHarvestInterrupted(t *testing.T) {
	t.Parallel()
	url := slowEVM(t, 50*time.Millisecond)
	dir := filepath.Join(t.TempDir(), "data")
	run := cliSetup{asIs: true}.start(t, "harvest", url, "--chain", "evm", "--blocks", "5000", "--batch", "10", "--rate", "1000", "--out", dir)
	// Ctrl-C once some blocks are read (progress past 0/5000), not after a fixed wait: on a busy
	// machine the first batches can take longer than any wait chosen here.
	run.awaitStderr(t, 10*time.Second, "progress past 0/5000", regexp.MustCompile(`harvest: blocks [1-9][0-9]*/5000`).MatchString)
	run.interrupt()
	r := run.wait(t, 10*time.Second)
	if r.code != 130 {
		t.Fatalf("exit %d, want 130\n%s", r.code, r.stderr)
	}
	var m struct {
		Complete bool   `json:"complete"`
		Partial  string `json:"partial"`
		Read     int    `json:"blocks_read"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatalf("no manifest after Ctrl-C: %v\n%s", err, r.stderr)
	}
	if err := json.Unmarshal(b, &m); err != nil || m.Complete || m.Read == 0 || m.Read >= 5000 {
		t.Fatalf("manifest %s", b)
	}
	blocks, _ := os.ReadFile(filepath.Join(dir, "blocks.txt"))
	if n := strings.Count(string(blocks), "\n"); n != m.Read {
		t.Errorf("blocks.txt has %d lines, the manifest says %d read", n, m.Read)
	}
	if !strings.Contains(r.stderr, "stopped by SIGINT; what was read is kept") {
		t.Errorf("stderr does not say what happened:\n%s", r.stderr)
	}
	for _, l := range strings.Split(r.stderr, "\n") {
		if len([]rune(l)) > 80 {
			t.Errorf("a line over 80 columns: %q", l)
		}
	}
}

// TestHarvestSummaryFits: the summary keeps within 80 columns with a mainnet's block numbers,
// a long window note, skipped blocks and a long output path.
func TestHarvestSummaryFits(t *testing.T) {
	m := &harvest.Manifest{Chain: "evm", ChainID: "0x1", Head: 20_000_000_000, From: 19_999_995_001, To: 20_000_000_000,
		Read: 4_999, Requests: 123_456, Partial: "the node failed after 4999 of 5000 blocks: eth_getBlockByNumber: JSON-RPC error -32000: header not found",
		WindowNote: "the node serves state from block 19999872000 on (128000 blocks behind the head); blocks from 19999872001 on are used (tracing a block needs its parent's state)",
		Skipped:    []string{"block 20000000000: eth_getBlockByNumber: JSON-RPC error -32000: header not found"},
		Files:      []harvest.ManifestEntry{{Name: "erc20_tokens.txt", Lines: 1_234_567}}}
	var b strings.Builder
	writeHarvestSummary(&b, m, "/var/lib/rpcstress/harvests/mainnet-archive-node-2026-11-23")
	for _, l := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
		if n := len([]rune(l)); n > 80 {
			t.Errorf("%d columns: %q", n, l)
		}
	}
}
