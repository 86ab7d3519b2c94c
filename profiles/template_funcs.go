package profiles

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
)

// Bounds of the template functions' arguments: they catch typos, not ambition.
const (
	maxRandChars   = 1 << 20  // randHex, randBase58
	maxPayload     = 16 << 20 // payload
	maxPickChoices = 10_000
)

// templateFunc describes one function: its arguments, for messages, and its compiler.
type templateFunc struct {
	usage   string // e.g. "randInt A B"
	numeric bool   // yields a number: alone in a JSON string, it becomes a JSON number
	nests   bool   // its arguments are another call ({{hex randInt 1 9}})
	compile func(c *call, tc *templateCompiler, esc escaping) (generator, error)
}

// templateFuncs are the functions a template may call.
func templateFuncs() map[string]templateFunc {
	return map[string]templateFunc{
		"randInt":    {usage: "randInt A B", numeric: true, compile: compileRandInt},
		"seq":        {usage: "seq, or seq START", numeric: true, compile: compileSeq},
		"pick":       {usage: `pick "a" "b" …`, compile: compilePick},
		"line":       {usage: `line "file.txt"`, compile: compileLine},
		"lineSeq":    {usage: `lineSeq "file.txt"`, compile: compileLine},
		"randHex":    {usage: "randHex N", compile: compileRandHex},
		"randBase58": {usage: "randBase58 N", compile: compileRandBase58},
		"payload":    {usage: "payload N", compile: compilePayload},
		"hex":        {usage: "hex randInt A B", nests: true, compile: compileHex},
		"head":       {usage: "head", numeric: true, compile: compileHead},
		"recent":     {usage: "recent N", numeric: true, compile: compileRecent},
	}
}

