package report

import (
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/rpcstress/rpcstress/tui/internal/fixture"
)

// Every static output of a snapshot with hostile text shows it escaped.
func TestOutputsEscapeHostileText(t *testing.T) {
	s := fixture.HostileSnapshot()
	outputs := []struct {
		name  string
		write func(io.Writer) error
		shown bool // the RPC message is part of this output
	}{
		{"text report", func(w io.Writer) error { return WriteReport(w, s, 0) }, true},
		{"csv", func(w io.Writer) error { return WriteCSV(w, s) }, false},
		{"html", func(w io.Writer) error { return WriteHTML(w, s) }, true},
		{"json", func(w io.Writer) error { return WriteJSON(w, s) }, false},
		{"compare", func(w io.Writer) error {
			return WriteCompare(w, []CompareRun{{File: "a" + fixture.Hostile, Snapshot: s}, {File: "b.json", Snapshot: s}}, 0)
		}, false},
	}
	targets := fixture.HostileTargetsSnapshot()
	outputs = append(outputs, []struct {
		name  string
		write func(io.Writer) error
		shown bool
	}{
		{"text report of targets", func(w io.Writer) error { return WriteReport(w, targets, 0) }, true},
		{"csv of targets", func(w io.Writer) error { return WriteCSV(w, targets) }, false},
		{"html of targets", func(w io.Writer) error { return WriteHTML(w, targets) }, true},
		{"json of targets", func(w io.Writer) error { return WriteJSON(w, targets) }, false},
	}...)
	for _, o := range outputs {
		t.Run(o.name, func(t *testing.T) {
			fixture.CheckEscaped(t, written(t, o.write), o.shown)
		})
	}
}

// The JSON summary keeps the hostile text exactly: its escapes read back as the original.
func TestJSONKeepsHostileText(t *testing.T) {
	page := written(t, func(w io.Writer) error { return WriteJSON(w, fixture.HostileSnapshot()) })
	var got struct {
		RPCMessages map[string]string `json:"rpc_messages"`
	}
	if err := json.Unmarshal([]byte(page), &got); err != nil {
		t.Fatal(err)
	}
	// encoding/json writes the byte that is not UTF-8 as U+FFFD, as it always has.
	if want := strings.ToValidUTF8(fixture.Hostile, "\ufffd"); got.RPCMessages["-32602"] != want {
		t.Errorf("read back %q, want %q", got.RPCMessages["-32602"], want)
	}
}
