# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers of the scheduler-lever tests (sched.sh, sched-uring.sh): a
# daemon's tasks read back from /proc.  Sourced after tests/cuse/lib.sh.

# policy TASKDIR: the scheduling policy (field 41 of stat; 0 OTHER, 5 IDLE).
# The fields after "comm)" start at field 3.
policy() { sed 's/.*) //' "$1/stat" 2>/dev/null | cut -d' ' -f39; }
cpus() { awk '$1 == "Cpus_allowed_list:" { print $2 }' "$1/status" 2>/dev/null; }
comm() { cat "$1/comm" 2>/dev/null; }
# serving threads: every task but the guard's
ntasks() {
	n=0
	for t in /proc/"$1"/task/*; do
		[ -d "$t" ] && [ "$(comm "$t")" != cz-guard ] && n=$((n + 1))
	done
	echo "$n"
}
nguard() {
	n=0
	for t in /proc/"$1"/task/*; do
		[ "$(comm "$t")" = cz-guard ] && n=$((n + 1))
	done
	echo "$n"
}
# starved NAME: the guard's count in the daemon's stats (0 without the line)
starved() { awk '$1 == "sched_idle_starved" { print $2; f = 1 } END { if (!f) print 0 }' \
	"$CZ_TMP/mnt-$1/stats" 2>/dev/null; }

# check_tasks NAME WHAT WANT_POLICY [WANT_CPUS]: one TAP line; every task of
# the daemon NAME but the guard's has the policy (and CPU list when given);
# SCHED_OTHER for SCHED_IDLE if the guard stepped in.
check_tasks() {
	p=$(cz_pid "$1")
	bad='' n=0 other='' notother=''
	for t in /proc/"$p"/task/*; do
		[ -d "$t" ] || continue
		[ "$(comm "$t")" = cz-guard ] && continue
		n=$((n + 1))
		pol=$(policy "$t") c=$(cpus "$t")
		if [ -n "${4:-}" ] && [ "$c" != "$4" ]; then
			bad="$bad ${t##*/}:policy=$pol,cpus=$c"
		elif [ "$pol" != "$3" ]; then
			other="$other ${t##*/}:policy=$pol,cpus=$c"
			[ "$pol" = 0 ] || notother=1
		fi
	done
	# SCHED_OTHER where SCHED_IDLE is wanted: the guard's doing if it says so
	# (asked after the scan: it may have stepped in while we looked)
	if [ -n "$other" ] && ! { [ "$3" = 5 ] && [ -z "$notother" ] && [ "$(starved "$1")" -gt 0 ]; }; then
		bad="$bad$other"
	fi
	if [ "$n" -eq 0 ]; then
		fail "$2: no tasks under /proc/$p"
	elif [ -n "$bad" ]; then
		fail "$2: want policy $3${4:+, cpus $4}; got$bad"
	else
		pass "$2 ($n threads: policy $3${4:+, cpus $4})"
	fi
}

zeros() {	# zeros FILE: number of non-zero bytes in 20 reads of 100 KiB
	dd if="$1" bs=100k count=20 2>/dev/null | tr -d '\000' | wc -c
}
