#!/usr/bin/env bash
# speech-make-fixtures.sh — synthesise the espeak-ng test sets of RolePrint's
# speech package (docs/speech.md) and have Praat measure them.
#
#   scripts/speech-make-fixtures.sh fixtures   # the small committed set:
#       speech/testdata/espeak/*.wav (16 kHz, 16-bit, < 1 MB in all) and
#       speech/testdata/praat-espeak.json (Praat's reference measurements)
#   scripts/speech-make-fixtures.sh alsa       # Praat's measurements of the
#       human recordings of Debian's alsa-utils (/usr/share/sounds/alsa/*.wav,
#       not copied) into speech/testdata/praat-alsa.json
#   scripts/speech-make-fixtures.sh validation DIR   # the larger set used for
#       the agreement numbers in docs/speech.md: 6 voices × 3 pitches × 5
#       rates (90 files, espeak-ng's native 22.05 kHz, so that comparing at
#       16 kHz also tests the resampler) in DIR, measured into DIR/praat.json
#
# Needs: espeak-ng, sox, praat, alsa-utils (Debian: apt-get install espeak-ng
# sox praat alsa-utils).
# The espeak-ng voices and its own output are deterministic for one version
# (Debian bookworm: 1.51), so re-running reproduces the committed files.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
mode="${1:-fixtures}"
for tool in espeak-ng sox praat; do
	command -v "$tool" >/dev/null || { echo "$0: $tool not found (apt-get install espeak-ng sox praat)" >&2; exit 1; }
done

# synth OUT VOICE PITCH RATE TEXT: espeak-ng at its native 22050 Hz, then sox
# to 16 kHz 16-bit mono (sox's default very-high-quality resampler).
synth() {
	local out="$1" voice="$2" pitch="$3" rate="$4" text="$5" tmp
	tmp="$(mktemp --suffix=.wav)"
	espeak-ng -v "$voice" -p "$pitch" -s "$rate" -w "$tmp" "$text"
	sox -q "$tmp" -r 16000 -b 16 -c 1 "$out"
	rm -f "$tmp"
}

case "$mode" in
fixtures)
	dir="$root/speech/testdata/espeak"
	mkdir -p "$dir"
	rm -f "$dir"/*.wav
	text="She sells sea shells by the shore."
	# Rate series: one voice, one pitch, five rates (speaking-rate test).
	for s in 100 140 180 230 300; do
		synth "$dir/rate-en-m3-p50-s$s.wav" en+m3 50 "$s" "$text"
	done
	# Voices and pitches (pitch tests, speaker-embedding test: two texts
	# per voice).
	other="A quiet river runs under the old bridge."
	synth "$dir/voice-en-f2-p70-a.wav" en+f2 70 170 "$text"
	synth "$dir/voice-en-f2-p70-b.wav" en+f2 70 170 "$other"
	synth "$dir/voice-enus-m1-p30-a.wav" en-us+m1 30 170 "$text"
	synth "$dir/voice-enus-m1-p30-b.wav" en-us+m1 30 170 "$other"
	synth "$dir/voice-gb-klatt-p90-a.wav" en-gb+klatt 90 170 "$text"
	synth "$dir/voice-gb-klatt-p90-b.wav" en-gb+klatt 90 170 "$other"
	# A pause (pause-ratio test): SSML break of 700 ms.
	tmp="$(mktemp --suffix=.wav)"
	espeak-ng -m -v en+m3 -w "$tmp" '<speak>Yes, indeed. <break time="700ms"/> Not today.</speak>'
	sox -q "$tmp" -r 16000 -b 16 -c 1 "$dir/pause-en-m3.wav"
	rm -f "$tmp"
	"$here/praat-measure.sh" "$root/speech/testdata/praat-espeak.json" "$dir"/*.wav
	du -ch "$dir"/*.wav | tail -1
	;;
alsa)
	ls /usr/share/sounds/alsa/*.wav >/dev/null || { echo "$0: apt-get install alsa-utils" >&2; exit 1; }
	"$here/praat-measure.sh" "$root/speech/testdata/praat-alsa.json" /usr/share/sounds/alsa/*.wav
	;;
validation)
	dir="${2:?usage: $0 validation DIR}"
	mkdir -p "$dir"
	dir="$(cd "$dir" && pwd)"
	texts=("The quick brown fox jumps over the lazy dog." \
		"Please call Stella and ask her to bring these things with her from the store." \
		"We were away a year ago, when the weather was warmer.")
	voices=(en+m3 en+f2 en-us+m1 en-gb+klatt en+f4 en-gb-scotland+m7)
	for v in "${voices[@]}"; do
		i=0
		for p in 25 50 80; do
			t="${texts[$i]}" # one text per pitch, the same at every rate
			i=$((i + 1))
			for s in 110 150 190 240 300; do
				espeak-ng -v "$v" -p "$p" -s "$s" -w "$dir/${v//+/_}-p$p-s$s.wav" "$t"
			done
		done
	done
	"$here/praat-measure.sh" "$dir/praat.json" "$dir"/*.wav
	echo "wrote $(ls "$dir"/*.wav | wc -l) files and $dir/praat.json"
	;;
*)
	echo "usage: $0 fixtures | alsa | validation DIR" >&2
	exit 2
	;;
esac
