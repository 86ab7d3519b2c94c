// Package watch reads, once a second beside a run, what the load costs the node: the CPU,
// memory, threads, open files and disk I/O of processes on this machine (read from /proc with
// github.com/prometheus/procfs), rpcstress's own, and the series a node's Prometheus endpoint
// exposes (github.com/prometheus/common/expfmt), counters as rates.
//
// A Watcher is an engine.Watcher: the engine runs it for as long as the run goes and files its
// reading of each second in that second's timeline row, so the node's numbers and the load's
// are one row per second, per stage in the report, and side by side in compare.
//
// What is watched can go wrong without the run going wrong: a process that exits is an event
// and its numbers stop; another user's process shows what /proc lets this user read, and says
// what it could not; a scrape that fails is counted and the series keep their last values,
// marked stale. Only naming something that is not there (no such process, a name that fits
// several) is an error, and it comes before anything is sent.
package watch
