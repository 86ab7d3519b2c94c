package profiles

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"
)

// Load reads, validates and compiles the profile at path. getenv resolves ${VAR} references
// (pass os.LookupEnv; nil means an empty environment). body_file paths are relative to the
// profile's folder, as are the files of templates, targets and ca_file. An invalid profile yields
// an *Error listing every problem. Options (DataDir) say what the command line adds.
func Load(path string, getenv func(string) (string, bool), opts ...Option) (*Profile, error) {
	if info, err := os.Stat(path); err == nil {
		if kind := notRegular(info.Mode()); kind != "" {
			return nil, notRegularError("profile "+path+": ", kind)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("profile %s: %w: check the path (bundled profiles live in profiles/, e.g. profiles/getBalance.toml)", path, err)
		}
		return nil, fmt.Errorf("profile %s: %w", path, err)
	}
	dir := filepath.Dir(path)
	return load(diskSource(path, dir, getenv), data, opts...)
}

// LoadBytes is Load for a profile in memory: name stands for the file in messages (and gives
// the default profile name); baseDir is where body_file, lines, targets and ca_file paths
// start ("" is the working directory).
func LoadBytes(name string, data []byte, baseDir string, getenv func(string) (string, bool), opts ...Option) (*Profile, error) {
	if baseDir == "" {
		baseDir = "."
	}
	return load(diskSource(name, baseDir, getenv), data, opts...)
}

// source is where a profile comes from and how it reaches what lies outside it.
type source struct {
	name     string
	dir      string // the folder files named in the profile are relative to; "" for bundled
	getenv   func(string) (string, bool)
	readBody func(name string) ([]byte, error) // body, lines and CA files, whole
	// open streams a target file, which may be far larger than any body (a million targets):
	// it is read a line at a time and never held whole.
	open   func(name string) (io.ReadCloser, error)
	stream *targetStream // targets = "-": standard input, for FromTargets only
	// defaultURL is where targets without a URL of their own go (the jsonrpc format) when
	// the profile has no url: --url, for FromTargets.
	defaultURL string
	// dataDir is --data: the folder of the lines files, over the profile's data_dir.
	dataDir string
}

// displayPath is where a file named in the profile lives, as a path people can open.
func (s *source) displayPath(name string) string {
	if s.dir == "" || filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(s.dir, name)
}

// openFile opens a file named in the profile as a stream (see open).
func (s *source) openFile(name string) (io.ReadCloser, error) {
	if s.open == nil {
		return nil, fmt.Errorf("%q cannot be read here", name)
	}
	return s.open(name)
}

// defaultName is the file name without folder and .toml.
func (s *source) defaultName() string {
	return strings.TrimSuffix(filepath.Base(s.name), ".toml")
}

// load parses, checks and compiles.
func load(src *source, data []byte, opts ...Option) (*Profile, error) {
	for _, o := range opts {
		o(src)
	}
	// The scan comes first: the parser must never see a file nested too deeply (see maxDepth).
	lines, deep := indexLines(string(data))
	if deep != nil {
		return nil, newError(src.name, []*Problem{deep.problem(src.name)})
	}
	doc, md, err := decode(data)
	if err != nil {
		return nil, newError(src.name, []*Problem{syntaxProblem(src.name, data, err)})
	}
	c := &checker{file: src.name, lines: lines}
	p := compile(c, doc, md, src)
	if len(c.problems) > 0 {
		return nil, newError(src.name, c.problems)
	}
	return p, nil
}

// decode parses TOML into plain maps, so that a value of the wrong type is found by the
// checker (with its line and a fix) instead of stopping the decoder at the first one.
func decode(data []byte) (doc table, md toml.MetaData, err error) {
	defer func() {
		if r := recover(); r != nil { // the parser recovers its own panics; this is a last guard
			doc, err = nil, fmt.Errorf("toml parser failed: %v", r)
		}
	}()
	md, err = toml.Decode(string(data), &doc)
	return doc, md, err
}

// syntaxProblem turns a parse error into a Problem at its line, with the parser's own usage
// help as the fix when it has one.
func syntaxProblem(file string, data []byte, err error) *Problem {
	var pe toml.ParseError
	if !errors.As(err, &pe) {
		return &Problem{File: file, Msg: err.Error() + ": check that the file is TOML", Err: err}
	}
	msg := "syntax error: " + strings.TrimSuffix(pe.Message, ".")
	if pe.LastKey != "" {
		msg += fmt.Sprintf(" (after key %q)", pe.LastKey)
	}
	line := pe.Position.Line
	if line < 1 { // the parser sometimes loses the line; its byte offset still says where
		line = 1 + strings.Count(string(data[:min(max(pe.Position.Start, 0), len(data))]), "\n")
	}
	return &Problem{File: file, Line: line, Msg: msg + ": " + syntaxHint(pe), Err: err}
}

