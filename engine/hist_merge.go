package engine

import (
	"fmt"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// MergedHistograms are the histograms of several snapshots, decoded and merged: latency,
// service and latency by outcome, each for the whole span and per stage. They are the one home
// of decoding, merging, encoding and taking percentiles of saved histograms: a merge of shards
// adds each snapshot's histograms stage by stage (Add), a find-limit search makes each probe's
// measured window a stage of its own (AddStage). The zero value is empty and ready.
type MergedHistograms struct {
	latency, service histSeries
	byOutcome        map[string]*histSeries
}

// histSeries is one kind of histogram: for the whole span, and per stage (nil where none).
type histSeries struct {
	total  *hdr.Histogram
	stages []*hdr.Histogram
}

// Add merges a snapshot's histograms in, stage i into stage i. A set without histograms (an
// empty Total) adds nothing; ByRequest is not read (each request merges apart).
func (m *MergedHistograms) Add(h Histograms) error {
	if err := m.latency.add(HistogramSet{Total: h.Total, Stages: h.Stages}, "latency"); err != nil {
		return err
	}
	if err := m.service.add(h.Service, "service"); err != nil {
		return err
	}
	for o, hs := range h.ByOutcome {
		if err := m.outcome(o).add(hs, o); err != nil {
			return err
		}
	}
	return nil
}

// AddStage merges stage from of a snapshot's histograms into stage to, and into the whole; a
// stage the snapshot has no histogram of adds nothing.
func (m *MergedHistograms) AddStage(to int, h Histograms, from int) error {
	if from < 0 || from >= len(h.Stages) {
		return nil
	}
	if err := m.latency.addStage(to, h.Stages[from], "latency"); err != nil {
		return err
	}
	if from < len(h.Service.Stages) {
		if err := m.service.addStage(to, h.Service.Stages[from], "service"); err != nil {
			return err
		}
	}
	for o, hs := range h.ByOutcome {
		if from < len(hs.Stages) {
			if err := m.outcome(o).addStage(to, hs.Stages[from], o); err != nil {
				return err
			}
		}
	}
	return nil
}

func (m *MergedHistograms) outcome(o string) *histSeries {
	if m.byOutcome == nil {
		m.byOutcome = map[string]*histSeries{}
	}
	if m.byOutcome[o] == nil {
		m.byOutcome[o] = &histSeries{}
	}
	return m.byOutcome[o]
}

// SetPercentiles sets the percentiles of a summary from the merged histograms of a stage, or of
// the whole span for a stage below 0: latency, service and latency by outcome.
func (m *MergedHistograms) SetPercentiles(s *Summary, stage int) {
	s.Latency = percentilesOf(m.latency.get(stage))
	s.Service = percentilesOf(m.service.get(stage))
	s.LatencyByOutcome = map[string]Percentiles{}
	for o, hs := range m.byOutcome {
		if h := hs.get(stage); h != nil && h.TotalCount() > 0 {
			s.LatencyByOutcome[o] = percentilesOf(h)
		}
	}
}

// Encode writes the merged histograms as a snapshot holds them, each kind with at least stages
// stages: an empty histogram stands in for a stage that had none.
func (m *MergedHistograms) Encode(stages int) (Histograms, error) {
	var out Histograms
	lat, err := m.latency.encode(stages)
	if err != nil {
		return out, fmt.Errorf("encoding merged histograms: %w", err)
	}
	out.Total, out.Stages = lat.Total, lat.Stages
	if out.Service, err = m.service.encode(stages); err != nil {
		return out, fmt.Errorf("encoding merged histograms: %w", err)
	}
	out.ByOutcome = map[string]HistogramSet{}
	for o, s := range m.byOutcome {
		if out.ByOutcome[o], err = s.encode(stages); err != nil {
			return out, fmt.Errorf("encoding merged histograms: %w", err)
		}
	}
	return out, nil
}

func (s *histSeries) add(hs HistogramSet, what string) error {
	if hs.Total == "" {
		return nil
	}
	h, err := DecodeHistogram(hs.Total)
	if err != nil {
		return fmt.Errorf("%s histogram: %w", what, err)
	}
	mergeInto(&s.total, h)
	for i, enc := range hs.Stages {
		h, err := DecodeHistogram(enc)
		if err != nil {
			return fmt.Errorf("%s histogram of stage %d: %w", what, i+1, err)
		}
		mergeInto(s.stage(i), h)
	}
	return nil
}

func (s *histSeries) addStage(to int, enc, what string) error {
	if enc == "" {
		return nil
	}
	h, err := DecodeHistogram(enc)
	if err != nil {
		return fmt.Errorf("%s histogram of stage %d: %w", what, to+1, err)
	}
	mergeInto(s.stage(to), h)
	mergeInto(&s.total, h)
	return nil
}

// stage is where stage i's histogram goes, made room for.
func (s *histSeries) stage(i int) **hdr.Histogram {
	for len(s.stages) <= i {
		s.stages = append(s.stages, nil)
	}
	return &s.stages[i]
}

// get is stage's histogram, the whole span's for a stage below 0; nil for none.
func (s *histSeries) get(stage int) *hdr.Histogram {
	if stage < 0 {
		return s.total
	}
	if stage < len(s.stages) {
		return s.stages[stage]
	}
	return nil
}

// mergeInto merges h into *dst, made at h's precision on first use: the run's histograms keep
// three significant figures, the per-request ones two, and a merge keeps theirs.
func mergeInto(dst **hdr.Histogram, h *hdr.Histogram) {
	if *dst == nil {
		*dst = hdr.New(h.LowestTrackableValue(), h.HighestTrackableValue(), int(h.SignificantFigures()))
	}
	(*dst).Merge(h)
}

// encode writes the series as a snapshot holds it: nothing when it holds no histogram.
func (s *histSeries) encode(stages int) (HistogramSet, error) {
	var hs HistogramSet
	var err error
	if s.total == nil {
		return hs, nil
	}
	if hs.Total, err = encodeHist(s.total); err != nil {
		return hs, err
	}
	empty := ""
	for i := range max(stages, len(s.stages)) {
		h := s.get(i)
		if h == nil && empty == "" {
			// Every empty histogram encodes the same: encode it once.
			if empty, err = encodeHist(hdr.New(s.total.LowestTrackableValue(), s.total.HighestTrackableValue(), int(s.total.SignificantFigures()))); err != nil {
				return hs, err
			}
		}
		enc := empty
		if h != nil {
			if enc, err = encodeHist(h); err != nil {
				return hs, err
			}
		}
		hs.Stages = append(hs.Stages, enc)
	}
	return hs, nil
}
