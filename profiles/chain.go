package profiles

import (
	"fmt"
	"strings"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/internal/suggest"
)

// Bounds of head_every: faster reads would be load of their own, slower ones would let
// {{head}} fall minutes behind the chain.
const (
	minHeadEvery = 100 * time.Millisecond
	maxHeadEvery = 10 * time.Minute
)

// chain reads the keys of the head a run follows: chain = "evm" | "solana", head_every and
// ref_url (a reference node for the target's lag). head_every and ref_url mean nothing
// without a chain, so they are refused alone rather than ignored.
func (c *checker) chain(doc table, src *source) engine.HeadConfig {
	var h engine.HeadConfig
	names := make([]string, 0, 2)
	for _, ch := range engine.Chains() {
		names = append(names, string(ch))
	}
	if s, ok := c.str(doc, "", "chain", `chain = "evm"`); ok {
		switch ch := engine.Chain(strings.TrimSpace(s)); ch {
		case engine.ChainEVM, engine.ChainSolana:
			h.Chain, h.Cell = ch, &engine.HeadCell{}
		default:
			hint := ""
			if sg := suggest.Closest(s, names); sg != "" {
				hint = fmt.Sprintf("did you mean %q? ", sg)
			}
			c.addf("chain", `%q is not a chain rpcstress reads the head of: %suse "evm" (eth_blockNumber) or "solana" (getSlot)`, s, hint)
		}
	}
	_, hasChain := doc["chain"]
	if d, ok := c.duration(doc, "", "head_every", `head_every = "2s"`); ok {
		switch {
		case !hasChain:
			c.addf("head_every", `says how often the chain's head is read, but there is no chain: add chain = "evm" or chain = "solana"`)
		case d < minHeadEvery || d > maxHeadEvery:
			c.addf("head_every", "%s is out of range: read the head every %s to %s (default %s)", d, minHeadEvery, maxHeadEvery, engine.DefaultHeadEvery)
		default:
			h.Every = d
		}
	}
	if s, ok := c.str(doc, "", "ref_url", `ref_url = "https://reference.example/"`); ok {
		if !hasChain {
			c.addf("ref_url", `names a reference node for the head's lag, but there is no chain: add chain = "evm" or chain = "solana"`)
		} else if u, used, ok := c.env("ref_url", s, src.getenv); ok {
			u = strings.TrimSpace(u)
			if err := checkURL(u); err != nil {
				c.addErr("ref_url", err, "%s", err.Error())
			}
			h.RefURL, h.RefDisplay = u, displayFor(u, used)
		}
	}
	return h
}

// headEvery is how often h's head is read, the default filled in.
func headEvery(h engine.HeadConfig) time.Duration {
	if h.Every > 0 {
		return h.Every
	}
	return engine.DefaultHeadEvery
}

// chainHint is what a template that reads the head says when the profile names no chain.
const chainHint = `the profile names no chain to read the head of: add chain = "evm" (eth_blockNumber) or chain = "solana" (getSlot) at the top of the profile`
