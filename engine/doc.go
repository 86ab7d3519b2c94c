// Package engine is rpcstress's load engine and the home of all its numbers.
//
// The path of one request, from profile to snapshot:
//
//  1. A Config (compiled from a profile by package profiles) carries the request mix and a Plan
//     of Stages, each a Rate held for a Duration.
//  2. The Scheduler turns the Plan into intended send times (open loop: fixed by the rate, never
//     by responses) and hands them to a bounded backlog; a full backlog counts a request dropped.
//  3. A pool of Config.InFlight workers (Connections; Connections × Streams over HTTP/2 and
//     WebSocket) takes due requests and sends them through the Client's transport (fasthttp's
//     HTTP/1.1, net/http's HTTP/2, or WebSocket): each picks from the mix, or takes the next request of a streamed Source (read
//     ahead by a feeder goroutine into a bounded queue; none ready counts as dropped). Latency is measured from the intended time (coordinated-omission corrected);
//     service time from the actual send.
//  4. Classify turns each answer into exactly one outcome: an HTTP status or a transport error
//     class, plus JSON-RPC error codes found in the body, and an outcome class (ok, limited,
//     failed). For JSON-RPC requests it matches the answer to the calls by id (RPCCalls), so
//     each call gets an outcome of its own and a lost or mislabelled answer is a Fault.
//  5. Workers batch Samples down ONE bounded channel to ONE Aggregator, the only owner of the HDR
//     histograms, which publishes an immutable Stats view a few times a second.
//  6. Control calls (SetRate, Pause, NextStage, Hold, Stop …) steer the Scheduler and are
//     recorded as Events. At the end, the Aggregator's state becomes a Snapshot.
//
// Several targets side by side (Config.Targets) share the one Scheduler; each target is a lane
// with its own Client, workers, backlog, books and Aggregator (lane.go). A fanout (fanout.go)
// takes the Scheduler's place at step 2: it picks and renders each due request once and
// offers the same body, intended time and stage to every lane without waiting, so a full
// backlog drops on that target's books only. The first lane's numbers are the run's top level;
// Runner.Stats and the Snapshot carry every lane's beside them, and with CompareAnswers every
// lane files one answer per request with package answers.
package engine
