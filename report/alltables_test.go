package report

import (
	"math"

	"github.com/roleprint/roleprint/data/corpusstats"
	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/persona/agree"
	"github.com/roleprint/roleprint/persona/llmverify"
	"github.com/roleprint/roleprint/speech"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv/roleplay"
)

// roleplayReport is a small role-play report with a Real row and one agent.
func roleplayReport() *roleplay.Report {
	v := func(x float64) stats.Float { return stats.Float(x) }
	r := &roleplay.Report{Encoder: "tfidf", Config: roleplay.DefaultConfig()}
	for mi, m := range []string{"Real", "ChatHaruhi", "RoleGPT"} {
		ms := roleplay.ModelScore{Model: m, Simulation: v(0.3 - 0.1*float64(mi)), SimulationCI: stats.Interval{v(0.1), v(0.35)},
			Distinction: v(0.9 - 0.05*float64(mi)), DistinctionCI: stats.Interval{v(0.8), v(0.95)}, AvgRank: v(1 + float64(mi)),
			AvgRankCI: stats.Interval{v(1), v(3)}, Roles: 2, RolesWithReal: 2, Sets: 10}
		for ri, role := range []string{"Sheldon", "汤师爷"} {
			ms.PerRole = append(ms.PerRole, roleplay.RoleScore{Role: role, RealRole: role, Rank: v(1 + float64(mi*ri)), RankOf: 2,
				Top: []roleplay.RankedRole{{Role: role, Similarity: v(0.3)}, {Role: "Penny & co", Similarity: v(0.2)}}})
		}
		r.Models = append(r.Models, ms)
	}
	roleplay.RankModels(r.Models)
	return r
}

// everyTable returns one of each table the package builds (besides Table 2).
func everyTable() []*Table {
	r := roleplayReport()
	t6, _ := Table6(r, "Sheldon")
	st := &corpusstats.Stats{Summary: corpusstats.Summary{Name: "total", Speakers: 10, Utterances: 1234, Conversations: 50, UtterancesPerConversation: 24.68},
		Datasets: []corpusstats.Summary{{Name: "friends", Speakers: 6, Utterances: 1000, Conversations: 40, UtterancesPerConversation: 25}}}
	var ps pairs.PairStatistics
	ps.Splits = []pairs.SplitStats{{Name: "train", Speakers: 10, Pairs: 100}, {Name: "seen-seen-base", Exposure: pairs.SeenSeen, Level: pairs.Base, Speakers: 4, Pairs: 20}}
	profiles := []speech.Profile{{Character: "A", Utterances: 2, DurationS: 3, F0MeanHz: 120, IntensityMeanDB: 70, SpeakingRateSylS: 3, Pitch: speech.Low},
		{Character: "B_é", Utterances: 2, DurationS: 3, F0MeanHz: 220, IntensityMeanDB: math.NaN(), SpeakingRateSylS: 4, Pitch: speech.High}}
	judgeSystems := []JudgeSystem{{System: "agent", N: 2, Scores: map[string]float64{"IA": 0.9, "CC": 1.1}, Overall: 1.0}}
	return []*Table{
		table1(), Table3(r, true), t6, Table7(r, true), Table4(st, true), Table5(ps, true), ProfileTable(profiles),
		AgreementTable([]AgreementRow{{File: "j", Dimension: "IA", Report: agree.Report{N: 5, Spearman: 0.8, Kendall: 0.7, Pairwise: 0.9, Pearson: 0.85}}}),
		TextMetricsTable([]TextMetricsRow{{System: "s_1", N: 3, RougeL: 0.1, Meteor: 0.2, BERTScoreF1: 0.8}}, true),
		JudgeTable("speechrole", "lexical", speechRoleCodes, judgeSystems, true),
		JudgeTable("voxrole", "lexical", voxRoleCodes, []JudgeSystem{{System: "v", N: 1, Scores: map[string]float64{"likeness": 3}, Overall: 3}}, true),
		AblationTable("retrieval", []int{4, 6, 8, 10}, []float64{3.1, 3.2, 3.3, 3.2}),
	}
}

func table1() *Table {
	v := func(x float64) stats.Float { return stats.Float(x) }
	return Table1("gpt-test", []*llmverify.Result{{View: llmverify.Utterances, Prompting: "zero-shot", Accuracy: v(0.55), F1: v(0.5)},
		{View: llmverify.Conversation, Prompting: "zero-shot", Accuracy: v(0.6), F1: v(0.58)},
		{View: llmverify.Utterances, Prompting: "2-shot", Accuracy: v(0.6), F1: v(0.61)}}, pairs.Harder, true)
}
