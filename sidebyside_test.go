package main

import (
	"slices"
	"testing"

	"github.com/rpcstress/rpcstress/engine"
)

// TestInsecureWarnings: a run that accepts any certificate says so before it starts: once for
// one target, and per target, by name, for each of several that does.
func TestInsecureWarnings(t *testing.T) {
	off := &engine.TLSConfig{Insecure: true}
	on := &engine.TLSConfig{}
	tests := []struct {
		name string
		cfg  engine.Config
		want []string
	}{
		// One target, verified: nothing to say.
		{"one verified", engine.Config{}, nil},
		// One target, insecure: the line single-target runs always printed.
		{"one insecure", engine.Config{TLS: *off}, []string{"warning: TLS verification OFF (insecure = true): any certificate is accepted"}},
		// The run's insecure setting reaches a target without TLS of its own, not one with.
		{"run insecure", engine.Config{TLS: *off, Targets: []engine.Target{{Name: "a"}, {Name: "b", TLS: on}}},
			[]string{"warning: target a: TLS verification OFF (insecure = true): any certificate is accepted"}},
		// A target's own insecure setting, under a verified run.
		{"target insecure", engine.Config{Targets: []engine.Target{{Name: "a"}, {Name: "b", TLS: off}}},
			[]string{"warning: target b: TLS verification OFF (insecure = true): any certificate is accepted"}},
	}
	for _, tt := range tests {
		if got := insecureWarnings(&tt.cfg); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
