package profiles

import (
	"strconv"
	"time"

	"github.com/rpcstress/rpcstress/engine"
)

// plan reads the rate plan: a list of [[stage]] tables, or a [ramp], or, in closed mode,
// nothing (one open-ended stage bounded by the request limit or --duration). It returns the
// ramp as well when there was one, for Describe.
func (c *checker) plan(doc table, mode engine.Mode) (engine.Plan, *Ramp) {
	_, hasStages := doc["stage"]
	_, hasRamp := doc["ramp"]
	switch {
	case hasStages && hasRamp:
		c.addf("ramp", "a profile has either [[stage]] tables or a [ramp], not both: delete one of them")
		c.stages(doc["stage"], mode) // still report what is wrong inside each
		if r, ok := c.ramp(doc); ok {
			if _, err := r.Stages(); err != nil {
				c.rampErr(err)
			}
		}
		return engine.Plan{}, nil
	case hasRamp:
		r, ok := c.ramp(doc)
		if !ok {
			return engine.Plan{}, nil
		}
		stages, err := r.Stages()
		if err != nil {
			c.rampErr(err)
			return engine.Plan{}, nil
		}
		return engine.Plan{Stages: stages}, &r
	case hasStages:
		return engine.Plan{Stages: c.stages(doc["stage"], mode)}, nil
	case mode == engine.ModeClosed:
		// Closed mode needs no rates; the run ends at the request limit, --duration or a stop.
		return engine.Plan{Stages: []engine.Stage{{}}}, nil
	case doc["search"] != nil:
		// A profile for `rpcstress find-limit` only: the search makes its own plan.
		return engine.Plan{}, nil
	}
	c.addf("stage", `no rate plan: add a [[stage]] with rate = "100/s" and duration = "30s", or a [ramp] (or set mode = "closed")`)
	return engine.Plan{}, nil
}

// stages reads [[stage]] tables. Every stage but the last needs a duration; the last may leave
// it out to run until stopped. In closed mode a stage's rate is ignored, so it is optional.
func (c *checker) stages(v any, mode engine.Mode) []engine.Stage {
	list, ok := tables(v)
	if !ok {
		c.typeErr("stage", v, "a list of [[stage]] tables", `[[stage]] (double brackets), then rate = "100/s" and duration = "30s"`)
		return nil
	}
	if len(list) == 0 {
		c.addf("stage", `is empty: add a [[stage]] with rate = "100/s" and duration = "30s"`)
		return nil
	}
	if len(list) > maxStages {
		c.addf("stage", "%d stages are more than the maximum of %d: merge some, or use a [ramp]", len(list), maxStages)
		return nil
	}
	out := make([]engine.Stage, 0, len(list))
	var total time.Duration
	bad := false
	for i, t := range list {
		path := "stage[" + strconv.Itoa(i+1) + "]"
		last := i == len(list)-1
		c.unknownKeys(t, path, stageKeys())
		st, ok := c.stage(t, path, mode, last)
		if !ok {
			bad = true
			continue
		}
		total += st.Duration
		if total > maxPlanTime {
			c.addf(path+".duration", "the stages add up to more than the maximum of %s: shorten them", maxPlanTime)
			return nil
		}
		out = append(out, st)
	}
	if bad {
		return nil
	}
	return out
}

// stage reads one [[stage]].
func (c *checker) stage(t table, path string, mode engine.Mode, last bool) (engine.Stage, bool) {
	var st engine.Stage
	ok := true
	if name, has := c.str(t, path, "name", `name = "warm-up"`); has {
		st.Name = name
	} else if _, present := t["name"]; present {
		ok = false
	}

	if r, has := c.rate(t, path, "rate"); has {
		st.Rate = r
	} else if _, present := t["rate"]; present {
		ok = false
	} else if mode == engine.ModeOpen {
		c.addf(path+".rate", `missing: say how fast to send, e.g. rate = "300/s" (or "240/m", or a plain number per second)`)
		ok = false
	}

	if d, has := c.duration(t, path, "duration", `duration = "30s"`); has {
		if d == 0 {
			if last {
				c.addf(path+".duration", `must be more than 0: leave duration out of the last stage to run until stopped`)
			} else {
				c.addf(path+".duration", `must be more than 0, e.g. duration = "30s"`)
			}
			ok = false
		}
		st.Duration = d
	} else if _, present := t["duration"]; present {
		ok = false
	} else if !last {
		c.addf(path+".duration", `missing: only the last stage may run until stopped; add duration = "30s"`)
		ok = false
	}
	return st, ok
}
