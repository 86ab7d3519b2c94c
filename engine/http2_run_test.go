package engine

import (
	"context"
	"net/http"
	"testing"
	"time"

	"golang.org/x/net/http2"

	"github.com/rpcstress/rpcstress/internal/hostile"
)

// runH2 runs cfg at rate for a second and returns its snapshot, its books checked.
func runH2(t *testing.T, cfg *Config, rate Rate) *Snapshot {
	t.Helper()
	cfg.Mode, cfg.Plan = ModeOpen, Plan{Stages: []Stage{{Rate: rate, Duration: time.Second}}}
	cfg.Requests = cfg.Requests[:1]
	// Outcomes, not timing, are checked: a busy machine (-race, other tests) must not turn a
	// slow answer into a timeout.
	cfg.Timeout = 10 * time.Second
	r, err := NewRunner(cfg, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	snap, err := r.Run(context.Background(), SnapshotMeta{})
	if err != nil {
		t.Fatal(err)
	}
	if err := snap.Totals.CheckInvariant(); err != nil {
		t.Fatal(err)
	}
	if tot := snap.Totals; tot.Completed != tot.Scheduled || tot.Dropped != 0 {
		t.Fatalf("scheduled %d, completed %d, dropped %d: every request must come back", tot.Scheduled, tot.Completed, tot.Dropped)
	}
	return snap
}

// TestHTTP2StreamsShareConnections: connections × streams requests are in flight on exactly
// `connections` connections, dialed once each.
func TestHTTP2StreamsShareConnections(t *testing.T) {
	const conns, streams = 2, 8
	s := startH2(t, false, func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(40 * time.Millisecond) // at 300/s, about 12 requests at once
		rpcOK(w, r)
	})
	cfg := s.config()
	cfg.Connections, cfg.Streams = conns, streams
	snap := runH2(t, cfg, 300)
	if s.conns.Load() != conns || snap.Totals.Connections.Dialed != conns {
		t.Errorf("server saw %d connections, the run dialed %d; want %d", s.conns.Load(), snap.Totals.Connections.Dialed, conns)
	}
	if p := s.peak.Load(); p <= conns || p > conns*streams {
		t.Errorf("at most %d requests at once at the server; want more than the %d connections, at most %d", p, conns, conns*streams)
	}
	if snap.Totals.Status["200"] != snap.Totals.Completed {
		t.Errorf("statuses %v errors %v", snap.Totals.Status, snap.Totals.Errors)
	}
}

// TestHTTP2Faults: a server that resets streams (RST_STREAM) or sends a GOAWAY mid-run: each
// faulted request is counted in its class, the rest come back ok, the books balance, and a
// connection lost to a GOAWAY is dialed again.
func TestHTTP2Faults(t *testing.T) {
	tests := []struct {
		name  string
		h     *hostile.H2
		class string
		exact bool // the faulted requests are exactly the class's count
	}{
		{"RST_STREAM", &hostile.H2{Fault: hostile.H2RST, Code: http2.ErrCodeInternal, Every: 5}, "reset", true},
		{"RST_STREAM REFUSED_STREAM", &hostile.H2{Fault: hostile.H2RST, Code: http2.ErrCodeRefusedStream, Every: 5}, "refused", true},
		// Requests sent on the connection after the faulted one were not processed either.
		{"GOAWAY", &hostile.H2{Fault: hostile.H2GoAway, Code: http2.ErrCodeNo, Every: 20}, "eof", false},
		// The faulted request is answered 50 ms later, while the connection, open, takes
		// nothing new: the slot's other stream must go out on a new connection meanwhile.
		{"graceful GOAWAY", &hostile.H2{Fault: hostile.H2GoAwayGraceful, Every: 20, Hold: 50 * time.Millisecond}, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := hostile.Start(t, hostile.Config{Serve: tt.h.Serve})
			cfg := clientConfig(srv.URL)
			cfg.H2C, cfg.Connections, cfg.Streams = true, 2, 2
			snap := runH2(t, cfg, 200)
			tot := snap.Totals
			faults, got := tt.h.Faults(), tot.Errors[tt.class]
			// A graceful GOAWAY names the faulted request as the last the server processes; a
			// request the client sent on the connection's other stream before the GOAWAY reached
			// it is above that and was not processed: it fails as eof, honestly (net/http does
			// not resend it). So at most Streams-1 eofs per GOAWAY, and nothing else.
			if orphans := tot.Errors["eof"]; tt.class == "" && (len(tot.Errors) > 1 || orphans > faults*int64(cfg.Streams-1) ||
				len(tot.Errors) == 1 && orphans == 0) {
				t.Errorf("errors %v after %d graceful GOAWAYs: at most %d requests sent before one arrived may fail, as eof",
					tot.Errors, faults, faults*int64(cfg.Streams-1))
			}
			if tt.class == "" {
				got = tot.Errors["eof"]
			}
			if tt.class != "" && (faults == 0 || got < faults || (tt.exact && got != faults)) {
				t.Errorf("%s %d, the server faulted %d requests (errors %v)", tt.class, got, faults, tot.Errors)
			}
			if tot.Status["200"]+got != tot.Completed {
				t.Errorf("200s %d + %s %d ≠ completed %d (errors %v)", tot.Status["200"], tt.class, got, tot.Completed, tot.Errors)
			}
			if tt.h.Fault != hostile.H2RST && (srv.Conns() <= 2 || tot.Connections.Dialed != srv.Conns()) {
				t.Errorf("dialed %d, the server accepted %d: connections lost to GOAWAY must be dialed again", tot.Connections.Dialed, srv.Conns())
			}
		})
	}
}
