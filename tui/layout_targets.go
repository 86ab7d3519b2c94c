package tui

// The layout of a run with several targets side by side (issue 17). The panes of one target's
// figures (latency, status codes) give their room to the targets' table, where each figure
// has a column per target; the requests and errors have a row per target, and the answers
// compared a pane of their own. At 80x24 two targets fit with the events under them; the wide
// layout shows up to four.

// compactTargetSections are the compact layout's panes: the rate and the alarms, the targets'
// table and the answers always; each target's errors and the node's resources next; the
// subscriptions on each target (when held) and the requests per target with rows to spare,
// and the events in what is left. The stages leave
// (the header has the plan's position; their figures would be one target's).
func (d *Dashboard) compactTargetSections() []section {
	return []section{
		{pane: &d.throughput, gap: true},
		{pane: &d.targets, gap: true},
		{pane: &d.answers, gap: true},
		{pane: &d.errors, rank: 1, gap: true},
		{pane: &d.node, rank: 1, gap: true},
		{pane: &d.subs, rank: 2, gap: true},
		{pane: &d.requests, rank: 3, gap: true},
		{pane: &d.events, rank: 1, grow: true, gap: true},
	}
}

// wideTargetSections are the wide layout's columns: the rate with a chart per target, the
// targets' table and the stages (the first target's figures, as their title says) on the
// left; each target's errors, the answers, the node, the subscriptions on each target (when
// held), the requests per target and the events on the right.
func (d *Dashboard) wideTargetSections() (left, right []section) {
	left = []section{
		{id: boxThroughput, pane: &d.throughput},
		{id: boxTargets, pane: &d.targets},
		{id: boxStages, pane: &d.stages, rank: 1, grow: true},
	}
	right = []section{
		{id: boxErrors, pane: &d.errors},
		{id: boxAnswers, pane: &d.answers},
		{id: boxNode, pane: &d.node, rank: 1},
		{id: boxSubs, pane: &d.subs, rank: 2},
		{id: boxRequests, pane: &d.requests, rank: 2},
		{id: boxEvents, pane: &d.events, rank: 3, grow: true},
	}
	return left, right
}
