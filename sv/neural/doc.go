// Package neural holds RolePrint's GoMLX encoders and the contrastive
// trainer behind the fine-tuned rows of the paper's Table 2:
//
//   - a transformer encoder trained from scratch (Transformer; layers,
//     width, heads, mean or CLS pooling, optional GloVe initialisation),
//   - pretrained encoders loaded from a local ONNX export (ONNXModel;
//     RoBERTa, Sentence-BERT, STEL) whose weights become trainable
//     variables,
//   - BERT-family encoders computed in GoMLX from a Hugging Face
//     repository's safetensors weights (BERTModel: BERT, RoBERTa, MPNet; chosen by
//     ModelFromSnapshot when a repository has no ONNX export),
//   - the published LUAR (LUARModel: a RoBERTa per utterance, a
//     parameter-free self-attention across a set's utterances, max pooling
//     and its projection, LUARHead) loading the published weights,
//   - a LUAR-style attention pooling head over utterance vectors
//     (AttentionHead; the luar-scratch look-alike),
//   - the contrastive trainer (Train): both utterance sets of a pair are
//     embedded utterance by utterance and mean-pooled; the loss is
//     y·d + (1−y)·max(0, m−d) with d = 1 − cos and m = 0.5; Adam with linear
//     warm-up, gradient accumulation, padding + masks for variable-size sets,
//     atomic checkpoints every N steps and resume, deterministic for a seed
//     on CPU.
//
// Plug-in contract: any GoMLX utterance model implements UtteranceModel
// (token ids + mask → utterance vectors, variables in a model.Scope) with a
// Tokenizer, and RegisterModel turns it into registered sv encoders "x"
// (untrained) and, through sv.Trainable, "x_ft" (fine-tuned by the runner).
// sv/uselite plugs USE-Lite in this way.
//
// Every model and the trainer run on the go, onnx and xla backends of
// sv/backend.
package neural

//go:generate go run github.com/roleprint/roleprint/internal/options/optdoc -type TrainConfig,TransformerConfig,EncoderConfig,TransformerOptions,PretrainedOptions
