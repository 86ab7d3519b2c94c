package profiles

import (
	"fmt"
	"math/rand/v2"
	"strconv"

	"github.com/rpcstress/rpcstress/engine"
)

// {{head}} and {{recent N}} send the chain's head as the target last told it: the head tracker
// re-reads it every head_every (engine.HeadCell), so a send only loads an atomic and draws a
// number. Both are numbers: alone in a params string they become JSON numbers (Solana's
// getBlock takes a slot so), and {{hex head}} writes the EVM form.

// maxRecent bounds recent's N: a typo guard, far beyond any node's retention window.
const maxRecent = 1 << 40

// headGen appends the latest head.
type headGen struct{ cell *engine.HeadCell }

func (g *headGen) append(dst []byte, rng *rand.Rand) []byte {
	return strconv.AppendInt(dst, g.number(rng), 10)
}

func (g *headGen) number(_ *rand.Rand) int64 { return int64(g.cell.Load()) }
func (g *headGen) least() int64              { return 0 }
func (g *headGen) maxLen() int               { return 20 }

// recentGen appends a block drawn uniformly among the last n up to the head (all of them
// from 0 when the chain is shorter than n).
type recentGen struct {
	cell *engine.HeadCell
	n    uint64
}

func (g *recentGen) append(dst []byte, rng *rand.Rand) []byte {
	return strconv.AppendInt(dst, g.number(rng), 10)
}

func (g *recentGen) number(rng *rand.Rand) int64 {
	head, span := g.cell.Load(), g.n
	if head < span {
		span = head + 1
	}
	return int64(head - rng.Uint64N(span))
}

func (g *recentGen) least() int64 { return 0 }
func (g *recentGen) maxLen() int  { return 20 }

func compileHead(c *call, tc *templateCompiler, _ escaping) (generator, error) {
	if len(c.args) != 0 {
		return nil, usageErr(c, templateFuncs()["head"], fmt.Sprintf("head takes no arguments, got %d", len(c.args)))
	}
	if tc.head == nil {
		return nil, &templateError{call: c.text, msg: chainHint}
	}
	return &headGen{cell: tc.head}, nil
}

func compileRecent(c *call, tc *templateCompiler, _ escaping) (generator, error) {
	n, err := sizeArg(c, 1, maxRecent)
	if err != nil {
		return nil, err
	}
	if tc.head == nil {
		return nil, &templateError{call: c.text, msg: chainHint}
	}
	return &recentGen{cell: tc.head, n: uint64(n)}, nil
}
