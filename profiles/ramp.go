package profiles

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/rpcstress/rpcstress/engine"
)

// Ramp is a [ramp] table: a rate that climbs from From to To, multiplied by Factor or raised by
// Step, held for Every at each step. Seed 002's limit sweep (240/m doubling to 15360/m every
// 30s) is a three-line ramp.
type Ramp struct {
	From, To engine.Rate
	// Factor multiplies the rate each step; 0 when Step is used.
	Factor float64
	// Step is added to the rate each step; 0 when Factor is used.
	Step engine.Rate
	// Every is how long each step holds its rate.
	Every time.Duration

	fromText, toText string // from and to as written, for Describe
}

// Stages expands the ramp: From, From×Factor (or From+Step), … while below To, then exactly
// To as the last stage, so a step that would overshoot is clamped to To. Rates are computed from
// From and the step number, not by repeated multiplication, so no rounding error accumulates.
func (r Ramp) Stages() ([]engine.Stage, error) {
	if err := r.check(); err != nil {
		return nil, err
	}
	// Rates within a hair of To count as reaching it: 4×2⁶ must be To = 256 exactly, whatever
	// the float arithmetic says.
	reach := float64(r.To) * (1 - 1e-9)
	var out []engine.Stage
	for k := 0; ; k++ {
		rate := r.From + engine.Rate(k)*r.Step
		if r.Factor > 0 {
			rate = engine.Rate(float64(r.From) * math.Pow(r.Factor, float64(k)))
		}
		if float64(rate) >= reach {
			return append(out, engine.Stage{Rate: r.To, Duration: r.Every}), nil
		}
		if len(out)+1 >= maxStages {
			return nil, &fieldError{"ramp", fmt.Sprintf("expands to more than %d stages: use a larger factor or step, or a shorter range", maxStages)}
		}
		out = append(out, engine.Stage{Rate: rate, Duration: r.Every})
	}
}

// check finds ramps that never reach their end.
func (r Ramp) check() error {
	switch {
	case r.Factor != 0 && r.Step != 0:
		return &fieldError{"ramp.step", "factor and step are both set: a ramp multiplies (factor = 2) or adds (step = \"100/s\"), delete one"}
	case r.Factor == 0 && r.Step == 0:
		return &fieldError{"ramp", `says neither how to climb: add factor = 2 (double each step) or step = "100/s" (add each step)`}
	case r.Every <= 0:
		return &fieldError{"ramp.every", `must be more than 0: it is how long each step holds, e.g. every = "30s"`}
	case r.From >= r.To:
		return &fieldError{"ramp.to", fmt.Sprintf("%s is not above from = %s, so the ramp never reaches its end: make to larger than from (a ramp climbs; for a falling plan write [[stage]] tables)", r.To, r.From)}
	case r.Factor != 0 && (r.Factor <= 1 || math.IsInf(r.Factor, 0) || math.IsNaN(r.Factor)):
		return &fieldError{"ramp.factor", fmt.Sprintf("%g never reaches to = %s: use a factor above 1, e.g. 2 to double the rate each step", r.Factor, r.To)}
	case r.Factor != 0 && r.From == 0:
		return &fieldError{"ramp.from", fmt.Sprintf("0 multiplied by %g stays 0 and never reaches %s: start above 0, or climb by step instead of factor", r.Factor, r.To)}
	case r.Step < 0:
		return &fieldError{"ramp.step", "is negative, so the ramp never reaches its end: use a positive step such as \"100/s\""}
	}
	steps := 0.0
	if r.Factor != 0 {
		steps = math.Log(float64(r.To/r.From)) / math.Log(r.Factor)
	} else {
		steps = float64((r.To - r.From) / r.Step)
	}
	if steps+1 > maxStages {
		return &fieldError{"ramp", fmt.Sprintf("expands to about %.0f stages, more than the maximum of %d: use a larger factor or step, or a shorter range", steps+1, maxStages)}
	}
	if total := time.Duration(math.Ceil(steps)+1) * r.Every; total > maxPlanTime || total < 0 {
		return &fieldError{"ramp.every", fmt.Sprintf("the ramp would last longer than the maximum of %s: shorten every or the range", maxPlanTime)}
	}
	return nil
}

// ramp reads the [ramp] table. It reports false when anything in it is wrong, so that only a
// fully read ramp is expanded.
func (c *checker) ramp(doc table) (Ramp, bool) {
	var r Ramp
	t, ok := c.subTable(doc, "", "ramp", `[ramp] with from = "240/m", to = "15360/m", factor = 2, every = "30s"`)
	if !ok {
		return r, false
	}
	c.unknownKeys(t, "ramp", rampKeys())
	before := len(c.problems)
	r.From, _ = c.rate(t, "ramp", "from")
	r.To, _ = c.rate(t, "ramp", "to")
	r.fromText, r.toText = writtenRate(t["from"]), writtenRate(t["to"])
	r.Every, _ = c.duration(t, "ramp", "every", `every = "30s"`)
	for _, k := range [][2]string{{"from", `from = "240/m"`}, {"to", `to = "15360/m"`}, {"every", `every = "30s"`}} {
		if _, present := t[k[0]]; !present {
			c.addf("ramp."+k[0], "missing: a ramp needs from, to and every, e.g. %s", k[1])
		}
	}
	if v, present := t["factor"]; present {
		switch f := v.(type) {
		case int64:
			r.Factor = float64(f)
		case float64:
			r.Factor = f
		default:
			c.typeErr("ramp.factor", v, "a number", "factor = 2")
			return r, false
		}
		if r.Factor == 0 {
			c.addf("ramp.factor", "0 never reaches to: use a factor above 1, e.g. 2 to double the rate each step")
		}
	}
	if _, present := t["step"]; present {
		if step, ok := c.rate(t, "ramp", "step"); ok {
			if step == 0 {
				c.addf("ramp.step", `0 never reaches to: use a positive step such as "100/s"`)
			}
			r.Step = step
		}
	}
	return r, len(c.problems) == before
}

// writtenRate is a rate value as the profile wrote it.
func writtenRate(v any) string {
	if s, ok := v.(string); ok {
		return strings.TrimSpace(s)
	}
	return fmt.Sprint(v)
}

// rampErr records an error from Ramp.Stages at the field it names.
func (c *checker) rampErr(err error) {
	if fe, ok := err.(*fieldError); ok {
		c.addErr(fe.field, err, "%s", fe.msg)
		return
	}
	c.addErr("ramp", err, "%v", err)
}
