package engine

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine/answers"
	"github.com/rpcstress/rpcstress/internal/hostile"
)

// answerLog is a comparer that keeps what it was given: per sequence number, each target's
// answers and the body sent.
type answerLog struct {
	mu   sync.Mutex
	got  map[uint64][]answers.Answer
	sent map[uint64]string
	req  map[uint64]string
}

func (l *answerLog) Add(seq uint64, request string, sent []byte, a answers.Answer) {
	l.mu.Lock()
	defer l.mu.Unlock()
	a.Body = append([]byte(nil), a.Body...) // valid during the call only
	l.got[seq] = append(l.got[seq], a)
	if s, ok := l.sent[seq]; ok && s != string(sent) {
		l.sent[seq] = "DIFFERENT BODIES"
	} else {
		l.sent[seq] = string(sent)
	}
	l.req[seq] = request
}

func (l *answerLog) Live() answers.Result    { return answers.Result{} }
func (l *answerLog) Result() *answers.Result { return &answers.Result{} }

// TestFanoutOneAnswerPerTarget: every scheduled request gets a sequence number, and every
// target files exactly one answer for it, with the body every target was sent: the answer's
// body from a target that answered, Missing from one that dropped the request (its backlog
// full, or left in it at a stop or when the drain gave up) or timed out.
func TestFanoutOneAnswerPerTarget(t *testing.T) {
	tests := []struct {
		name   string
		stopAt time.Duration // 0: the plan runs out
		drain  time.Duration
	}{
		// The plan runs out and the drain gives up on the dead target: the drain drops what
		// its backlog holds.
		{"drain gives up", 0, 100 * time.Millisecond},
		// A stop, and a drain that waits: the dead target's worker drops its backlog after its
		// request times out.
		{"stopped", 500 * time.Millisecond, 3 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			log, snap := runLogged(t, tt.stopAt, tt.drain)
			log.mu.Lock()
			defer log.mu.Unlock()
			n := snap.Targets[0].Totals.Scheduled
			if int64(len(log.got)) != n || n < 50 {
				t.Fatalf("%d sequence numbers, want one per scheduled request (%d)", len(log.got), n)
			}
			var missing [2]int64
			for seq := range uint64(n) {
				as := log.got[seq]
				if len(as) != 2 || as[0].Target == as[1].Target {
					t.Fatalf("request %d: answers %+v, want one from each target", seq, as)
				}
				if log.sent[seq] != `{"jsonrpc":"2.0","id":1,"method":"getBalance"}` || log.req[seq] != "getBalance" {
					t.Fatalf("request %d: sent %q as %q", seq, log.sent[seq], log.req[seq])
				}
				for _, a := range as {
					if a.Missing {
						missing[a.Target]++
					} else if len(a.Body) == 0 {
						t.Fatalf("request %d: target %d answered nothing and was not missing", seq, a.Target)
					}
				}
			}
			if missing[0] != 0 || missing[1] != n {
				t.Errorf("missing: a %d, b %d; want 0 and all %d", missing[0], missing[1], n)
			}
			if b := snap.Targets[1].Totals; b.Dropped == 0 {
				t.Errorf("b dropped none (%+v): the test wants drops", b)
			}
		})
	}
}

// runLogged runs a healthy target (a) beside a dead one (b, one connection) with their answers
// kept by an answerLog, stopped at stopAt (0: never), draining for drain at most; it returns
// once the request the drain may have left in flight has timed out.
func runLogged(t *testing.T, stopAt, drain time.Duration) (*answerLog, *Snapshot) {
	echo := hostile.Start(t, hostile.Config{Mode: hostile.Echo})
	dead := hostile.Start(t, hostile.Config{Mode: hostile.NeverRead})
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"getBalance"}`)
	cfg := &Config{Name: "t", URL: echo.URL, Connections: 4, Limits: DefaultLimits(), Timeout: time.Second, Backlog: 32,
		Requests: []Request{{Name: "getBalance", Body: body, Weight: 1, Items: 1, RPC: ParseRPCCalls(body)}},
		Plan:     Plan{Stages: []Stage{{Rate: 200, Duration: time.Second}}},
		Targets:  []Target{{Name: "a", URL: echo.URL}, {Name: "b", URL: dead.URL, Connections: 1}}}
	r, err := NewRunner(cfg, RunOptions{DrainTimeout: drain})
	if err != nil {
		t.Fatal(err)
	}
	log := &answerLog{got: map[uint64][]answers.Answer{}, sent: map[uint64]string{}, req: map[uint64]string{}}
	r.cmp, r.sched.fan.cmp = log, log
	if stopAt > 0 {
		time.AfterFunc(stopAt, func() { r.Controller().Stop("quit") })
	}
	snap, err := r.Run(context.Background(), SnapshotMeta{})
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(cfg.Timeout + 200*time.Millisecond)
	return log, snap
}
