package mocknode

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// The mock node reads its own flags with the standard flag package and nothing of the tester's:
// it is the ground truth the tester is checked against, so it shares no code with it.

// helpWidth is the width the help is wrapped to: an 80-column terminal.
const helpWidth = 80

// Flags is the mock node's flag set, writing into cfg and listen: Main parses it, and
// rpcstress's help and shell completion list it. Its flags are the flag package's own kinds
// (and rateValue), so `flag.UnquoteUsage` names their values.
func Flags(cfg *Config, listen *string) *flag.FlagSet {
	fs := flag.NewFlagSet("rpcstress mocknode", flag.ContinueOnError)
	fs.StringVar(listen, "listen", "127.0.0.1:8899", "`address` to listen on; port 0 picks a free port")
	fs.Var(rateValue{&cfg.Rate}, "rate", "limit_req `rate`: 1000/s, 240/m, 240r/m or a number per second (default off)")
	fs.IntVar(&cfg.Burst, "burst", 0, "limit_req burst: requests above the rate queued (or, with --nodelay, let through) before rejecting")
	fs.BoolVar(&cfg.NoDelay, "nodelay", false, "answer burst requests at once instead of spacing them at the rate")
	fs.IntVar(&cfg.LimitStatus, "status", defaultLimitStatus, "HTTP `status` of rejected requests (nginx's limit_req_status; nginx defaults to 503)")
	fs.DurationVar(&cfg.Latency, "latency", 0, "base latency of every answer")
	fs.DurationVar(&cfg.Jitter, "jitter", 0, "uniform random latency added on top, [0, jitter)")
	fs.DurationVar(&cfg.PerItem, "per-item", 0, "latency per item: per call of a batch, and per element of a listing answer (a slot of getBlocks, a log of eth_getLogs, an account of getProgramAccounts, …)")
	fs.Var(rateValue{&cfg.Capacity}, "capacity", "JSON-RPC calls per second the node serves one after another; beyond it answers queue (default unlimited)")
	fs.DurationVar(&cfg.StallEvery, "stall-every", 0, "freeze the node once every interval (needs --stall-for)")
	fs.DurationVar(&cfg.StallFor, "stall-for", 0, "how long each freeze holds answers")
	fs.DurationVar(&cfg.BlockTime, "block-time", 0, "the EVM chain's block period: how fast its head grows and how often newHeads subscribers are told (default mainnet's 12s)")
	fs.IntVar(&cfg.WSRefuse, "ws-refuse", 0, "answer WebSocket upgrades with this HTTP `status` (403, …) instead of accepting them (default 0: accept)")
	fs.IntVar(&cfg.WSDropEvery, "ws-drop-every", 0, "drop a WebSocket connection when its Nth message arrives, unanswered (default 0: never)")
	fs.IntVar(&cfg.SubLimit, "sub-limit", 0, "refuse a subscription while N are live on the node, with -32005 as providers cap them (default 0: take every one)")
	fs.IntVar(&cfg.SubDropAfter, "sub-drop-after", 0, "close a connection (1001, going away) once it has been sent N notifications (default 0: never)")
	fs.IntVar(&cfg.SubSkipEvery, "sub-skip-every", 0, "leave every block (or slot) whose number is a multiple of N out of every subscription: gaps (default 0: send every one)")
	fs.BoolVar(&cfg.NotifyQueued, "notify-queued", false, "notifications wait in the --capacity queue behind the calls and take their turn, as on a node whose one loop serves both")
	fs.BoolVar(&cfg.WallClock, "wall-clock", false, "stamp EVM blocks with the time the node made them (whole seconds) instead of mainnet's schedule, so a newHeads subscriber's lag reads as on a live chain")
	fs.IntVar(&cfg.Retain, "retain", 0, "keep only the last N blocks, as a pruned node: older EVM state answers geth's \"missing trie node\" error, Solana's ledger starts N slots back (default 0: an archive node)")
	fs.BoolVar(&cfg.H2C, "h2c", false, "serve HTTP/2 in cleartext (prior knowledge, as rpcstress's h2c = true sends) beside HTTP/1.1, through Go's net/http server instead of fasthttp (WebSocket upgrades are then refused)")
	return fs
}

