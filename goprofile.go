package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime"
	"runtime/pprof"

	"github.com/rpcstress/rpcstress/internal/outfile"
)

// goProfiles are the Go runtime's profiles of a run that the user asked for: --cpuprofile (the
// CPU time from the start to the end of the run) and --memprofile (the heap in use at the end).
// Both paths are checked before anything is sent, and both profiles are kept in memory
// (kilobytes) and written by stop with the snapshot's rules (internal/outfile): a file
// atomically, a device or a FIFO through, never over a file that should not be replaced.
type goProfiles struct {
	cpu, mem outfile.Target
	cpuBuf   bytes.Buffer
}

// startGoProfiles checks the paths ("" for a profile not asked for) and starts the CPU profile.
func startGoProfiles(cpuPath, memPath string) (*goProfiles, error) {
	g := &goProfiles{}
	for _, p := range []struct {
		flag, path string
		to         *outfile.Target
	}{{"--cpuprofile", cpuPath, &g.cpu}, {"--memprofile", memPath, &g.mem}} {
		if p.path == "" {
			continue
		}
		t, err := outfile.Check(p.path)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", p.flag, p.path, err)
		}
		*p.to = t
	}
	if g.cpu.Path != "" {
		if err := pprof.StartCPUProfile(&g.cpuBuf); err != nil {
			return nil, fmt.Errorf("--cpuprofile: %w", err)
		}
	}
	return g, nil
}

// stop ends the CPU profile, takes the heap profile and writes both. Call it as the run ends,
// while what the run holds is still reachable: the heap profile is taken after a collection,
// so its in-use figures are the heap of that moment, not of whenever the last cycle ran.
func (g *goProfiles) stop(ctx context.Context) error {
	var errs []error
	if g.cpu.Path != "" {
		pprof.StopCPUProfile()
		if err := g.cpu.Write(ctx, g.cpuBuf.Bytes()); err != nil {
			errs = append(errs, fmt.Errorf("--cpuprofile %s: %w", g.cpu.Path, err))
		}
	}
	if g.mem.Path != "" {
		runtime.GC()
		var heap bytes.Buffer
		if err := pprof.Lookup("heap").WriteTo(&heap, 0); err != nil {
			errs = append(errs, fmt.Errorf("--memprofile: %w", err))
		} else if err := g.mem.Write(ctx, heap.Bytes()); err != nil {
			errs = append(errs, fmt.Errorf("--memprofile %s: %w", g.mem.Path, err))
		}
	}
	return errors.Join(errs...)
}
