package profiles

import "time"

// Defaults and bounds of the profile schema. The bounds catch typos (connections = 1e9), not
// ambition; each error message names the bound it hit.
const (
	defaultTimeout     = 5 * time.Second
	defaultConnections = 64
	maxConnections     = 100_000
	defaultMaxBody     = 4 << 20
	maxMaxBody         = 1 << 30
	maxBodyFileBytes   = 64 << 20
	maxWeight          = 1_000_000
	maxStages          = 1000
	maxBacklog         = 10_000_000
	maxRequestCount    = 1 << 53
	maxNameLen         = 100
	maxMix             = 1<<16 - 1 // a sample names its request in 16 bits
	// maxPlanTime bounds each duration and the whole plan; a month is a long soak test.
	maxPlanTime = 30 * 24 * time.Hour
)

// The keys of each table. They are a contract (DESIGN.md "Profile sketch"): renaming one breaks
// users' files. Functions rather than package variables, so nothing global can be mutated.

func topKeys() []string {
	return []string{"name", "url", "timeout", "connections", "mode", "requests", "method", "max_body",
		"backlog", "headers", "secret", "request", "stage", "ramp", "limits", "demo",
		"targets", "targets_format", "insecure", "ca_file", "search", "thresholds",
		"chain", "head_every", "ref_url", "expect", "watch", "node_metrics", "data_dir", "subscribe",
		"target", "compare_answers", "compare_numbers", "compare_keep", "compare_ignore",
		"http2", "h2c", "streams", "send_tick"}
}

func requestKeys() []string {
	return []string{"name", "method", "params", "body", "body_file", "weight", "batch", "expect", "cost", "compare_ignore"}
}

func stageKeys() []string { return []string{"name", "rate", "duration"} }

func rampKeys() []string { return []string{"from", "to", "factor", "step", "every"} }

func limitsKeys() []string { return []string{"statuses", "rpc_codes"} }

func demoKeys() []string {
	return []string{"rate", "burst", "nodelay", "latency", "jitter", "capacity", "stall_every", "stall_for"}
}
