package profiles

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/rpcstress/rpcstress/engine"
)

// TargetOptions are what a run from a bare target file needs besides the file: its plan,
// which a target file has no place for, and optionally its format.
type TargetOptions struct {
	// Rate and Duration make the plan's one stage; Duration 0 runs until stopped.
	Rate     engine.Rate
	Duration time.Duration
	// Format is "http" or "json" (vegeta's formats) or "jsonrpc" (a JSON-RPC call or batch per
	// line); "" detects it.
	Format string
	// Stdin is read for the path "-": targets streamed while the run goes.
	Stdin io.Reader
	// URL is where targets without a URL of their own (the jsonrpc format: a JSON-RPC call
	// per line) go: --url. Other targets keep theirs (the run's --url redirects them later).
	URL string
}

// FromTargets builds a profile in memory around a vegeta target file, for
// `rpcstress --targets FILE --rate R --duration D`: named after the file, sending to the
// targets' host, with the defaults of every other key (connections 64, timeout 5s). Problems
// name the target file and its lines.
//
// The path "-" reads the targets from opts.Stdin while the run goes (see targetStream): the
// first one now, so that a run starts with a known URL and a bad first target is reported
// before anything is sent; @body files are relative to the working directory.
func FromTargets(path string, opts TargetOptions, getenv func(string) (string, bool)) (*Profile, error) {
	if path == "-" {
		return fromStream(opts, getenv)
	}
	path = filepath.Clean(path)
	info, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("target file %s: %w: check the path", path, err)
		}
		return nil, fmt.Errorf("target file %s: %w", path, err)
	}
	switch kind := notRegular(info.Mode()); kind {
	case "":
	case "a directory":
		return nil, notRegularError("target file "+path+": ", kind)
	default: // /dev/stdin on a pipe: streaming is the way, not a copy to a file
		return nil, fmt.Errorf("target file %s: is %s, not a regular file: to stream targets, pipe them into --targets -", path, kind)
	}
	doc := table{
		"name":    targetsProfileName(path),
		"targets": filepath.Base(path),
		"stage":   []table{{"rate": opts.Rate.String(), "duration": opts.Duration.String()}},
	}
	if opts.Format != "" {
		doc["targets_format"] = opts.Format
	}
	dir := filepath.Dir(path)
	src := diskSource(path, dir, getenv)
	src.defaultURL = opts.URL
	c := &checker{file: path, lines: lineIndex{}}
	p := compile(c, doc, toml.MetaData{}, src)
	if len(c.problems) > 0 {
		return nil, newError(path, c.problems)
	}
	return p, nil
}

// fromStream is FromTargets for standard input.
func fromStream(opts TargetOptions, getenv func(string) (string, bool)) (*Profile, error) {
	if opts.Stdin == nil {
		return nil, errors.New("targets from standard input (-): there is no standard input here")
	}
	st := newTargetStream(opts.Stdin, opts.Format, diskReader("."), opts.URL)
	if err := st.prime(); err != nil {
		return nil, err
	}
	doc := table{
		"name":    stdinName,
		"url":     st.url(),
		"targets": "-",
		"stage":   []table{{"rate": opts.Rate.String()}}, // until stopped: the input's end ends it
	}
	if opts.Duration > 0 {
		doc["stage"].([]table)[0]["duration"] = opts.Duration.String()
	}
	if opts.Format != "" {
		doc["targets_format"] = opts.Format
	}
	src := diskSource(stdinName, ".", getenv)
	src.stream, src.defaultURL = st, opts.URL
	c := &checker{file: stdinName, lines: lineIndex{}}
	p := compile(c, doc, toml.MetaData{}, src)
	if len(c.problems) > 0 {
		return nil, newError(stdinName, c.problems)
	}
	return p, nil
}

// targetsProfileName is the target file's name without folder and extension, kept to the
// characters a snapshot file name may hold.
func targetsProfileName(path string) string {
	base := filepath.Base(path)
	base = strings.TrimSuffix(base, filepath.Ext(base))
	name := strings.Map(func(r rune) rune {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._-", r)) {
			return r
		}
		return '_'
	}, base)
	if len(name) > maxNameLen {
		name = name[:maxNameLen]
	}
	if strings.Trim(name, "_.") == "" {
		return "targets"
	}
	return name
}