// funcNames lists the functions, sorted, for messages.
func funcNames() []string {
	var names []string
	for n := range templateFuncs() {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// usageErr says how a function is called.
func usageErr(c *call, f templateFunc, what string) error {
	return &templateError{call: c.text, msg: fmt.Sprintf("%s: write {{%s}}", what, f.usage)}
}

// intArgs checks that c has exactly n integer arguments.
func intArgs(c *call, n int) error {
	f := templateFuncs()[c.name]
	if len(c.args) != n {
		return usageErr(c, f, fmt.Sprintf("%s takes %s, got %d", c.name, plural(n, "argument"), len(c.args)))
	}
	for _, a := range c.args {
		if a.kind != argInt {
			return usageErr(c, f, fmt.Sprintf("%s takes whole numbers, not %q", c.name, a.str))
		}
	}
	return nil
}

// sizeArg reads the single size argument N of randHex, randBase58 and payload.
func sizeArg(c *call, lo, hi int64) (int, error) {
	if err := intArgs(c, 1); err != nil {
		return 0, err
	}
	n := c.args[0].num
	if n < lo || n > hi {
		return 0, &templateError{call: c.text, msg: fmt.Sprintf("%d is out of range: use %d to %d", n, lo, hi)}
	}
	return int(n), nil
}

// randIntGen draws uniformly from [lo, lo+span-1]; span 0 means the whole int64 range.
type randIntGen struct {
	lo   int64
	span uint64
}

func compileRandInt(c *call, _ *templateCompiler, _ escaping) (generator, error) {
	if err := intArgs(c, 2); err != nil {
		return nil, err
	}
	a, b := c.args[0].num, c.args[1].num
	if a > b {
		return nil, &templateError{call: c.text, msg: fmt.Sprintf("the lower bound %d is above the upper bound %d: write {{randInt %d %d}}", a, b, b, a)}
	}
	return &randIntGen{lo: a, span: uint64(b-a) + 1}, nil
}

func (g *randIntGen) append(dst []byte, rng *rand.Rand) []byte {
	return strconv.AppendInt(dst, g.number(rng), 10)
}

func (g *randIntGen) number(rng *rand.Rand) int64 {
	if g.span == 0 {
		return int64(rng.Uint64())
	}
	return g.lo + int64(rng.Uint64N(g.span))
}

func (g *randIntGen) least() int64 { return g.lo }
func (g *randIntGen) maxLen() int  { return 20 }

// seqGen counts up from start, shared by all workers: each send gets the next number.
type seqGen struct {
	start int64
	n     atomic.Int64
}

func compileSeq(c *call, _ *templateCompiler, _ escaping) (generator, error) {
	g := &seqGen{start: 1}
	switch len(c.args) {
	case 0:
	case 1:
		if err := intArgs(c, 1); err != nil {
			return nil, err
		}
		g.start = c.args[0].num
	default:
		return nil, usageErr(c, templateFuncs()["seq"], fmt.Sprintf("seq takes 0 or 1 arguments, got %d", len(c.args)))
	}
	return g, nil
}

func (g *seqGen) append(dst []byte, rng *rand.Rand) []byte {
	return strconv.AppendInt(dst, g.number(rng), 10)
}

func (g *seqGen) number(_ *rand.Rand) int64 { return g.start + g.n.Add(1) - 1 }
func (g *seqGen) least() int64              { return g.start }
func (g *seqGen) maxLen() int               { return 20 }
func (g *seqGen) reset()                    { g.n.Store(0) }

// choiceGen appends one of its choices, already escaped for where it goes: at random, or in
// order (wrapping) when sequential.
type choiceGen struct {
	choices    [][]byte
	sequential bool
	next       atomic.Uint64
	longest    int
}

func newChoiceGen(choices [][]byte, sequential bool) *choiceGen {
	g := &choiceGen{choices: choices, sequential: sequential}
	for _, c := range choices {
		g.longest = max(g.longest, len(c))
	}
	return g
}

func (g *choiceGen) append(dst []byte, rng *rand.Rand) []byte {
	var i uint64
	if g.sequential {
		i = (g.next.Add(1) - 1) % uint64(len(g.choices))
	} else {
		i = rng.Uint64N(uint64(len(g.choices)))
	}
	return append(dst, g.choices[i]...)
}

func (g *choiceGen) maxLen() int { return g.longest }
func (g *choiceGen) reset()      { g.next.Store(0) }

func compilePick(c *call, _ *templateCompiler, esc escaping) (generator, error) {
	f := templateFuncs()["pick"]
	if len(c.args) == 0 {
		return nil, usageErr(c, f, "pick needs at least one choice")
	}
	if len(c.args) > maxPickChoices {
		return nil, &templateError{call: clip(c.text, 40), msg: fmt.Sprintf("more than %d choices: put them into a file, one per line, and use {{line \"file.txt\"}}", maxPickChoices)}
	}
	choices := make([][]byte, len(c.args))
	for i, a := range c.args {
		if a.kind != argString {
			return nil, usageErr(c, f, fmt.Sprintf("pick takes quoted strings, not %d", a.num))
		}
		choices[i] = escapeFor([]byte(a.str), esc)
	}
	return newChoiceGen(choices, false), nil
}

func compileLine(c *call, tc *templateCompiler, esc escaping) (generator, error) {
	f := templateFuncs()[c.name]
	if len(c.args) != 1 || c.args[0].kind != argString {
		return nil, usageErr(c, f, c.name+" takes one quoted file name")
	}
	lines, err := tc.lines(c.args[0].str, esc)
	if err != nil {
		return nil, &templateError{call: c.text, msg: err.Error()}
	}
	return newChoiceGen(lines, c.name == "lineSeq"), nil
}

// hexDigits and base58Digits are the alphabets; base58 is Bitcoin's (and Solana's): no 0, O, I, l.
const (
	hexDigits    = "0123456789abcdef"
	base58Digits = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
	// base58Draw is 58^10, the most base-58 digits one 64-bit draw yields without bias.
	base58Draw = 58 * 58 * 58 * 58 * 58 * 58 * 58 * 58 * 58 * 58
)

// compileRandHex makes randHex N: N random lower-case hex characters (N/2 bytes); 40 make an
// Ethereum address after "0x". Sixteen hex digits take all 64 bits of a draw.
func compileRandHex(c *call, _ *templateCompiler, _ escaping) (generator, error) {
	return compileRandDigits(c, hexDigits, 16, 0)
}

// compileRandBase58 makes randBase58 N: N random base58 characters. Solana addresses are
// 32–44 of them; a random string of that length is well-formed but rarely a real account.
func compileRandBase58(c *call, _ *templateCompiler, _ escaping) (generator, error) {
	return compileRandDigits(c, base58Digits, 10, base58Draw)
}

func compileRandDigits(c *call, digits string, perDraw int, draw uint64) (generator, error) {
	n, err := sizeArg(c, 1, maxRandChars)
	return &randDigitsGen{n: n, digits: digits, perDraw: perDraw, draw: draw}, err
}

// randDigitsGen appends n random characters of an alphabet, taking perDraw of them from each
// random number: one draw per character would cost the RNG most of the time.
type randDigitsGen struct {
	n       int
	digits  string
	perDraw int
	// draw is len(digits)^perDraw, the range of a draw that gives each digit an equal chance;
	// 0 when that is all of uint64 (16^16 = 2^64).
	draw uint64
}

func (g *randDigitsGen) append(dst []byte, rng *rand.Rand) []byte {
	base := uint64(len(g.digits))
	for left := g.n; left > 0; {
		var x uint64
		if g.draw == 0 {
			x = rng.Uint64()
		} else {
			x = rng.Uint64N(g.draw)
		}
		for k := 0; k < g.perDraw && left > 0; k++ {
			dst = append(dst, g.digits[x%base])
			x /= base
			left--
		}
	}
	return dst
}

func (g *randDigitsGen) maxLen() int { return g.n }

// payloadGen appends the same n bytes of filler every time: printable ASCII that needs no
// escaping in a JSON string, for payload-size sweeps.
type payloadGen struct{ fill []byte }

func compilePayload(c *call, _ *templateCompiler, _ escaping) (generator, error) {
	n, err := sizeArg(c, 0, maxPayload)
	if err != nil {
		return nil, err
	}
	const pattern = "abcdefghijklmnopqrstuvwxyz0123456789"
	fill := bytes.Repeat([]byte(pattern), n/len(pattern)+1)[:n]
	return &payloadGen{fill: fill}, nil
}

func (g *payloadGen) append(dst []byte, _ *rand.Rand) []byte { return append(dst, g.fill...) }
func (g *payloadGen) maxLen() int                            { return len(g.fill) }

// escapeFor returns s as it must be written where it goes: as is, or escaped for the inside
// of a JSON string.
func escapeFor(s []byte, esc escaping) []byte {
	if esc == escapeRaw {
		return s
	}
	return appendJSONStringBody(nil, string(s))
}

// splitLines reads a lines file: one value per line, surrounding blanks trimmed, empty lines
// skipped.
func splitLines(data []byte) []string {
	var out []string
	for l := range strings.SplitSeq(string(data), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}
