package profiles

import (
	"errors"
	"fmt"
	"time"

	"github.com/rpcstress/rpcstress/engine"
)

// Apply recomputes Config from the profile's own values and the command-line overrides o, so
// calling it again replaces earlier overrides rather than stacking on them. Errors name the
// flag. On error Config is left as it was.
//
//   - --rate R replaces the plan with one stage at R, lasting --duration if given, else the
//     profile's planned time, else until stopped.
//   - --duration D alone cuts the plan at D (the stage crossing D is shortened, later ones are
//     dropped), or lengthens the last stage when the plan is shorter than D.
//   - --url, --connections, --timeout replace the profile's values; MaxRequests sets the
//     request-count limit.
//   - --url NAME=URL (Targets) makes the run's targets side by side, --equality compares
//     their answers; --connections is then every target's (see applySideBySide).
//   - --http2, --h2c and --streams replace the profile's http2, h2c and streams, --send-tick
//     its send_tick.
func (p *Profile) Apply(o Overrides) error {
	cfg := cloneConfig(p.base)
	var (
		errs []error
		done []string
	)
	if o.URL != "" {
		if err := checkTargetURL(o.URL); err != nil {
			errs = append(errs, fmt.Errorf("--url: %w", err))
		}
		followURL(cfg, p.base.URL, o.URL)
		cfg.URL, cfg.DisplayURL = o.URL, DisplayURL(o.URL)
		done = append(done, "--url "+cfg.DisplayURL)
	}
	if o.Connections != 0 {
		if o.Connections < 1 || o.Connections > maxConnections {
			errs = append(errs, fmt.Errorf("--connections %d: must be from 1 to %d", o.Connections, maxConnections))
		}
		cfg.Connections = o.Connections
		done = append(done, fmt.Sprintf("--connections %d", o.Connections))
	}
	sideDone, sideErrs := p.applySideBySide(cfg, o)
	done, errs = append(done, sideDone...), append(errs, sideErrs...)
	errs, done = applyHTTP2(cfg, o, errs, done)
	errs, done = applyTimes(cfg, o, errs, done)
	if o.RefURL != "" {
		if err := checkURL(o.RefURL); err != nil {
			errs = append(errs, fmt.Errorf("--ref-url: %w", err))
		}
		if !cfg.Head.On() {
			errs = append(errs, fmt.Errorf(`--ref-url: the profile names no chain whose head to compare: add chain = "evm" or chain = "solana" to it`))
		}
		cfg.Head.RefURL, cfg.Head.RefDisplay = o.RefURL, DisplayURL(o.RefURL)
		done = append(done, "--ref-url "+cfg.Head.RefDisplay)
	}
	if o.MaxRequests != 0 {
		if o.MaxRequests < 0 {
			errs = append(errs, fmt.Errorf("requests limit %d: must be 0 (none) or more", o.MaxRequests))
		}
		cfg.MaxRequests = o.MaxRequests
		done = append(done, fmt.Sprintf("--requests %d", o.MaxRequests))
	}
	if o.Duration < 0 || o.Duration > maxPlanTime {
		errs = append(errs, fmt.Errorf("--duration %s: must be from 0 to %s", o.Duration, maxPlanTime))
	}
	switch {
	case o.Rate != nil:
		if *o.Rate < 0 || *o.Rate > engine.MaxRate {
			errs = append(errs, fmt.Errorf("--rate %s: must be from 0 to %s", *o.Rate, engine.MaxRate))
		}
		d := o.Duration
		if d == 0 {
			d = p.base.Plan.Total()
		}
		cfg.Plan = engine.Plan{Stages: []engine.Stage{{Rate: *o.Rate, Duration: d}}}
		done = append(done, "--rate "+o.Rate.String())
		if o.Duration != 0 {
			done = append(done, "--duration "+o.Duration.String())
		}
	case o.Duration > 0:
		cfg.Plan = cutPlan(cfg.Plan, o.Duration)
		done = append(done, "--duration "+o.Duration.String())
	}
	for _, pr := range checkThresholdsRun(p.Thresholds, cfg) {
		errs = append(errs, pr)
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	p.Config, p.Overridden = cfg, done
	p.planChanged = o.Rate != nil || o.Duration > 0
	return nil
}

// cutPlan returns plan lasting exactly d: the stage that crosses d is shortened and later ones
// are dropped; an open-ended stage reached before d ends at d; a plan shorter than d has its
// last stage lengthened.
func cutPlan(plan engine.Plan, d time.Duration) engine.Plan {
	var out []engine.Stage
	var at time.Duration
	for _, st := range plan.Stages {
		if st.Duration <= 0 || at+st.Duration >= d {
			st.Duration = d - at
			return engine.Plan{Stages: append(out, st)}
		}
		out = append(out, st)
		at += st.Duration
	}
	if len(out) == 0 {
		return engine.Plan{Stages: []engine.Stage{{Duration: d}}}
	}
	out[len(out)-1].Duration += d - at
	return engine.Plan{Stages: out}
}

// applyTimes applies --timeout and --send-tick to cfg, adding to errs and done.
func applyTimes(cfg *engine.Config, o Overrides, errs []error, done []string) ([]error, []string) {
	if o.Timeout != 0 {
		if err := CheckTimeout(o.Timeout); err != nil {
			errs = append(errs, fmt.Errorf("--timeout %s: %w", o.Timeout, err))
		}
		cfg.Timeout = o.Timeout
		done = append(done, "--timeout "+o.Timeout.String())
	}
	if o.SendTick != 0 {
		if err := CheckSendTick(o.SendTick, cfg.Mode); err != nil {
			errs = append(errs, fmt.Errorf("--send-tick %w", err))
		}
		cfg.SendTick = o.SendTick
		done = append(done, "--send-tick "+o.SendTick.String())
	}
	if o.Workers {
		cfg.Workers = true
		done = append(done, "--workers")
	}
	return errs, done
}
