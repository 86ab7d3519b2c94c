package profiles

import (
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/rpcstress/rpcstress/engine"
)

// TestTemplateHead: {{head}} sends the head as last read, {{recent N}} one of the last N
// blocks, both moving with the head; hex writes either as an EVM quantity.
func TestTemplateHead(t *testing.T) {
	cell := &engine.HeadCell{}
	within := func(lo, hi uint64, base int) func(string) bool {
		return func(s string) bool {
			if base == 16 {
				if !strings.HasPrefix(s, "0x") {
					return false
				}
				s = s[2:]
			}
			n, err := strconv.ParseUint(s, base, 64)
			return err == nil && n >= lo && n <= hi
		}
	}
	tests := []struct {
		name string
		head uint64
		tmpl string
		ok   func(string) bool
		want int // distinct values over 2000 renderings
	}{
		// The head itself.
		{"head", 20_000_000, "{{head}}", within(20_000_000, 20_000_000, 10), 1},
		// recent N: N blocks up to the head, all drawn.
		{"recent", 1000, "{{recent 10}}", within(991, 1000, 10), 10},
		// recent 1 is the head.
		{"recent 1", 1000, "{{recent 1}}", within(1000, 1000, 10), 1},
		// A chain shorter than N: from block 0.
		{"recent short chain", 3, "{{recent 100}}", within(0, 3, 10), 4},
		// The genesis block alone.
		{"recent at genesis", 0, "{{recent 5}}", within(0, 0, 10), 1},
		// hex of the head.
		{"hex head", 436, "{{hex head}}", func(s string) bool { return s == "0x1b4" }, 1},
		// hex of recent.
		{"hex recent", 0x1000, "{{hex recent 16}}", within(0xff1, 0x1000, 16), 16},
		// The largest head the tracker keeps.
		{"max head", 1<<63 - 1, "{{hex recent 2}}", within(1<<63-2, 1<<63-1, 16), 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cell.Store(tt.head)
			tmpl, err := compileWithHead(tt.tmpl, escapeJSON, cell)
			if err != nil {
				t.Fatal(err)
			}
			seen := map[string]bool{}
			for _, s := range render(tmpl, 2000) {
				if !tt.ok(s) {
					t.Fatalf("%s at head %d rendered %q", tt.tmpl, tt.head, s)
				}
				seen[s] = true
			}
			if len(seen) != tt.want {
				t.Errorf("%d distinct values, want %d", len(seen), tt.want)
			}
		})
	}
	// The templates read the head at each send: when the tracker moves it, they move.
	cell.Store(5)
	tmpl, _ := compileWithHead("{{head}}/{{hex head}}", escapeRaw, cell)
	rng := rand.New(rand.NewPCG(1, 1))
	first := string(tmpl.Append(nil, rng))
	cell.Store(6)
	if second := string(tmpl.Append(nil, rng)); first != "5/0x5" || second != "6/0x6" {
		t.Errorf("renderings %q then %q", first, second)
	}
}

// TestTemplateHeadErrors: the head's calls, written wrong, say how to write them; without a
// chain they say which key to add.
func TestTemplateHeadErrors(t *testing.T) {
	cell := &engine.HeadCell{}
	tests := []struct {
		tmpl string
		cell *engine.HeadCell
		want string
	}{
		// head takes nothing.
		{"{{head 1}}", cell, "head takes no arguments, got 1: write {{head}}"},
		// recent takes a count …
		{"{{recent}}", cell, "recent takes 1 argument, got 0: write {{recent N}}"},
		// … from 1.
		{"{{recent 0}}", cell, "0 is out of range: use 1 to"},
		{`{{recent "5"}}`, cell, "recent takes whole numbers"},
		// Without a chain, the key to add.
		{"{{head}}", nil, `the profile names no chain to read the head of: add chain = "evm" (eth_blockNumber) or chain = "solana" (getSlot)`},
		{"{{recent 10}}", nil, "the profile names no chain"},
		{"{{hex head}}", nil, "the profile names no chain"},
	}
	for _, tt := range tests {
		_, err := compileWithHead(tt.tmpl, escapeJSON, tt.cell)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.tmpl, err, tt.want)
		}
	}
}

// TestTemplateHeadParams: through the loader, "{{head}}" and "{{recent N}}" alone are JSON
// numbers (getBlock takes a slot so), "{{hex …}}" a string (eth_getBlockByNumber's "0x…"),
// and the head is the profile's chain's.
func TestTemplateHeadParams(t *testing.T) {
	p := mustLoad(t, `url = "http://h"
chain = "evm"
[[request]]
method = "eth_getBlockByNumber"
params = ["{{hex recent 1}}", false, "{{head}}", "{{recent 1}}", "b{{head}}"]
[[stage]]
rate = 1
`)
	p.Config.Head.Cell.Store(436)
	out := p.Config.Requests[0].Template.Append(nil, rand.New(rand.NewPCG(1, 1)))
	var call struct {
		Params []any `json:"params"`
	}
	if err := json.Unmarshal(out, &call); err != nil {
		t.Fatalf("%s: %v", out, err)
	}
	if want := []any{"0x1b4", false, float64(436), float64(436), "b436"}; !equalAny(call.Params, want) {
		t.Errorf("params %v, want %v", call.Params, want)
	}
}

func equalAny(a, b []any) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// BenchmarkTemplateHead is the send-path cost of each new template function alone: one
// rendering into a warm buffer. Each must stay under 100 ns and allocate nothing.
func BenchmarkTemplateHead(b *testing.B) {
	cell := &engine.HeadCell{}
	cell.Store(20_123_456)
	for _, s := range []string{"{{head}}", "{{recent 128}}", "{{hex head}}", "{{hex recent 128}}",
		"{{hex randInt 1 20000000}}", `{{hex line "numbers.txt"}}`} {
		b.Run(s, func(b *testing.B) {
			tmpl, err := compileWithHead(s, escapeJSON, cell)
			if err != nil {
				b.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(1, 2))
			buf := make([]byte, 0, 64)
			b.ReportAllocs()
			for b.Loop() {
				buf = tmpl.Append(buf[:0], rng)
			}
		})
	}
}

// TestTemplateHeadAllocs: the head's calls render without allocating, as every template does.
func TestTemplateHeadAllocs(t *testing.T) {
	cell := &engine.HeadCell{}
	cell.Store(20_123_456)
	tmpl, err := compileWithHead(`{"a":{{head}},"b":{{recent 64}},"c":"{{hex head}}","d":"{{hex recent 64}}","e":"{{hex seq}}"}`, escapeJSON, cell)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	buf := tmpl.Append(nil, rng)
	if n := testing.AllocsPerRun(1000, func() { buf = tmpl.Append(buf[:0], rng) }); n != 0 {
		t.Errorf("%v allocations per rendering", n)
	}
}
