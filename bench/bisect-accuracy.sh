#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bisect-accuracy.sh: how often does zab bisect name the right patch, a
# wrong one, nothing, or say it cannot decide?  Builds two 16-patch series
# on x86's arch/x86/lib/clear_page_64.S from a Debian kernel tree
# (scripts/kernel-sources.sh; 6.12 preferred), as git format-patch output:
#   plant  every patch changes a comment, but patch K (default 11) also adds
#          a redundant store to the unrolled 64-byte loop of
#          rep_stos_alternative (a second `movq %rax,(%rdi)`: 9 stores per
#          64 bytes; about -10% in device measured here)
#   aa     the same comments, patch K a comment too (an A/A series: every
#          culprit named is false)
# and runs `zab bisect` over each with N seeds, each from an empty store,
# the experiment 3 sessions x (1 warm-up + 3 repeats) of pread_z100k 100 KiB
# x 2000 in device.  Prints per series: right step, wrong step (a false
# culprit, verified or not), unverified (a range), no change, undecided,
# zab runs and sessions per comparison, wall time per bisect.
#
#   bench/bisect-accuracy.sh [-N SEEDS] [--first SEED] [--plant K]
#                            [--zab-args 'ARGS'] [--keep DIR]
#
# --zab-args: more options of zab bisect (--band, --max-sessions,
# --budget-seconds).  --keep DIR keeps every bisect's output (DIR/SERIES.SEED.out,
# .err).  Programs from $top_builddir (default build/ of this checkout).
# Root (FUSE mounts).  Not a test: say how loaded the machine was.
set -eu

N=10 first=1 plant=11 zab_args='' keep=''
# shellcheck disable=SC2034 # read by lib.sh
bench=bisect-accuracy
. "$(dirname "$0")/lib.sh"
num() { case $2 in ''|*[!0-9]*) usage "$1: expected a number, got '$2'" ;; esac; }
while [ $# -gt 0 ]; do
	case $1 in
	-N) N=${2:?}; num -N "$N"; shift 2 ;;
	--first) first=${2:?}; num --first "$first"; shift 2 ;;
	--plant) plant=${2:?}; num --plant "$plant"; shift 2 ;;
	--zab-args) zab_args=${2?}; shift 2 ;;
	--keep) keep=${2:?}; shift 2 ;;
	-h|--help) sed -n '4,25p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) usage "unknown argument '$1' (see --help)" ;;
	esac
done
[ "$N" -ge 1 ] || usage "-N: at least 1"
[ "$plant" -ge 1 ] && [ "$plant" -le 16 ] || usage "--plant $plant: expected 1..16"
top=$(cd "$(dirname "$0")/.." && pwd)
b=$(cd "${top_builddir:-$top/build}" && pwd)
PATH=$b/pread_z100k:$b:$PATH
for p in zab cusezero pread_z100k git; do
	command -v "$p" >/dev/null || die "$p not found (build first: scripts/setup build)"
