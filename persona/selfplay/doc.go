// Package selfplay generates role-play conversations with a chat model
// behind an OpenAI-compatible API, in the generated-corpus schema that
// `roleprint score` reads (data.Utterance with AgentModel and Role).
//
// Self-play (Yang et al., §6.1): one model plays every role of a scene and
// talks to itself. The scene opens with a generic greeting (Config.Greeting,
// a row of speaker "User", never scored); the roles then speak in turn, each
// turn one request whose system prompt is the speaker's persona and whose
// history is the conversation so far (the speaker's own lines as assistant
// messages, the others' as user messages). A conversation ends naturally
// when a reply carries the end marker (Config.EndMarker, "[END]" by
// default: every system prompt asks the model to append it once the
// conversation has come to a natural close) or is empty once cleaned, and
// in any case after Config.MaxTurns turns.
//
// Interview mode (Character-LLM, RoleBench): every role answers every
// question of a list, one single-turn request each.
//
// Roles come from `persona distill` output (personas.json), from
// RoleBench-style profiles (desc.json: {"Role": "description"}) or from a
// "role<TAB>description[<TAB>source]" text file (LoadRoles).
//
// Runs are resumable: every completed turn is appended to a JSONL journal
// keyed by the SHA-256 of its request (llm.CacheKey), and a rerun replays
// journalled turns without a request, so a killed run continues where it
// stopped and no completed request is paid twice. Cancelling the context
// stops new requests; requests already in flight are completed and
// journalled (they are paid for). Conversations run concurrently
// (Config.Concurrency) under a request rate limit (Config.RPS).
//
// IDs: every row has Source Config.Source ("selfplay" by default) and the
// conversation's own ConversationID, so the rows of the two roles of one
// scene share a (source, conversation_id) and the Distinction (Eq. 3)
// leaves their pairs out, as sv/roleplay does for any conversation.
package selfplay
