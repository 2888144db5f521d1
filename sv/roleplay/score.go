package roleplay

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/genimport"
	"github.com/roleprint/roleprint/sv"
)

// roleGroup is one role of one row: its sets are [lo, hi) of the run.
type roleGroup struct {
	role     string
	realRole string // "" when the role has no real lines
	lo, hi   int
	utts     int
}

// scoreRow is one row being scored: an agent model, or the Real row whose
// "generated" sets are the held-out real sets.
type scoreRow struct {
	model  string
	real   bool
	roles  []roleGroup
	lo, hi int
	gr, gg *block // sets × reference sets, sets × sets
}

// refGroup is one real role's reference sets [lo, hi).
type refGroup struct {
	realRole string
	lo, hi   int
}

// run holds everything one Score call computes with.
type run struct {
	cfg   Config
	sets  []*uset
	refs  []refGroup
	refOf map[string]int // real role → index in refs
	rows  []*scoreRow
	excl  map[int][]int // set → other sets sharing a conversation
	emb   *embedding
	notes []string
}

// Score computes the paper's role-play scores for every agent model in
// generated against the real lines in real, with encoder enc:
// Simulation (Eq. 2), Distinction (Eq. 3), the roles' Simulation Rank
// (Table 6), the models' average Simulation Rank (Table 7, RankModels), a
// Real reference row, bootstrap confidence intervals and the
// similarity distributions of Figures 1 and 2.
//
// real contributes its rows without an AgentModel; generated its agents'
// own lines (genimport.IsAgentLine: AgentModel set and Speaker equal to
// Role), so one file holding both kinds can be passed as both. Generated
// roles are matched with real speakers by MatchRoles. Every role's
// utterances are cut into sets the same way (Config.Grouping), real and
// generated alike; each real role's conversations are split into held-out
// sets, which play the Real row, and reference sets, which every row is
// compared with (Config.HeldOut). Sets are embedded as the mean of their
// utterance vectors (sv.EmbedSets); an sv.Fitter is fitted first on the
// texts scored (Config.FitRealOnly). Similarity is the cosine, or the
// encoder's own score when it is an sv.PairScorer; pairs of sets drawn
// from one conversation are never compared.
//
// Confidence intervals are percentile intervals of a two-stage bootstrap
// (Config.Bootstrap replicates, seeded): roles are resampled with
// replacement, and within each role its sets and its real reference sets.
// Per-role intervals resample the role's sets and reference sets, not
// the roles. ModelScore.Common compares every agent row with the Real row
// on the real roles both score.
//
// progress reports the embedding of distinct texts.
func Score(ctx context.Context, enc sv.Encoder, real, generated []data.Utterance, cfg Config, progress sv.Progress) (*Report, error) {
	cfg, err := cfg.resolve()
	if err != nil {
		return nil, err
	}
	r := &run{cfg: cfg, refOf: map[string]int{}}
	rep := &Report{Encoder: enc.Name(), Config: cfg, Comparisons: []SeparationComparison{}}

	// Real speakers and generated roles.
	realBySpeaker := map[string][]data.Utterance{}
	for _, u := range real {
		if u.AgentModel == "" {
			realBySpeaker[u.Speaker] = append(realBySpeaker[u.Speaker], u)
		}
	}
	type mr struct{ model, role string }
	genRows := map[mr][]data.Utterance{}
	var genRoles []GenRole
	for i := range generated {
		u := &generated[i]
		if !genimport.IsAgentLine(u) {
			continue
		}
		k := mr{u.AgentModel, u.Role}
		if _, ok := genRows[k]; !ok {
			genRoles = append(genRoles, GenRole{Model: u.AgentModel, Role: u.Role})
		}
		genRows[k] = append(genRows[k], *u)
	}
	if len(genRoles) == 0 {
		return nil, fmt.Errorf("roleplay: no generated lines (rows with an agent_model whose speaker is their role)")
	}
	counts := map[string]int{}
	speakerNames := make([]string, 0, len(realBySpeaker))
	for s, rows := range realBySpeaker {
		counts[s] = len(rows)
		speakerNames = append(speakerNames, s)
	}
	roleNames := make([]string, 0, len(genRoles))
	for _, g := range genRoles {
		roleNames = append(roleNames, g.Role)
	}
	if err := CheckRoleMap(cfg.RoleMap, roleNames, speakerNames); err != nil {
		return nil, fmt.Errorf("roleplay: %w", err)
	}
	matches, notes := MatchRoles(genRoles, counts, cfg)
	rep.RoleMatches = matches
	r.notes = append(r.notes, notes...)
	realRoleOf := map[string]string{}
	realRoleRows := map[string][]data.Utterance{}
	for _, m := range matches {
		realRoleOf[m.Role] = m.RealRole
		if m.DistinctionOnly {
			rep.DistinctionOnly = append(rep.DistinctionOnly, m.Role)
			continue
		}
		if _, done := realRoleRows[m.RealRole]; done {
			continue
		}
		var rows []data.Utterance
		for _, s := range m.RealSpeakers {
			rows = append(rows, realBySpeaker[s]...)
		}
		if !cfg.KeepRealDuplicates {
			var dropped int
			rows, dropped = dedupLines(rows)
			if dropped > 0 {
				r.notes = append(r.notes, fmt.Sprintf("real role %q: %d repeated lines of four words or more kept once", m.RealRole, dropped))
			}
		}
		realRoleRows[m.RealRole] = rows
	}
	// Real speakers no agent plays: roles of the Real row and rank
	// candidates only with Config.AllRealSpeakers.
	played := map[string]bool{}
	for rr := range realRoleRows {
		played[rr] = true
	}
	if cfg.AllRealSpeakers {
		pooled := map[string]bool{}
		for _, m := range matches {
			for _, s := range m.RealSpeakers {
				pooled[s] = true
			}
		}
		for s, rows := range realBySpeaker {
			if pooled[s] {
				continue
			}
			if !cfg.KeepRealDuplicates {
				rows, _ = dedupLines(rows)
			}
			realRoleRows[s] = rows
		}
	}
	var unplayedLeftOut int

	// Real sets: reference sets first, then the held-out sets of the Real
	// row.
	realRoles := make([]string, 0, len(realRoleRows))
	for rr := range realRoleRows {
		realRoles = append(realRoles, rr)
	}
	sort.Strings(realRoles)
	held := map[string][]conversation{}
	for _, rr := range realRoles {
		convs := byConversation(realRoleRows[rr])
		h, ref := splitHeldOut(convs, cfg.HeldOut, rand.New(rand.NewPCG(uint64(cfg.Seed), hashString(rr))))
		if cfg.HeldOut > 0 && len(h) == 0 && played[rr] {
			r.notes = append(r.notes, fmt.Sprintf("real role %q has one conversation: not split, so not in the %s row", rr, cfg.RealModel))
		}
		held[rr] = h
		lo := len(r.sets)
		r.sets = append(r.sets, makeSets(ref, cfg.Grouping, cfg.SetSize, cfg.MinSetSize, "real/"+rr, refSets)...)
		if len(r.sets) == lo {
			if played[rr] {
				r.notes = append(r.notes, fmt.Sprintf("real role %q has no reference set (too few utterances): its roles are scored for Distinction only", rr))
			} else {
				unplayedLeftOut++
			}
			continue
		}
		r.refOf[rr] = len(r.refs)
		r.refs = append(r.refs, refGroup{realRole: rr, lo: lo, hi: len(r.sets)})
	}
	if unplayedLeftOut > 0 {
		r.notes = append(r.notes, fmt.Sprintf("%d real speakers no agent plays have no reference set (too few utterances): not candidates", unplayedLeftOut))
	}
	if cfg.HeldOut > 0 {
		row := &scoreRow{model: cfg.RealModel, real: true, lo: len(r.sets)}
		for _, rr := range realRoles {
			if _, ok := r.refOf[rr]; !ok || len(held[rr]) == 0 {
				continue
			}
			g := roleGroup{role: rr, realRole: rr, lo: len(r.sets)}
			for _, c := range held[rr] {
				g.utts += len(c.rows)
			}
			r.sets = append(r.sets, makeSets(held[rr], cfg.Grouping, cfg.SetSize, cfg.MinSetSize, "held/"+rr, heldSets)...)
			g.hi = len(r.sets)
			if g.hi > g.lo {
				row.roles = append(row.roles, g)
			}
		}
		row.hi = len(r.sets)
		if len(row.roles) > 0 {
			r.rows = append(r.rows, row)
		}
	}
	// Generated sets, model by model.
	sort.Slice(genRoles, func(i, j int) bool {
		if genRoles[i].Model != genRoles[j].Model {
			return genRoles[i].Model < genRoles[j].Model
		}
		return genRoles[i].Role < genRoles[j].Role
	})
	var cur *scoreRow
	for _, g := range genRoles {
		if cur == nil || cur.model != g.Model {
			if cur != nil {
				cur.hi = len(r.sets)
				r.rows = append(r.rows, cur)
			}
			cur = &scoreRow{model: g.Model, lo: len(r.sets)}
		}
		rows := genRows[mr{g.Model, g.Role}]
		rg := roleGroup{role: g.Role, lo: len(r.sets), utts: len(rows)}
		if rr := realRoleOf[g.Role]; rr != "" {
			if _, ok := r.refOf[rr]; ok {
				rg.realRole = rr
			}
		}
		r.sets = append(r.sets, makeSets(byConversation(rows), cfg.Grouping, cfg.SetSize, cfg.MinSetSize, g.Model+"/"+g.Role, genSets)...)
		rg.hi = len(r.sets)
		if rg.hi == rg.lo {
			r.notes = append(r.notes, fmt.Sprintf("%s: role %q has no set of at least %d utterances: left out", g.Model, g.Role, cfg.MinSetSize))
			continue
		}
		cur.roles = append(cur.roles, rg)
	}
	cur.hi = len(r.sets)
	r.rows = append(r.rows, cur)

	// Conversations shared between sets.
	r.excl = sharedConversations(r.sets)

	// Embed.
	fit := fitTexts(r, cfg)
	r.emb, err = embed(ctx, enc, r.sets, fit, cfg.Adapt, progress)
	if err != nil {
		return nil, fmt.Errorf("roleplay: %w", err)
	}
	nRef := 0
	if len(r.refs) > 0 {
		nRef = r.refs[len(r.refs)-1].hi
	}
	for _, row := range r.rows {
		if row.gr, err = r.emb.similarities(ctx, row.lo, row.hi, 0, nRef); err != nil {
			return nil, err
		}
		if row.gg, err = r.emb.similarities(ctx, row.lo, row.hi, row.lo, row.hi); err != nil {
			return nil, err
		}
	}

	// Scores, intervals, distributions.
	for _, row := range r.rows {
		ms, err := r.scoreRow(ctx, row)
		if err != nil {
			return nil, err
		}
		rep.Models = append(rep.Models, ms)
		ds, err := r.distributions(ctx, row)
		if err != nil {
			return nil, err
		}
		rep.Distributions = append(rep.Distributions, ds...)
	}
	if err := r.addCommon(ctx, rep); err != nil {
		return nil, err
	}
	RankModels(rep.Models)
	rep.Similarity = sv.SimilarityName(enc) // after embed: an adapted encoder may name its score otherwise
	rep.Notes = r.notes
	return rep, nil
}

