package engine

import "testing"

// BenchmarkHTTP2Send measures one request through the HTTP/2 path (h2c on loopback to
// net/http's server: the request's copy and context, the library's stream, framing, the
// answer read, classification), beside BenchmarkSend's HTTP/1.1. The server's own work and
// allocations run in the same process and are included in the time, not in allocs/op (those
// are counted by the runtime for the whole process too: an upper bound of the client's).
func BenchmarkHTTP2Send(b *testing.B) {
	s := startH2(b, false, rpcOK)
	benchSends(b, dialClient(b, s.config(), NewCounters(1), nil))
}
