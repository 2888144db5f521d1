package corpusstats

import "testing"

func TestTopSpeakersPerDataset(t *testing.T) {
	s := Compute(sample())
	rows := s.TopSpeakersPerDataset(1)
	if len(rows) != len(s.Datasets) {
		t.Fatalf("%d rows for %d datasets", len(rows), len(s.Datasets))
	}
	for i, r := range rows {
		d := s.Datasets[i]
		if r.Dataset != d.Name || r.Speaker != d.TopSpeakers[0].Speaker || r.Utterances != d.TopSpeakers[0].Utterances {
			t.Errorf("row %d %+v, dataset %s top %+v", i, r, d.Name, d.TopSpeakers[0])
		}
	}
	if all := s.TopSpeakersPerDataset(1000); len(all) < len(rows) {
		t.Errorf("n above the speakers: %d rows", len(all))
	}
}
