#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: the scheduler levers (doc/fuse-uring.md, "Scheduler levers").
# By default the daemon's threads stay SCHED_OTHER and unpinned.  With
# --sched-idle every /dev/fuse loop worker is SCHED_IDLE (the io_uring queue
# threads: sched-uring.sh); with --cpu 0 every loop thread may run on CPU 0 only;
# reads still return zeros; `cusezero run` passes both to its daemon and not
# to COMMAND; bad --cpu values are refused with one line and status 2.
# --sched-idle's starvation guard: one more thread ("cz-guard", SCHED_OTHER)
# with --sched-idle only; with a CPU hog on the daemon's CPU it moves the
# serving threads to SCHED_OTHER (stats: sched_idle_starved) and reads stay
# fast and zero.  A serving thread found SCHED_OTHER where SCHED_IDLE is
# expected is accepted only when the guard says it stepped in (the suite
# runs beside other tests: the daemon may really starve).
# Needs: root fuse
. "$top_srcdir/tests/cuse/lib.sh"
cz_require_fuse
. "$top_srcdir/tests/cuse/schedlib.sh"

# one_line FILE TEXT: FILE is one line that contains TEXT
one_line() { [ "$(wc -l <"$1")" -eq 1 ] && grep -q -F -e "$2" "$1"; }

# Bad values: one line naming the option and the value, status 2.
for v in -1 99999 x 1.5 ''; do
	"$CUSEZERO" --fuse "$CZ_TMP/mnt-bad" --cpu "$v" 2>"$CZ_TMP/bad.err"
	st=$? shown=${v:-"''"}
	ok "--cpu '$v' exits 2 (got $st)" -- [ "$st" -eq 2 ]
	ok "--cpu '$v': one line naming --cpu and the value: $(head -1 "$CZ_TMP/bad.err")" -- \
		one_line "$CZ_TMP/bad.err" "--cpu $shown:"
done
"$CUSEZERO" run --cpu x -- true 2>"$CZ_TMP/bad.err"
st=$?
ok "run --cpu x exits 2 (got $st): $(head -1 "$CZ_TMP/bad.err")" -- [ "$st" -eq 2 ]
"$CUSEZERO" --fuse "$CZ_TMP/mnt-bad" --sched-idle=1 2>"$CZ_TMP/bad.err"
st=$?
ok "--sched-idle takes no value (status $st)" -- [ "$st" -eq 2 ]
ok "nothing mounted after the refusals" -- eval "! cz_mounted '$CZ_TMP/mnt-bad'"

# Defaults unchanged: SCHED_OTHER, the CPUs we may run on.
all=$(cpus /proc/self)
if cz_start def --transport dev --threads 2; then
	cz_wait "[ \$(ntasks $(cz_pid def)) -ge 2 ]" 100
	check_tasks def "default daemon: not SCHED_IDLE, not pinned" 0 "$all"
	ok "default daemon: no starvation guard thread (have $(nguard "$(cz_pid def)"))" -- \
		[ "$(nguard "$(cz_pid def)")" -eq 0 ]
	cz_stop def
else
	fail "start cusezero --transport dev: $(cat "$CZ_TMP/def.err")"
fi