// isRealSet reports whether set i is a real set (reference or held out).
func isRealSet(r *run, i int) bool {
	if len(r.refs) > 0 && i < r.refs[len(r.refs)-1].hi {
		return true
	}
	for _, row := range r.rows {
		if row.real && i >= row.lo && i < row.hi {
			return true
		}
	}
	return false
}

// sharedConversations maps each set to the other sets that draw from one
// of its conversations.
func sharedConversations(sets []*uset) map[int][]int {
	byConv := map[string][]int{}
	for i, s := range sets {
		for _, c := range s.convs {
			byConv[c] = append(byConv[c], i)
		}
	}
	out := map[int][]int{}
	for _, ids := range byConv {
		for _, i := range ids {
			for _, j := range ids {
				if i != j {
					out[i] = append(out[i], j)
				}
			}
		}
	}
	for i, js := range out {
		sort.Ints(js)
		out[i] = slices.Compact(js)
	}
	return out
}

func hashString(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// blockMean is the weighted mean similarity of pairs (i, j), i in [a0,a1)
// and j in [b0,b1), leaving out pairs that share a conversation and, when
// the ranges are one, i == j. wa and wb weight the sets (nil: 1 each).
// It is NaN when no pair is left.
func (r *run) blockMean(b *block, a0, a1, b0, b1 int, wa, wb []float64) float64 {
	w := func(ws []float64, k int) float64 {
		if ws == nil {
			return 1
		}
		return ws[k]
	}
	var wbSum float64
	for j := b0; j < b1; j++ {
		wbSum += w(wb, j-b0)
	}
	var num, den float64
	same := a0 == b0 && a1 == b1
	for i := a0; i < a1; i++ {
		wi := w(wa, i-a0)
		if wi == 0 {
			continue
		}
		row := b.v[(i-b.a0)*(b.b1-b.b0)+(b0-b.b0) : (i-b.a0)*(b.b1-b.b0)+(b1-b.b0)]
		var s float64
		if wb == nil {
			for _, x := range row {
				s += float64(x)
			}
		} else {
			for k, x := range row {
				s += wb[k] * float64(x)
			}
		}
		num += wi * s
		den += wi * wbSum
		for _, j := range r.excl[i] {
			if j >= b0 && j < b1 && !(same && j == i) {
				wj := w(wb, j-b0)
				num -= wi * wj * float64(b.at(i, j))
				den -= wi * wj
			}
		}
		if same {
			wj := w(wb, i-b0)
			num -= wi * wj * float64(b.at(i, i))
			den -= wi * wj
		}
	}
	if den <= 1e-9 {
		return math.NaN()
	}
	return num / den
}

// dedupLines keeps the first of rows whose text (by genimport.CopyKey)
// repeats, for texts of four words or more; it returns the rows kept and
// how many were dropped.
func dedupLines(rows []data.Utterance) ([]data.Utterance, int) {
	seen := map[string]bool{}
	out := rows[:0:0]
	for _, u := range rows {
		if len(strings.Fields(u.Text)) >= 4 {
			k := genimport.CopyKey(u.Text)
			if seen[k] {
				continue
			}
			seen[k] = true
		}
		out = append(out, u)
	}
	return out, len(rows) - len(out)
}

// fitTexts returns the texts a Fitter encoder is fitted on: cfg.FitTexts
// when given, else every distinct text scored (the real ones only with
// cfg.FitRealOnly), in set order.
func fitTexts(r *run, cfg Config) []string {
	if len(cfg.FitTexts) > 0 {
		return cfg.FitTexts
	}
	var fit []string
	seen := map[string]bool{}
	for i, s := range r.sets {
		if cfg.FitRealOnly && !isRealSet(r, i) {
			continue
		}
		for _, t := range s.texts {
			if !seen[t] {
				seen[t] = true
				fit = append(fit, t)
			}
		}
	}
	return fit
}
