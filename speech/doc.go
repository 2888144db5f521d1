// Package speech reads audio and measures what a listener hears of a
// speaker: pitch, loudness, speaking rate, pauses and the spectral colour of
// the voice. It is RolePrint's acoustic side:
//
//   - audio IO: ReadWAV decodes PCM 8/16/24/32-bit and float32/64 WAV files
//     (mono, or stereo and multichannel downmixed to mono) at any sample
//     rate; Resample converts to the 16 kHz analysis rate with a
//     Kaiser-windowed sinc filter; WriteWAV writes integer PCM. Bad files
//     give errors that name the file and what was expected; the reader never
//     panics (it is fuzzed).
//   - per-utterance features, checked against Praat 6.3 on the same files:
//     ToPitch is Boersma's (1993) autocorrelation method as Praat's
//     "To Pitch (ac)"; ToIntensity is Praat's "To Intensity";
//     DetectSyllables counts syllable nuclei after de Jong & Wempe (2009);
//     DetectSilences is Praat's "To TextGrid (silences)"; ToMFCC computes
//     mel cepstra. Analyze runs them all and returns a Features summary (the
//     keys of `roleprint speech features --json`).
//   - per-character acoustic profiles (VoxRole): BuildProfiles aggregates a
//     character's utterances, ranks characters and bins pitch, energy and
//     speaking rate Low/Medium/High at 20/60/20 %; Profile.Tags renders the
//     text a judge prompt includes; ProfileTags does all of it for a corpus.
//   - speaker embeddings and reference-voice selection (SpeechRole):
//     Embed computes MFCC statistics; SelectReference picks the clip with
//     the highest mean cosine to the role's other clips; SelectReferences
//     does it for every character of a corpus.
//   - clips (clips.go): the same analyses over a list of WAV files named by
//     their file names (AnalyzeFiles, PitchFiles, SelectReferenceFiles,
//     GroupFeatures, RateSweepOf), so notebook cells hold no loops.
//
// Every analysis has a Config struct and a DefaultXConfig function that
// returns Praat's (or the method's published) defaults, documented field by
// field. CompareWithPraat checks any set of files against Praat's own
// measurements (scripts/praat-measure.sh) and RunBench times the analysis
// beside Praat. docs/speech.md gives the methods, the agreement with Praat
// and the benchmark.
package speech
