// Package mocknode is the embedded JSON-RPC node behind `rpcstress --demo`, the end-to-end tests
// and the benchmarks: a cheap fasthttp server that follows a fake Solana ledger and a fake EVM
// chain, with the knobs a load tester needs to see real-world behaviour on loopback.
//
// The chains are deterministic and stored nowhere: a block is a function of its number
// (chain_evm.go, chain_solana.go), and hashes, addresses and signatures are an invertible mix
// of what they name (ids.go, base58.go), so lookups by hash need no table and memory stays flat
// however long the node runs. Heights grow with the node's clock. EVM blocks hold transactions,
// a third of them ERC-20 transfers with their Transfer logs (evm_*.go); Solana slots, one in
// 20 skipped, hold transactions between a thousand wallets (sol_*.go). Config.Retain makes a
// pruned node, whose old state answers the errors a real one does.
//
// One HTTP request travels through three stages, in the order a real deployment has them:
//
//  1. The Limiter, a faithful model of nginx's limit_req (one global zone): it rejects with
//     Config.LimitStatus, or accepts and — without nodelay — holds the request for its turn.
//  2. The node proper: it parses the JSON-RPC body (a single call or a batch) with a pooled
//     fastjson parser and writes the answer into a pooled buffer.
//  3. The latency model: an optional single FIFO server of Config.Capacity calls per second,
//     then base latency + uniform jitter + a per-item cost, then optional periodic stalls that
//     hold every answer due inside a stall window (the shape of a GC pause, which makes
//     coordinated omission visible).
//
// Every answer is counted just before the handler hands it to fasthttp, so by the time a client
// has read an answer it is already in /stats; tests compare the tester's counts to these exactly.
//
// The node is the ground truth the tester is checked against, so it shares no code with the
// tester: it parses its own rates (rate.go) and flags (flags.go), and a test keeps it so.
//
// Endpoints: POST to any path is JSON-RPC; a GET with "Upgrade: websocket" on any path is a
// WebSocket carrying the same JSON-RPC through the same stages, each message in its own
// goroutine, plus subscriptions (ws*.go); GET /stats reports the counters; POST /stats/reset or
// GET /reset reports and zeroes them; GET /health answers "ok". The stats endpoints are not
// counted.
package mocknode
