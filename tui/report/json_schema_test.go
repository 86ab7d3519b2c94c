package report

import (
	"bytes"
	"encoding/json"
	"io"
	"reflect"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/schema"
	"github.com/rpcstress/rpcstress/tui/internal/fixture"
)

// TestSummaryMatchesSchema: schema/summary.v1.json describes what `report --format json`
// writes, field for field (the snapshot's own types are checked in engine), and the summaries
// of a run, of a find-limit search with thresholds, of a snapshot cut short at once and of a
// watched run are valid against it.
func TestSummaryMatchesSchema(t *testing.T) {
	problems, err := schema.CheckType(schema.Summary, "", reflect.TypeOf(jsonSummary{}), map[reflect.Type]reflect.Type{
		reflect.TypeOf(engine.Stage{}): nil, reflect.TypeOf(time.Time{}): nil, reflect.TypeOf(json.RawMessage{}): nil,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
	schemas, err := schema.Compile()
	if err != nil {
		t.Fatal(err)
	}
	withSearch := fixture.SnapshotWithTimeline()
	withSearch.Profile = []byte("{}")
	withSearch.Thresholds = []engine.ThresholdResult{{Metric: "p99", Condition: "< 50ms", Op: "<", Bound: 50, Unit: "ms", Measured: 12, Pass: true, Margin: 38}}
	pr := fixture.SearchProgress()
	withSearch.Search = &engine.SearchResult{Settings: pr.Settings, SLO: pr.SLO, Probes: pr.Probes, EndReason: "converged",
		Answer:  engine.SearchAnswer{Found: true, Rate: 1000, Goodput: 1000, FirstBad: 2000, Text: "1000/s met the SLO"},
		Limiter: &engine.LimiterEstimate{Kind: "none"}}
	cut := fixture.Snapshot()
	cut.Profile, cut.Stages, cut.Events = nil, nil, nil
	runs := map[string]*engine.Snapshot{"run": withProfile(fixture.SnapshotWithTimeline()), "find-limit": withSearch, "cut short": cut,
		"rules and costs": withProfile(fixture.CheckedSnapshot()), "watched": withProfile(fixture.WatchedSnapshot()),
		"two targets": withProfile(fixture.TargetsSnapshot()), "four targets": withProfile(fixture.RichTargetsSnapshot(4))}
	for name, s := range runs {
		var b bytes.Buffer
		if err := WriteJSON(&b, s); err != nil {
			t.Fatal(err)
		}
		if err := schemas.Validate(schema.Summary, b.Bytes()); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// withProfile gives a fixture a resolved profile as the CLI writes it (the fixtures' own is a
// stand-in with three fields).
func withProfile(s *engine.Snapshot) *engine.Snapshot {
	s.Profile = []byte(`{"name":"getBalance","url":"http://127.0.0.1:8899","method":"POST","mode":"open","timeout":"5s",
		"connections":64,"max_body_bytes":10485760,"headers":[{"name":"Content-Type","value":"application/json"}],
		"requests":[{"name":"getBalance","method":"getBalance","weight":1,"body_bytes":97,"items":1}],
		"stages":[{"rate":50,"rate_text":"50/s","duration":"10s","duration_s":10}],"limits":{"statuses":[429],"rpc_codes":[-32005]}}`)
	return s
}

// TestTargetsFixturesMatchSchema: the hand-built runs of several targets the report's tests
// read are snapshots as the engine writes them: valid against schema/snapshot.v1.json, and the
// JSON summary of one keeps each target's numbers and the answers compared.
func TestTargetsFixturesMatchSchema(t *testing.T) {
	schemas := schema.MustCompile(t)
	for name, s := range map[string]*engine.Snapshot{"two targets": fixture.TargetsSnapshot(),
		"three targets": fixture.RichTargetsSnapshot(3)} {
		schemas.RequireValid(t, schema.Snapshot, withProfile(s), name)
	}
	var sum jsonSummary
	if err := json.Unmarshal([]byte(written(t, func(w io.Writer) error { return WriteJSON(w, fixture.TargetsSnapshot()) })), &sum); err != nil {
		t.Fatal(err)
	}
	if len(sum.Targets) != 2 || sum.Targets[1].Name != "erigon" || sum.Targets[1].Totals.Limited != 1080 ||
		sum.Answers == nil || sum.Answers.Totals.Mismatch != 30 || len(sum.Answers.Examples) != 3 {
		t.Errorf("the summary of two targets: targets %+v, answers %+v", sum.Targets, sum.Answers)
	}
}
