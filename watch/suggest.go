package watch

import (
	"fmt"

	"github.com/rpcstress/rpcstress/internal/suggest"
)

// didYouMean is ": did you mean NAME?" for the series name closest to name, or a hint to look.
func didYouMean(name string, have []string) string {
	if s := suggest.Closest(name, have); s != "" {
		return fmt.Sprintf(": did you mean %s?", s)
	}
	return fmt.Sprintf(" (none of its %d series has that name: curl the endpoint to list them)", len(have))
}
