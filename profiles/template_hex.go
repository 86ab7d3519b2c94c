package profiles

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// {{hex CALL}} writes the whole number another call yields as an EVM quantity: "0x" and
// lower-case hex digits without leading zeros (0 is "0x0"), as the eth_ methods want block
// numbers ({{hex head}}, {{hex recent 100}}, {{hex randInt 1 1000}}, {{hex seq}}). The inner
// call is compiled like any other, so hex costs one more conversion per send and nothing is
// parsed then; the numbers of a lines file ({{hex line "blocks.txt"}}) are converted once, at
// load, so a send only copies bytes.

// hexUsage lists what hex takes, for its messages.
const hexUsage = `write {{hex head}}, {{hex recent 100}}, {{hex randInt 1 1000}}, {{hex seq}} or {{hex line "blocks.txt"}} (a file of whole numbers)`

// numberGen is a generator whose value is a whole number, which hex can format.
type numberGen interface {
	generator
	// number draws the next value: what append would write in decimal.
	number(rng *rand.Rand) int64
	// least is the smallest value it can yield: hex writes none below 0.
	least() int64
}

// hexGen formats its inner generator's number in hex.
type hexGen struct{ inner numberGen }

func (g *hexGen) append(dst []byte, rng *rand.Rand) []byte {
	return strconv.AppendUint(append(dst, "0x"...), uint64(g.inner.number(rng)), 16)
}

func (g *hexGen) maxLen() int { return 2 + 16 }

// reset passes the sample rendering's reset on to a sequence inside.
func (g *hexGen) reset() {
	if r, ok := g.inner.(resetter); ok {
		r.reset()
	}
}

func compileHex(c *call, tc *templateCompiler, _ escaping) (generator, error) {
	if len(c.args) == 0 || c.args[0].kind != argWord {
		return nil, &templateError{call: c.text, msg: "hex formats the number of another call: " + hexUsage}
	}
	inner := &call{text: c.text, name: c.args[0].str, args: c.args[1:]}
	switch inner.name {
	case "hex":
		return nil, &templateError{call: c.text, msg: "hex of hex: the number is hex once; " + hexUsage}
	case "line", "lineSeq":
		return tc.hexLines(inner)
	}
	g, err := tc.generator(inner, escapeRaw)
	if err != nil {
		return nil, err
	}
	n, ok := g.(numberGen)
	if !ok {
		return nil, &templateError{call: c.text, msg: fmt.Sprintf("%s does not yield a whole number for hex to format: %s", inner.name, hexUsage)}
	}
	if n.least() < 0 {
		return nil, &templateError{call: c.text, msg: fmt.Sprintf("%s can yield %d, and hex writes no negative numbers (EVM quantities are 0 or more): start the range at 0 or above", inner.name, n.least())}
	}
	return &hexGen{inner: n}, nil
}

// hexLines compiles {{hex line "f"}} and {{hex lineSeq "f"}}: every line of the file must be a
// whole number from 0 (decimal, or already hex with 0x, as harvest writes block numbers); each
// is converted to hex once, here.
func (tc *templateCompiler) hexLines(c *call) (generator, error) {
	if err := checkArgs(c); err != nil {
		return nil, err
	}
	if len(c.args) != 1 || c.args[0].kind != argString {
		return nil, usageErr(c, templateFuncs()[c.name], c.name+" takes one quoted file name")
	}
	name := c.args[0].str
	lines, err := tc.lines(name, escapeRaw)
	if err != nil {
		return nil, &templateError{call: c.text, msg: err.Error()}
	}
	hexed := make([][]byte, len(lines))
	for i, l := range lines {
		n, ok := parseQuantity(string(l))
		if !ok {
			return nil, &templateError{call: c.text, msg: fmt.Sprintf("%s:%d: %q is not a whole number from 0 (decimal, or hex with 0x), so hex cannot format it: keep numbers only in the file, or drop hex to send the lines as written",
				tc.linesPath(name), tc.fileLine(name, i), clip(string(l), 40))}
		}
		hexed[i] = strconv.AppendUint([]byte("0x"), n, 16)
	}
	return newChoiceGen(hexed, c.name == "lineSeq"), nil
}

// parseQuantity reads a whole number from 0: decimal, or hex after 0x.
func parseQuantity(s string) (uint64, bool) {
	base := 10
	if len(s) > 2 && (strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X")) {
		s, base = s[2:], 16
	}
	if s == "" || s[0] == '+' || s[0] == '-' {
		return 0, false
	}
	n, err := strconv.ParseUint(s, base, 64)
	return n, err == nil
}

// fileLine is the line of the file on which its k-th value (0-based, among the non-empty
// lines splitLines keeps) stands; only messages need it, so the file is read again.
func (tc *templateCompiler) fileLine(name string, k int) int {
	data, err := tc.readLines(name)
	if err != nil {
		return 0
	}
	for i, l := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if k == 0 {
			return i + 1
		}
		k--
	}
	return 0
}
