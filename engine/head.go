package engine

import (
	"sync/atomic"
	"time"
)

// A run may follow the head of the chain its target serves: the latest block number (EVM) or
// slot (Solana). A head tracker of its own (head_tracker.go) reads it every HeadConfig.Every,
// apart from the load; templates send it ({{head}}, {{recent N}}) from a HeadCell; the
// timeline keeps it per second, with a reference node's head beside it when there is one, so
// a node falling behind the chain under load shows as lag.

// Chain is the kind of chain a target serves, which says how its head is read.
type Chain string

// The chains whose head rpcstress reads.
const (
	// ChainEVM reads eth_blockNumber: the latest block, as a hex quantity.
	ChainEVM Chain = "evm"
	// ChainSolana reads getSlot at the node's default commitment (finalized): the newest slot
	// whose block getBlock serves.
	ChainSolana Chain = "solana"
)

// Chains lists the chains, for messages.
func Chains() []Chain { return []Chain{ChainEVM, ChainSolana} }

// HeadMethod is the JSON-RPC method that reads the chain's head; "" for no chain.
func (c Chain) HeadMethod() string {
	switch c {
	case ChainEVM:
		return "eth_blockNumber"
	case ChainSolana:
		return "getSlot"
	}
	return ""
}

// DefaultHeadEvery is how often the head is read unless the profile says (head_every).
const DefaultHeadEvery = 2 * time.Second

// HeadConfig says which chain a run's target serves and how its head is followed. The zero
// value follows no head.
type HeadConfig struct {
	// Chain is the target's chain; "" follows no head.
	Chain Chain
	// Every is how often the head is read (DefaultHeadEvery when 0).
	Every time.Duration
	// RefURL is a reference node of the same chain whose head the target's is compared with
	// (its lag); "" for none. Secrets included: display RefDisplay.
	RefURL     string
	RefDisplay string
	// Cell holds the target's latest head for the templates that send it. The Config's
	// copies share it: the templates compiled from a profile hold it. With several targets
	// it holds the lowest of their heads, so a request drawn from it is answerable by all.
	Cell *HeadCell
	// targets are the heads of Config.Targets, each target's own (PrimeHead makes them).
	targets []*HeadCell
}

// On reports whether the run follows a head.
func (h *HeadConfig) On() bool { return h.Chain != "" }

// every is the read interval, with the default filled in.
func (h *HeadConfig) every() time.Duration {
	if h.Every <= 0 {
		return DefaultHeadEvery
	}
	return h.Every
}

// HeadCell is a target's latest head for the templates that send it ({{head}}, {{recent N}}):
// written by the head tracker every few seconds, read on every send, so an atomic. Until the
// head was read once it is not Known, and a run does not start (PrimeHead).
type HeadCell struct {
	v     atomic.Uint64
	known atomic.Bool
}

// Load is the latest head; 0 before it is known.
func (c *HeadCell) Load() uint64 { return c.v.Load() }

// Known reports whether the head was read at least once.
func (c *HeadCell) Known() bool { return c.known.Load() }

// Store records a head read from the target.
func (c *HeadCell) Store(v uint64) {
	c.v.Store(v)
	c.known.Store(true)
}
