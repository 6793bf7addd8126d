#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# detection-power.sh: how often does a default-size zab experiment through the
# device tell two variants apart?  Runs K experiments (each: pread 100 KiB
# through a fresh cusezero daemon per variant per session, 3 sessions x
# (1 warm-up + 3 repeats), co-located, as experiments/quick-alignment) of
# variant A against variant B, and counts, per result class (end to end and
# in device), how often the verdict was (R), (I) or none.  Give the same
# settings twice for an A/A run: then every (R)/(I) is a false alarm.
#
#   bench/detection-power.sh [-K N] [-S N -W N -R N] [--count N] [--size SIZE]
#                            [--placement P] [--zab-args 'ARGS'] [--busy] [--keep DIR] A B
#   bench/detection-power.sh routine=rep_stosb routine=c_store_loop
#   bench/detection-power.sh routine=clear_user_arm64_quirk,align=44 \
#                            routine=clear_user_arm64_quirk,align=48
#   bench/detection-power.sh routine=rep_stosb routine=rep_stosb          # A/A
#   bench/detection-power.sh --placement rotate:0..60:4@entry \
#       routine=clear_user_arm64_fixed routine=clear_user_arm64_quirk     # over layouts
#
# A and B are zab variant settings (routine=, align=, align-point=, chunk=,
# cusezero-args=, ...: see zab --help).  --placement P is zab's (a code offset
# per run, the verdict over layouts; the table then also counts, per variant,
# the experiments where layout matters (ANOVA p < 0.05), with the median
# sensitivity); at fixed placement it counts under both (R)/(I) rules of zab
# (--verdict overlap and paired) from the same runs.  --keep DIR keeps each
# experiment's result (DIR/K.json, for zab report).  --busy runs a
# `nice -n 19` busy loop per CPU beside the experiments (a machine with other
# work).  Programs from $top_builddir (default build/ of this checkout).  Root
# (FUSE mounts).  Not a test: measure on a quiet machine and say how quiet it
# was.
set -eu

K=10 S=3 W=1 R=3 count=20000 size=100KB zab_args='' placement='' busy='' keep=''
# shellcheck disable=SC2034 # read by lib.sh
bench=detection-power
. "$(dirname "$0")/lib.sh"
num() { case $2 in ''|*[!0-9]*) usage "$1: expected a number, got '$2'" ;; esac; }
while [ $# -gt 0 ]; do
	case $1 in
	-K) K=${2:?}; num -K "$K"; shift 2 ;;
	-S) S=${2:?}; num -S "$S"; shift 2 ;;
	-W) W=${2:?}; num -W "$W"; shift 2 ;;
	-R) R=${2:?}; num -R "$R"; shift 2 ;;
	--count) count=${2:?}; num --count "$count"; shift 2 ;;
	--size) size=${2:?}; shift 2 ;;
	--zab-args) zab_args=${2?}; shift 2 ;;
	--placement) placement=${2:?}; shift 2 ;;
	--busy) busy=1; shift ;;
	--keep) keep=${2:?}; shift 2 ;;
	-h|--help) sed -n '4,31p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) usage "unknown option '$1' (see --help)" ;;
	*) break ;;
	esac
