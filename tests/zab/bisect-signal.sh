#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: SIGTERM (what timeout(1) sends) or SIGINT to zab bisect
# while its probe's zab run measures through cusezero daemons: bisect
# passes the signal on, waits for the run, and exits 143 or 130; no zab
# run, daemon or mount of it is left, and nothing is stored afterwards.
# The signal comes from timeout --foreground, which signals bisect alone
# (not its children), as a supervisor that kills one process does.
# Needs: root fuse
. "$top_srcdir/tests/tap.sh"
ZAB=${ZAB:-$top_builddir/zab}
[ -x "$ZAB" ] || skip_all "zab not built ($ZAB)"
[ -n "$PREAD_Z100K" ] && [ -x "$PREAD_Z100K" ] || skip_all "pread_z100k not built (\$PREAD_Z100K='$PREAD_Z100K')"
command -v timeout >/dev/null || skip_all "no timeout(1)"
command -v pgrep >/dev/null || skip_all "no pgrep(1)"
CZ_TMP=$(mktemp -d) || exit 1
TMPDIR=$CZ_TMP; export TMPDIR	# zab's mount points: this test's own
unset CUSEZERO_STORE

# what is left of the test's own processes and mounts (their command lines and paths name $CZ_TMP)
left() { pgrep -f -- "$CZ_TMP/"; grep -F " $CZ_TMP/" /proc/mounts | cut -d' ' -f2; }
cleanup() {	# a survivor of a failed case: stopped by its pid, its mount released
	for p in $(pgrep -f -- "$CZ_TMP/"); do kill -KILL "$p" 2>/dev/null; done
	for m in $(grep -F " $CZ_TMP/" /proc/mounts | cut -d' ' -f2); do
		fusermount3 -u -z "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
	done
	rm -rf "$CZ_TMP"
}
trap cleanup EXIT
# poll CMD...: true once CMD succeeds, polling up to 5 minutes (a machine under load)
poll() {
	i=0
	while ! "$@"; do
		[ "$i" -ge 600 ] && return 1
		sleep 0.5
		i=$((i + 1))
	done
}
mounted() { grep -qF " $CZ_TMP/" /proc/mounts; }
none_left() { [ -z "$(left)" ]; }
runs() { "$ZAB" store ls runs --store "sqlite:$CZ_TMP/$1.db" --format csv 2>/dev/null | grep -c sigseq; }

# two steps of the default routine, a probe of minutes: the signal comes while it measures
{
	printf '[experiment]\nname = sigseq\nsessions = 2\nrepeats = 300\n\n'
	printf '[benchmark pread]\ncmd = %s --format simple -s 100KB -n 2000 {dev}\n' "$PREAD_Z100K"
	printf 'unit = bytes/sec\nbetter = higher\n\n[variant s@0]\nroutine = default\n\n[variant s@1]\nroutine = default\n'
} >"$CZ_TMP/seq.ini"

for x in "TERM 143" "INT 130"; do
	set -- $x
	timeout --foreground -s "$1" 3600 "$ZAB" bisect --store "sqlite:$CZ_TMP/$1.db" --sut dev \
		--cusezero "$CUSEZERO" "$CZ_TMP/seq.ini" >"$CZ_TMP/$1.out" 2>"$CZ_TMP/$1.err" &
	tpid=$!
	if ! poll mounted; then
		fail "SIG$1: the probe's daemon never mounted: $(tail -1 "$CZ_TMP/$1.err")"
		kill -KILL "$tpid"
		wait "$tpid"
		continue
	fi
	kill -s "$1" "$tpid"	# timeout passes it on to bisect alone
	wait "$tpid"
	rc=$?
	at_exit=$(runs "$1")
	ok "SIG$1: exit $rc ($2), one line: $(tail -1 "$CZ_TMP/$1.err")" -- sh -c "[ $rc -eq $2 ] &&
		grep -q '^zab: bisect: stopped by signal .*, its run not stored$' '$CZ_TMP/$1.err'"
	poll none_left
	ok "SIG$1: no zab run, daemon or mount left: $(left | tr '\n' ' ')" -- none_left
	now=$(runs "$1")
	ok "SIG$1: nothing stored, then or afterwards ($at_exit, then $now runs)" -- \
		sh -c "[ '$at_exit' -eq 0 ] && [ '$now' -eq 0 ]"
	for p in $(pgrep -f -- "$CZ_TMP/"); do kill -KILL "$p" 2>/dev/null; done	# a survivor
done
done_testing
