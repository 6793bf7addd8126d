#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: with no --routine (and no --source) the daemon runs what
# the running kernel runs for clear_user on this CPU, where a built-in
# routine is that code (the inline rep stosb: rep_stosb; a call of
# rep_stos_alternative: rep_stos_alternative), resolved with the running
# release's own tree (kpath.h); else the registry's default, saying why.
# -d says which at start.  Checked with copies of the 6.12 and 6.1 trees'
# resolver files made the running release: the daemon's pick is what
# zbench kpath resolves with that tree here; an explicit --routine wins;
# zab records the same default (environment.default_routine).  The daemon
# is started natively (it stops at its missing mount point: no FUSE).
# Needs: native
. "$top_srcdir/tests/zab/lib.sh"
[ "$ZERO_ARCH" = x86_64 ] || skip_all "x86-64 kernel paths only (ZERO_ARCH=$ZERO_ARCH)"
[ -x "${CUSEZERO:-}" ] || skip_all "cusezero not built"
ZBENCH=${ZBENCH:-$top_builddir/zbench}
command -v python3 >/dev/null || skip_all "no python3 (JSON checks)"
base=${CUSEZERO_KSRC_TREES:-/var/cache/cusezero-ksrc}
for v in 6.1 6.12; do
	[ -f "$base/$v/linux-source-$v/arch/x86/kernel/cpu/amd.c" ] ||
		skip_all "no $v tree with its vendor files in $base: scripts/kernel-sources.sh"
done
run=$(uname -r)
maj=${run%%.*} rest=${run#*.}
min=${rest%%[!0-9]*}
unset CUSEZERO_STORE

# own TREE FROM: the resolver's files of FROM as a tree of the running release (the newest of it)
own() {
	mkdir -p "$1" || return 1
	(cd "$2" && cp --parents Makefile arch/x86/include/asm/uaccess_64.h arch/x86/include/asm/page_64.h \
		arch/x86/kernel/cpu/*.c arch/x86/lib/*.S "$1/") || return 1
	[ ! -f "$2/arch/x86/include/asm/intel-family.h" ] ||
		(cd "$2" && cp --parents arch/x86/include/asm/intel-family.h "$1/")
	sed -i "s/^VERSION = .*/VERSION = $maj/; s/^PATCHLEVEL = .*/PATCHLEVEL = $min/; s/^SUBLEVEL = .*/SUBLEVEL = 99999/" \
		"$1/Makefile"
}

for v in 6.12 6.1; do
	t=$CZ_TMP/t$v
	own "$t" "$base/$v/linux-source-$v" || { fail "copy of the $v tree"; continue; }
	got=$("$ZBENCH" kpath --tree "$t" -p clear_user 2>&1 | grep -v '^#' | head -n 1)
	what=$(echo "$got" | sed -n 's/^[0-9.]* clear_user: \(.*\) -- .*/\1/p')
	case $what in
	"inline rep stosb") want=rep_stosb ;;
	"call rep_stos_alternative") want=rep_stos_alternative ;;
	*) want= ;;
	esac
	CUSEZERO_KERNEL_SOURCES=$t timeout 120 "$CUSEZERO" -f -d --fuse "$CZ_TMP/none/zero" >/dev/null 2>"$CZ_TMP/d.err"
	line=$(grep '(no --routine)' "$CZ_TMP/d.err")
	diag "$v as $maj.$min: zbench kpath: $got"
	diag "daemon: $line"
	if [ -n "$want" ]; then
		ok "$v's code as $maj.$min ($what): the daemon runs $want, saying why" -- sh -c "
			echo \"\$1\" | grep -q '^cusezero: routine $want (no --routine): what Linux $run runs for clear_user on this CPU, per $run.s own tree ($maj\.$min\.99999): $what'" sh "$line"
	else
		ok "$v's code as $maj.$min ($what): no built-in routine is it: the registry's default, saying why" -- sh -c "
			echo \"\$1\" | grep -q '^cusezero: routine [a-z_0-9]* (no --routine): the registry.s default for this CPU (the running kernel.s clear_user not decided: $maj\.$min\.99999 runs .*which no built-in routine is'" sh "$line"
	fi
	[ "$v" = 6.12 ] && { want612=$want; t612=$t; }
done

CUSEZERO_KERNEL_SOURCES=$t612 timeout 120 "$CUSEZERO" -f -d --routine memset --fuse "$CZ_TMP/none/zero" >/dev/null 2>"$CZ_TMP/m.err"
ok "--routine memset wins: no default chosen" -- sh -c "! grep -q 'no --routine' '$CZ_TMP/m.err'"

if [ -n "$want612" ]; then
	CUSEZERO_KERNEL_SOURCES=$t612 "$ZAB" run -b "x=$FAKE --mean 10" -v a -v b -R 2 --kernel-ref no --no-store \
		--no-progress --json "$CZ_TMP/r.json" >/dev/null 2>&1
	ok "zab records the same default ($want612) and why" -- python3 -c "
import json, sys
e = json.load(open('$CZ_TMP/r.json'))['environment']
sys.exit(not (e['default_routine'] == '$want612' and e['default_routine_why'].startswith('what Linux $run runs')))"
else
	skip "zab's default: this CPU's 6.12 path is no built-in routine"
fi
done_testing
