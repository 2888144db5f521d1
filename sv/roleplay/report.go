package roleplay

import "github.com/roleprint/roleprint/stats"

// Report is the result of Score: one row per agent model plus the Real
// reference row, the role matching, and the similarity distributions.
// Scores are cosines (or the encoder's own similarity, for a PairScorer)
// in [−1, 1]; the paper prints them ×100.
type Report struct {
	// Encoder is the encoder's name.
	Encoder string `json:"encoder"`
	// Similarity names what Simulation, Distinction and the distributions
	// average (sv.SimilarityName): "Cosine similarity", or a verifier's
	// "P(same speaker)".
	Similarity string `json:"similarity"`
	// Config is the resolved configuration.
	Config Config `json:"config"`
	// Models holds the Real row first (when Config.HeldOut > 0 and real
	// roles could be split), then the agent models by name.
	Models []ModelScore `json:"models"`
	// RoleMatches reports, per generated role name, the real speakers it
	// was matched to and how.
	RoleMatches []RoleMatch `json:"role_matches"`
	// DistinctionOnly lists the generated role names without real lines.
	DistinctionOnly []string `json:"distinction_only_roles"`
	// Distributions holds, per row, the real–generated and
	// generated–generated similarity distributions (Figures 1 and 2).
	Distributions []Distribution `json:"distributions"`
	// Comparisons holds the separations compared with another encoder's
	// report on the same sets (CompareSeparation; `score --vs`). Score
	// leaves it empty: a caller that compares fills it.
	Comparisons []SeparationComparison `json:"comparisons"`
	// Notes holds remarks: roles left out and why.
	Notes []string `json:"notes"`
}

// ModelScore is one row of the paper's Tables 3 and 7.
type ModelScore struct {
	// Model is the agent model, or Config.RealModel for the reference row.
	Model string `json:"model"`
	// Simulation is Eq. 2: the mean over roles with real lines of the mean
	// similarity between the model's sets for the role and the role's
	// real reference sets.
	Simulation   stats.Float    `json:"simulation"`
	SimulationCI stats.Interval `json:"simulation_ci"`
	// Distinction is Eq. 3: the mean over roles of the mean of 1 −
	// similarity between the model's sets for the role and its sets for
	// each other role (pairs drawn from one conversation left out).
	Distinction   stats.Float    `json:"distinction"`
	DistinctionCI stats.Interval `json:"distinction_ci"`
	// AvgRank is the average role rank: the mean over the model's roles
	// with real lines of each role's Simulation Rank among the candidate
	// roles (RoleScore.Rank, Table 6's "Sheldon Cooper's Rank"); 1 is
	// best. It is not Table 7, which ranks models: see ModelRank.
	AvgRank   stats.Float    `json:"avg_rank"`
	AvgRankCI stats.Interval `json:"avg_rank_ci"`
	// ModelRank is the paper's Table 7, "average Simulation Rank": per
	// real role the rows of the report (Real row included) are ranked by
	// their Simulation for it, and a row's places are averaged over the
	// ModelRankRoles real roles it scores (see RankModels); 1 is best.
	ModelRank      stats.Float `json:"model_rank"`
	ModelRankRoles int         `json:"model_rank_roles"`
	// Roles counts the roles scored; RolesWithReal those with real lines.
	Roles         int `json:"roles"`
	RolesWithReal int `json:"roles_with_real"`
	// Sets and Utterances count the model's sets and utterances.
	Sets       int `json:"sets"`
	Utterances int `json:"utterances"`
	// PerRole holds the role rows, by role name.
	PerRole []RoleScore `json:"per_role"`
	// Common compares an agent row with the Real row on the real roles
	// both score; nil for the Real row and when there is none.
	Common *Common `json:"common,omitempty"`
}

