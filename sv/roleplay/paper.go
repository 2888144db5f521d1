package roleplay

// PaperScore is one row of the paper's Table 3 (Mixed Features encoder,
// scores ×100).
type PaperScore struct {
	Model                   string
	Simulation, Distinction float64
}

// PaperTable3 returns the published role-play scores of Yang et al.,
// Table 3, in the paper's row order.
func PaperTable3() []PaperScore {
	return []PaperScore{
		{"Real", 85.96, 72.91},
		{"LLaMA2-Chat-7B", 47.91, 63.57},
		{"LLaMA2-Chat-13B", 44.36, 53.56},
		{"LLaMA2-Chat-70B", 53.91, 62.43},
		{"ChatHaruhi", 47.72, 49.78},
		{"RoleGPT", 58.91, 56.16},
		{"CharacterLLM", 49.10, 38.98},
		{"Character.AI", 57.87, 49.89},
	}
}

// PaperTable7 returns the published average Simulation Ranks (Table 7).
func PaperTable7() map[string]float64 {
	return map[string]float64{
		"Real": 1.00, "RoleGPT": 2.56, "LLaMA2-Chat-70B": 3.48, "LLaMA2-Chat-7B": 3.50,
		"ChatHaruhi": 4.54, "LLaMA2-Chat-13B": 5.31,
	}
}

// PaperRank is one row of the paper's Table 6: the five roles most similar
// to Sheldon Cooper's real lines and Sheldon's own rank among 95 roles.
type PaperRank struct {
	Model    string
	Top      [5]string
	Rank, Of int
}

// PaperTable6 returns the published Table 6 (simulating Sheldon Cooper).
func PaperTable6() []PaperRank {
	return []PaperRank{
		{"LLaMA-7B", [5]string{"Gregory House", "Walt Kowalski", "John Doe", "Colonel Nathan R", "Robert Angier"}, 23, 95},
		{"LLaMA-13B", [5]string{"Lucifer Morningstar", "Dr. Hannibal Lecter", "Gregory House", "Colonel Hans Landa", "Mary Sibley"}, 37, 95},
		{"LLaMA-70B", [5]string{"Leroy Jethro Gibbs", "Doctor Who", "Tyler Hawkins", "Judge Dredd", "Violet Weston"}, 16, 95},
		{"ChatHaruhi", [5]string{"Jack Torrance", "Gregory House", "Freddy Krueger", "John Doe", "Colonel Hans Landa"}, 25, 95},
		{"RoleGPT", [5]string{"John Doe", "Leonard Shelby", "Doctor Who", "Blair Waldorf", "Gregory House"}, 11, 95},
	}
}

// PaperScoresOf returns a model's published numbers: its Table 3 row
// (Simulation and Distinction ×100) and its Table 7 average rank, with
// whether each table has the model. Names match loosely (case, spaces and
// punctuation ignored: "RoleGPT" = "role-gpt"); the text table of
// WriteModels and report's Table 3 and Table 7 both look models up here.
func PaperScoresOf(model string) (t3 PaperScore, rank float64, ok3, ok7 bool) {
	key := normKey(model)
	for _, p := range PaperTable3() {
		if normKey(p.Model) == key {
			t3, ok3 = p, true
		}
	}
	for m, r := range PaperTable7() {
		if normKey(m) == key {
			rank, ok7 = r, true
		}
	}
	return
}

func normKey(s string) string {
	var b []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z':
			b = append(b, c+'a'-'A')
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
			b = append(b, c)
		}
	}
	return string(b)
}
