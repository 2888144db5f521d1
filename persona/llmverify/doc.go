// Package llmverify runs a chat model as a speaker verifier, the baseline
// of Table 1 of Yang et al., "Speaker Verification in Agent-generated
// Conversations": shown two utterance sets ("Utterances") or the two whole
// conversations with the speakers of interest marked ("Conversation"), the
// model answers TRUE (one speaker) or FALSE (two). Prompts are zero-shot,
// chain-of-thought ("Let's analyse step by step:") or K-shot, with K/2
// positive and K/2 negative demonstrations from the training pairs.
// Replies are read by ParseVerdict, which tolerates reasoning, markdown and
// yes/no answers; Run scores accuracy and F1.
//
// Requests go through persona/llm's client (any OpenAI-compatible server,
// with retries and an on-disk cache so an interrupted run resumes without
// paying twice). Pairs come from the seed paper's pair records
// (genimport.ReadPairRecords → ItemsFromRecords) or from a pair corpus
// (ItemsFromPairCorpus).
//
// It lives under persona, beside the LLM client it needs, rather than under
// sv/roleplay (its old home): sv imports no persona package, and this is
// the one persona package that imports sv (for sv/roleplay's pair items).
package llmverify
