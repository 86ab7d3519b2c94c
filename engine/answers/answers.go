// Package answers compares the answers several targets gave to the same request (issue 17's
// `compare_answers` / `--equality`): as JSON, with key order, whitespace and the JSON-RPC id
// ignored, per-request ignored paths, and numbers optionally compared by value ("0x1b4" = 436).
// It imports nothing of the engine: the engine feeds it one Answer per target per request.
//
// Memory stays bounded however long the run: a request's answers are reduced to digests as
// they arrive, and bodies are copied only while a method still has fewer than Options.Keep
// examples kept.
package answers

// Kind is how a request's answers compared.
type Kind string

// Kinds of comparison.
const (
	// Match: every target's answer is the same.
	Match Kind = "match"
	// Mismatch: results differ.
	Mismatch Kind = "mismatch"
	// ErrorVsResult: one side answered a JSON-RPC error, the other a result.
	ErrorVsResult Kind = "error_vs_result"
	// HeadSkew: results differ while the targets' heads differed: not comparable.
	HeadSkew Kind = "head_skew"
	// Incomplete: a target gave nothing to compare (dropped, transport error, not JSON).
	Incomplete Kind = "incomplete"
)

// Options configure a Comparer.
type Options struct {
	// Targets names the targets, in the engine's order (Answer.Target indexes it).
	Targets []string
	// Keep is how many examples are kept per request name and kind (mismatch, error against
	// result, head skew, incomplete), the first that come; 0 means 5. Per kind, so that head
	// skew on "latest" cannot crowd out a request's real mismatches.
	Keep int
	// MaxBytes cuts each kept body (request and answers); 0 means 4096.
	MaxBytes int
	// NumbersByValue compares JSON numbers and 0x-hex strings by value.
	NumbersByValue bool
	// Ignore lists, per request name, the paths left out of the comparison, dotted from the
	// answer's top ("result.timestamp", "result.transactions.*.hash").
	Ignore map[string][]string
}

// Answer is one target's answer to one request.
type Answer struct {
	// Target indexes Options.Targets.
	Target int
	// Body is the answer's JSON; read during the call only, never retained unless kept as an
	// example (then copied).
	Body []byte
	// Missing: the target gave no answer to compare (dropped, transport error).
	Missing bool
	// Head is the target's head (block or slot) when it answered; 0 when unknown.
	Head uint64
}

// Counts are comparisons by kind.
type Counts struct {
	Compared      int64 `json:"compared"`
	Match         int64 `json:"match"`
	Mismatch      int64 `json:"mismatch"`
	ErrorVsResult int64 `json:"error_vs_result"`
	HeadSkew      int64 `json:"head_skew"`
	Incomplete    int64 `json:"incomplete"`
}

// PairCounts are the comparisons of two targets' answers.
type PairCounts struct {
	A      string `json:"a"`
	B      string `json:"b"`
	Counts Counts `json:"counts"`
}

// DiffLine is one path whose value differs, as the report shows it.
type DiffLine struct {
	Path string `json:"path"`
	A    string `json:"a"` // absent: ""; values as compact JSON, cut
	B    string `json:"b"`
}

// Example is one kept mismatch.
type Example struct {
	Request string     `json:"request"` // the request's name
	Kind    Kind       `json:"kind"`
	A       string     `json:"a"` // target names
	B       string     `json:"b"`
	Sent    string     `json:"sent"` // the request body, cut to MaxBytes
	AnswerA string     `json:"answer_a"`
	AnswerB string     `json:"answer_b"`
	Diff    []DiffLine `json:"diff"`
	// Cut: a body was longer than MaxBytes.
	Cut bool `json:"cut,omitempty"`
}

// Result is a run's comparison: the snapshot's `answers` section.
type Result struct {
	Targets   []string          `json:"targets"`
	Totals    Counts            `json:"totals"`
	ByRequest map[string]Counts `json:"by_request"`
	Pairs     []PairCounts      `json:"pairs"`
	Examples  []Example         `json:"examples,omitempty"`
	// Keep is Options.Keep as the comparison ran (examples kept per request name and kind at
	// most), so a merge of shards keeps as many as one run would have.
	Keep int `json:"keep,omitempty"`
}
