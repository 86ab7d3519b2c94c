package profiles

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestBundledLoad loads every bundled profile with an empty environment: none may need one.
func TestBundledLoad(t *testing.T) {
	names := BundledNames()
	want := []string{"demo.toml", "eth.toml", "getBalance.toml", "getBlocks.toml", "ratelimit-ramp.toml"}
	if len(names) != len(want) {
		t.Fatalf("bundled = %v, want %v", names, want)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			p, err := LoadBundled(name, nil)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			p.Describe(&b)
			if testing.Verbose() {
				t.Log("\n" + b.String())
			}
			if _, err := json.Marshal(p.Redacted()); err != nil {
				t.Fatal(err)
			}
		})
	}
}
