package runtext

import "github.com/rpcstress/rpcstress/tui/textfmt"

// faultMeanings say in a few words what each JSON-RPC answer fault (engine.Fault's names) is,
// in the order the report lists them.
var faultMeanings = []struct{ name, meaning string }{
	{"missing", "a call got no answer"},
	{"foreign id", "a call answered with another id"},
	{"not JSON-RPC", "an answer that is not JSON-RPC"},
	{"unknown id", "an answer item whose id no call has"},
	{"extra", "a second answer to a call"},
}

// FaultRows are the faults of a span by kind, each with its count and meaning, in the order of
// faultMeanings; kinds this build does not know (a newer snapshot) follow, unexplained.
func FaultRows(faults map[string]int64) [][]string {
	var rows [][]string
	for _, f := range faultMeanings {
		if n := faults[f.name]; n > 0 {
			rows = append(rows, []string{f.name, textfmt.Int(n), f.meaning})
		}
	}
	for _, name := range textfmt.SortedByCount(faults) {
		if faultMeaning(name) == "" && faults[name] > 0 {
			rows = append(rows, []string{textfmt.OneLine(name), textfmt.Int(faults[name]), ""})
		}
	}
	return rows
}

func faultMeaning(name string) string {
	for _, f := range faultMeanings {
		if f.name == name {
			return f.meaning
		}
	}
	return ""
}
