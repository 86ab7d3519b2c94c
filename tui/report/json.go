package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/engine/answers"
	"github.com/rpcstress/rpcstress/internal/safetext"
)

// SummarySchema names the JSON summary written by `report --format json`. It differs from the
// snapshot's schema on purpose: a summary has no timeline and no histograms, so it must not be
// mistaken for a snapshot by report, compare or merge.
const SummarySchema = "rpcstress.summary/v1"

// jsonSummary is a snapshot without its bulk (the per-second timeline and the HDR histograms):
// what a script or a dashboard wants from a finished run. The field names are the snapshot's.
type jsonSummary struct {
	Schema    string              `json:"schema"`
	Snapshot  string              `json:"snapshot_schema"`
	Tool      engine.ToolInfo     `json:"tool"`
	Host      string              `json:"host"`
	Profile   json.RawMessage     `json:"profile,omitempty"` // as saved: secrets redacted
	Target    string              `json:"target"`
	Mode      engine.Mode         `json:"mode"`
	StartedAt time.Time           `json:"started_at"`
	EndedAt   time.Time           `json:"ended_at"`
	EndReason string              `json:"end_reason"`
	Totals    engine.Summary      `json:"totals"`
	Stages    []engine.StageStats `json:"stages"`
	Events    []engine.Event      `json:"events"`
	engine.RunNotes
	Shard  string   `json:"shard,omitempty"`
	Merged []string `json:"merged,omitempty"`
	// Thresholds are the run's [thresholds] verdict; Search a find-limit run's answer,
	// limiter estimate, settings and probes: what a script asks of a run first.
	Thresholds []engine.ThresholdResult `json:"thresholds,omitempty"`
	Search     *engine.SearchResult     `json:"search,omitempty"`
	// Watch is what the run watched and its per-stage figures (the readings per second are
	// the snapshot's timeline's).
	Watch *engine.WatchInfo `json:"watch,omitempty"`
	// Targets are each target's numbers in a run that sent to several, and Answers how their
	// answers compared.
	Targets []targetSummary `json:"targets,omitempty"`
	Answers *answers.Result `json:"answers,omitempty"`
}

// targetSummary is one target of a run with several, as the summary has a run: without its
// timeline and histograms.
type targetSummary struct {
	Name   string              `json:"name"`
	Target string              `json:"target"`
	Totals engine.Summary      `json:"totals"`
	Stages []engine.StageStats `json:"stages"`
	engine.RunNotes
}

// WriteJSON writes the run's summary as indented JSON: totals, stages with their specs and
// summaries, events, the thresholds' verdict and a find-limit search; no timeline, no
// histograms (the snapshot itself has those).
func WriteJSON(w io.Writer, s *engine.Snapshot) error {
	if s == nil {
		return errors.New("write json: no snapshot to report")
	}
	stages := orEmpty(s.Stages)
	events := s.Events
	if events == nil {
		events = []engine.Event{}
	}
	sum := jsonSummary{
		Schema: SummarySchema, Snapshot: s.Schema, Tool: s.Tool, Host: s.Host, Profile: s.Profile,
		Target: s.Target, Mode: s.Mode, StartedAt: s.StartedAt, EndedAt: s.EndedAt,
		EndReason: s.EndReason, Totals: s.Totals, Stages: stages, Events: events,
		RunNotes: s.RunNotes, Shard: s.Shard, Merged: s.Merged,
		Thresholds: s.Thresholds, Search: s.Search, Watch: s.Watch, Answers: s.Answers,
	}
	for _, t := range s.Targets {
		sum.Targets = append(sum.Targets, targetSummary{Name: t.Name, Target: t.Target, Totals: t.Totals,
			Stages: orEmpty(t.Stages), RunNotes: t.RunNotes})
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(sum); err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	// encoding/json leaves C1 and bidirectional controls raw; escaped, they read back the same.
	if _, err := w.Write(safetext.JSON(b.Bytes())); err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	return nil
}

// orEmpty is stages as a list, empty rather than null: the summary's stages are always a list.
func orEmpty(stages []engine.StageStats) []engine.StageStats {
	if stages == nil {
		return []engine.StageStats{}
	}
	return stages
}