done
[ "$(id -u)" -eq 0 ] || die "needs root (a FUSE mount per device variant)"
src=
for r in ${CUSEZERO_KERNEL_SOURCES:-$(ls -d /var/cache/cusezero-ksrc/*/linux-source-* 2>/dev/null)}; do
	f=$r/arch/x86/lib/clear_page_64.S
	grep -q '^10:	movq %rax,(%rdi)$' "$f" 2>/dev/null || continue
	[ -z "$src" ] || case $r in *6.12*) ;; *) continue ;; esac
	src=$f
done
[ -n "$src" ] || die "no kernel tree with rep_stos_alternative's unrolled loop (scripts/kernel-sources.sh)"
work=$(mktemp -d /tmp/bisect-accuracy.XXXXXX)
trap 'rm -rf "$work"' EXIT
trap 'exit 1' INT TERM
[ -z "$keep" ] || mkdir -p "$keep" || die "cannot make $keep"
TMPDIR=$work XDG_CACHE_HOME=$work/xdg CUSEZERO_KSRC_CACHE=$work/ksrc
export TMPDIR XDG_CACHE_HOME CUSEZERO_KSRC_CACHE
unset CUSEZERO_STORE
rel=arch/x86/lib/clear_page_64.S

# 16 lines of $src outside comments, 6 apart, away from the loop (a patch's
# context is 3 lines: each patch then applies without the others)
points=$(awk '{ l = $0; while (1) { if (!c) { i = index(l, "/*"); if (!i) break; c = 1; l = substr(l, i + 2) }
		else { i = index(l, "*/"); if (!i) break; c = 0; l = substr(l, i + 2) } }
	if (!c && NR > 2 && (NR < 88 || NR > 104) && NR - last >= 6) { printf "%d ", NR; last = NR } }' "$src")
[ "$(echo $points | wc -w)" -ge 16 ] || die "$src: fewer than 16 places for a comment"
# version K PLANTED: $src with notes 1..K after their lines, the second store when planted and K >= plant
version() {
	awk -v k="$1" -v pl="$2" -v pts="$points" 'BEGIN { n = split(pts, p, " "); for (i = 1; i <= n && i <= k; i++) at[p[i]] = i }
		{ print }
		pl && k >= pl && $0 == "10:\tmovq %rax,(%rdi)" { print "\tmovq %rax,(%rdi)" }
		NR in at { printf "/* note %d */\n", at[NR] }' "$src"
}
# series NAME PLANTED(0/1): $work/NAME/{tree,fp,s.ini}, 16 patches
series() {
	d=$work/$1
	pl=0
	[ "$2" = 1 ] && pl=$plant
	mkdir -p "$d/tree/${rel%/*}" "$d/git/${rel%/*}" && cp "$src" "$d/tree/$rel" && cp "$src" "$d/git/$rel" &&
		git -C "$d/git" init -q && git -C "$d/git" add -A &&
		git -C "$d/git" -c user.name=b -c user.email=b@example.org commit -qm base || return 1
	k=1
	while [ $k -le 16 ]; do
		version $k $pl >"$d/git/$rel"
		msg="x86/lib: note $k"
		[ "$k" -eq "$pl" ] && msg="x86/lib: store the loop's first word twice"
		git -C "$d/git" -c user.name=b -c user.email=b@example.org commit -qam "$msg" || return 1
		k=$((k + 1))
	done
	git -C "$d/git" format-patch -q -o "$d/fp" HEAD~16..HEAD &&
	cat >"$d/s.ini" <<EOF
[experiment]
name = accuracy-$1
sessions = 3
warmups = 1
repeats = 3
[benchmark pread]
cmd = $b/pread_z100k/pread_z100k --format simple -s 100KB -n 2000 {dev}
unit = bytes/sec
better = higher
[variant p]
source = $d/tree/$rel:rep_stos_alternative
series = $d/fp/
EOF
}
series plant 1 || die "cannot build the planted series"
series aa 0 || die "cannot build the A/A series"
grep -c '^	movq %rax,(%rdi)$' "$work/plant/git/$rel" | grep -qx 2 || die "the store was not planted"

echo "bisect accuracy: 16 patches on $src, patch $plant planted (a second store), and an A/A series"
echo "$N seeds from $first, 3 sessions x (1 warm-up + 3 repeats) per run, pread 100KB x 2000, in device${zab_args:+; zab bisect $zab_args}"
echo "CPU: $(sed -n 's/^model name[^:]*: *//p' /proc/cpuinfo | head -n 1), $(nproc) CPUs; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %5s %6s %6s %10s %9s %9s %12s %13s %8s\n' series seeds right wrong unverified no-change undecided "runs/cmp" "sessions/cmp" "s/bisect"
for s in plant aa; do
	right=0 wrong=0 unver=0 none=0 und=0 runs=0 cmps=0 sess=0 secs=0
	i=0
	while [ $i -lt "$N" ]; do
		seed=$((first + i))
		o=$work/$s.$seed
		t0=$(date +%s.%N)
		# shellcheck disable=SC2086 # --zab-args: words
		rc=0
		zab bisect --store "sqlite:$o.db" --sut acc --seed "$seed" --cusezero "$b/cusezero" $zab_args \
			"$work/$s/s.ini" >"$o.out" 2>"$o.err" || rc=$?
		secs=$(echo "$secs $t0 $(date +%s.%N)" | awk '{ printf "%.1f", $1 + $3 - $2 }')
		named=$(sed -n 's|^first change: step \([0-9]*\)/.*|\1|p' "$o.out")
		case $rc in
		0) if [ "$s" = plant ] && [ "$named" = "$plant" ]; then right=$((right + 1)); else wrong=$((wrong + 1)); fi ;;
		1) none=$((none + 1)) ;;
		3) unver=$((unver + 1))
		   [ "$s" = plant ] && [ "$named" = "$plant" ] || wrong=$((wrong + 1)) ;;
		*) und=$((und + 1)) ;;
		esac
		r=$(sed -n 's/^zab: bisect: \([0-9]*\) runs\{0,1\} made.*/\1/p' "$o.err" | tail -n 1)
		runs=$((runs + ${r:-0}))
		c=$(grep -c ' sessions\{0,1\}: \(changed\|same\|undecided\)' "$o.out" "$o.err" | awk -F: '{ n += $2 } END { print n }')
		cmps=$((cmps + c))
		sess=$((sess + $(grep -ho '[0-9]* sessions\{0,1\}: \(changed\|same\|undecided\)' "$o.out" "$o.err" |
			awk '{ n += $1 } END { print n + 0 }')))
		[ -z "$keep" ] || cp "$o.out" "$o.err" "$keep/"
		i=$((i + 1))
	done
	printf '%-6s %5d %6d %6d %10d %9d %9d %12s %13s %8s\n' "$s" "$N" "$right" "$wrong" "$unver" "$none" "$und" \
		"$(awk -v a=$runs -v b=$cmps 'BEGIN { printf "%.1f", b ? a / b : 0 }')" \
		"$(awk -v a=$sess -v b=$cmps 'BEGIN { printf "%.1f", b ? a / b : 0 }')" \
		"$(awk -v a="$secs" -v n="$N" 'BEGIN { printf "%.0f", a / n }')"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg).  wrong: a step other than the planted one named (every step named in the A/A"
echo "series); unverified: a check of the culprit failed, a range printed (exit 3); right counts only a verified step."
