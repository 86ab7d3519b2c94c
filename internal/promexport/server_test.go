package promexport

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
)

// TestListenErrors: a bad --metrics-listen is refused with what is wrong and what to write.
func TestListenErrors(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	rows := []struct {
		addr string
		want string // part of the message
	}{
		{"9464", "is not host:port: write e.g. 127.0.0.1:9464"},                      // a port alone
		{"127.0.0.1", "is not host:port"},                                            // a host alone
		{"127.0.0.1:metrics", `the port "metrics" is not a number from 0 to 65535`},  // a name, not a port
		{"127.0.0.1:70000", `the port "70000" is not a number`},                      // beyond the ports
		{taken.Addr().String(), "is in use by another program: choose another port"}, // taken
		{"192.0.2.1:9464", "no interface of this machine has the address 192.0.2.1"}, // not this machine's (TEST-NET-1)
	}
	for _, r := range rows {
		ln, err := Listen(r.addr)
		if err == nil {
			ln.Close()
			t.Errorf("%s: listened, want an error", r.addr)
			continue
		}
		if !strings.Contains(err.Error(), r.want) {
			t.Errorf("%s: %v, want %q", r.addr, err, r.want)
		}
	}
}

// TestServe: the endpoint serves the run's series and the process's own, every one labelled
// with the run and the shard.
func TestServe(t *testing.T) {
	ln, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Serve(ln, "getBalance", "2/4", Options{Target: "http://node/", Mode: "open"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	st := fakeStats()
	s.Collector().SetSource(func() *engine.Stats { return st })
	body := get(t, "http://"+s.Addr().String()+Path)
	lines := 0
	for _, line := range strings.Split(body, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		lines++
		if !strings.Contains(line, `run="getBalance"`) || !strings.Contains(line, `shard="2/4"`) {
			t.Errorf("without the run or the shard: %s", line)
		}
	}
	for _, want := range []string{"rpcstress_requests_total{", "process_cpu_seconds_total{", "go_goroutines{"} {
		if !strings.Contains(body, "\n"+want) {
			t.Errorf("no %s… series", want)
		}
	}
	if lines < 50 {
		t.Errorf("only %d series", lines)
	}
}

func get(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s %v\n%s", url, resp.Status, err, b)
	}
	return string(b)
}

// TestLingerUntil: how long the end of a run waits for a last scrape, from the scrapes seen.
func TestLingerUntil(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	rows := []struct {
		scrapes []time.Duration // when scrapes came, after t0
		done    bool            // the last one saw the end
		now     time.Duration
		wait    time.Duration // 0: no wait
	}{
		{nil, false, 5 * time.Second, 0},                                                                    // nobody scraped: the run ends as before
		{[]time.Duration{0, time.Second}, true, 2 * time.Second, 0},                                         // a scrape saw the end already
		{[]time.Duration{0, time.Second, 2 * time.Second}, false, 2500 * time.Millisecond, 2 * time.Second}, // 1 s interval: until 1.5 s + 1 s after the last
		{[]time.Duration{0, time.Second, 5 * time.Second}, false, 5 * time.Second, 7 * time.Second},         // the longest gap counts (4 s)
		{[]time.Duration{0}, false, time.Second, defaultGap*3/2 + lingerSlack - time.Second},                // one scrape: Prometheus's usual 15 s
		{[]time.Duration{0, 10 * time.Minute}, false, 10 * time.Minute, maxLinger},                          // never more than the cap
		{[]time.Duration{0, time.Second}, false, time.Hour, 0},                                              // the time is past already
	}
	for i, r := range rows {
		var l scrapeLog
		for j, s := range r.scrapes {
			l.note(at(s), r.done && j == len(r.scrapes)-1)
		}
		until, ok := l.lingerUntil(at(r.now))
		wait := time.Duration(0)
		if ok {
			wait = until.Sub(at(r.now))
		}
		if wait != r.wait {
			t.Errorf("row %d: wait %v, want %v", i, wait, r.wait)
		}
	}
}

// TestLinger: after the run, the server waits for the scrape that reads the final numbers, and
// not for one more; a signal ends the wait.
func TestLinger(t *testing.T) {
	ln, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Serve(ln, "r", "1/1", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	st := fakeStats()
	s.Collector().SetSource(func() *engine.Stats { return st })
	url := "http://" + s.Addr().String() + Path
	get(t, url) // a scrape during the run
	done := *st
	done.Done = true
	s.Collector().SetSource(func() *engine.Stats { return &done })
	go func() {
		time.Sleep(200 * time.Millisecond)
		get(t, url) // Prometheus's next scrape
	}()
	start := time.Now()
	if !s.Linger(context.Background(), nil) {
		t.Fatal("Linger gave up before the final scrape")
	}
	if waited := time.Since(start); waited < 150*time.Millisecond {
		t.Errorf("waited %v: it did not wait for the scrape", waited)
	}
	if s.LingerFor(time.Now()) != 0 || !s.Linger(context.Background(), nil) {
		t.Error("after the final scrape, a second wait does not return at once")
	}

	// A run nobody scraped the end of, and a signal: no wait.
	s.Collector().scrapes = scrapeLog{}
	s.Collector().scrapes.note(time.Now(), false)
	leave := make(chan struct{})
	close(leave)
	if s.Linger(context.Background(), leave) {
		t.Error("a signal did not end the wait")
	}
}
