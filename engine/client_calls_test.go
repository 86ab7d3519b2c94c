package engine

import (
	"context"
	"io"
	"math/rand/v2"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/internal/hostile"
)

// seqIDTemplate renders a getSlot call whose id counts up, like a raw body with {{seq}}.
type seqIDTemplate struct{ n atomic.Int64 }

func (t *seqIDTemplate) Append(dst []byte, _ *rand.Rand) []byte {
	dst = append(dst, `{"jsonrpc":"2.0","id":`...)
	dst = strconv.AppendInt(dst, t.n.Add(1), 10)
	return append(dst, `,"method":"getSlot"}`...)
}

// TestSendCalls: Send matches each answer to the calls the request carried, per send for a
// body whose ids change, and counts calls for transport errors too.
func TestSendCalls(t *testing.T) {
	seqSample := []byte(`{"jsonrpc":"2.0","id":1,"method":"getSlot"}`)
	batch := []byte(`[{"jsonrpc":"2.0","id":1,"method":"m"},{"jsonrpc":"2.0","id":2,"method":"m"},{"jsonrpc":"2.0","id":3,"method":"m"}]`)
	perSend := func() *RPCCalls { c := ParseRPCCalls(seqSample); c.PerSend = true; return c }
	tests := []struct {
		name    string
		mode    hostile.Mode
		req     Request
		outcome Outcome
		callsOK uint16
		fault   Fault
		faults  uint32
	}{
		// Ids that change per send are read from each rendering: every answer matches.
		{"seq ids", hostile.Echo, Request{Body: seqSample, Template: &seqIDTemplate{}, RPC: perSend()}, OutcomeOK, 1, 0, 0},
		// … and one with another id is caught, whatever the sample's id was.
		{"seq ids foreign", hostile.ForeignID, Request{Body: seqSample, Template: &seqIDTemplate{}, RPC: perSend()}, OutcomeFailed, 0, FaultForeignID, 1},
		// A batch of three answered with two items: one call missing, two ok.
		{"batch dropped", hostile.DropBatchItem, Request{Body: batch, RPC: ParseRPCCalls(batch)}, OutcomeFailed, 2, FaultMissing, 1},
		// Items without ids: none matches, all three missing.
		{"batch no ids", hostile.NoID, Request{Body: batch, RPC: ParseRPCCalls(batch)}, OutcomeFailed, 0, FaultMissing, 3},
		// Valid JSON that is not JSON-RPC.
		{"not json-rpc", hostile.NotJSONRPC, Request{Body: batch, RPC: ParseRPCCalls(batch)}, OutcomeFailed, 0, FaultNotJSONRPC, 3},
		// Gzip-encoded answers are matched after decoding.
		{"gzip", hostile.Gzip, Request{Body: batch, RPC: ParseRPCCalls(batch), Headers: []Header{{Name: "Accept-Encoding", Value: "gzip"}}}, OutcomeOK, 3, 0, 0},
		// A raw request (no calls) keeps the status rule: {"foo":1} under 200 is ok.
		{"raw", hostile.NotJSONRPC, Request{Body: []byte(`{"query":"{ slot }"}`)}, OutcomeOK, 0, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := hostile.Start(t, hostile.Config{Mode: tt.mode})
			cfg := clientConfig(srv.URL)
			tt.req.Name, tt.req.Weight, tt.req.Items = "r", 1, max(tt.req.RPC.Calls(), 1)
			cfg.Requests = []Request{tt.req}
			s := dialClient(t, cfg, NewCounters(1), nil).NewSender()
			for i := range 3 {
				smp, b := sendOne(context.Background(), s, 0)
				if smp.Err != ErrNone || smp.Outcome != tt.outcome || int(smp.Calls) != tt.req.RPC.Calls() || smp.CallsOK != tt.callsOK {
					t.Fatalf("send %d: err %v outcome %v calls %d ok %d, want %v %d %d", i, smp.Err, smp.Outcome, smp.Calls, smp.CallsOK, tt.outcome, tt.req.RPC.Calls(), tt.callsOK)
				}
				got := faultCounts(b)
				if tt.faults > 0 && got[tt.fault] != tt.faults || tt.faults == 0 && len(got) > 0 {
					t.Errorf("send %d: faults %v, want %d %v", i, got, tt.faults, tt.fault)
				}
			}
		})
	}
	t.Run("refused", func(t *testing.T) {
		cfg := clientConfig("http://" + refusedAddr(t) + "/")
		cfg.Requests = []Request{{Name: "b", Body: batch, RPC: ParseRPCCalls(batch), Weight: 1, Items: 3}}
		smp, b := sendOne(context.Background(), dialClient(t, cfg, NewCounters(1), nil).NewSender(), 0)
		if smp.Err != ErrRefused || smp.Calls != 3 || smp.CallsOK != 0 || smp.CallsLimited != 0 || len(b.Faults) != 0 {
			t.Errorf("got %+v faults %v: want 3 calls failed by the transport error, no faults", smp, b.Faults)
		}
	})
}

// endedSource is a Source with nothing in it: a Config streamed from it, for a Client alone.
type endedSource struct{}

func (endedSource) Next() (Streamed, error) { return Streamed{}, io.EOF }

// TestSendStreamedCalls: a streamed request's answers are matched to the calls of the body
// it was sent with (each streamed target's own ids), not to those of its first body.
func TestSendStreamedCalls(t *testing.T) {
	first := ParseRPCCalls([]byte(`{"jsonrpc":"2.0","id":1,"method":"getSlot"}`))
	first.PerSend = true
	for _, tt := range []struct {
		mode    hostile.Mode
		outcome Outcome
		callsOK uint16
		faults  uint32
	}{
		{hostile.Echo, OutcomeOK, 1, 0},          // ids 7, 8, 9 answered as sent
		{hostile.ForeignID, OutcomeFailed, 0, 1}, // another id: caught
	} {
		srv := hostile.Start(t, hostile.Config{Mode: tt.mode})
		cfg := clientConfig(srv.URL)
		cfg.Source, cfg.SourceRequests = endedSource{}, 1
		cfg.Requests = []Request{{Name: "getSlot", Items: 1, Weight: 1, RPC: first}}
		s := dialClient(t, cfg, NewCounters(1), nil).NewSender()
		for id := 7; id <= 9; id++ {
			b := &Batch{}
			var smp Sample
			body := []byte(`{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"getSlot"}`)
			s.SendStreamed(context.Background(), 0, body, &smp, b, 0, time.Now())
			if smp.Err != ErrNone || smp.Outcome != tt.outcome || smp.Calls != 1 || smp.CallsOK != tt.callsOK || faultCounts(b)[FaultForeignID] != tt.faults {
				t.Errorf("%v, id %d: err %v outcome %v calls %d ok %d faults %v; want %v, %d ok, %d foreign",
					tt.mode, id, smp.Err, smp.Outcome, smp.Calls, smp.CallsOK, faultCounts(b), tt.outcome, tt.callsOK, tt.faults)
			}
		}
	}
}
