package main

import (
	"context"
	imagepng "image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The headless Chromium the HTML report is checked in: found or skipped, run offline, its DOM
// read and its screenshot looked at.

// findChromium returns the headless browser, or skips the test; under CI a missing browser
// fails it, since then the HTML report would go unchecked.
func findChromium(t *testing.T) string {
	t.Helper()
	return requireProgram(t, "the HTML report is not checked in a browser (apt-get install chromium)", "chromium", "chromium-browser", "google-chrome")
}

// offlineBrowser is how the tests run Chromium with no network: in a network namespace of its
// own where that can be had (root, as CI runs), and in any case through a proxy that does not
// exist and with every host name unresolvable, so the page can fetch nothing.
func offlineBrowser(ctx context.Context, t *testing.T, chromium string, args ...string) *exec.Cmd {
	t.Helper()
	args = append([]string{"--headless", "--disable-gpu", "--no-sandbox", "--disable-background-networking",
		"--proxy-server=127.0.0.1:9", "--host-resolver-rules=MAP * ~NOTFOUND", "--user-data-dir=" + t.TempDir()}, args...)
	cmd := exec.CommandContext(ctx, chromium, args...)
	if exec.CommandContext(ctx, "unshare", "--net", "true").Run() == nil {
		cmd = exec.CommandContext(ctx, "unshare", append([]string{"--net", chromium}, args...)...)
	}
	// Chromium starts helper processes that hold its output open: on a timeout the whole
	// group goes, and Wait returns soon after, so a stuck browser fails the test, never hangs it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// dumpDOM loads a page in headless Chromium with the network off and returns the DOM.
func dumpDOM(t *testing.T, chromium, page string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := offlineBrowser(ctx, t, chromium, "--dump-dom", "file://"+page)
	var errOut strings.Builder
	cmd.Stderr = &errOut
	out, err := cmd.Output()
	if err != nil || len(out) == 0 {
		t.Fatalf("chromium: %v\n%s", err, errOut.String())
	}
	return string(out)
}

// checkScreenshotHasChart: Chromium, offline, paints the throughput line (the only thing on
// the page in its blue), so the SVG is not only in the page but drawn.
func checkScreenshotHasChart(t *testing.T, chromium, page string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	png := filepath.Join(t.TempDir(), "report.png")
	cmd := offlineBrowser(ctx, t, chromium, "--window-size=1280,2000", "--hide-scrollbars", "--screenshot="+png, "file://"+page)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, out)
	}
	f, err := os.Open(png)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := imagepng.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	blue := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if near(r>>8, 0x1f) && near(g>>8, 0x77) && near(bl>>8, 0xb4) {
				blue++
			}
		}
	}
	if blue < 100 {
		t.Errorf("only %d pixels of the throughput line's blue in the screenshot: the chart was not drawn", blue)
	}
}

func near(v, want uint32) bool { return v+12 >= want && v <= want+12 }