// Common holds an agent row's scores and the Real row's, both computed on
// the real roles the two rows share, as if only those roles had been
// played, so that the two can be compared: a row's Simulation, and
// above all its Distinction, depend on which roles it averages over (95
// RoleBench roles against the 13 real ones of three corpora are not
// comparable). Intervals come from the same bootstrap as the rows'.
type Common struct {
	// Roles lists the shared real roles (the agent's roles are those
	// matched to them).
	Roles []string `json:"roles"`
	// Simulation, Distinction and AvgRank are the agent's scores over the
	// shared roles.
	Simulation    stats.Float    `json:"simulation"`
	SimulationCI  stats.Interval `json:"simulation_ci"`
	Distinction   stats.Float    `json:"distinction"`
	DistinctionCI stats.Interval `json:"distinction_ci"`
	AvgRank       stats.Float    `json:"avg_rank"`
	AvgRankCI     stats.Interval `json:"avg_rank_ci"`
	// RealSimulation, RealDistinction and RealAvgRank are the Real row's
	// scores over the same roles.
	RealSimulation    stats.Float    `json:"real_simulation"`
	RealSimulationCI  stats.Interval `json:"real_simulation_ci"`
	RealDistinction   stats.Float    `json:"real_distinction"`
	RealDistinctionCI stats.Interval `json:"real_distinction_ci"`
	RealAvgRank       stats.Float    `json:"real_avg_rank"`
	RealAvgRankCI     stats.Interval `json:"real_avg_rank_ci"`
}

// RoleScore is one role of one model.
type RoleScore struct {
	// Role is the model's role name; RealRole the matched real role ("" for
	// a Distinction-only role).
	Role     string `json:"role"`
	RealRole string `json:"real_role"`
	// Sets and Utterances count the model's sets and utterances for the
	// role; RealSets the real reference sets it is compared with.
	Sets       int `json:"sets"`
	Utterances int `json:"utterances"`
	RealSets   int `json:"real_sets"`
	// Simulation is the role's mean similarity to its real sets (null for
	// a Distinction-only role).
	Simulation   stats.Float    `json:"simulation"`
	SimulationCI stats.Interval `json:"simulation_ci"`
	// Distinction is the role's mean dissimilarity to the model's other
	// roles.
	Distinction   stats.Float    `json:"distinction"`
	DistinctionCI stats.Interval `json:"distinction_ci"`
	// Rank is the Simulation Rank (1 = best; ties count one half) among
	// RankOf candidates, by Config.RankAmong: by default the position of
	// the role's own real role among every real role when they are
	// ordered by the similarity of their reference sets to the model's
	// sets for this role; with RankAmongAgent the position of this role
	// among the model's roles ordered by similarity to its real sets.
	Rank   stats.Float    `json:"rank"`
	RankCI stats.Interval `json:"rank_ci"`
	RankOf int            `json:"rank_of"`
	// Top lists the Config.TopK most similar candidates (Table 6): real
	// roles by default, the model's roles with RankAmongAgent.
	Top []RankedRole `json:"top"`
}

// RankedRole is a Simulation Rank candidate and its mean similarity (see
// RoleScore.Top).
type RankedRole struct {
	Role       string      `json:"role"`
	Similarity stats.Float `json:"similarity"`
}

// Model returns the row of the named model, or nil.
func (r *Report) Model(name string) *ModelScore {
	for i := range r.Models {
		if r.Models[i].Model == name {
			return &r.Models[i]
		}
	}
	return nil
}

// Role returns the model's row for a role name, or nil.
func (m *ModelScore) Role(name string) *RoleScore {
	for i := range m.PerRole {
		if m.PerRole[i].Role == name {
			return &m.PerRole[i]
		}
	}
	return nil
}

// Distribution returns the distribution of the given model and kind
// (RealGenerated or GeneratedGenerated), or nil.
func (r *Report) Distribution(model, kind string) *Distribution {
	for i := range r.Distributions {
		if r.Distributions[i].Model == model && r.Distributions[i].Kind == kind {
			return &r.Distributions[i]
		}
	}
	return nil
}
