package corpusstats

// DatasetSpeaker is one of a dataset's most frequent speakers, a row of
// the "most frequent speakers per dataset" table.
type DatasetSpeaker struct {
	Dataset    string `json:"dataset"`
	Speaker    string `json:"speaker"`
	Utterances int    `json:"utterances"`
}

// TopSpeakersPerDataset returns the n most frequent speakers of every
// dataset (fewer where a dataset has fewer), datasets in s's order.
func (s *Stats) TopSpeakersPerDataset(n int) []DatasetSpeaker {
	var out []DatasetSpeaker
	for _, d := range s.Datasets {
		for _, sc := range d.TopSpeakers[:min(n, len(d.TopSpeakers))] {
			out = append(out, DatasetSpeaker{Dataset: d.Name, Speaker: sc.Speaker, Utterances: sc.Utterances})
		}
	}
	return out
}
