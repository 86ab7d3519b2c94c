package main

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestCIRunsEveryFuzz keeps .ci/run's fuzz step complete: a fuzz target that CI never runs
// only replays its corpus and finds nothing new, so every Fuzz* in the tree must appear there,
// with its package directory.
func TestCIRunsEveryFuzz(t *testing.T) {
	ci, err := os.ReadFile(".ci/run")
	if err != nil {
		t.Fatalf("reading .ci/run: %v", err)
	}
	// A fuzz target's declaration, at the start of a line.
	fuzzFunc := regexp.MustCompile(`^func (Fuzz\w+)\(`)
	found := 0
	err = filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != "." && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			m := fuzzFunc.FindStringSubmatch(sc.Text())
			if m == nil {
				continue
			}
			found++
			pkg := "./" + filepath.ToSlash(filepath.Dir(path))
			if pkg == "./." {
				pkg = "."
			}
			want := regexp.MustCompile(`-fuzz '\^` + m[1] + `\$' -fuzztime \d+x -timeout \w+ ` + regexp.QuoteMeta(pkg) + "\n")
			if !want.Match(ci) {
				t.Errorf("%s: %s is not in .ci/run's fuzz step; add: go test -run '^$' -fuzz '^%s$' -fuzztime 50000x -timeout 5m %s",
					path, m[1], m[1], pkg)
			}
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatalf("walking the tree: %v", err)
	}
	if found == 0 {
		t.Fatal("found no Fuzz* function: the scan is broken")
	}
}
