package promexport

import "time"

// After a run, the endpoint stays up until Prometheus has scraped the final numbers once, so a
// dashboard's last point is the run's end, not a second or a minute before it. It waits at most
// about one scrape interval, as read from the scrapes of the run: half an interval more than
// the longest gap seen, plus a second of slack (a scrape takes time too). Nobody scraped, or a
// scrape saw the end already: no wait at all, so a run without Prometheus ends as before.
const (
	// defaultGap stands for the interval when only one scrape came (a run shorter than the
	// interval): Prometheus's most common setting.
	defaultGap = 15 * time.Second
	// maxLinger bounds the wait whatever the scrapes suggest.
	maxLinger   = 2 * time.Minute
	lingerSlack = time.Second
)

// scrapeLog remembers the scrapes of a run: how many, the last, the longest gap between two,
// and whether one saw the run's final numbers.
type scrapeLog struct {
	n       int
	last    time.Time
	maxGap  time.Duration
	sawDone bool
}

// note records a scrape at at; done: it read the final numbers.
func (l *scrapeLog) note(at time.Time, done bool) {
	if l.n > 0 {
		l.maxGap = max(l.maxGap, at.Sub(l.last))
	}
	l.n++
	l.last = at
	l.sawDone = l.sawDone || done
}

// lingerUntil is when the wait for a last scrape ends; ok false: no wait is needed (nobody
// scraped, or a scrape saw the end).
func (l *scrapeLog) lingerUntil(now time.Time) (until time.Time, ok bool) {
	if l.n == 0 || l.sawDone {
		return time.Time{}, false
	}
	gap := l.maxGap
	if l.n == 1 {
		gap = defaultGap
	}
	until = l.last.Add(gap + gap/2 + lingerSlack)
	if limit := now.Add(maxLinger); until.After(limit) {
		until = limit
	}
	return until, until.After(now)
}
