#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Mutation check of the test suite (by hand, not in CI): plants each bug of
# the list below, one at a time, in a private copy of the committed tree,
# rebuilds, runs the tests meant to catch it, and says which mutants the
# tests killed and which survived.  A surviving mutant is a test to write.
#
#     scripts/mutate.sh [-o RESULT] [-t SECONDS] [-k] [NAME...]
#
#   -o RESULT   also write the result table to RESULT
#   -t SECONDS  bound on one mutant's test run (default 600; beyond it the
#               mutant counts as killed by the timeout, and says so)
#   -k          keep the copy (its path is printed)
#   NAME...     only these mutants (default: all)
#
# The copy is `git archive HEAD` in a temporary directory: uncommitted
# changes are not in it, and the checkout is never touched.  Needs what
# `make check` needs (root and /dev/fuse for the device tests).
set -u

# name@file@perl substitution (the first match)@tests (make check TESTS=)
MUTANTS='erms-rule@zeroing/registry.c@s/return !\(c->fsrs \|\| c->fsrm \|\| c->erms\);/return !(c->fsrs || c->fsrm);/@tests/zeroing/old-x86-cpu.sh tests/zeroing/registry
poison-off@cuse/readpath.c@s/rp_poison = poison;/rp_poison = false;/@tests/cuse/readpath
zload-counts-bs@tools/zload/io.c@s/j->c\.bytes \+= \(uint64_t\)res;/j->c.bytes += o->bs;/@tests/zload/zload-short.sh
gb-is-1e9@tools/zbench/zbench.h@s/#define ZB_GB \(1024\.0 \* 1024\.0 \* 1024\.0\)/#define ZB_GB 1e9/@tests/zbench/json.sh
verify-no-fill@pread_z100k/pread_z100k.c@s/\tmemset\(buf, PZ_FILL, p->size\);\n//@tests/zload/pread-z100k.sh
fixup-at-fault@zeroing/fault.c@s/\*pcp = fixup;/*pcp = pc;/@tests/zeroing/fault tests/zeroing/placement
readpath-bytes@cuse/readpath.c@s/rp_add\(&t->counts\.total\.bytes, size\);/rp_add(&t->counts.total.bytes, size - 1);/@tests/cuse/readpath
chunk-overrun@cuse/readpath.c@s/n = size - off < c->chunk \? size - off : c->chunk;/n = c->chunk;/@tests/cuse/readpath
zeroctl-fifo-waits@tools/zeroctl/zeroctl.c@s/O_RDONLY \| O_CLOEXEC \| O_NONBLOCK \| O_NOCTTY/O_RDONLY | O_CLOEXEC/@tests/cuse/zeroctl-ident.sh
stdout-unchecked@lib/cli.c@s/if \(cz_stdout_flush\(\)\)\n\t\t_exit/if (0)\n\t\t_exit/@tests/cli/stdout-errors.sh
export-truncates-pipe@tools/zab/views/output.c@s/else if \(S_ISREG\(st\.st_mode\) && ftruncate\(/else if (ftruncate(/@tests/cli/stdout-errors.sh
merge-no-limit@results/merge.c@s/return \*nb > CZRES_MAX_ITEMS \|\| \*nv > CZRES_MAX_ITEMS \? -E2BIG : 0;/return 0;/@tests/zab/report-input.sh
json-takes-strtod@tools/zab/model/number.c@s/if \(\*end != p \|\| !isfinite\(\*x\)\)/if (*end == s)/@tests/zab/report-input.sh
json-pools-dup-cells@results/result.c@s/if \(seen\[b \* r->nv \+ v\]\) \{/if (0) {/@tests/zab/report-input.sh
zero-file-1eib@cuse/front_fuse.c@s/#define CZ_ZERO_SIZE INT64_MAX/#define CZ_ZERO_SIZE (1ULL << 60)/@tests/cuse/io.sh
zload-size-wraps@tools/zload/opts.c@s/if \(v > INT64_MAX\)/if (0)/@tests/zload/zload-badopts.sh
devshare-misses-reset@devclient/devstats.c@s/if \(!ret && d\.elapsed_ns < wall - s->t_before\)/if (!ret \&\& 0 \&\& d.elapsed_ns < wall - s->t_before)/@tests/zload/device-share.sh
start-before-buffers@cuse/front_fuse.c@s/ret = loop_prepare\(se, cz_params\.threads\);/ret = 0;/@tests/cuse/memlimit.sh'

out=""
limit=600
keep=false
while getopts o:t:k opt; do
	case $opt in
	o) out=$OPTARG ;;
	t) limit=$OPTARG ;;
	k) keep=true ;;
	*) echo "usage: $0 [-o RESULT] [-t SECONDS] [-k] [NAME...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
src=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel) || exit 1
tmp=$(mktemp -d /tmp/cusezero-mutate.XXXXXX) || exit 1
$keep || trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
log=$tmp/log
mkdir "$tmp/tree"
git -C "$src" archive HEAD | tar -x -C "$tmp/tree" || exit 1
echo "mutate: $(git -C "$src" rev-parse --short HEAD) in $tmp/tree; logs in $log.*"

build() {	# incremental after the first: only what a mutant touched
	make -C "$tmp/tree/build" -j2 </dev/null >"$log.build" 2>&1
}
(cd "$tmp/tree" && autoreconf -fi && mkdir -p build && cd build &&
	../configure --enable-werror) >"$log.configure" 2>&1 || { echo "mutate: configure failed (see $log.configure)"; exit 1; }
build || { echo "mutate: the unmutated tree does not build (see $log.build)"; exit 1; }

wanted() {	# wanted NAME [GIVEN...]: NAME is among GIVEN (any NAME when none)
	[ $# -eq 1 ] && return 0
	n=$1; shift
	for w in "$@"; do [ "$w" = "$n" ] && return 0; done
	return 1
}

# run_tests TESTS: 0 when they pass; the tests' logs go to $log.NAME
run_tests() {
	# </dev/null: a test (script(1) in pread-z100k.sh) would eat the list
	timeout "$limit" make -C "$tmp/tree/build" check TESTS="$1" </dev/null >"$log.$name" 2>&1
}

table=$tmp/table
printf '%-24s %-28s %-10s %s\n' MUTANT FILE RESULT TESTS >"$table"
nk=0 ns=0 nx=0
printf '%s\n' "$MUTANTS" | while IFS='@' read -r name file expr tests; do
	wanted "$name" "$@" || continue
	f=$tmp/tree/$file
	cp "$f" "$f.orig"
	perl -0pi -e "$expr" "$f"
	if cmp -s "$f" "$f.orig"; then
		result="NOT-PLANTED"	# the code moved: update the expression
	elif ! build; then
		result="NO-BUILD"
	else
		run_tests "$tests"
		case $? in
		0) result=survived ;;
		124) result="killed(timeout)" ;;
		*) result=killed ;;
		esac
	fi
	mv "$f.orig" "$f"
	touch "$f"	# rebuilt unmutated before the next one
	printf '%-24s %-28s %-10s %s\n' "$name" "$file" "$result" "$tests" | tee -a "$table"
done
build || echo "mutate: the restored tree does not build (see $log.build)"
nk=$(grep -c ' killed' "$table")
ns=$(grep -c ' survived ' "$table")
nx=$(grep -c -e ' NOT-PLANTED ' -e ' NO-BUILD ' "$table")
# every mutant asked for has its row (a test that read the list would drop some)
nwant=$(printf '%s\n' "$MUTANTS" | while IFS='@' read -r name rest; do
	wanted "$name" "$@" && echo "$name"; done | wc -l)
nrows=$(($(wc -l <"$table") - 1))
[ "$nrows" -eq "$nwant" ] || nx=$((nx + nwant - nrows))
echo "mutate: $nk killed, $ns survived, $nx not run (not planted, no build, or lost)" >>"$table"
echo
cat "$table"
[ -n "$out" ] && cp "$table" "$out"
$keep && echo "mutate: copy kept in $tmp"
[ "$nk" -gt 0 ] && [ "$ns" -eq 0 ] && [ "$nx" -eq 0 ]
