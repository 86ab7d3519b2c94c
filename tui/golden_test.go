package tui

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// updating reports whether the golden files are to be rewritten: go test ./tui/ -update.
// The -update flag itself is registered by github.com/charmbracelet/x/exp/golden (linked in by
// teatest for the dashboard's golden views); registering it here as well would panic, so both
// kinds of golden file share that one flag.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// checkGolden compares got with testdata/name.golden, or rewrites the file under -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if updating() {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatalf("update golden: %v", err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden (run with -update to create it): %v", err)
	}
	if string(got) != string(want) {
		t.Errorf("output differs from %s (run with -update if the change is intended)\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}
