package profiles

import (
	"errors"
	"fmt"
	"strings"
)

// TargetURL is one --url NAME=URL of the command line (flood's form): a target of a run side
// by side.
type TargetURL struct{ Name, URL string }

// String shows the target as the command line gives it, without the URL's secrets.
func (t TargetURL) String() string { return t.Name + "=" + DisplayURL(t.URL) }

// URLFlags reads the values of --url, the one reader of its two forms: a single URL (it
// replaces the profile's url), or NAME=URL given 2 to 4 times (the targets side by side,
// replacing the profile's url or [[target]] tables). A value is NAME=URL when an = comes
// before any "://" or "/": a URL's own = (…/?key=v) comes after its scheme. Every error
// names --url and says how to fix it; none shows a URL's userinfo or query.
func URLFlags(values []string) (url string, targets []TargetURL, err error) {
	var plain []string
	for _, v := range values {
		name, rest, ok := strings.Cut(v, "=")
		if !ok || strings.Contains(name, "/") || strings.Contains(name, "://") {
			plain = append(plain, v)
			continue
		}
		targets = append(targets, TargetURL{Name: name, URL: rest})
	}
	switch {
	case len(plain) > 0 && len(targets) > 0:
		return "", nil, fmt.Errorf("--url %s and --url %s: name every target to send side by side (--url a=URL --url b=URL), or give one --url URL", DisplayURL(plain[0]), targets[0])
	case len(plain) > 1:
		return "", nil, fmt.Errorf("--url is given %d times: give one --url URL for one target, or name each to send side by side: --url a=URL --url b=URL", len(plain))
	case len(plain) == 1:
		if !strings.Contains(plain[0], "://") {
			return "", nil, fmt.Errorf("--url %q: write the scheme too, e.g. http://%s", plain[0], plain[0])
		}
		return plain[0], nil, nil
	}
	if err := checkTargetURLs(targets); err != nil {
		return "", nil, err
	}
	return "", targets, nil
}

// checkTargetURLs checks the targets of --url NAME=URL: their names, URLs and number.
func checkTargetURLs(targets []TargetURL) error {
	var errs []error
	seen := map[string]bool{}
	for _, t := range targets {
		switch err := CheckTargetName(t.Name); {
		case err != nil:
			errs = append(errs, fmt.Errorf("--url %s: the name %w", t, err))
		case seen[t.Name]:
			errs = append(errs, fmt.Errorf("--url %s: the name %s is given twice: give each target its own name", t, t.Name))
		}
		seen[t.Name] = true
		if u := strings.TrimSpace(t.URL); u != "" && !strings.Contains(u, "://") {
			errs = append(errs, fmt.Errorf("--url %s: write the scheme too, e.g. %s=http://%s", t, t.Name, DisplayURL(u)))
		} else if err := checkTargetURL(t.URL); err != nil {
			errs = append(errs, fmt.Errorf("--url %s: %w", t, err))
		}
	}
	switch n := len(targets); {
	case n == 1:
		errs = append(errs, fmt.Errorf("--url %s: one named target: side by side needs %d to %d (--url %s --url b=URL); for one target, give --url URL without a name", targets[0], minSideTargets, maxSideTargets, targets[0]))
	case n > maxSideTargets:
		errs = append(errs, fmt.Errorf("--url: %d named targets: at most %d go side by side (the dashboard has a column for each, and answers are compared pair by pair): run the others in a second run", n, maxSideTargets))
	}
	return errors.Join(errs...)
}