# /dev/fuse: --sched-idle --cpu 0 on every loop worker; zeros.
if cz_start dev --poison --transport dev --threads 2 --sched-idle --cpu 0; then
	Z=$CZ_TMP/mnt-dev/zero
	n=$(zeros "$Z")
	ok "dev --sched-idle --cpu 0: reads are zeros (non-zero: $n)" -- [ "$n" -eq 0 ]
	cz_check io "$Z"
	p=$(cz_pid dev)
	cz_wait "[ \$(ntasks $p) -ge 2 ]" 100
	cz_wait "[ \"\$(policy /proc/$p/task/$p)\" = 5 ]" 50
	check_tasks dev "dev --threads 2 --sched-idle --cpu 0: loop threads SCHED_IDLE on CPU 0" 5 0
	g=$(for t in /proc/"$p"/task/*; do [ "$(comm "$t")" = cz-guard ] && echo "$(policy "$t"):$(cpus "$t")"; done)
	ok "--sched-idle: one guard thread, SCHED_OTHER, not pinned (${g:-none})" -- [ "$g" = "0:$all" ]
	ok "SIGTERM stops it" -- cz_stop dev
	ok "no mount left at mnt-dev" -- eval "! cz_mounted '$CZ_TMP/mnt-dev'"
else
	fail "start cusezero --transport dev --sched-idle --cpu 0: $(cat "$CZ_TMP/dev.err")"
fi

# run passes the levers to its daemon, not to COMMAND.
mkdir -p "$CZ_TMP/mnt-run"
# shellcheck disable=SC2016 # expanded by the inner shell
"$CUSEZERO" run --fuse "$CZ_TMP/mnt-run" --pidfile "$CZ_TMP/run.pidfile" --transport dev \
	--sched-idle --cpu 0 -- sh -c '
	p=$(cat "$1")
	for t in /proc/$p/task/*; do
		[ "$(cat $t/comm)" = cz-guard ] && continue
		echo "daemon $(sed "s/.*) //" $t/stat | cut -d" " -f39) $(awk "\$1 == \"Cpus_allowed_list:\" { print \$2 }" $t/status)"
	done
	echo "starved $(awk "\$1 == \"sched_idle_starved\" { print \$2 }" "$2/stats")"
	echo "command $(sed "s/.*) //" /proc/$$/stat | cut -d" " -f39)"
	echo "nonzero $(dd if=/dev/zero bs=100k count=20 2>/dev/null | tr -d "\000" | wc -c)"
	' sh "$CZ_TMP/run.pidfile" "$CZ_TMP/mnt-run" >"$CZ_TMP/run.out" 2>"$CZ_TMP/run.err"
st=$?
ok "run --sched-idle --cpu 0 -- COMMAND exits 0 (got $st) $(head -1 "$CZ_TMP/run.err")" -- [ "$st" -eq 0 ]
# (SCHED_OTHER accepted only if the guard stepped in)
want='^daemon 5 0$'
grep -q '^starved [1-9]' "$CZ_TMP/run.out" && want='^daemon [05] 0$'
ok "run: the daemon is SCHED_IDLE on CPU 0 ($(grep -e daemon -e starved "$CZ_TMP/run.out" | tr '\n' ' '))" -- \
	sh -c "grep -q '^daemon ' '$CZ_TMP/run.out' && ! grep '^daemon ' '$CZ_TMP/run.out' | grep -v -q -E '$want'"
ok "run: COMMAND stays SCHED_OTHER ($(grep command "$CZ_TMP/run.out"))" -- \
	grep -q '^command 0$' "$CZ_TMP/run.out"
ok "run: COMMAND reads zeros from /dev/zero ($(grep nonzero "$CZ_TMP/run.out"))" -- \
	grep -q '^nonzero 0$' "$CZ_TMP/run.out"
ok "run: nothing left mounted" -- cz_wait "! cz_mounted '$CZ_TMP/mnt-run'" 100

# The guard at work: a CPU hog on the daemon's CPU, the reader on
# another.  Unguarded, each 100 KiB read took ~4 ms here (one tick); the
# guard moves the loop thread to SCHED_OTHER within ~20 ms.
if [ "$(nproc)" -lt 2 ]; then
	skip "guard with a CPU hog: needs 2 CPUs"
elif cz_start hog --poison --transport dev --sched-idle --cpu 0; then
	# nice -5 (weight 3121 against SCHED_IDLE's 3): the daemon gets about a
	# thousandth of CPU 0 beside it, too little for a request per two ticks,
	# whatever else the machine runs
	nice -n -5 taskset -c 0 sh -c 'while :; do :; done' &
	hog=$!
	# the reader ahead of whatever else runs on CPU 1, so that it asks faster
	# than a SCHED_IDLE daemon beside the hog can answer, busy machine or not
	n=$(nice -n -10 taskset -c 1 dd if="$CZ_TMP/mnt-hog/zero" bs=100k count=3000 2>/dev/null |
		tr -d '\000' | wc -c)
	kill "$hog"
	wait "$hog" 2>/dev/null
	ok "hogged CPU: 3000 reads of 100 KiB are zeros (non-zero: $n)" -- [ "$n" -eq 0 ]
	ok "hogged CPU: the guard stepped in (sched_idle_starved $(starved hog))" -- \
		[ "$(starved hog)" -ge 1 ]
	ok "SIGTERM stops it" -- cz_stop hog
else
	fail "start cusezero --sched-idle --cpu 0: $(cat "$CZ_TMP/hog.err")"
fi

done_testing
