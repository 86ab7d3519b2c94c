package profiles

import (
	"strings"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
)

// TestChainKeys: chain, head_every and ref_url set the head the run follows.
func TestChainKeys(t *testing.T) {
	p := mustLoadIn(t, `url = "http://h"
chain = "solana"
head_every = "500ms"
ref_url = "https://ref.example/v1/${REF_KEY}?x=1"
[[request]]
method = "getBlock"
params = ["{{recent 100}}"]
[[stage]]
rate = 1
`, "testdata", map[string]string{"REF_KEY": "s3cret"})
	h := p.Config.Head
	if h.Chain != engine.ChainSolana || h.Every != 500*time.Millisecond || h.RefURL != "https://ref.example/v1/s3cret?x=1" || h.Cell == nil {
		t.Fatalf("head %+v", h)
	}
	if strings.Contains(h.RefDisplay, "s3cret") || strings.Contains(h.RefDisplay, "x=1") {
		t.Errorf("the reference's display URL shows a secret: %s", h.RefDisplay)
	}
	out := described(p)
	for _, want := range []string{"chain         solana: getSlot every 500ms, apart from the load", "reference     https://ref.example/v1/"} {
		if !strings.Contains(out, want) {
			t.Errorf("validate lacks %q:\n%s", want, out)
		}
	}
	r := p.Redacted().(*Resolved)
	if r.Chain != "solana" || r.HeadEvery != "500ms" || r.RefURL != h.RefDisplay {
		t.Errorf("resolved %q %q %q", r.Chain, r.HeadEvery, r.RefURL)
	}
	// Without head_every, the default.
	if p := mustLoad(t, "url = \"http://h\"\nchain = \"evm\"\n[[request]]\nmethod = \"eth_blockNumber\"\n[[stage]]\nrate = 1\n"); p.Redacted().(*Resolved).HeadEvery != "2s" {
		t.Errorf("default head_every %q", p.Redacted().(*Resolved).HeadEvery)
	}
}

// TestChainErrors: each mistake is named at its line with the fix; a key that means nothing
// without a chain is refused, not ignored.
func TestChainErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		// An unknown chain, with the nearest name.
		{"unknown", "chain = \"evn\"\n", `t.toml:2: chain: "evn" is not a chain rpcstress reads the head of: did you mean "evm"? use "evm" (eth_blockNumber) or "solana" (getSlot)`},
		// Not a string.
		{"type", "chain = 1\n", "t.toml:2: chain: must be a string"},
		// head_every alone.
		{"every alone", "head_every = \"1s\"\n", `t.toml:2: head_every: says how often the chain's head is read, but there is no chain: add chain = "evm" or chain = "solana"`},
		// Too often.
		{"every fast", "chain = \"evm\"\nhead_every = \"10ms\"\n", "t.toml:3: head_every: 10ms is out of range: read the head every 100ms to 10m0s (default 2s)"},
		// Not a duration.
		{"every bad", "chain = \"evm\"\nhead_every = \"2\"\n", `t.toml:3: head_every: "2" is not a duration`},
		// ref_url alone.
		{"ref alone", "ref_url = \"http://r\"\n", "t.toml:2: ref_url: names a reference node for the head's lag, but there is no chain"},
		// A bad reference URL.
		{"ref bad", "chain = \"evm\"\nref_url = \"r:8545\"\n", `t.toml:3: ref_url: "r:8545" has no scheme`},
		// A template that reads the head, without a chain: at its line.
		{"head without chain", "[[request]]\nmethod = \"eth_getBlockByNumber\"\nparams = [\"{{hex head}}\", false]\n",
			`t.toml:4: request[1].params[1]: "{{hex head}}": the profile names no chain to read the head of: add chain = "evm" (eth_blockNumber) or chain = "solana" (getSlot) at the top of the profile`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "url = \"http://h\"\n" + tt.src
			if !strings.Contains(tt.src, "[[request]]") {
				src += "[[request]]\nmethod = \"m\"\n"
			}
			e := loadErr(t, src+"[[stage]]\nrate = 1\n", nil)
			if !strings.Contains(e.Error(), tt.want) {
				t.Errorf("got:\n%v\nwant a problem containing:\n%s", e, tt.want)
			}
		})
	}
}

// TestApplyRefURL: --ref-url names the reference node, over the profile's; without a chain
// it is refused.
func TestApplyRefURL(t *testing.T) {
	p := mustLoad(t, "url = \"http://h\"\nchain = \"evm\"\nref_url = \"http://old\"\n[[request]]\nmethod = \"m\"\n[[stage]]\nrate = 1\n")
	if err := p.Apply(Overrides{RefURL: "http://ref:8545/key?k=1"}); err != nil {
		t.Fatal(err)
	}
	if h := p.Config.Head; h.RefURL != "http://ref:8545/key?k=1" || h.RefDisplay != "http://ref:8545/key" || p.Overridden[0] != "--ref-url http://ref:8545/key" {
		t.Errorf("head %+v overridden %v", h, p.Overridden)
	}
	if err := p.Apply(Overrides{RefURL: "ref:8545"}); err == nil || !strings.Contains(err.Error(), "--ref-url: ") {
		t.Errorf("bad --ref-url: %v", err)
	}
	plain := mustLoad(t, "url = \"http://h\"\n[[request]]\nmethod = \"m\"\n[[stage]]\nrate = 1\n")
	if err := plain.Apply(Overrides{RefURL: "http://ref"}); err == nil || !strings.Contains(err.Error(), `--ref-url: the profile names no chain whose head to compare: add chain = "evm" or chain = "solana" to it`) {
		t.Errorf("--ref-url without a chain: %v", err)
	}
}
