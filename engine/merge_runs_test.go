package engine

import (
	"strings"
	"testing"
	"time"
)

// FuzzRunsOf: a merged snapshot's list is read back into runs whatever it holds (a file edited
// by hand, a name with " (host " in it): never a panic, and an entry written as Merge writes it
// is read back to its host, shard and second.
func FuzzRunsOf(f *testing.F) {
	f.Add("s1.json", "vm", "1/2", int64(1_795_000_000), "junk (host , shard -, started x)")
	f.Add("a (host b, shard c, started d).json", "", "", int64(0), ")")
	f.Fuzz(func(t *testing.T, name, host, shard string, unix int64, junk string) {
		at := time.Unix(unix%(1<<33), 0).UTC()
		entry := mergedEntry(name, &Snapshot{Host: host, Shard: shard, StartedAt: at})
		runs := runsOf(&Snapshot{Merged: []string{junk, entry}})
		if len(runs) == 0 {
			t.Fatalf("%q read back as no run", entry)
		}
		got := runs[len(runs)-1]
		want := runID{host: host, shard: shard, start: at, coarse: true}
		if shard == "-" {
			want.shard = ""
		}
		if !got.same(want) || got.host != want.host || got.shard != want.shard {
			// A host or shard holding the separators reads back otherwise; the entry's form
			// cannot tell them apart, and such a name is no host.
			if !containsAny(host+shard, ", shard ", ", started ", " (host ") {
				t.Errorf("%q read back as %+v, want %+v", entry, got, want)
			}
		}
	})
}

func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
