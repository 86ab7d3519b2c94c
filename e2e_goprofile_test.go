package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/rpcstress/rpcstress/internal/hostile"
)

// TestE2EGoProfiles: --cpuprofile and --memprofile write the Go runtime's profiles of the run,
// each a gzipped pprof profile of its kind: CPU samples, and the heap in use at the end (what
// `go tool pprof -sample_index=inuse_space` reads).
func TestE2EGoProfiles(t *testing.T) {
	t.Parallel()
	srv := hostile.Start(t, hostile.Config{Mode: hostile.Echo})
	dir := t.TempDir()
	cpu, mem := filepath.Join(dir, "cpu.pprof"), filepath.Join(dir, "heap.pprof")
	p := writeProfile(t, srv.URL, 4, getBalance+stage("200/s", "1s"))
	mustRun(t, runCLI(t, nil, p, "--cpuprofile", cpu, "--memprofile", mem), exitOK)
	for _, tt := range []struct {
		path, kind string
	}{
		{cpu, "cpu"},         // the CPU profile's sample type
		{mem, "inuse_space"}, // the heap profile's
	} {
		f, err := os.Open(tt.path)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatalf("%s: not a gzipped profile: %v", tt.path, err)
		}
		b, err := io.ReadAll(zr)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", tt.path, err)
		}
		if !bytes.Contains(b, []byte(tt.kind)) {
			t.Errorf("%s: no %q in the profile: not a profile of that kind", filepath.Base(tt.path), tt.kind)
		}
	}
}
