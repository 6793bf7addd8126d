#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: Co-location is really applied: read back from /proc during the runs, the
# benchmark process and every serving thread of the session's daemon (all but
# the cz-guard watchdog) may run on exactly the session's CPU, the daemons
# started with --cpu N; sessions rotate over the allowed CPUs; --colocate off
# leaves both to the scheduler; `cusezero run --colocate N` pins COMMAND and
# the daemon likewise.  The /dev/fuse transport is forced where every thread is
# checked: with io_uring (enable_uring=Y) the kernel hands a request to the
# queue of the reader's CPU, whose thread is pinned to that CPU by design --
# checked on its own in colocate-uring.sh.
# Needs root (FUSE mounts) and $CUSEZERO.
# Needs: root fuse
. "$top_srcdir/tests/cuse/lib.sh"	# (TAP helpers)
. "$top_srcdir/tests/zab/colocatelib.sh"

# all: every line's own CPU list and every task's equal the session's CPU (the policy is
# logged after the "/" for the diagnostics).
check_log() {	# check_log LOG SESSION-CPU-FILE
	awk 'NR == FNR { cpu[$1] = $2; next }
	     { if ($2 != cpu[$1]) bad = 1
	       for (i = 3; i <= NF; i++) { split($i, t, "/"); if (t[1] != cpu[$1]) bad = 1 }
	       if (NF < 3) bad = 1 }
	     END { exit bad }' "$2" "$1"
}

dev='cusezero-args=--transport dev'
"$ZAB" run -b "p=$CZ_TMP/probe $CZ_TMP/log" -v "a:routine=c_store_loop,$dev" -v "b:routine=c_store_loop,threads=2,$dev" \
	-S 3 -R 2 --seed 5 --cusezero "$CUSEZERO" --json "$CZ_TMP/c.json" >"$CZ_TMP/out" 2>"$CZ_TMP/err"
ok "co-located run: exit 0" -- [ $? -eq 0 ]
sed -n 's/^zab: session \([0-9]*\)\/3: daemons and benchmarks co-located on CPU \([0-9]*\)$/\1 \2/p' \
	"$CZ_TMP/err" >"$CZ_TMP/cpus"
ok "every session prints its CPU" -- [ "$(wc -l <"$CZ_TMP/cpus")" -eq 3 ]
ok "the JSON records the same CPUs" -- sh -c "[ \"\$(awk '/\"session_placement\"/ { on = 1 } on && /\"cpu\"/ { gsub(/[^0-9]/, \"\"); printf \"%s \", \$0 } /\\]/ { on = 0 }' '$CZ_TMP/c.json')\" = \"\$(awk '{ printf \"%s \", \$2 }' '$CZ_TMP/cpus')\" ]"
ok "12 runs probed (2 variants x 3 sessions x 2)" -- [ "$(wc -l <"$CZ_TMP/log")" -eq 12 ]
ok "benchmark and every serving thread (threads=2 too) on the session's CPU" -- check_log "$CZ_TMP/log" "$CZ_TMP/cpus"
ok "every daemon started with --cpu N" -- \
	[ "$(grep -c '"command": ".*--cpu [0-9]' "$CZ_TMP/c.json")" -eq 6 ]
sed 's/^/# /' "$CZ_TMP/log" | head -4
if [ "$ncpu" -gt 1 ]; then
	ok "sessions rotate over the CPUs" -- [ "$(awk '{ print $2 }' "$CZ_TMP/cpus" | sort -u | wc -l)" -gt 1 ]
fi

: >"$CZ_TMP/log"
"$ZAB" run -b "p=$CZ_TMP/probe $CZ_TMP/log" -v "a:routine=c_store_loop,$dev" -v "b:routine=c_store_loop,$dev" \
	-S 1 -R 1 --colocate 0 --cusezero "$CUSEZERO" >/dev/null 2>&1
echo "1 0" >"$CZ_TMP/cpus0"
ok "--colocate 0: everything on CPU 0" -- check_log "$CZ_TMP/log" "$CZ_TMP/cpus0"

: >"$CZ_TMP/log"
"$ZAB" run -b "p=$CZ_TMP/probe $CZ_TMP/log" -v "a:routine=c_store_loop,$dev" -v "b:routine=c_store_loop,$dev" \
	-S 1 -R 1 --colocate off --cusezero "$CUSEZERO" >/dev/null 2>"$CZ_TMP/err"
ok "--colocate off: no session CPU printed" -- sh -c "! grep -q 'co-located' '$CZ_TMP/err'"
ok "--colocate off: benchmark and daemon on all allowed CPUs ($allowed), SCHED_OTHER" -- \
	awk -v all="$allowed" '{ if ($2 != all) bad = 1; for (i = 3; i <= NF; i++) if ($i != all "/0") bad = 1 }
	     END { exit bad || NR != 2 }' "$CZ_TMP/log"
printf '[benchmark b]\ncmd = true\n[variant x]\nroutine = c_store_loop\n[variant y]\n[experiment]\ncolocate = 4095\n' >"$CZ_TMP/bad-cpu"
"$ZAB" run "$CZ_TMP/bad-cpu" --cusezero "$CUSEZERO" >/dev/null 2>"$CZ_TMP/err"; rc=$?
ok "colocate = 4095 (not allowed here): exit 2, one line" -- \
	sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$CZ_TMP/err') -eq 1 ] && grep -q 'colocate 4095: not a CPU zab may run on' '$CZ_TMP/err'"

# cusezero run --colocate N: COMMAND and the daemon's serving threads on N
cpu=$(echo "$allowed" | sed 's/[-,].*//')
"$CUSEZERO" run --colocate "$cpu" --transport dev -- sh -c '
	echo "$(awk "/^Cpus_allowed_list/ { print \$2 }" /proc/self/status)"
	for p in $(pgrep -P $PPID -x cusezero); do
		for t in /proc/$p/task/*; do
			[ "$(cat $t/comm)" = cz-guard ] && continue
			echo "$(awk "/^Cpus_allowed_list/ { print \$2 }" $t/status)/$(awk "/^policy/ { print \$3 }" $t/sched)"
		done
	done' >"$CZ_TMP/run" 2>"$CZ_TMP/run.err"
ok "cusezero run --colocate $cpu: COMMAND on CPU $cpu" -- [ "$(head -n 1 "$CZ_TMP/run")" = "$cpu" ]
ok "cusezero run --colocate $cpu: the serving thread on CPU $cpu" -- \
	sh -c "[ \$(sed -n '2,\$p' '$CZ_TMP/run' | grep -c .) -ge 1 ] && ! sed -n '2,\$p' '$CZ_TMP/run' | grep -vq '^$cpu/'"
"$CUSEZERO" --colocate 0 --fuse "$CZ_TMP" 2>"$CZ_TMP/err"; rc=$?
ok "--colocate without run: exit 2, one line" -- sh -c "[ $rc -eq 2 ] && grep -q 'is an option of .cusezero run.' '$CZ_TMP/err'"
done_testing
