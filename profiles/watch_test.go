package profiles

import (
	"testing"
)

const watchBase = "url = \"http://h\"\n[[request]]\nmethod = \"a\"\n[[stage]]\nrate = \"1/s\"\nduration = \"1s\"\n"

// watchSeed is FuzzLoad's seed with the watch keys.
var watchSeed = withWatch("watch = [\"geth\", 1234, \"/run/geth.pid\"]\n",
	"[node_metrics]\nurl = \"http://${HOST}/metrics\"\nseries = ['rate(a{b=\"c\"})', \"d\"]\n")

// withWatch is a profile with top on its second line (top-level keys go before the tables)
// and tables after its plan (from line 8 on).
func withWatch(top, tables string) string {
	return "url = \"http://h\"\n" + top + "[[request]]\nmethod = \"a\"\n[[stage]]\nrate = \"1/s\"\nduration = \"1s\"\n" + tables
}

// TestWatchKeys: watch lists processes by name, pid or pid file, each with where it was
// written (the start of any message about it); [node_metrics] names an endpoint (with
// ${VAR}s, shown without secrets) and its series.
func TestWatchKeys(t *testing.T) {
	src := withWatch("watch = [\"geth\", 1234,\n  \"/run/geth.pid\"]\n", "[node_metrics]\nurl = \"http://u:${PW}@10.0.0.5:6060/debug/metrics/prometheus?token=${PW}\"\n"+
		"series = [\"chain_head_block\", 'rate(rpc_requests)', 'p2p_peers{direction=\"inbound\"}']\n")
	w := mustLoadIn(t, src, "testdata", map[string]string{"PW": "s3cret"}).Watch
	want := []struct{ spec, where string }{{"geth", "t.toml:2: watch[1]"}, {"1234", "t.toml:2: watch[2]"}, {"/run/geth.pid", "t.toml:3: watch[3]"}}
	if len(w.Procs) != len(want) {
		t.Fatalf("procs %+v", w.Procs)
	}
	for i, x := range want {
		if w.Procs[i].Spec != x.spec || w.Procs[i].Where != x.where {
			t.Errorf("proc %d: %+v, want %+v", i, w.Procs[i], x)
		}
	}
	if w.MetricsURL != "http://u:s3cret@10.0.0.5:6060/debug/metrics/prometheus?token=s3cret" ||
		w.MetricsDisplay != "http://10.0.0.5:6060/debug/metrics/prometheus" || w.URLWhere != "t.toml:10: node_metrics.url" {
		t.Errorf("endpoint %q shown as %q at %q", w.MetricsURL, w.MetricsDisplay, w.URLWhere)
	}
	if len(w.Series) != 3 || w.Series[1].Name != "rpc_requests" || !w.Series[1].Rate || w.Series[2].Labels["direction"] != "inbound" || w.SeriesWhere != "t.toml:11: node_metrics.series" {
		t.Errorf("series %+v at %q", w.Series, w.SeriesWhere)
	}
	// Without the keys, nothing is watched.
	if w := mustLoad(t, watchBase).Watch; len(w.Procs) != 0 || w.MetricsURL != "" || w.Series != nil {
		t.Errorf("%+v", w)
	}
}

func TestWatchErrors(t *testing.T) {
	checkProblems(t, []problemCase{
		// watch is a list, even of one.
		{"watch not a list", withWatch("watch = \"geth\"\n", ""), nil, 2, "watch", `must be a list, not a string "geth": write it as watch = ["geth"]`},
		// An entry that is neither a name, a pid nor a pid file.
		{"watch entry", withWatch("watch = [\"geth\", 1.5]\n", ""), nil, 2, "watch[2]", "is a float 1.5: write a process name"},
		// An empty name.
		{"watch empty", withWatch("watch = [\"\"]\n", ""), nil, 2, "watch[1]", "is empty"},
		// A typo in [node_metrics].
		{"node_metrics key", watchBase + "[node_metrics]\nurl = \"http://h:6060/metrics\"\nserie = [\"a\"]\n", nil, 9, "node_metrics.serie", `did you mean "series"?`},
		// The endpoint needs a scheme.
		{"node_metrics url", watchBase + "[node_metrics]\nurl = \"h:6060/metrics\"\n", nil, 8, "node_metrics.url", "no scheme"},
		// An unset ${VAR} in the endpoint.
		{"node_metrics env", watchBase + "[node_metrics]\nurl = \"http://h/${NOPE}\"\n", nil, 8, "node_metrics.url", "${NOPE} is not set"},
		// A series that is not one (PromQL's regex match is not for here).
		{"series regex", watchBase + "[node_metrics]\nurl = \"http://h/m\"\nseries = ['a{b=~\"c\"}']\n", nil, 9, "node_metrics.series[1]", "write it as name, name{label=\"value\"} or rate(name)"},
		// A series that is not a string.
		{"series number", watchBase + "[node_metrics]\nurl = \"http://h/m\"\nseries = [\"a\", 3]\n", nil, 9, "node_metrics.series[2]", "is an integer 3: write a series name in quotes"},
		// node_metrics is a table.
		{"node_metrics string", withWatch("node_metrics = \"http://h/m\"\n", ""), nil, 2, "node_metrics", `must be a table`},
	})
}
