package profiles

import (
	"fmt"
	"strings"
)

// envVar is one ${NAME} reference that was resolved.
type envVar struct{ name, value string }

// expandEnv resolves ${NAME} references in s with getenv (nil means an empty environment).
// "$${" writes a literal "${". It returns the expanded text, the variables used, and one error
// per reference that could not be resolved.
func expandEnv(s string, getenv func(string) (string, bool)) (string, []envVar, []error) {
	if !strings.Contains(s, "${") {
		return s, nil, nil
	}
	var (
		b    strings.Builder
		used []envVar
		errs []error
	)
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			break
		}
		if i > 0 && s[i-1] == '$' { // "$${" is an escaped "${"
			b.WriteString(s[:i-1])
			b.WriteString("${")
			s = s[i+2:]
			continue
		}
		b.WriteString(s[:i])
		end := strings.IndexByte(s[i:], '}')
		if end < 0 {
			errs = append(errs, fmt.Errorf(`"${" has no closing "}": write ${NAME}, or $${ for a literal "${"`))
			b.WriteString(s[i:])
			break
		}
		name := s[i+2 : i+end]
		s = s[i+end+1:]
		if !isEnvName(name) {
			errs = append(errs, fmt.Errorf("${%s} is not a variable name: use letters, digits and _, not starting with a digit", clip(name, 40)))
			continue
		}
		var val string
		ok := false
		if getenv != nil {
			val, ok = getenv(name)
		}
		if !ok {
			errs = append(errs, fmt.Errorf("${%s} is not set: export %s=… before the run (or write the value into the profile)", name, name))
			continue
		}
		used = append(used, envVar{name: name, value: val})
		b.WriteString(val)
	}
	return b.String(), used, errs
}

// isEnvName reports whether s is a shell variable name.
func isEnvName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !(isBareKeyByte(s[i]) && s[i] != '-') {
			return false
		}
	}
	return true
}

// env expands references in the value of field, recording each failure as a problem there.
func (c *checker) env(field, s string, getenv func(string) (string, bool)) (string, []envVar, bool) {
	out, used, errs := expandEnv(s, getenv)
	for _, err := range errs {
		c.addErr(field, err, "%s", err.Error())
	}
	return out, used, len(errs) == 0
}
