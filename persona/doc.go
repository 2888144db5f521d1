// Package persona is the evaluation half of the speech role-play papers
// (VoxRole, SpeechRole): it turns scripts into character personas and
// scores role-playing agents against references.
//
// The work is split into sub-packages, each with one job:
//
//   - The LLM layer is the top-level package llm (chat, transcription and
//     speech over OpenAI-compatible endpoints: timeouts, retries with
//     backoff, an on-disk request cache, redaction, reply caps), which the
//     sub-packages below and the speech front end share.
//   - persona/script: screenplay parsing (scene headings, speaker lines,
//     narration) and chunking of long scenes; data.Utterance rows are
//     accepted as well.
//   - persona/distill: the distillation pipeline (events → personality →
//     relationships → linguistic style → second-person role prompt) with an
//     offline extractive backend and an LLM backend, resumable from its
//     stored intermediate results.
//   - persona/judge: SpeechRole's multi-reference pairwise judge, VoxRole's
//     six-dimension judge with acoustic tags, and the context-length
//     ablation.
//   - persona/agree: judge-versus-human agreement (Spearman ρ, Kendall τ-b,
//     pairwise-order agreement, Pearson r, all from package stats) over
//     items or groups, with bootstrap intervals.
//   - persona/textmetrics: ROUGE-L, METEOR (exact, Porter stem, WordNet
//     synonyms), BERTScore from contextual token vectors (layer, idf,
//     bert_score's rescaling baselines) or, offline, static vectors of any
//     sv.Encoder, and near-duplicate removal by embedding similarity with
//     SpeechRole's models per language.
//   - persona/llmverify: a chat model as speaker verifier (Table 1 of the
//     seed paper), over sv/roleplay's pair items; it lives here, not in sv,
//     so that sv imports no persona package.
//   - persona/align: VoxRole's script-to-transcript word alignment by
//     minimum edit distance, sentence matching and two-speaker segments.
//
// Data flows from package data into these packages, and from them into
// plots and kernel; nothing here imports plots or kernel.
package persona