done
[ $# -eq 2 ] || usage "give two variants, A and B (e.g. routine=rep_stosb routine=c_store_loop; see --help)"
[ "$K" -ge 1 ] || usage "-K: at least 1"
A=$1 B=$2
top=$(cd "$(dirname "$0")/.." && pwd)
b=$(cd "${top_builddir:-$top/build}" && pwd)
PATH=$b/pread_z100k:$b:$PATH
for p in zab cusezero pread_z100k; do
	command -v "$p" >/dev/null || die "$p not found in $b (build first: scripts/setup build)"
done
[ "$(id -u)" -eq 0 ] || die "needs root (a FUSE mount per device variant)"
work=$(mktemp -d /tmp/detection-power.XXXXXX)
busy_pids=
trap '[ -z "$busy_pids" ] || kill $busy_pids 2>/dev/null; rm -rf "$work"' EXIT
trap 'exit 1' INT TERM
if [ -n "$busy" ]; then
	for c in $(seq 0 $(($(nproc) - 1))); do
		nice -n 19 taskset -c "$c" sh -c 'while :; do :; done' &
		busy_pids="$busy_pids $!"
	done
fi

[ -n "$placement" ] && zab_args="--placement $placement $zab_args"
echo "detection power: A = $A  vs  B = $B${placement:+  (placement $placement)}"
echo "$K experiments of $S sessions x ($W warm-up + $R repeats), pread $size x $count per run, co-located${busy:+; a nice 19 busy loop per CPU beside}"
echo "CPU: $(sed -n 's/^model name[^:]*: *//p' /proc/cpuinfo | head -n 1); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
k=1
while [ "$k" -le "$K" ]; do
	t0=$(date +%s)
	# shellcheck disable=SC2086 # --zab-args are split on purpose
	zab run -b "pread $size=pread_z100k --format simple -s $size -n $count {dev}" --unit bytes/sec \
		--group pread_z100k -v "A:$A" -v "B:$B" -S "$S" -W "$W" -R "$R" --retries 1 \
		--export-csv "$work/$k.csv" --export-zab "$work/$k.json" --style plain --no-progress $zab_args \
		>"$work/$k.out" 2>"$work/$k.err" || {
		echo "experiment $k failed (exit $?): $(grep -v '^zab: session' "$work/$k.err" | head -n 3)" >&2
		rm -f "$work/$k.csv"
		echo "$k" >>"$work/failed"
	}
	echo "$(($(date +%s) - t0))" >>"$work/times"
	printf '  experiment %d/%d: %s s\n' "$k" "$K" "$(tail -n 1 "$work/times")"
	k=$((k + 1))
done

# verdict_table TITLE CSV...: the B rows of the CSVs -- result class (3),
# change (17), verdict (18) -- counted per class.
verdict_table() {
	echo
	echo "$1"
	shift
	cat "$@" 2>/dev/null | awk -F, '$1 != "sut" && $6 == "B" { print $3 "," $17 "," $18 }' >"$work/rows"
	printf '%-40s %4s %4s %5s %7s %15s\n' "result class (B vs A)" "(R)" "(I)" "none" "failed" "median change"
	awk -F, '
	{ if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 }
	  v[$1, $3]++; if ($2 != "") ch[$1, ++m[$1]] = $2 }
	END {
		for (i = 1; i <= n; i++) {
			c = order[i]; k = m[c]
			for (a = 1; a <= k; a++) for (b = a + 1; b <= k; b++)
				if (ch[c, b] < ch[c, a]) { t = ch[c, a]; ch[c, a] = ch[c, b]; ch[c, b] = t }
			med = k ? (k % 2 ? ch[c, (k + 1) / 2] : (ch[c, k / 2] + ch[c, k / 2 + 1]) / 2) : 0
			printf "%-40s %4d %4d %5d %7d %14.2f%%\n", c, v[c, "R"], v[c, "I"], v[c, "none"],
			       v[c, "failed"] + v[c, "n/a"], med
		}
	}' "$work/rows"
}
if [ -n "$placement" ]; then
	verdict_table "verdict over layouts (paired):" "$work"/*.csv
else
	# fixed placement: both (R)/(I) rules, from the same runs (zab report --verdict)
	for r in overlap paired; do
		for j in "$work"/*.json; do
			[ -e "$j" ] || continue
			zab report --verdict "$r" "$j" --style plain --export-csv "${j%.json}.$r.csv" >/dev/null 2>&1 ||
				echo "zab report --verdict $r $j failed" >&2
		done
	done
	verdict_table "verdict overlap (zab's default: the 95% CIs do not overlap):" "$work"/*.overlap.csv
	verdict_table "verdict paired (runs of one slot paired: the per-slot change's 95% interval excludes 0):" \
		"$work"/*.paired.csv
fi
[ -s "$work/failed" ] &&
	echo "$(wc -l <"$work/failed") of $K experiments failed as a whole (not in the table): $(tr '\n' ' ' <"$work/failed")"
# Over layouts: per result class and variant, experiments with a significant best vs worst
# layout (CSV: variant 6, sensitivity 21, layout_sensitive 28) and the median sensitivity.
if [ -n "$placement" ]; then
	echo
	printf '%-40s %8s %16s %18s\n' "result class / variant" "layouts" "sensitive (k/K)" "median best-worst"
	cat "$work"/*.csv 2>/dev/null | awk -F, '$1 != "sut" && $20 != "" {
		key = $3 " / " $6
		if (!(key in seen)) { seen[key] = 1; order[++n] = key }
		nexp[key]++; sig[key] += $28 == "yes"; lay[key] = $20; s[key, nexp[key]] = $21 }
	END {
		for (i = 1; i <= n; i++) {
			c = order[i]; k = nexp[c]
			for (a = 1; a <= k; a++) for (b = a + 1; b <= k; b++)
				if (s[c, b] < s[c, a]) { t = s[c, a]; s[c, a] = s[c, b]; s[c, b] = t }
			med = k % 2 ? s[c, (k + 1) / 2] : (s[c, k / 2] + s[c, k / 2 + 1]) / 2
			printf "%-40s %8d %12d/%-3d %17.1f%%\n", c, lay[c], sig[c], k, med
		}
	}'
fi
if [ -n "$keep" ]; then
	mkdir -p "$keep" && cp "$work"/*.json "$keep"/ 2>/dev/null && echo "result files: $keep/K.json (zab report)"
fi
sort -n "$work/times" | awk '{ t[NR] = $1 } END { printf "\nexperiment time: min %d s, median %d s, max %d s; load after: ", t[1], t[int((NR + 1) / 2)], t[NR] }'
cut -d' ' -f1-3 /proc/loadavg
