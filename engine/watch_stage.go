package engine

// StageWatch sums up what the watchers read during one stage: what the node paid for the
// stage's load (seed 000's "1000 rps: 200 % of CPU").
type StageWatch struct {
	// Seconds is how many of the stage's seconds have a reading.
	Seconds int `json:"seconds"`
	// Procs are the watched processes, in WatchInfo.Procs order; nil for one not read during
	// the stage.
	Procs []*ProcStage `json:"procs,omitempty"`
	// Self is rpcstress's own process.
	Self *ProcStage `json:"self,omitempty"`
	// Series are the node's metrics, in WatchInfo.Metrics.Series order; nil for one without a
	// value during the stage.
	Series []*SeriesStage `json:"series,omitempty"`
}

// ProcStage is one process over a stage: its CPU (mean and highest second) and its resident
// memory when the stage began and when it ended.
type ProcStage struct {
	Seconds  int     `json:"seconds"`
	CPUMean  float64 `json:"cpu_mean_pct"`
	CPUMax   float64 `json:"cpu_max_pct"`
	RSSStart int64   `json:"rss_start_bytes"`
	RSSEnd   int64   `json:"rss_end_bytes"`
}

// SeriesStage is one series of the node's metrics over a stage: the mean and the highest of its
// per-second values (rates for counters).
type SeriesStage struct {
	Mean float64 `json:"mean"`
	Max  float64 `json:"max"`
}

// WatchStages sums up the timeline's readings per stage, for a run of stages stages: the one
// place these figures are made (the report, compare and the charts read them).
func WatchStages(rows []Row, stages int) []StageWatch {
	out := make([]StageWatch, stages)
	acc := make([]stageWatchAcc, stages)
	for i := range rows {
		r := &rows[i]
		if r.Watch == nil || r.Stage < 0 || r.Stage >= stages {
			continue
		}
		acc[r.Stage].add(r.Watch)
	}
	for i := range acc {
		out[i] = acc[i].result()
	}
	return out
}

// stageWatchAcc gathers one stage's readings, row by row in time order.
type stageWatchAcc struct {
	seconds int
	procs   []procStageAcc
	self    procStageAcc
	series  []seriesStageAcc
}

type procStageAcc struct {
	n        int
	cpuSum   float64
	cpuMax   float64
	rssStart int64
	rssEnd   int64
}

type seriesStageAcc struct {
	n        int
	sum, max float64
}

func (a *stageWatchAcc) add(w *WatchRow) {
	a.seconds++
	for len(a.procs) < len(w.Procs) {
		a.procs = append(a.procs, procStageAcc{})
	}
	for i, p := range w.Procs {
		a.procs[i].add(p)
	}
	a.self.add(w.Self)
	for len(a.series) < len(w.Series) {
		a.series = append(a.series, seriesStageAcc{})
	}
	for i, v := range w.Series {
		if v == nil {
			continue
		}
		s := &a.series[i]
		if s.n == 0 || *v > s.max {
			s.max = *v
		}
		s.sum += *v
		s.n++
	}
}

func (a *procStageAcc) add(p *ProcUse) {
	if p == nil {
		return
	}
	if a.n == 0 {
		a.rssStart, a.cpuMax = p.RSS, p.CPU
	}
	a.n++
	a.cpuSum += p.CPU
	a.cpuMax = max(a.cpuMax, p.CPU)
	a.rssEnd = p.RSS
}

func (a *procStageAcc) result() *ProcStage {
	if a.n == 0 {
		return nil
	}
	return &ProcStage{Seconds: a.n, CPUMean: roundMs(a.cpuSum / float64(a.n)), CPUMax: roundMs(a.cpuMax), RSSStart: a.rssStart, RSSEnd: a.rssEnd}
}

func (a *stageWatchAcc) result() StageWatch {
	out := StageWatch{Seconds: a.seconds, Self: a.self.result()}
	for i := range a.procs {
		out.Procs = append(out.Procs, a.procs[i].result())
	}
	for _, s := range a.series {
		var r *SeriesStage
		if s.n > 0 {
			r = &SeriesStage{Mean: s.sum / float64(s.n), Max: s.max}
		}
		out.Series = append(out.Series, r)
	}
	return out
}
