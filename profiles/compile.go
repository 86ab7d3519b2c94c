package profiles

import (
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/rpcstress/rpcstress/engine"
)

// compile checks every part of the decoded document and assembles the engine's Config. Parts
// are checked independently, so the problems of all of them are collected in one pass; the
// result is only used when there were none.
func compile(c *checker, doc table, md toml.MetaData, src *source) *Profile {
	c.unknownKeys(doc, "", topKeys())
	p := &Profile{Path: src.name}
	cfg := &p.base
	_, hasTargets := doc["targets"]
	_, sideBySide := doc["target"]
	urlVars := c.settings(doc, cfg, src, hasTargets || sideBySide)
	var secret []string
	cfg.Headers, secret = c.headers(doc, md.Keys(), src.getenv)
	cfg.Head = c.chain(doc, src)
	tc := newTemplateCompiler(src)
	tc.head = cfg.Head.Cell
	tc.data = c.dataFolder(doc, src)
	if tc.data != nil {
		p.DataDir = tc.data.dir
	}
	var mix []mixEntry
	if subscriptionsOnly(doc) {
		c.noRequests(doc)
	} else {
		mix = c.requests(doc, tc, hasTargets)
	}
	c.reportAbsent(tc.data)
	mix = append(mix, c.targets(doc, cfg, src)...) // may set the URL
	cfg.DisplayURL = displayFor(cfg.URL, urlVars)
	cfg.Subscriptions = c.subscriptions(doc, cfg.URL, sideBySide, src.getenv)
	p.subURLWhere = c.subscribeURLWhere(doc)
	if len(mix) > maxMix {
		c.addf("request", "the mix has %d requests: at most %d are possible", len(mix), maxMix)
	}
	uniqueNames(mix)
	for _, e := range mix {
		cfg.Requests = append(cfg.Requests, e.req)
		p.info = append(p.info, e.info)
	}
	cfg.TLS, _ = c.tls(doc, "", src, engine.TLSConfig{})
	p.sideBySide(c, doc, src, secret)
	c.http2(doc, cfg) // after targets, which may set the URL
	if subscriptionsOnly(doc) {
		cfg.Plan = c.holdPlan(doc)
		if cfg.URL == "" && len(cfg.Subscriptions) > 0 { // the subscriptions name the node
			cfg.URL, cfg.DisplayURL = cfg.Subscriptions[0].URL, cfg.Subscriptions[0].DisplayURL
		}
	} else {
		cfg.Plan, p.Ramp = c.plan(doc, cfg.Mode)
	}
	p.Search, p.HasSearch = c.search(doc)
	have := mixAsksOf(cfg.Requests)
	have.subs, have.heads = subscriptionAsks(cfg.Subscriptions)
	p.Thresholds = c.thresholds(doc, len(cfg.Plan.Stages), have)
	cfg.Limits = c.limits(doc)
	p.Demo = c.demo(doc)
	p.Watch = c.nodeWatch(doc, src.getenv)
	p.Name = cfg.Name
	p.perMinute = writtenPerMinute(doc)
	p.Config = cloneConfig(p.base)
	return p
}

// writtenPerMinute reports whether the plan's rates were written per minute ("240/m", nginx's
// "240r/m"), so that Describe shows them that way too.
func writtenPerMinute(doc table) bool {
	perMin := func(v any) bool {
		s, ok := v.(string)
		return ok && strings.Contains(strings.ToLower(s), "/m")
	}
	if t, ok := doc["ramp"].(table); ok && (perMin(t["from"]) || perMin(t["to"])) {
		return true
	}
	list, _ := tables(doc["stage"])
	for _, t := range list {
		if perMin(t["rate"]) {
			return true
		}
	}
	return false
}
