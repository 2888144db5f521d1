// Package judge scores role-playing agents the way the speech papers do.
//
//   - SpeechRole's multi-reference pairwise protocol: for each instance a
//     judge rates the candidate response and one reference response side
//     by side on eight dimensions (1–10 each); the instance score of a
//     dimension is the mean over the M references of candidate/reference,
//     and a system's score is the mean over instances (1.0 = as good as
//     the references).
//   - VoxRole's six dimensions (likeness, personality, linguistic,
//     relation, coherence, acoustic) on a 1–5 scale, with transcripts
//     augmented by discretised pitch/energy/rate tags.
//   - VoxRole's context-length ablation: responses produced from the last
//     k turns, judged, one table column per k.
//
// Judges are interfaces with two implementations each: an LLM judge
// (package llm; rationale-then-score prompts answered in JSON, parsed
// strictly, asked again when malformed) and an offline lexical judge that
// scores by text similarity, for tests and for runs without a server.
// Every result records which judge produced it.
//
// The LLM judges' prompts are embedded templates, one file per prompt
// (prompts/system.tmpl, voxrole.tmpl, pair.tmpl; PromptNames), which a
// folder may replace (LoadPrompts, --judge-prompts). The text and audio
// pairwise judges render the same pair.tmpl and share the position swap;
// the rating ranges are VoxRoleScale and SpeechRoleScale, used by the
// prompts, the reply validation and the lexical judge alike.
package judge
