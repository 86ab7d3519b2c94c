package main

import (
	"encoding/base64"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/examples/mocknode"
)

// These tests send templated, batched and vegeta-target requests through the real CLI to the
// mock node, and hold the per-request numbers against the node's own per-method counts.

// requestCounts is the completed requests per request name, with the snapshot's invariant
// checked for each.
func requestCounts(t *testing.T, snap *engine.Snapshot) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	var sum int64
	for name, s := range snap.Totals.ByRequest {
		if err := s.CheckInvariant(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		out[name] = s.Completed
		sum += s.Completed
	}
	if sum != snap.Totals.Completed {
		t.Errorf("per-request completed sum to %d, the run completed %d", sum, snap.Totals.Completed)
	}
	return out
}

// TestE2ETemplates: templated params (numbers where a call stands alone), a templated raw body
// and a templated batch all reach the node as valid calls, and the node counts per method what
// rpcstress counts per request.
func TestE2ETemplates(t *testing.T) {
	t.Parallel()
	node, url := startNode(t, mocknode.Config{})
	p := writeProfile(t, url, 16, `
[[request]]
method = "getBalance"
params = ["{{randBase58 44}}"]
weight = 2
[[request]]
method = "getBlocks"
params = ["{{randInt 100 200}}", "{{randInt 201 210}}"]
[[request]]
method = "eth_getBalance"
params = ["0x{{randHex 40}}", "{{pick \"latest\" \"pending\"}}"]
batch = 3
[[request]]
body = '{"jsonrpc":"2.0","id":{{seq}},"method":"getSlot"}'
`+stage("300/s", "2s"))
	r := runCLI(t, nil, p)
	mustRun(t, r, exitOK)
	st := node.Stats()
	if len(st.RPCErrors) != 0 || len(r.snap.Totals.RPCErrors) != 0 {
		t.Errorf("RPC errors: node %v, rpcstress %v: a template rendered an invalid call", st.RPCErrors, r.snap.Totals.RPCErrors)
	}
	got := requestCounts(t, r.snap)
	want := map[string]struct {
		method string
		calls  int64
	}{
		"getBalance":        {"getBalance", 1},
		"getBlocks":         {"getBlocks", 1},
		"eth_getBalance x3": {"eth_getBalance", 3},
		"getSlot":           {"getSlot", 1}, // a raw body is named after its method
	}
	for name, w := range want {
		if got[name] == 0 || got[name]*w.calls != st.Methods[w.method] {
			t.Errorf("%s: rpcstress completed %d (×%d calls), the node counted %d %s", name, got[name], w.calls, st.Methods[w.method], w.method)
		}
	}
	if r.snap.Totals.Completed != 600 || st.Requests != 600 {
		t.Errorf("completed %d, node %d; want 600", r.snap.Totals.Completed, st.Requests)
	}
}

