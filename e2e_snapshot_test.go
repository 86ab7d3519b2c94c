package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/examples/mocknode"
)

// TestE2EShardsMerge: two shards of one profile run side by side through the CLI and merge
// into a snapshot whose counts equal the node's own.
func TestE2EShardsMerge(t *testing.T) {
	t.Parallel()
	node, url := startNode(t, mocknode.Config{Rate: 300, Burst: 10, NoDelay: true})
	p := writeProfile(t, url, 32, getBalance+"[[stage]]\nrate = \"200/s\"\nduration = \"1s\"\n[[stage]]\nrate = \"600/s\"\nduration = \"1s\"\n")
	dir := t.TempDir()
	var wg sync.WaitGroup
	runs := make([]cliRun, 2)
	for i := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runs[i] = runCLI(t, nil, p, "--shard", []string{"1/2", "2/2"}[i])
		}()
	}
	wg.Wait()
	var files []string
	for i, r := range runs {
		mustRun(t, r, exitOK)
		if r.snap.Shard != []string{"1/2", "2/2"}[i] || r.snap.Totals.Completed != 400 {
			t.Errorf("shard %d: %q completed %d, want 400", i+1, r.snap.Shard, r.snap.Totals.Completed)
		}
		f := filepath.Join(dir, []string{"a.json", "b.json"}[i])
		if err := engine.WriteSnapshot(f, r.snap); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	out := filepath.Join(dir, "merged.json")
	var stdout, stderr syncBuffer
	c := &cli{stdout: &stdout, stderr: &stderr, getenv: func(string) (string, bool) { return "", false }}
	if code := c.main(t.Context(), append([]string{"merge", "-o", out}, files...)); code != exitOK {
		t.Fatalf("merge exit %d: %s", code, stderr.String())
	}
	m, err := readSnapshot(t, out)
	if err != nil {
		t.Fatal(err)
	}
	st := node.Stats()
	if m.Totals.Status["200"] != st.Status["200"] || m.Totals.Status["429"] != st.Status["429"] || m.Totals.Completed != 800 {
		t.Errorf("merged %v (completed %d), node %v", m.Totals.Status, m.Totals.Completed, st.Status)
	}
	if err := m.Totals.CheckInvariant(); err != nil {
		t.Error(err)
	}
}

// TestE2EKill9LeavesPartialSnapshot: the snapshot file is rewritten while the run goes, so even
// kill -9 leaves a loadable one, marked "running".
func TestE2EKill9LeavesPartialSnapshot(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	out := filepath.Join(t.TempDir(), "run.json")
	cmd := exec.Command(bin, "--demo", "--headless", "--rate", "200/s", "--duration", "60s", "--save-every", "500ms", "--out", out)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill() //nolint:errcheck // already dead in the normal case
	deadline := time.Now().Add(20 * time.Second)
	var snap *engine.Snapshot
	for time.Now().Before(deadline) {
		time.Sleep(300 * time.Millisecond)
		if s, err := readSnapshot(t, out); err == nil && s.Totals.Completed >= 300 {
			snap = s
			break
		}
	}
	if snap == nil {
		t.Fatal("no periodic snapshot with 300 answers within 20 s")
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	s, err := readSnapshot(t, out)
	if err != nil {
		t.Fatalf("after kill -9 the snapshot does not load: %v", err)
	}
	if s.EndReason != engine.EndRunning || s.Totals.Completed < 300 {
		t.Errorf("end reason %q, completed %d", s.EndReason, s.Totals.Completed)
	}
	if err := s.Totals.CheckInvariant(); err != nil {
		t.Error(err)
	}
}

// TestE2ESecretsNeverShown: a bearer token from the environment and API keys in the URL path and
// query reach the node but appear nowhere in the output or the snapshot.
func TestE2ESecretsNeverShown(t *testing.T) {
	t.Parallel()
	_, url := startNode(t, mocknode.Config{})
	const token, pathKey, queryKey = "tok-SECRET-1234", "pathSECRETkey99", "querySECRETkey77"
	p := filepath.Join(t.TempDir(), "s.toml")
	text := "name = \"secrets\"\nurl = \"" + url + "v3/${PATH_KEY}?apikey=${QUERY_KEY}\"\n" +
		"[headers]\nAuthorization = \"Bearer ${TOKEN}\"\nX-Api-Key = \"${QUERY_KEY}\"\n" + getBalance +
		"[[stage]]\nrate = \"50/s\"\nduration = \"1s\"\n"
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"TOKEN": token, "PATH_KEY": pathKey, "QUERY_KEY": queryKey}
	out := filepath.Join(t.TempDir(), "run.json")
	var stdout, stderr syncBuffer
	c := &cli{stdout: &stdout, stderr: &stderr, signals: make(chan os.Signal),
		getenv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }}
	if code := c.main(t.Context(), []string{p, "--headless", "--out", out}); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	snap, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var report syncBuffer
	c.stdout = &report
	if code := c.main(t.Context(), []string{"report", out}); code != exitOK {
		t.Fatal("report failed")
	}
	for name, text := range map[string]string{"output": stdout.String() + stderr.String(), "snapshot": string(snap), "report": report.String()} {
		for _, secret := range []string{token, pathKey, queryKey} {
			if strings.Contains(text, secret) {
				t.Errorf("the %s shows the secret %q", name, secret)
			}
		}
	}
	if !strings.Contains(string(snap), `"completed": 50`) {
		t.Errorf("the run did not reach the node (the secrets must still be sent)")
	}
}
