package answers

import (
	"testing"

	"github.com/rpcstress/rpcstress/internal/errtest"
)

// TestCheckIgnorePath: ignore paths are read, and each mistake says how to write one.
func TestCheckIgnorePath(t *testing.T) {
	tests := []struct {
		path string
		err  string // a part of the error; "" for none
	}{
		// A member of the result.
		{"result.timestamp", ""},
		// Any item of an array.
		{"result.transactions.*.hash", ""},
		// One item, by index.
		{"result.transactions.0.hash", ""},
		// A path may start anywhere in the answer: an error's message.
		{"error.message", ""},
		// Empty.
		{"", "is empty"},
		// Only spaces.
		{"   ", "is empty"},
		// Two dots.
		{"result..a", "empty key"},
		// A leading dot.
		{".result", "empty key"},
		// A trailing dot.
		{"result.", "empty key"},
		// Brackets, as expect paths may be written: here an index is a key.
		{"result.transactions[0].hash", `"result.transactions.0.hash"`},
		// Spaces around.
		{" result.a", "spaces around"},
	}
	for _, tt := range tests {
		if m := errtest.Mismatch(CheckIgnorePath(tt.path), tt.err); m != "" {
			t.Errorf("%q: %s", tt.path, m)
		}
	}
}
