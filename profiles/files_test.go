package profiles

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/internal/errtest"
)

// TestFileLimits: the 64 MiB limit is a body's (a body_file, an @file of a target, a json
// target's body), not a target file's: a target file of a million targets is larger than
// that, and was refused as "larger than the maximum body of 64 MiB: put the file next to the
// profile … or fix the path", advice about a profile that --targets does not even have. Where
// to put a file is said only when it is missing.
func TestFileLimits(t *testing.T) {
	if testing.Short() {
		t.Skip("writes files of 65 to 90 MB")
	}
	dir := t.TempDir()
	big := int64(maxBodyFileBytes + 1<<20)
	// write makes a file of head, then filler bytes up to size, then tail.
	write := func(name, head string, filler byte, size int64, tail string) string {
		t.Helper()
		path := filepath.Join(dir, name)
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		w := bufio.NewWriterSize(f, 1<<20)
		w.WriteString(head)
		chunk := []byte(strings.Repeat(string(filler), 1<<16))
		if filler == '#' {
			chunk[len(chunk)-1] = '\n' // comment lines of 64 KiB
		}
		for n := int64(len(head)); n < size; n += int64(len(chunk)) {
			w.Write(chunk)
		}
		w.WriteString(tail)
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		return path
	}
	bigTargets := write("big.http", "", '#', big, "POST http://127.0.0.1:8899/\n@call.json\n")
	write("call.json", `{"jsonrpc":"2.0","id":1,"method":"getSlot"}`, ' ', 0, "")
	write("huge.json", "", ' ', big, "")
	write("huge.http", "POST http://127.0.0.1:8899/\n@huge.json\n", ' ', 0, "")
	write("long.jsonl", `{"method":"POST","url":"http://127.0.0.1:8899/","body":"`, 'A', maxTargetLine+1, "\"}\n")

	tests := []struct {
		name    string
		profile string // the profile's lines before its stage
		want    string // in the error; "" when the profile loads
		not     string // never in the error
	}{
		// a target file over 64 MiB loads: the limit is a body's
		{"big target file", `targets = "big.http"`, "", ""},
		// a body over 64 MiB says so, without advice on where to put it
		{"big body_file", "url = \"http://h/\"\n[[request]]\nbody_file = \"huge.json\"", `body_file: "huge.json" is larger than 64 MiB`, "next to the profile"},
		// so does an @file of a target
		{"big @file", `targets = "huge.http"`, `huge.http:2: targets: body "huge.json" is larger than 64 MiB`, "next to the profile"},
		// a json target whose line cannot hold a body of 64 MiB is refused at its line
		{"long json line", `targets = "long.jsonl"`, "long.jsonl:1: targets: the line is longer than 86 MiB: a target's body is at most 64 MiB", ""},
		// a missing file is still looked for next to the profile
		{"missing targets", `targets = "none.txt"`, `"none.txt" not found (looked for ` + filepath.Join(dir, "none.txt") + `): put the file next to the profile`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadBytes("p.toml", []byte(tt.profile+"\n[[stage]]\nrate = 1\nduration = \"1s\"\n"), dir, nil)
			switch m := errtest.Mismatch(err, tt.want); {
			case m != "":
				t.Fatal(m)
			case tt.not != "" && strings.Contains(err.Error(), tt.not):
				t.Errorf("%v\nsays %q", err, tt.not)
			}
		})
	}
	// Run without a profile (--targets FILE): the same file loads.
	if _, err := FromTargets(bigTargets, TargetOptions{Rate: 1, Duration: time.Second}, nil); err != nil {
		t.Errorf("--targets %s: %v", bigTargets, err)
	}
}
