package neural

// EmbedTokenBudget bounds the padded tokens (rows × token slots) of one
// embedding graph call. A graph's intermediate tensors grow with the
// tokens it holds, and for some models steeply: USE-Lite's (128 piece
// slots) peak resident memory on ONNX Runtime was 7.1 GiB at 256
// sentences per call, 3.2 GiB at 64 and 1.5 GiB at 32 (docs/training.md,
// "Memory"), while the call size hardly changes its speed. 2048 tokens
// keep the transformer's 32-token utterances at 64 per call (the default
// batch) and cap USE-Lite at 16.
const EmbedTokenBudget = 2048

// embedBatchRows returns how many utterances of maxTokens slots one
// embedding call takes when batchSize are asked for: at most
// EmbedTokenBudget tokens, but never fewer than 8 rows (nor more than
// batchSize).
func embedBatchRows(batchSize, maxTokens int) int {
	if maxTokens <= 0 {
		return batchSize
	}
	return min(batchSize, max(8, EmbedTokenBudget/maxTokens))
}
