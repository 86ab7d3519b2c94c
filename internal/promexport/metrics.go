package promexport

import "github.com/prometheus/client_golang/prometheus"

// descs are the metrics the collector emits, made once: their names, help and labels are the
// contract with dashboards (examples/grafana) and are listed in the README.
type descs struct {
	scheduled, sent, dropped       *prometheus.Desc
	requests, methodRequests       *prometheus.Desc
	responses, transportErrs       *prometheus.Desc
	rpcErrors                      *prometheus.Desc
	callsSent, calls, callFaults   *prometheus.Desc
	bytesIn, bytesOut, dials       *prometheus.Desc
	redials                        *prometheus.Desc
	latency                        *prometheus.Desc
	targetRate, achieved, sentRate *prometheus.Desc
	inflight, queued               *prometheus.Desc
	stage, stages, state           *prometheus.Desc
	lastLatency                    *prometheus.Desc
	testerCPU, testerLag, behind   *prometheus.Desc
	elapsed, info                  *prometheus.Desc
	rules                          ruleDescs
	node                           nodeDescs
}

// newDescs makes the descriptions; target is a constant label of the run's own series (the
// display URL: no userinfo, no query).
func newDescs(target string) descs {
	c := prometheus.Labels{"target": validUTF8(target)}
	d := func(name, help string, labels ...string) *prometheus.Desc {
		return prometheus.NewDesc("rpcstress_"+name, help, labels, c)
	}
	return descs{
		rules:          newRuleDescs(d),
		node:           newNodeDescs(d),
		scheduled:      d("requests_scheduled_total", "Requests the plan scheduled."),
		sent:           d("requests_sent_total", "Requests sent."),
		dropped:        d("requests_dropped_total", "Requests the schedule wanted but the backlog could not hold (the tester could not keep up)."),
		requests:       d("requests_total", "Requests completed (answered or failed in transport), by outcome: ok, limited (HTTP 429 and the [limits] JSON-RPC codes), failed.", "outcome"),
		methodRequests: d("method_requests_total", "Requests completed by request of the mix (its name, else its JSON-RPC method) and outcome.", "method", "outcome"),
		responses:      d("responses_total", "Requests answered, by HTTP status.", "status"),
		transportErrs:  d("transport_errors_total", "Requests that got no HTTP answer, by transport error class.", "error"),
		rpcErrors:      d("rpc_errors_total", "JSON-RPC calls answered with an error, by error code.", "code"),
		callsSent:      d("calls_sent_total", "JSON-RPC calls sent (a batch of N is one request and N calls)."),
		calls:          d("calls_total", "JSON-RPC calls answered, by outcome.", "outcome"),
		callFaults:     d("call_faults_total", "Answers that broke JSON-RPC, by fault.", "fault"),
		bytesIn:        d("received_bytes_total", "Bytes of the answers received."),
		bytesOut:       d("sent_bytes_total", "Bytes of the requests sent."),
		dials:          d("connections_dialed_total", "Connections dialed."),
		redials:        d("connections_redialed_total", "Connections dialed again after one closed under its calls (WebSocket); among the dialed when they connected."),
		latency:        d("latency_seconds", "Latency from the intended send time (coordinated-omission corrected), by request of the mix.", "method"),
		targetRate:     d("target_rate", "Requests per second the plan asks of this instance now."),
		achieved:       d("achieved_rate", "Answers per second in the last complete second."),
		sentRate:       d("sent_rate", "Requests sent per second in the last complete second."),
		inflight:       d("requests_inflight", "Requests sent and not yet answered."),
		queued:         d("requests_queued", "Requests scheduled and waiting for a connection."),
		stage:          d("stage", "The current stage of the plan, counted from 1."),
		stages:         d("stages", "The stages of the plan."),
		state:          d("state", "1 for what the run is doing now (running, paused, held, draining, done), 0 for the others.", "state"),
		lastLatency:    d("last_second_latency_seconds", "Latency percentiles of the last complete second, from its HDR histogram.", "quantile"),
		testerCPU:      d("tester_cpu_cores", "Cores the rpcstress process used in the last complete second."),
		testerLag:      d("tester_lag_seconds", "How late the tester sent at worst in the last complete second (its own delay)."),
		behind:         d("tester_saturated", "1 when the tester itself sent late in the last complete second."),
		elapsed:        d("elapsed_seconds", "Time since the run started."),
		info:           d("run_info", "The run's mode and rpcstress's version; always 1.", "mode", "version"),
	}
}

// all lists every description, for Describe.
func (d *descs) all() []*prometheus.Desc {
	return append([]*prometheus.Desc{d.scheduled, d.sent, d.dropped, d.requests, d.methodRequests,
		d.responses, d.transportErrs, d.rpcErrors, d.callsSent, d.calls, d.callFaults,
		d.bytesIn, d.bytesOut, d.dials, d.redials, d.latency, d.targetRate, d.achieved, d.sentRate,
		d.inflight, d.queued, d.stage, d.stages, d.state, d.lastLatency, d.testerCPU,
		d.testerLag, d.behind, d.elapsed, d.info}, append(d.rules.all(), d.node.all()...)...)
}