// rateValue is a flag.Value for rates, parsed by parseRate; "off", "unlimited" and 0
// mean none.
type rateValue struct{ r *Rate }

// String shows the rate, or "off"; flag also calls it on a zero rateValue.
func (v rateValue) String() string {
	if v.r == nil || *v.r == 0 {
		return "off"
	}
	return v.r.String()
}

// Set parses a rate.
func (v rateValue) Set(s string) error {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "off", "none", "unlimited":
		*v.r = 0
		return nil
	}
	r, err := parseRate(s)
	if err != nil {
		return fmt.Errorf("bad rate: %w", err)
	}
	*v.r = r
	return nil
}

// parseFlags parses args with fs and returns the positional arguments, flag.ErrHelp for -h,
// -help or --help, or one line for people that names the flag as it is typed (--name) and says
// what would be right, instead of the flag package's "parse error" and a page of usage.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	// Every value reports its own failure with its name, so the error need not be read back
	// from the flag package's text.
	var bad error
	fs.VisitAll(func(f *flag.Flag) { f.Value = namedValue{Value: f.Value, name: f.Name, bad: &bad} })
	err := fs.Parse(args)
	switch {
	case err == nil:
		return fs.Args(), nil
	case errors.Is(err, flag.ErrHelp):
		return nil, err
	case bad != nil:
		return nil, bad
	}
	return nil, reword(fs, err)
}

// namedValue is a flag's value that, when Set fails, leaves an error naming the flag, the
// value and what the flag needs in *bad.
type namedValue struct {
	flag.Value
	name string
	bad  *error
}

func (v namedValue) Set(s string) error {
	err := v.Value.Set(s)
	if err != nil {
		*v.bad = problem(v.name, s, v.Value, err)
	}
	return err
}

// IsBoolFlag passes on whether the flag is a switch, which the flag package asks to decide
// whether it takes a value.
func (v namedValue) IsBoolFlag() bool { return isSwitch(v.Value) }

// Get passes on the typed value, by which problem and valueName tell the kinds apart.
func (v namedValue) Get() any {
	if g, ok := v.Value.(flag.Getter); ok {
		return g.Get()
	}
	return nil
}

// problem words a value that flag name refused: by the flag's kind for the flag package's
// own kinds, whose errors say only "parse error", else with the value's own error.
func problem(name, s string, v flag.Value, err error) error {
	var got any
	if g, ok := v.(flag.Getter); ok {
		got = g.Get()
	}
	switch got.(type) {
	case bool:
		return fmt.Errorf("%s=%s: a switch takes true or false", dashed(name), s)
	case time.Duration:
		if _, err := strconv.ParseFloat(s, 64); err == nil {
			return fmt.Errorf("%s %s: needs a unit: %ss, %sm (units: ms, s, m, h)", dashed(name), s, s, s)
		}
		return fmt.Errorf("%s %s: not a duration, e.g. 30s (units: ms, s, m, h)", dashed(name), s)
	case int:
		if _, err := strconv.ParseInt(s, 0, 64); errors.Is(err, strconv.ErrRange) {
			return fmt.Errorf("%s %s: too large", dashed(name), s)
		}
		return fmt.Errorf("%s %s: not a whole number, e.g. 64", dashed(name), s)
	}
	return fmt.Errorf("%s %s: %w", dashed(name), s, err)
}

// reword turns the flag package's error about the command line itself into a line for people.
// It reads the package's texts back (Go 1.26, flag.go's failf calls), since the package has
// no typed errors; any other text passes as it is.
func reword(fs *flag.FlagSet, err error) error {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		if s := didYouMean(fs, name); s != "" {
			return fmt.Errorf("unknown flag %s: did you mean %s?", dashed(name), dashed(s))
		}
		return fmt.Errorf("unknown flag %s", dashed(name))
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		return fmt.Errorf("%s needs a value: %s %s", dashed(name), dashed(name), valueName(fs.Lookup(name)))
	}
	if arg, ok := strings.CutPrefix(msg, "bad flag syntax: "); ok {
		return fmt.Errorf("%s: write a flag as --name or --name=value", arg)
	}
	return err
}

