package kernel

import "github.com/roleprint/roleprint/data"

// FirstPerSource returns the first n utterances of each source (corpus)
// of utts, sources in order of first appearance and utterances in their
// order in utts: a few rows of every corpus a notebook uses, for TableOf.
func FirstPerSource(utts []data.Utterance, n int) []data.Utterance {
	seen := map[string]int{}
	var out []data.Utterance
	for _, u := range utts {
		if seen[u.Source] < n {
			seen[u.Source]++
			out = append(out, u)
		}
	}
	return out
}