// TestE2ETargets: `rpcstress --targets FILE` sends a vegeta target file (http format) with its
// own methods, paths, headers and bodies; per-request numbers match the node's per-method
// counts, and the GET to /health (not JSON-RPC, not counted by the node) is its own request.
func TestE2ETargets(t *testing.T) {
	t.Parallel()
	node, url := startNode(t, mocknode.Config{})
	dir := t.TempDir()
	write := func(name, data string) string { return writeFile(t, dir, name, data) }
	write("slot.json", `{"jsonrpc":"2.0","id":1,"method":"getSlot"}`)
	write("batch.json", `[{"jsonrpc":"2.0","id":1,"method":"getSlot"},{"jsonrpc":"2.0","id":2,"method":"eth_blockNumber"}]`)
	var b strings.Builder
	for _, acct := range []string{"4EVAJ81v9fLjz2wp44SZmxgTbvYB8dBRZ6s1SAqP99eZ", "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM", "Sysvar1111111111111111111111111111111111111"} {
		write(acct+".json", `{"jsonrpc":"2.0","id":1,"method":"getBalance","params":["`+acct+`"]}`)
		fmt.Fprintf(&b, "POST %s\nContent-Type: application/json\n@%s.json\n\n", url, acct)
	}
	fmt.Fprintf(&b, "# a JSON-RPC call on another path, with a header\nPOST %srpc?api-key=k\nX-Api-Key: k1\n@slot.json\n\n", url)
	fmt.Fprintf(&b, "POST %s\n@batch.json\n\nGET %shealth\n", url, url)
	targets := write("rpc.targets", b.String())

	r := runCLI(t, nil, "--targets", targets, "--rate", "300/s", "--duration", "2s", "--connections", "16")
	mustRun(t, r, exitOK)
	if r.snap.Totals.Completed != 600 || r.snap.Totals.Status["200"] != 600 {
		t.Fatalf("completed %d, status %v; want 600 answers of 200", r.snap.Totals.Completed, r.snap.Totals.Status)
	}
	st := node.Stats()
	got := requestCounts(t, r.snap)
	if len(got) != 4 || got["GET /health"] == 0 {
		t.Errorf("requests %v, want getBalance, getSlot, batch and GET /health", got)
	}
	checks := []struct {
		method string
		want   int64
	}{
		{"getBalance", got["getBalance"]},
		{"getSlot", got["getSlot"] + got["batch"]},
		{"eth_blockNumber", got["batch"]},
	}
	for _, c := range checks {
		if c.want == 0 || st.Methods[c.method] != c.want {
			t.Errorf("%s: the node counted %d, rpcstress sent %d", c.method, st.Methods[c.method], c.want)
		}
	}
	if st.Requests+got["GET /health"] != r.snap.Totals.Completed {
		t.Errorf("the node answered %d JSON-RPC requests, rpcstress completed %d, %d of them health checks", st.Requests, r.snap.Totals.Completed, got["GET /health"])
	}
	// The three getBalance targets are one request with half the mix (3 of 6 targets); the
	// bounds are six standard deviations wide.
	if share := float64(got["getBalance"]) / 600; share < 0.38 || share > 0.62 {
		t.Errorf("getBalance share %.2f, want about 0.5 (3 of 6 targets)", share)
	}
	if strings.Contains(r.stdout, "api-key") {
		t.Error("the output shows a target's query string")
	}
}

// TestE2ETargetsJSONFormat: the json format, found without being told, through the CLI.
func TestE2ETargetsJSONFormat(t *testing.T) {
	t.Parallel()
	node, url := startNode(t, mocknode.Config{})
	body := base64.StdEncoding.EncodeToString([]byte(`{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}`))
	targets := writeFile(t, t.TempDir(), "t.jsonl", fmt.Sprintf(`{"method":"POST","url":"%s","body":"%s","header":{"Content-Type":["application/json"]}}`+"\n", url, body))
	r := runCLI(t, nil, "--targets", targets, "--rate", "100/s", "--duration", "1s")
	mustRun(t, r, exitOK)
	if got := requestCounts(t, r.snap)["eth_blockNumber"]; got != 100 || node.Stats().Methods["eth_blockNumber"] != 100 {
		t.Errorf("rpcstress %d, node %d eth_blockNumber; want 100", got, node.Stats().Methods["eth_blockNumber"])
	}
}

// TestTargetsUsage: --targets needs a plan and excludes a profile; a bad file is a usage
// error that names its line.
func TestTargetsUsage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := writeFile(t, dir, "good.txt", "GET http://127.0.0.1:1/\n")
	bad := writeFile(t, dir, "bad.txt", "GET http://127.0.0.1:1/\nnot a header\n")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--targets", good, "--duration", "1s"}, "needs --rate and --duration"},
		{[]string{"--targets", good, "--rate", "10/s"}, "needs --rate and --duration"},
		{[]string{"--targets", good, "--rate", "10/s", "--duration", "1s", "profiles/demo.toml"}, "give one of them"},
		{[]string{"--targets", filepath.Join(dir, "none.txt"), "--rate", "10/s", "--duration", "1s"}, "none.txt"},
		{[]string{"--targets", bad, "--rate", "10/s", "--duration", "1s"}, bad + ":2: targets: "},
	}
	for _, tt := range tests {
		r := runCLI(t, nil, tt.args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tt.args, r.code, r.stderr, exitUsage, tt.want)
		}
	}
}