// syntaxHint says how to fix a parse error: the parser's own usage help when it has one, else
// a hint for the common mistakes.
func syntaxHint(pe toml.ParseError) string {
	if _, help, ok := strings.Cut(errorWithUsage(pe), "Error help:"); ok {
		for _, l := range strings.Split(help, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				return strings.TrimSuffix(l, ":")
			}
		}
	}
	switch m := pe.Message; {
	case strings.Contains(m, "already been defined"):
		return "a key may appear once per table: delete or rename one of them ([[x]] starts a new list entry, [x] may appear once)"
	case strings.Contains(m, "EOF"):
		return "the file ends inside a value: close the open bracket or quote"
	case strings.Contains(m, "expected value"):
		return `strings need quotes: write key = "value"`
	}
	return `check this line: strings need quotes (key = "value"), tables are written [name], lists of tables [[name]]`
}

// errorWithUsage is pe.ErrorWithUsage, the only way to the parser's usage help, which panics
// on some inputs: toml v1.6.0 indexes lines[-1] when it reports line 0, as for the input `"\`
// (found by FuzzLoad; corpus file toml-position-panic).
func errorWithUsage(pe toml.ParseError) (s string) {
	defer func() {
		if recover() != nil {
			s = ""
		}
	}()
	return pe.ErrorWithUsage()
}

// diskSource is a profile named name whose files are on disk, relative to dir.
func diskSource(name, dir string, getenv func(string) (string, bool)) *source {
	return &source{name: name, dir: dir, getenv: getenv, readBody: wholeReader(diskOpener(dir)), open: diskOpener(dir)}
}

// diskOpener opens files named in a profile, relative to dir.
func diskOpener(dir string) func(string) (io.ReadCloser, error) {
	return func(name string) (io.ReadCloser, error) {
		p := name
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if err := checkRegular(name, p); err != nil {
			return nil, err
		}
		f, err := os.Open(p)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, &fileError{msg: fmt.Sprintf("%q not found (looked for %s)", name, p), err: err}
			}
			return nil, &fileError{msg: fmt.Sprintf("%q cannot be read (%v)", name, errors.Unwrap(err)), err: err}
		}
		return f, nil
	}
}

// fsOpener opens files from fsys (the bundled profiles' own folder).
func fsOpener(fsys fs.FS) func(string) (io.ReadCloser, error) {
	return func(name string) (io.ReadCloser, error) {
		f, err := fsys.Open(path.Clean(filepath.ToSlash(name)))
		if err != nil {
			return nil, &fileError{msg: fmt.Sprintf("%q not found among the bundled files", name), err: err}
		}
		return f, nil
	}
}

// diskReader reads body files relative to dir, refusing files too large to send.
func diskReader(dir string) func(string) ([]byte, error) { return wholeReader(diskOpener(dir)) }

// fsReader reads body files from fsys (the bundled profiles' own folder).
func fsReader(fsys fs.FS) func(string) ([]byte, error) { return wholeReader(fsOpener(fsys)) }

// wholeReader reads files opened by open whole, refusing those too large to send.
func wholeReader(open func(string) (io.ReadCloser, error)) func(string) ([]byte, error) {
	return func(name string) ([]byte, error) {
		f, err := open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return readLimited(name, f)
	}
}

// readLimited reads at most maxBodyFileBytes, so a wrong path to a huge file fails fast.
func readLimited(name string, r io.Reader) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxBodyFileBytes+1))
	switch {
	case err != nil:
		return nil, &fileError{msg: fmt.Sprintf("%q cannot be read (%v)", name, err), err: err}
	case len(b) > maxBodyFileBytes:
		// Its own fix: advice on where to put the file would not help (see fileProblem).
		return nil, &fileError{msg: fmt.Sprintf("%q is larger than %d MiB, the most rpcstress reads for a body, a lines file or a CA certificate: use a smaller file", name, maxBodyFileBytes>>20), fixed: true}
	}
	return b, nil
}

// fileError says what went wrong with a body file in words that fit a profile error, keeping
// the os error for errors.Is (fs.ErrNotExist, fs.ErrPermission).
type fileError struct {
	msg   string
	err   error
	fixed bool // msg says how to fix it too (see fileProblem)
}

func (e *fileError) Error() string { return e.msg }
func (e *fileError) Unwrap() error { return e.err }
