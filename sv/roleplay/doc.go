// Package roleplay scores role-playing agents with any speaker-verification
// encoder, as the second half of Yang et al., "Speaker Verification in
// Agent-generated Conversations" (ACL 2024) does:
//
//   - Simulation (Eq. 2): how close an agent's lines for a role are to the
//     role's real lines, the mean over roles of the mean similarity between
//     the agent's utterance sets for the role and the role's real sets;
//   - Distinction (Eq. 3): how different the agent's roles are from one
//     another, the mean over roles of the mean 1 − similarity between the
//     agent's sets for the role and its sets for every other role, leaving
//     out sets drawn from one conversation;
//   - Simulation Rank (Tables 6 and 7): where the true role falls when
//     the agent's sets for a role are compared with every real role's
//     sets (Config.RankAmong: or the agent's roles with the role's real
//     sets), per role and averaged;
//   - a Real reference row: held-out real sets scored as if an agent had
//     written them, so the agents' numbers have a ceiling to compare with,
//     and for every agent both rows' scores on the real roles they share
//     (ModelScore.Common), the comparable numbers when role sets differ;
//   - percentile bootstrap confidence intervals on every score;
//   - the similarity distributions of Figures 1 and 2 (positive and
//     negative real–generated and generated–generated pairs) with their
//     AUC and overlap coefficient, as plain data for the plots package.
//
// Score runs all of it; MatchRoles and ReadRoleMap pair generated role
// names with real speakers ("Hermione" with "Hermione Granger"). The
// LLM-as-verifier baseline of the paper's Table 1 is persona/llmverify
// (it needs the LLM client, and sv imports no persona). Generated data
// comes from data/genimport. RoleSimilarity computes the role × role
// similarity matrix that plots/paperfig draws as a heatmap.
package roleplay
