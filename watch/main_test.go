package watch

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// helperEnv makes the test binary a helper process instead of running the tests: "burn"
// spins on a CPU, "write" writes to a file and syncs it, over and over, until killed.
const helperEnv = "RPCSTRESS_WATCH_HELPER"

func TestMain(m *testing.M) {
	switch os.Getenv(helperEnv) {
	case "":
		os.Exit(m.Run())
	case "burn":
		burn()
	case "write":
		writeLoop(os.Getenv("RPCSTRESS_WATCH_FILE"))
	case "watch":
		watchAsHelper(os.Getenv("RPCSTRESS_WATCH_PID"))
	}
	os.Exit(0)
}

// burn spins until killed.
func burn() {
	x := 0
	for {
		x++
		if x < 0 {
			fmt.Println(x)
		}
	}
}

// writeLoop writes 64 KiB and syncs it, ten times a second, until killed.
func writeLoop(path string) {
	f, err := os.Create(path)
	if err != nil {
		os.Exit(3)
	}
	buf := make([]byte, 64<<10)
	for {
		_, _ = f.Write(buf)
		_ = f.Sync()
		time.Sleep(100 * time.Millisecond)
	}
}

// startHelper runs the test binary as a helper process of the given mode.
func startHelper(t *testing.T, mode string, env ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), append([]string{helperEnv + "=" + mode}, env...)...)
	cmd.Path = os.Args[0]
	return startCmd(t, cmd)
}

// helperName is the name a helper process goes by: the test binary's.
func helperName() string { return filepath.Base(os.Args[0]) }
