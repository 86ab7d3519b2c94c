package errtest

import (
	"errors"
	"testing"
)

// TestMismatch: each way an error can meet or miss a row's want.
func TestMismatch(t *testing.T) {
	refused := errors.New("t.toml:3: rate: must be more than 0")
	tests := []struct {
		err  error
		want string
		miss string // "" when it meets want
	}{
		{nil, "", ""},                        // accepted, as wanted
		{refused, "must be more than 0", ""}, // refused, saying it
		{refused, "", `error t.toml:3: rate: must be more than 0, want none`},                              // refused, not wanted
		{nil, "must be more", `no error, want one saying "must be more"`},                                  // accepted, a refusal wanted
		{refused, "at least 1", `error t.toml:3: rate: must be more than 0, want one saying "at least 1"`}, // refused, saying something else
	}
	for _, tt := range tests {
		if got := Mismatch(tt.err, tt.want); got != tt.miss {
			t.Errorf("Mismatch(%v, %q) = %q, want %q", tt.err, tt.want, got, tt.miss)
		}
	}
}
