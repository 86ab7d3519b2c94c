package harvest

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func lines(t *testing.T, dir, name string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Fields(string(b))
}

func readManifest(t *testing.T, dir string) Manifest {
	t.Helper()
	var m Manifest
	b, err := os.ReadFile(filepath.Join(dir, ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestEVMHarvest: the window, the files and their counts against a chain whose contents are
// known, with and without batches.
func TestEVMHarvest(t *testing.T) {
	tests := []struct {
		name        string
		head, prune int64
		blocks      int
		noBatch     bool
		wantFrom    int64
	}{
		{"archive node: the last 40 of 100 blocks", 100, 0, 40, false, 61},
		{"pruned below 70: only 71…100 though 40 were asked (70's traces need 69)", 100, 70, 40, false, 71},
		{"pruned, one block only", 100, 70, 1, false, 100},
		{"pruned below 72: the log range of block 75 starts at 73, not 70", 100, 72, 40, false, 73},
		{"a node that refuses batches is asked one call at a time", 100, 0, 40, true, 61},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeEVM{head: tt.head, prunedBelow: tt.prune, noBatch: tt.noBatch}
			dir := t.TempDir()
			m, err := Run(context.Background(), Options{URL: f.start(t), Chain: EVM, Blocks: tt.blocks, OutDir: dir, Rate: 10000, Batch: 7})
			if err != nil {
				t.Fatal(err)
			}
			if m.WindowStart != tt.prune || m.From != tt.wantFrom || m.To != tt.head || !m.Complete {
				t.Fatalf("window %d from %d to %d complete %v, want %d %d %d true", m.WindowStart, m.From, m.To, m.Complete, tt.prune, tt.wantFrom, tt.head)
			}
			for _, n := range f.asked {
				if n < tt.wantFrom {
					t.Errorf("block %d was read, below the window's %d", n, tt.wantFrom)
				}
			}
			want := map[string]int{"blocks.txt": int(tt.head - tt.wantFrom + 1)}
			txs, logBlocks := 0, 0
			for b := tt.wantFrom; b <= tt.head; b++ {
				txs += int(b % 3)
				if b%5 == 0 {
					logBlocks++
				}
			}
			want["tx_hashes.txt"] = txs
			for name, n := range want {
				if got := len(lines(t, dir, name)); got != n {
					t.Errorf("%s: %d lines, want %d", name, got, n)
				}
			}
			calls := lines(t, dir, "erc20_calls.txt")
			if logBlocks > 0 && (len(calls) == 0 || !strings.HasPrefix(calls[0], `{"to":"0x7777`) || !strings.Contains(calls[0], balanceOfSelector)) {
				t.Errorf("erc20 calls: %q", calls)
			}
			for _, c := range calls {
				var obj map[string]string
				if err := json.Unmarshal([]byte(c), &obj); err != nil || len(obj["data"]) != 2+8+64 {
					t.Errorf("erc20 call %q is not a balanceOf call object", c)
				}
			}
			for _, r := range lines(t, dir, "log_ranges.txt") {
				var flt map[string]string
				if err := json.Unmarshal([]byte(r), &flt); err != nil {
					t.Fatalf("log range %q: %v", r, err)
				}
				if lo, _ := parseHex(flt["fromBlock"]); lo < tt.wantFrom {
					t.Errorf("log range %s starts below the first block read, %d", r, tt.wantFrom)
				}
			}
			if got := readManifest(t, dir); !got.Complete || got.Head != tt.head || len(got.Files) != 8 {
				t.Errorf("manifest: %+v", got)
			}
		})
	}
}

// TestEVMHarvestDedups: addresses repeat across blocks (block n's recipient is another's
// sender); each is written once.
func TestEVMHarvestDedups(t *testing.T) {
	f := &fakeEVM{head: 50}
	dir := t.TempDir()
	if _, err := Run(context.Background(), Options{URL: f.start(t), Chain: EVM, Blocks: 50, OutDir: dir, Rate: 10000}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"addresses.txt", "contracts.txt", "erc20_calls.txt", "log_ranges.txt"} {
		seen := map[string]bool{}
		for _, l := range lines(t, dir, name) {
			if seen[l] {
				t.Errorf("%s: %s twice", name, l)
			}
			seen[l] = true
		}
	}
	if n := len(lines(t, dir, "contracts.txt")); n != 1 {
		t.Errorf("%d contracts, want 1", n)
	}
}

// TestHarvestRefuses: the wrong chain, an empty chain, bad options: an error that says what,
// and no files.
func TestHarvestRefuses(t *testing.T) {
	tests := []struct {
		name string
		o    func(t *testing.T) Options
		want string
	}{
		{"an EVM harvest of a non-EVM node", func(t *testing.T) Options {
			return Options{URL: (&fakeEVM{head: 10, notEVM: true}).start(t), Chain: EVM}
		}, "not an EVM node (for a Solana node give --chain solana)"},
		{"a Solana harvest of an EVM node", func(t *testing.T) Options {
			return Options{URL: (&fakeEVM{head: 10}).start(t), Chain: Solana}
		}, "not a Solana node (for an EVM node give --chain evm)"},
		{"an empty chain", func(t *testing.T) Options {
			return Options{URL: (&fakeEVM{head: 0}).start(t), Chain: EVM}
		}, "the chain is empty: the head is block 0"},
		{"no chain", func(t *testing.T) Options { return Options{URL: "http://127.0.0.1:1"} }, "--chain is missing"},
		{"a ws URL", func(t *testing.T) Options { return Options{URL: "ws://127.0.0.1:1", Chain: EVM} }, "not an http:// or https:// address"},
		{"blocks out of range", func(t *testing.T) Options {
			return Options{URL: "http://127.0.0.1:1", Chain: EVM, Blocks: -3}
		}, "--blocks -3: give 1 to"},
		{"a node that is down", func(t *testing.T) Options {
			return Options{URL: "http://127.0.0.1:1", Chain: EVM}
		}, "cannot reach the node"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := tt.o(t)
			o.OutDir, o.Rate = t.TempDir(), 10000
			m, err := Run(context.Background(), o)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err %v, want %q", err, tt.want)
			}
			if m != nil {
				t.Errorf("a manifest for a harvest that read nothing: %+v", m)
			}
			if es, _ := os.ReadDir(o.OutDir); len(es) != 0 {
				t.Errorf("files written: %v", es)
			}
		})
	}
}