// didYouMean returns the flag a mistyped name most likely meant, or "": one the typed name
// begins or is begun by ("rat", "rates"), one with the same letters in another order
// ("brust"), or one with a single letter wrong, missing or extra ("latancy", "stall-evry").
// One- and two-letter names suggest nothing: too many flags would fit them.
func didYouMean(fs *flag.FlagSet, typed string) string {
	typed = strings.ToLower(typed)
	if len(typed) < 3 {
		return ""
	}
	var found string
	fs.VisitAll(func(f *flag.Flag) {
		n := f.Name
		if found == "" && (strings.HasPrefix(n, typed) || strings.HasPrefix(typed, n) ||
			sameLetters(n, typed) || oneEdit(n, typed)) {
			found = n
		}
	})
	return found
}

// sameLetters reports a and b made of the same letters, in any order.
func sameLetters(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	var count [256]int
	for i := range len(a) {
		count[a[i]]++
		count[b[i]]--
	}
	return count == [256]int{}
}

// oneEdit reports a and b one typo apart: one letter wrong, missing or extra.
func oneEdit(a, b string) bool {
	if len(a) < len(b) {
		a, b = b, a
	}
	if len(a)-len(b) > 1 || a == b {
		return false
	}
	i := 0 // the first place they differ
	for i < len(b) && a[i] == b[i] {
		i++
	}
	if len(a) == len(b) {
		return a[i+1:] == b[i+1:]
	}
	return a[i+1:] == b[i:]
}

// printHelp writes the mock node's help for fs: usage, About, then every flag with its value's
// name and, below it, its description, wrapped to helpWidth.
func printHelp(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintf(w, "usage: %s [flags]\n\n%s\n\nflags:\n", fs.Name(), wrap(About, helpWidth, ""))
	fs.VisitAll(func(f *flag.Flag) {
		head := "  " + dashed(f.Name)
		if name := valueName(f); name != "" {
			head += " " + name
		}
		_, usage := flag.UnquoteUsage(f)
		if d := f.DefValue; d != "" && d != "0" && d != "0s" && d != "false" && !strings.Contains(usage, "default") {
			usage += " (default " + d + ")"
		}
		fmt.Fprintf(w, "%s\n%s\n", head, wrap(usage, helpWidth, "      "))
	})
}

// valueName is what the help calls a flag's value: the `quoted` word of its usage ("--listen
// ADDRESS"), else its kind; "" for a switch.
func valueName(f *flag.Flag) string {
	if f == nil {
		return "VALUE"
	}
	if isSwitch(f.Value) {
		return ""
	}
	if strings.Contains(f.Usage, "`") {
		quoted, _ := flag.UnquoteUsage(f)
		return strings.ToUpper(quoted)
	}
	var got any
	if g, ok := f.Value.(flag.Getter); ok {
		got = g.Get()
	}
	switch got.(type) {
	case time.Duration:
		return "DURATION"
	case int:
		return "N"
	}
	return "VALUE"
}

// isSwitch reports a flag that takes no value.
func isSwitch(v flag.Value) bool {
	b, ok := v.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// dashed is a flag as people type it: -h for a one-letter name, --name for the others (the
// flag package reads either form).
func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// wrap breaks text at spaces into lines of at most width bytes (the help is ASCII), each
// starting with indent; a word longer than a line stands on its own.
func wrap(text string, width int, indent string) string {
	var b strings.Builder
	line := indent
	for _, word := range strings.Fields(text) {
		if line != indent && len(line)+1+len(word) > width {
			b.WriteString(line + "\n")
			line = indent
		}
		if line != indent {
			line += " "
		}
		line += word
	}
	b.WriteString(line)
	return b.String()
}
