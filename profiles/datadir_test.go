package profiles

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDataDir: data_dir moves where {{line}} files are read, --data (DataDir) moves it again,
// and a missing folder or missing files are each said once, with the command that makes them.
func TestDataDir(t *testing.T) {
	root, profDir, data, other := dataDirFixture(t)
	const head = "url = \"http://h\"\n"
	const req = "[[request]]\nmethod = \"m\"\nparams = ['{{line \"tx.txt\"}}']\n[[stage]]\nrate = 1\nduration = \"1s\"\n"
	tests := []struct {
		name    string
		dataDir string // the data_dir line; "" for none
		flag    string // DataDir (--data); "" for none
		req     string // the request section; req unless set
		sent    string // the body's parameter when it loads
		line    int    // where the problem is, when it does not
		want    string // in the problem, when it does not
	}{
		// Without a data folder the files are next to the profile, as before data_dir.
		{name: "beside the profile", sent: "0xcc"},
		// data_dir reads the harvest folder instead.
		{name: "data_dir", dataDir: data, sent: "0xaa"},
		// --data wins over data_dir.
		{name: "--data over data_dir", dataDir: data, flag: other, sent: "0xbb"},
		// --data alone, for a profile without data_dir.
		{name: "--data alone", flag: other, sent: "0xbb"},
		// A folder that is not there: one problem at data_dir, with the harvest that makes it,
		// and none at the request (the same absence said twice is noise).
		{name: "no such folder", dataDir: filepath.Join(root, "nope"), line: 2,
			want: `no such folder: run ` + "`rpcstress harvest URL --chain evm|solana --out " + filepath.Join(root, "nope") + "`"},
		// The chain key names the chain in the command.
		{name: "no such folder, chain known", dataDir: filepath.Join(root, "nope"), req: "chain = \"solana\"\n" + req, line: 2,
			want: "rpcstress harvest URL --chain solana"},
		// A file is not a folder.
		{name: "a file", dataDir: filepath.Join(root, "file"), line: 2, want: "is a file, not a folder"},
		// An empty name is a mistake, not "the working directory".
		{name: "empty", dataDir: " ", line: 2, want: `is empty: name the folder`},
		// Files the folder lacks: all named in one problem at data_dir, in the order the
		// profile asks for them.
		{name: "files missing", dataDir: data, line: 2,
			req:  "[[request]]\nmethod = \"m\"\nparams = ['{{line \"a.txt\"}}', '{{lineSeq \"b.txt\"}}', '{{line \"a.txt\"}}']\n[[stage]]\nrate = 1\n",
			want: "has no a.txt, b.txt: run `rpcstress harvest"},
		// The folder holds the other chain's harvest: said, with a harvest that keeps it.
		{name: "another chain's harvest", dataDir: other, line: 2,
			req:  "chain = \"evm\"\n[[request]]\nmethod = \"m\"\nparams = ['{{line \"tx_hashes.txt\"}}']\n[[stage]]\nrate = 1\n",
			want: "has no tx_hashes.txt: it holds a solana harvest (its manifest.json), and the profile's chain is evm: run `rpcstress harvest URL --chain evm --out evm-harvest` and give --data evm-harvest"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := head
			if tt.dataDir != "" {
				src += "data_dir = " + quote(tt.dataDir) + "\n"
			}
			if tt.req == "" {
				tt.req = req
			}
			src += tt.req
			var opts []Option
			if tt.flag != "" {
				opts = append(opts, DataDir(tt.flag))
			}
			p, err := LoadBytes("t.toml", []byte(src), profDir, nil, opts...)
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				if body := string(p.Config.Requests[0].Body); !strings.Contains(body, `"params":["`+tt.sent+`"]`) {
					t.Errorf("body %s, want the parameter %s", body, tt.sent)
				}
				return
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("err %v, want an *Error", err)
			}
			if len(e.Problems) != 1 {
				t.Errorf("%d problems, want 1:\n%v", len(e.Problems), e)
			}
			if p := e.Problems[0]; p.Line != tt.line || p.Field != "data_dir" || !strings.Contains(p.Msg, tt.want) {
				t.Errorf("problem at %d (%s): %s\nwant line %d, data_dir, %q", p.Line, p.Field, p.Msg, tt.line, tt.want)
			}
		})
	}
}

// dataDirFixture makes the folders of TestDataDir under root: the profile's folder, a harvest
// and a second harvest (of Solana, its manifest says), each with a tx.txt of its own value,
// and a file named "file".
func dataDirFixture(t *testing.T) (root, profDir, data, other string) {
	t.Helper()
	root = t.TempDir()
	profDir = filepath.Join(root, "profiles") // the profile's folder: read only without a data folder
	data = filepath.Join(root, "harvest")     // what rpcstress harvest wrote
	other = filepath.Join(root, "other")      // a second harvest, for --data
	files := map[string]string{
		filepath.Join(data, "tx.txt"):         "0xaa\n",
		filepath.Join(other, "tx.txt"):        "0xbb\n",
		filepath.Join(profDir, "tx.txt"):      "0xcc\n",
		filepath.Join(root, "file"):           "not a folder",
		filepath.Join(other, "manifest.json"): `{"chain": "solana", "complete": true}`,
	}
	for _, d := range []string{profDir, data, other} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for path, text := range files {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root, profDir, data, other
}

// quote writes s as a TOML literal string (paths with backslashes stay as they are).
func quote(s string) string { return "'" + s + "'" }

// TestDataDirFiles: what is said of a lines file names it where it is, in the data folder,
// and a raw body around a file the folder lacks is no problem of its own (the absence is).
func TestDataDirFiles(t *testing.T) {
	data := t.TempDir()
	if err := os.WriteFile(filepath.Join(data, "blocks.txt"), []byte("0x10\nlatest\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(data, "erc20_calls.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, req string
		want      string // the only problem
	}{
		// {{hex line}} reads the data folder's file, and its bad line is named there.
		{"hex line", `params = ["{{hex line \"blocks.txt\"}}"]`, filepath.Join(data, "blocks.txt") + `:2: "latest" is not a whole number`},
		// A raw body around a missing file still parses: only the absence is said.
		{"raw body", `body = '{"jsonrpc":"2.0","id":1,"method":"m","params":[{{line "gone.txt"}},{{hex line "gone.txt"}}]}'`, "has no gone.txt"},
		// A file the harvest left empty (the blocks held no ERC-20 transfer) says so, and the fix.
		{"empty harvest file", `params = ["{{line \"erc20_calls.txt\"}}"]`, `"erc20_calls.txt" in ` + data + " is empty: the blocks harvested held none; harvest more"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "url = \"http://h\"\ndata_dir = " + quote(data) + "\n[[request]]\nmethod = \"m\"\n" + tt.req + "\n[[stage]]\nrate = 1\n"
			if strings.Contains(tt.req, "body") {
				src = strings.Replace(src, "method = \"m\"\n", "", 1)
			}
			_, err := LoadBytes("t.toml", []byte(src), t.TempDir(), nil)
			var e *Error
			if !errors.As(err, &e) || len(e.Problems) != 1 || !strings.Contains(e.Problems[0].Msg, tt.want) {
				t.Fatalf("err %v, want one problem with %q", err, tt.want)
			}
		})
	}
}