// TestHarvestCancelKeepsWhatWasRead: a cancel in the middle of the blocks (Ctrl-C) writes what
// was read, and the manifest says partial.
func TestHarvestCancelKeepsWhatWasRead(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f := &fakeEVM{head: 500}
	f.onRequest = func(n int) {
		if n == 12 { // identify 2, window 2 (archive), then blocks in batches of 5
			cancel()
		}
	}
	dir := t.TempDir()
	m, err := Run(ctx, Options{URL: f.start(t), Chain: EVM, Blocks: 500, OutDir: dir, Rate: 10000, Batch: 5})
	if err != nil {
		t.Fatal(err)
	}
	got := readManifest(t, dir)
	if got.Complete || !strings.Contains(got.Partial, "stopped after") || m.Read == 0 || m.Read >= 500 {
		t.Fatalf("manifest: complete %v partial %q read %d", got.Complete, got.Partial, m.Read)
	}
	if n := len(lines(t, dir, "blocks.txt")); n != m.Read {
		t.Errorf("blocks.txt has %d lines, read %d", n, m.Read)
	}
}

// TestHarvestNodeFailsMidway: blocks a node fails to give are skipped and listed, not a failure
// of the harvest: what was read is kept and the rest of the range still read.
func TestHarvestNodeFailsMidway(t *testing.T) {
	f := &fakeEVM{head: 100, failAfter: 80}
	dir := t.TempDir()
	m, err := Run(context.Background(), Options{URL: f.start(t), Chain: EVM, Blocks: 100, OutDir: dir, Rate: 10000})
	if err != nil {
		t.Fatalf("block errors are skips, not a failure: %v", err)
	}
	if m.Complete != true || m.Read != 80 || len(m.Skipped) != 20 {
		t.Errorf("read %d skipped %d complete %v", m.Read, len(m.Skipped), m.Complete)
	}
}

// TestSolanaHarvest: skipped slots are not read, the ledger's start is the window, programs and
// accounts are told apart.
func TestSolanaHarvest(t *testing.T) {
	f := &fakeSolana{head: 200, first: 150}
	dir := t.TempDir()
	m, err := Run(context.Background(), Options{URL: f.start(t), Chain: Solana, Blocks: 100, OutDir: dir, Rate: 10000, Batch: 9})
	if err != nil {
		t.Fatal(err)
	}
	if m.WindowStart != 150 || m.From != 150 || !m.Complete {
		t.Fatalf("window %d from %d complete %v", m.WindowStart, m.From, m.Complete)
	}
	slots, sigs := 0, 0
	for s := int64(150); s <= 200; s++ {
		if s%4 != 3 {
			slots++
			sigs += int(s%2 + 1)
		}
	}
	if got := len(lines(t, dir, "slots.txt")); got != slots {
		t.Errorf("%d slots, want %d", got, slots)
	}
	if got := len(lines(t, dir, "signatures.txt")); got != sigs {
		t.Errorf("%d signatures, want %d", got, sigs)
	}
	if got := lines(t, dir, "programs.txt"); len(got) != 1 || got[0] != "Prog1" {
		t.Errorf("programs %q", got)
	}
	for _, a := range lines(t, dir, "accounts.txt") {
		if a == "Prog1" {
			t.Error("a program among the accounts")
		}
	}
}

// TestSourceHidesSecrets: the manifest's source keeps no userinfo and no query.
func TestSourceHidesSecrets(t *testing.T) {
	got := Source("https://user:pw@rpc.example.com/v1/KEY?api-key=s3cret#x")
	if strings.Contains(got, "pw") || strings.Contains(got, "s3cret") || strings.Contains(got, "user") || strings.Contains(got, "KEY") || !strings.Contains(got, "rpc.example.com") {
		t.Errorf("Source kept a secret: %s", got)
	}
}

// TestEVMLogRangesInside: every eth_getLogs filter written lies inside the blocks read. A range
// past the head is refused by geth ("block range extends beyond current head block") and one
// below the window asks a pruned node for what it no longer has: either would fail a run of
// the mix that the node would otherwise serve. The fake chain has logs in every 5th block; the
// head and the window's start fall inside 10-block spans.
func TestEVMLogRangesInside(t *testing.T) {
	f := &fakeEVM{head: 53, prunedBelow: 12}
	dir := t.TempDir()
	m, err := Run(context.Background(), Options{URL: f.start(t), Chain: EVM, Blocks: 100, OutDir: dir, Rate: 10000})
	if err != nil {
		t.Fatal(err)
	}
	ranges := lines(t, dir, "log_ranges.txt")
	if len(ranges) == 0 {
		t.Fatal("no log ranges")
	}
	for _, l := range ranges {
		var r struct{ FromBlock, ToBlock string }
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		from, _ := parseHex(r.FromBlock)
		to, _ := parseHex(r.ToBlock)
		if from < m.From || to > m.To || from > to {
			t.Errorf("%s is not inside the blocks read, %d…%d", l, m.From, m.To)
		}
	}
}
