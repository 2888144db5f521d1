#!/usr/bin/env bash
# Leave-one-corpus-out transfer of the fine-tuned verifier (docs/eval.md,
# "Transfer to unseen corpora").
#
# For every training corpus C: train the row on the other corpora
# (roleprint reproduce), then evaluate the frozen bundle on C, every
# speaker unseen, against tfidf fitted on C alone (roleprint eval). Then
# train on every training corpus and evaluate that bundle on each
# --extra corpus (corpora never trained on, e.g. another show's scripts).
# The table (OUT/transfer.md, OUT/transfer.tsv) has one line per held-out
# corpus and level: the bundle's AUC, tfidf's, their paired-bootstrap
# difference with its interval, and the bundle's ECE.
#
# usage: scripts/transfer.sh [--out DIR] [--extra X.parquet]... [--eval-flags "..."]
#                            [--reproduce-flags "..."] [--tag NAME] TRAIN.parquet...
#
# Environment: RP (the roleprint binary; default: go build of ./cmd/roleprint
# into OUT/roleprint), ENCODER (default ngram-metric_ft), ROUNDS (default 1).
# A training folder that already holds a verifier is reused (delete it to
# retrain); evaluations are always rerun, so --eval-flags variants (e.g.
# --adapt none) can share the trained bundles, named apart with --tag.
set -euo pipefail

out=transfer-out
extra=()
eval_flags=""
repro_flags=""
tag=""
while [[ $# -gt 0 ]]; do
	case "$1" in
	--out) out=$2; shift 2 ;;
	--extra) extra+=("$2"); shift 2 ;;
	--eval-flags) eval_flags=$2; shift 2 ;;
	--reproduce-flags) repro_flags=$2; shift 2 ;;
	--tag) tag=$2; shift 2 ;;
	-h|--help) sed -n '2,22p' "$0"; exit 0 ;;
	--*) echo "transfer.sh: unknown flag $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
train=("$@")
if [[ ${#train[@]} -lt 2 ]]; then
	echo "transfer.sh: want at least 2 training corpora (got ${#train[@]})" >&2
	exit 2
fi
for f in "${train[@]}" "${extra[@]}"; do
	[[ -f $f ]] || { echo "transfer.sh: $f: no such file" >&2; exit 2; }
done
command -v jq >/dev/null || { echo "transfer.sh: needs jq" >&2; exit 2; }
enc=${ENCODER:-ngram-metric_ft}
rounds=${ROUNDS:-1}
mkdir -p "$out"
rp=${RP:-}
if [[ -z $rp ]]; then
	rp=$out/roleprint
	go build -o "$rp" ./cmd/roleprint
fi

name() { basename "$1" .parquet; }

# train DIR CORPUS...: a bundle of $enc in DIR (kept when present).
train() {
	local dir=$1; shift
	if [[ -f $dir/verifier/verifier.json ]]; then
		echo "transfer: reusing $dir/verifier" >&2
		return
	fi
	# shellcheck disable=SC2086
	nice -n 5 "$rp" reproduce --encoders "$enc" --mixed none --rounds "$rounds" --no-html --figures none \
		$repro_flags --out "$dir" "$@" >"$dir.log" 2>&1 || { echo "transfer: training $dir failed (see $dir.log)" >&2; exit 1; }
}

# evaluate DIR HELDOUT TRAINED-ON: one eval JSON, its rows flattened into the table.
evaluate() {
	local dir=$1 held=$2 on=$3 js
	js=$out/eval${tag:+-$tag}-$(name "$held").json
	# shellcheck disable=SC2086
	if ! nice -n 5 "$rp" eval --json $eval_flags --verifier "$dir/verifier" "$held" >"$js" 2>"${js%.json}.log"; then
		if grep -q "no utterance set passed the filters" "${js%.json}.log"; then
			# A corpus that forms no pairs under the paper's filters is
			# reported, not fatal (e.g. one conversation per film).
			echo "transfer: $(name "$held") forms no pairs: $(grep -o 'no utterance set passed.*' "${js%.json}.log")" >&2
			echo "$(name "$held") forms no pairs under the paper's filters (see ${js%.json}.log)" >>"$out/transfer${tag:+-$tag}.notes"
			return
		fi
		echo "transfer: eval of $held failed (see ${js%.json}.log)" >&2
		exit 1
	fi
	jq -r --arg held "$(name "$held")" --arg on "$on" '
		. as $r
		| .comparisons[]
		| . as $c
		| ($r.rows[] | select(.encoder == $r.name and .level == $c.level and .corpus == $c.corpus)) as $b
		| ($r.rows[] | select(.encoder == $c.b and .level == $c.level and .corpus == $c.corpus)) as $v
		| [$held, $on, $c.level, $b.auc_mean, $v.auc_mean, 100 * $c.auc_diff, 100 * $c.auc_diff_ci[0], 100 * $c.auc_diff_ci[1], $b.ece, $b.pairs]
		| @tsv' "$js" >>"$tsv"
}

tsv=$out/transfer${tag:+-$tag}.tsv
rm -f "$out/transfer${tag:+-$tag}.notes"
printf 'held_out\ttrained_on\tlevel\tbundle_auc\tvs_auc\tdiff\tlo\thi\tbundle_ece\tpairs\n' >"$tsv"
for held in "${train[@]}"; do
	others=()
	names=()
	for f in "${train[@]}"; do
		[[ $f == "$held" ]] && continue
		others+=("$f")
		names+=("$(name "$f")")
	done
	dir=$out/loo-$(name "$held")
	echo "transfer: $(name "$held") held out: training on ${names[*]}" >&2
	train "$dir" "${others[@]}"
	evaluate "$dir" "$held" "$(IFS=+; echo "${names[*]}")"
done
if [[ ${#extra[@]} -gt 0 ]]; then
	names=()
	for f in "${train[@]}"; do names+=("$(name "$f")"); done
	echo "transfer: training on every corpus (${names[*]}) for ${extra[*]}" >&2
	train "$out/all" "${train[@]}"
	for held in "${extra[@]}"; do
		evaluate "$out/all" "$held" "$(IFS=+; echo "${names[*]}")"
	done
fi

md=${tsv%.tsv}.md
{
	echo "| held out | trained on | level | $enc AUC | tfidf AUC | Δ AUC [95 % CI] | ECE | pairs |"
	echo "|---|---|---|---:|---:|---:|---:|---:|"
	tail -n +2 "$tsv" | awk -F'\t' '{ printf "| %s | %s | %s | %.2f | %.2f | %+.2f [%+.2f, %+.2f] | %.3f | %d |\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10 }'
	if [[ -f $out/transfer${tag:+-$tag}.notes ]]; then
		echo
		sed 's/^/- /' "$out/transfer${tag:+-$tag}.notes"
	fi
} >"$md"
cat "$md"
