package distill

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/roleprint/roleprint/internal/fsx"
)

// ReadAcousticProfiles reads the characters' acoustic profiles, the fourth
// profile dimension of VoxRole's personas, from a JSON file: either the
// output of `roleprint speech profile --json` (its "tags" object) or a
// plain object mapping each character to its tag line ("Pitch: High (mean
// F0 212 Hz); Energy: Medium (63.1 dB); Speaking rate: Low (3.1
// syllables/s)"). Empty lines are dropped.
func ReadAcousticProfiles(path string) (map[string]string, error) {
	b, err := fsx.ReadFile(path, maxJSONFile)
	if err != nil {
		return nil, fmt.Errorf("acoustic profiles: %w", err)
	}
	var wrapped struct {
		Tags map[string]string `json:"tags"`
	}
	if err := json.Unmarshal(b, &wrapped); err == nil && wrapped.Tags != nil {
		return nonEmptyLines(wrapped.Tags), nil
	}
	var plain map[string]string
	if err := json.Unmarshal(b, &plain); err != nil {
		return nil, fmt.Errorf("acoustic profiles: %s: %w (expected `roleprint speech profile --json` output or an object character → tag line)", path, err)
	}
	return nonEmptyLines(plain), nil
}

func nonEmptyLines(m map[string]string) map[string]string {
	out := map[string]string{}
	for c, l := range m {
		if l = strings.TrimSpace(l); l != "" {
			out[c] = l
		}
	}
	return out
}

// acousticSentence renders a profile's acoustic line for a second-person
// prompt ("" without one).
func acousticSentence(p Profile) string {
	if p.Acoustic == "" {
		return ""
	}
	return "How your voice sounds (acoustic characteristics, measured on your recordings): " + strings.TrimSuffix(p.Acoustic, ".") +
		". Speak with this pitch, energy and pace."
}
