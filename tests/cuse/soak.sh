#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Needs: root fuse ioctl io_uring
# Description: soak and fault injection on the FUSE device, SOAK_SECONDS
# long (default 60; make check runs the default, well under 3 minutes).
# Six verifying reader slots run all the time -- read(2), readv(2) and
# pread(2) at random sizes up to 1 MiB + 1 (zreader), pread of 100 KiB
# (pread_z100k --verify), io_uring readv and read (zload --verify) -- each
# restarting its reader every 1-3 s; a killer SIGKILLs a random reader every
# 0.3-1 s; a churn loop sends valid and invalid settings through the control
# file and zeroctl.  The daemon (with --poison, options changing from life
# to life) is SIGKILLed SOAK_KILLS times (default 4) and restarted on the
# same mount point each time by two starts racing.  At the end:
#   - no non-zero byte was read;
#   - every reader error is ENOTCONN (the connection of a dead daemon),
#     ECONNABORTED (a request in flight when it died), ECANCELED (a request
#     being handed to its io_uring queue when it died) or ENOENT (opened
#     while nothing was mounted), and happened between a SIGKILL and two
#     seconds after the next daemon was ready;
#   - each restart: exactly one of the two racing starts won, one mount;
#   - no invalid setting was taken or changed anything, no valid one refused
#     while a daemon ran;
#   - the daemon's fd count did not move and its RSS grew by less than
#     SOAK_RSS_KB (default 2048; 32768 under ASan) between the middle and the
#     end of each life, not counting growth that new huge pages account
#     for (see sample(); when not: the mappings that grew most, from smaps);
#   - no daemon died before the test killed it (and, in sanitizer builds,
#     lib.sh's last check: no sanitizer report from any daemon or reader);
#   - nothing is mounted once the last daemon got SIGTERM.
# Four phases (SOAK_PHASES: the list, default "ctlrace runkill stopped
# memlimit"; phase i runs in life i mod lives + 1, so a name may repeat),
# each at the start of a life (their time taken from the sleeps that follow,
# so the soak's length stays SOAK_SECONDS), with the settings churn paused;
# after each, the daemon is alive and serves 1 MiB of zeros.  Their bounds
# come from measured speed, not constants (measure() and phase_memlimit()):
#   ctlrace   2 threads write 4..64 KiB control texts cut inside a word and
#             2 loop close(dup(fd)) on one control fd (zdev-check ctlrace, as
#             tests/cuse/ctlrace.sh), 3 s;
#   runkill   `cusezero run -- sleep` SIGKILLed: the run's daemon exits and
#             /run/cusezero/cusezero-run-PID is unmounted and removed;
#   stopped   the daemon SIGSTOPped: a second start on its mount point fails
#             (does not hang), one mount stays; then SIGCONT;
#   memlimit  a --threads 8 daemon on its own mount point under `ulimit -v`
#             (a limit picked at random around what it needs, as
#             tests/cuse/memlimit.sh): its start fails with one line, or it
#             serves 3 MB + 8 MiB of zeros and no reader hangs; timed first
#             without the limit.
. "$top_srcdir/tests/cuse/lib.sh"
cz_require_fuse
ZREADER=$top_builddir/tests/cuse/zreader
ZDEV_CHECK=$top_builddir/tests/cuse/zdev-check
for t in "$ZREADER" "$ZLOAD" "$PREAD_Z100K" "$ZEROCTL" "$ZDEV_CHECK"; do
	[ -x "$t" ] || skip_all "not built: $t"
done
secs=${SOAK_SECONDS:-60}
kills=${SOAK_KILLS:-4}
rss_max=${SOAK_RSS_KB:-2048}
# ASan's quarantine keeps freed memory (256 MiB by default): RSS grows with
# every allocation, a leak or not -- libfuse allocates per request, so the
# growth followed the request rate (+43 MiB in one 12 s life, once).  Under
# ASan the daemon's quarantine is capped at 4 MiB and the bound is 32 MiB
# (its leak checker covers leaks there).
case $cz_san in *ASan*)	# (lib.sh: the sanitizers $CUSEZERO is built with)
	rss_max=${SOAK_RSS_KB:-32768}
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=4"
	export ASAN_OPTIONS ;;
esac
W=$CZ_TMP/soak
M=$CZ_TMP/mnt-soak
Z=$M/zero
mkdir -p "$W" "$M"
echo 0 >"$W/life"
now() { date +%s.%N; }
rnd() { od -An -N4 -tu4 /dev/urandom | awk -v n="$1" '{ print $1 % n }'; }
pick() { shift "$(rnd $#)"; echo "$1"; }
t_start=$(now)

# ---- the daemon: two racing starts, one wins -----------------------------------
opts_for() {	# opts_for LIFE
	case $(($1 % 5)) in
	1) echo "--poison" ;;
	2) echo "--poison --threads 2" ;;
	3) echo "--poison --transport dev --reply writev" ;;
	4) echo "--poison --poll-us 300" ;;
	0) echo "--poison --threads 3 --transport dev" ;;
	esac
}
start_pair() {	# start_pair LIFE: two starts at once; $W/daemon.pid = the winner's
	rm -f "$W/pA" "$W/pB"
	# shellcheck disable=SC2046
	"$CUSEZERO" --fuse "$M" --pidfile "$W/pA" $(opts_for "$1") 2>"$W/eA" &
	a=$!
	# shellcheck disable=SC2046
	"$CUSEZERO" --fuse "$M" --pidfile "$W/pB" $(opts_for "$1") 2>"$W/eB" &
	b=$!
	wait "$a"; sa=$?
	wait "$b"; sb=$?
	ready=$(now)
	won=""
	[ "$sa" -eq 0 ] && won="$won A"
	[ "$sb" -eq 0 ] && won="$won B"
	echo "life $1 start A=$sa B=$sb mounts=$(nmounts "$M") ready=$ready" >>"$W/lives"
	if [ "$won" = " A" ] || [ "$won" = " B" ]; then
		cp "$W/p${won# }" "$W/daemon.pid"
		cp "$W/daemon.pid" "$CZ_TMP/soak.pid"	# cz_cleanup stops it if we fail
		return 0
	fi
	echo "life $1: starts A=$sa ($(cat "$W/eA")) B=$sb ($(cat "$W/eB"))" >>"$W/problems"
	for p in "$W/pA" "$W/pB"; do [ -s "$p" ] && kill -TERM "$(cat "$p")"; done
	return 1
}
# Transparent huge pages: where they are "always" (Debian's arm64 kernel in
# the VM; x86-64 hosts here have "madvise"), khugepaged may at any moment
# turn a partly used 2 MiB range of an anonymous mapping into a huge page:
# in the VM a daemon's RSS went from 6224 to 7328 kB between two samples,
# nothing else changing, as one mapping's AnonHugePages went 0 -> 2048 kB.
# When that fell between a life's samples, the RSS check failed (+1.5 to
# +3.2 MiB in 3 of 5 soaks there).  So a mapping's growth that its huge
# pages account for is not counted: the "thp" field of the end sample.
sample() {	# sample LIFE WHEN: fd count and RSS of the daemon
	p=$(cat "$W/daemon.pid")
	kill -0 "$p" 2>/dev/null || echo "life $1: daemon $p gone before the $2 sample" >>"$W/deaths"
	# per mapping: "RANGE NAME RSS_KB ANONHUGE_KB"
	awk '/^[0-9a-f]+-[0-9a-f]+ / { m = $1 " " ($6 == "" ? "[anon]" : $6) }
	     /^Rss:/ { r = $2 } /^AnonHugePages:/ { print m, r, $2 }' "/proc/$p/smaps" >"$W/smaps.$1.$2" 2>/dev/null
	thp=0
	[ "$2" = end ] && thp=$(awk 'NR == FNR { r[$1] = $3; h[$1] = $4; next }
		($1 in r) && $4 > h[$1] && $3 > r[$1] { d = $3 - r[$1]; dh = $4 - h[$1]; e += (d < dh ? d : dh) }
		END { print e + 0 }' "$W/smaps.$1.mid" "$W/smaps.$1.end" 2>/dev/null)
	echo "life $1 $2 fds $(ls "/proc/$p/fd" 2>/dev/null | wc -l)" \
		"rss $(awk '/^VmRSS/ { print $2 }' "/proc/$p/status" 2>/dev/null) thp ${thp:-0}" >>"$W/samples"
}

# ---- readers -------------------------------------------------------------------
slot() {	# slot N KIND: one reader after another until $W/stop
	while ! [ -e "$W/stop" ]; do
		d=$((1 + $(rnd 3)))
		case $2 in
		read|readv|pread)
			"$ZREADER" "$2" "$Z" "$d" "$((1 + $(rnd 1000000)))" >"$W/s$1.out" 2>&1 & ;;
		pz)	"$PREAD_Z100K" --verify --json -n 2000 "$Z" >"$W/s$1.out" 2>&1 & ;;
		uring)	"$ZLOAD" --verify --json --nonvectored=0 --time "$d" --qd 4 --bs "$(pick 4KB 100KB 1MB)" "$Z" \
				>"$W/s$1.out" 2>&1 & ;;
		uread)	"$ZLOAD" --verify --json --nonvectored --time "$d" --qd 2 --bs 1MB "$Z" \
				>"$W/s$1.out" 2>&1 & ;;
		esac
		echo $! >"$W/s$1.pid"
		wait $!
		st=$?
		# one file per slot: a long line appended by several slots at once could interleave
		echo "$2 $st $(now) $(tr '\n' ' ' <"$W/s$1.out")" >>"$W/readers.$1"
		[ "$st" -eq 0 ] || sleep 0.1	# no daemon: do not spin
	done
}
killer() {	# SIGKILL a random reader now and then (only ours: its command line names $Z)
	while ! [ -e "$W/stop" ]; do
		sleep "0.$((3 + $(rnd 7)))"
		p=$(cat "$W/s$(rnd 6).pid" 2>/dev/null)
		[ -n "$p" ] && cat "/proc/$p/cmdline" 2>/dev/null | tr '\0' ' ' | grep -qF -- "$Z" &&
			kill -KILL "$p" 2>/dev/null && echo "$(now) $p" >>"$W/killed"
	done
}

# ---- settings churn ------------------------------------------------------------
routines=$(cz_usable_routines)
down() { grep -q -e "not connected" -e "No such file" -e "connection abort" "$W/cerr"; }
# (nocreat: with no daemon, $M is a plain directory and must stay empty)
ctl() { printf '%s\n' "$1" | dd of="$M/control" conv=notrunc,nocreat status=none 2>"$W/cerr"; }
churn_valid() {
	r=$(pick $routines) c=$(pick 1B 100B 4KB 8KB 0x3000 64KB 1MB)
	case $(rnd 3) in
	0) ctl "routine=$r chunk=$c"; st=$? ;;
	1) "$ZEROCTL" "$Z" --routine "$r" --chunk "$c" 2>"$W/cerr"; st=$? ;;
	2) ctl "reset"; st=$? ;;
	esac
	if [ "$st" -eq 0 ]; then echo valid >>"$W/churn"
	elif down; then echo down >>"$W/churn"
	else echo "valid refused: $r $c: $(cat "$W/cerr")" >>"$W/problems"; fi
}
churn_invalid() {
	life=$(cat "$W/life")
	before=$(cat "$M/control" 2>/dev/null) || return
	if [ "$(rnd 2)" -eq 0 ]; then
		what=$(pick "routine=nt chunk=0" "chunk=0" "align=5000" "bogus" "chunk=1 routine=bogus" \
			"align=none align_point=entry" "chunk=8KB chunk=16KB" "routine=memset align=100")
		ctl "$what"; st=$?
	else
		what=$(pick "--routine memset --align 5" "--align-point entry" "--chunk 4KB --routine no_such")
		# shellcheck disable=SC2086
		"$ZEROCTL" "$Z" $what 2>"$W/cerr"; st=$?
	fi
	after=$(cat "$M/control" 2>/dev/null) || return
	[ "$life" = "$(cat "$W/life")" ] || return	# a daemon died in between
	if [ "$st" -eq 0 ]; then echo "invalid taken: $what" >>"$W/problems"
	elif down; then echo down >>"$W/churn"
	elif [ "$before" != "$after" ]; then
		echo "invalid changed settings: $what: $(echo $before) -> $(echo $after)" >>"$W/problems"
	else echo invalid >>"$W/churn"; fi
}
churn() {
	while ! [ -e "$W/stop" ]; do
		if [ -e "$W/quiet" ]; then touch "$W/quiet.ack"; sleep 0.1; continue; fi
		if [ "$(rnd 2)" -eq 0 ]; then churn_valid; else churn_invalid; fi
		sleep 0.05
	done
}

# ---- phases --------------------------------------------------------------------
quiet() { rm -f "$W/quiet.ack"; touch "$W/quiet"; cz_wait "[ -e '$W/quiet.ack' ]" 100; }
loud() { rm -f "$W/quiet" "$W/quiet.ack"; }
# Bounds of the phases' reads, from measured speed: the readers and the
# settings churn's last chunk size set how long the (single-threaded, in most
# lives) daemon takes per request -- 1 MiB took 0.1 s alone and 1.5 s behind
# six readers at chunk=1B in the arm64 VM (TCG), 1 MB in 4 KiB reads 52 s --
# so a constant bound fails a daemon that is only slow.  At each phase's start
# (churn paused, readers running) ref_s is the time per MiB of 3 MiB read (one
# MiB can wait behind none or all of the readers' requests: 0.5 s before a
# phase, 7.7 s after it, once); a read that takes 20 times that (30 s at
# least) is stuck, not slow.  (Waits by the clock: lib.sh's cz_within.)
read_mib() {	# read_mib SECONDS OUT [N]: N (1) MiB of $Z into OUT
	timeout -k 2 "$1" dd if="$Z" bs=1M count="${3:-1}" iflag=fullblock status=none >"$2" 2>"$W/z.err"
}
bound_of() { awk -v f="$1" -v r="$2" 'BEGIN { b = f * r; printf "%d", (b > 30 ? b + 0.5 : 30) }'; }	# bound_of F S: F*S, 30 at least
measure() {	# ref_s: seconds per MiB of $Z now; bound: 20 times that, 30 s at least
	t=$(cz_up)
	read_mib 300 /dev/null 3
	ref_st=$?
	ref_s=$(awk -v s="$(cz_since "$t")" 'BEGIN { printf "%.2f", s / 3 }')
	bound=$(bound_of 20 "$ref_s")
}
# serving PHASE: after a phase, the daemon is alive and 1 MiB read from it is all zeros.
serving() {
	p=$(cat "$W/daemon.pid")
	t=$(cz_up)
	read_mib "$bound" "$W/z.bin"
	got=$(wc -c <"$W/z.bin") nz=$(tr -d '\000' <"$W/z.bin" | wc -c)
	ok "phase $1: then the daemon (pid $p) is alive and serves zeros (1048576 bytes read: $got in $(cz_since "$t") s, bound $bound s; non-zero: $nz $(head -c 200 "$W/z.err"))" -- \
		eval 'kill -0 "$p" 2>/dev/null && [ "$got" -eq 1048576 ] && [ "$nz" -eq 0 ]'
}
phase_ctlrace() {
	timeout -k 2 60 "$ZDEV_CHECK" ctlrace "$Z" 3 >"$W/ctlrace.out" 2>&1
	st=$?
	ok "phase ctlrace: 2 writers of 4-64 KiB texts cut inside a word + 2 close(dup()) loops on one control fd, 3 s (zdev-check status $st)" -- \
		eval '[ "$st" -eq 0 ] && grep -q "^ok " "$W/ctlrace.out"'
	[ "$st" -eq 0 ] || sed 's/^/# ctlrace: /' "$W/ctlrace.out"
}
run_gone() { [ -n "$dpids" ] && cz_within "$bound" "cz_gone $dpids && ! cz_mounted '$R' && ! [ -e '$R' ]"; }
phase_runkill() {
	rm -f "$W/cmd.pid"
	"$CUSEZERO" run --poison -- sh -c 'echo $$ >"$1"; exec sleep 60' sh "$W/cmd.pid" 2>"$W/run.err" &
	rp=$!
	R=/run/cusezero/cusezero-run-$rp
	if ! cz_within "$bound" "[ -s '$W/cmd.pid' ]"; then
		fail "phase runkill: cusezero run -- sleep: COMMAND did not start in $bound s: $(head -c 200 "$W/run.err")"
		kill -KILL "$rp" 2>/dev/null
		wait "$rp"
		return
	fi
	cmd=$(cat "$W/cmd.pid")
	dpids=$(pgrep -P "$rp" | grep -vx "$cmd" | tr '\n' ' ')
	kill -KILL "$rp"
	wait "$rp" 2>/dev/null
	# (with /dev/cuse the run uses CUSE and mounts nothing: only its daemon is checked)
	ok "phase runkill: SIGKILL of cusezero run -- sleep (pid $rp): its daemon ($dpids) exits, $R unmounted and removed, within $bound s" -- \
		run_gone
	kill "$cmd" 2>/dev/null
	for p in $dpids; do kill -KILL "$p" 2>/dev/null; done
	cz_mounted "$R" && umount -l "$R"
	rmdir "$R" 2>/dev/null
}
phase_stopped() {
	p=$(cat "$W/daemon.pid")
	kill -STOP "$p"
	t0=$(now)
	timeout -k 2 "$bound" "$CUSEZERO" --fuse "$M" --poison --pidfile "$W/pC" 2>"$W/eC"
	st=$?
	t1=$(now)
	n=$(nmounts "$M")
	kill -CONT "$p"
	ok "phase stopped: a second start on $M while its daemon is SIGSTOPped fails within $bound s (exit $st after $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s: $(head -c 200 "$W/eC")), $n mount" -- \
		eval '[ "$st" -ne 0 ] && [ "$st" -ne 124 ] && [ "$st" -ne 137 ] && [ "$n" -eq 1 ]'
	[ -s "$W/pC" ] && kill -TERM "$(cat "$W/pC")" 2>/dev/null
}
# (the connection's abort switch ends a reader that waits on a daemon that took its request and died)
free_mount() {
	dev=$(stat -c %d "$1" 2>/dev/null)
	[ -n "$dev" ] && [ -w "/sys/fs/fuse/connections/$dev/abort" ] &&
		echo 1 >"/sys/fs/fuse/connections/$dev/abort"
}
# lim_start KB|none SECONDS: a --threads 8 daemon on $L (under ulimit -v KB); st: its exit
lim_start() {
	( [ "$1" = none ] || ulimit -v "$1"
	  exec timeout "$2" "$CUSEZERO" --fuse "$L" --threads 8 --poison --pidfile "$CZ_TMP/soaklim.pid"
	) >/dev/null 2>"$W/lim.err"
	st=$?
}
# lim_read SECONDS: 3 MB (cmp, 4 KiB reads) and 8 MiB (dd, 1 MiB) from $L
# at once; 1 if a reader still waits after SECONDS (then it is freed).  s1:
# cmp's status, nz: non-zero bytes dd read.
lim_read() {
	cmp -n 3000000 "$L/zero" /dev/zero >"$W/lim.cmp" 2>&1 &
	r1=$!
	dd if="$L/zero" bs=1M count=8 status=none 2>"$W/lim.dd" | tr -d '\000' | wc -c >"$W/lim.nz" &
	r2=$!
	if cz_within "$1" "cz_gone $r1 $r2"; then
		wait "$r1"; s1=$?
		wait "$r2"
		nz=$(cat "$W/lim.nz")
		return 0
	fi
	lim_stuck=$(cz_pstate "$r1" "$r2")
	free_mount "$L"
	kill -KILL "$r1" "$r2" 2>/dev/null
	return 1
}
lim_stop() {
	cz_stop soaklim || { kill -KILL "$(cz_pid soaklim)" 2>/dev/null; free_mount "$L"; }
	umount -l "$L" 2>/dev/null
}
# The limited daemon's bound: its start and reads timed first without the
# limit, right before, under the same load (the limited daemon's reads took
# 2.6-24 s in the arm64 VM, up to 60 times a MiB from the soak's daemon, so
# that MiB is no measure of them); 10 times that (30 s at least).
phase_memlimit() {
	if [ -n "$cz_san" ]; then
		skip "phase memlimit: $cz_san build: the sanitizer's shadow memory needs no address-space limit"
		return
	fi
	L=$CZ_TMP/mnt-soaklim
	mkdir -p "$L"
	s1= nz= lim_stuck=
	t=$(cz_up)
	lim_start none "$bound"
	if [ "$st" -ne 0 ] || ! lim_read "$bound" || [ "$s1" -ne 0 ] || [ "$nz" -ne 0 ]; then
		fail "phase memlimit: without a limit, --threads 8: start exit $st, reads (cmp ${s1:-}, ${nz:-} non-zero bytes) in $(cz_since "$t") s, bound $bound s: $(cat "$W/lim.err" "$W/lim.cmp" "$W/lim.dd" | head -c 200) ${lim_stuck:-}"
		lim_stop
		return
	fi
	lim_stop
	lim_ref=$(cz_since "$t")
	lim_bound=$(bound_of 10 "$lim_ref")
	kb=$(pick 45000 75000 90000 120000)
	t=$(cz_up)
	lim_start "$kb" "$lim_bound"
	if [ "$st" -ne 0 ]; then
		ok "phase memlimit: ulimit -v $kb, --threads 8: start fails (exit $st after $(cz_since "$t") s; without the limit, start and reads: $lim_ref s) with one line, nothing mounted: $(head -c 200 "$W/lim.err")" -- \
			eval '[ "$st" -ne 124 ] && [ "$(wc -l <"$W/lim.err")" -eq 1 ] && ! cz_mounted "$L"'
		return
	fi
	if lim_read "$lim_bound"; then
		ok "phase memlimit: ulimit -v $kb, --threads 8: started, served 3 MB (cmp with /dev/zero: $s1) and 8 MiB ($nz non-zero bytes) in $(cz_since "$t") s (without the limit $lim_ref s; bound $lim_bound s) $(cat "$W/lim.cmp" "$W/lim.dd" | head -c 200)" -- \
			eval '[ "$s1" -eq 0 ] && [ "$nz" -eq 0 ] && ! [ -s "$W/lim.dd" ]'
	else
		fail "phase memlimit: ulimit -v $kb, --threads 8: started, a reader still waits after $lim_bound s (without the limit: $lim_ref s; $lim_stuck)"
	fi
	lim_stop
}
# run_phases LIFE: this life's phases (phase i in life i mod lives + 1); ph_secs: their time.
phases=${SOAK_PHASES:-ctlrace runkill stopped memlimit}
for ph in $phases; do
	case $ph in ctlrace|runkill|stopped|memlimit) ;; *) echo "Bail out! SOAK_PHASES: no phase '$ph'"; exit 99 ;; esac
done
run_phases() {
	ph_t0=$(now) ph_i=0
	for ph in $phases; do
		if [ $((ph_i % (kills + 1) + 1)) -eq "$1" ]; then
			quiet
			measure
			t_ph=$(cz_up)
			if [ "$ref_st" -ne 0 ]; then
				fail "phase $ph: before it, 3 MiB read from the daemon: exit $ref_st after $ref_s s: $(head -c 200 "$W/z.err")"
			else
				"phase_$ph"
				serving "$ph"
			fi
			diag "phase $ph: $(cz_since "$t_ph") s (before it, per MiB read: $ref_s s; bound $bound s)"
			loud
		fi
		ph_i=$((ph_i + 1))
	done
	ph_secs=$(awk -v a="$ph_t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
}

# ---- run -----------------------------------------------------------------------
life_secs=$(awk -v s="$secs" -v k="$kills" 'BEGIN { printf "%.1f", s / (k + 1) }')
half=$(awk -v s="$life_secs" 'BEGIN { printf "%.1f", s / 2 }')
start_pair 1 || { fail "first start: $(cat "$W/problems")"; done_testing; exit; }
pids=""
n=0
for kind in read readv pread pz uring uread; do
	slot "$n" "$kind" 2>/dev/null &	# (the shell would report each SIGKILLed reader)
	pids="$pids $!"
	n=$((n + 1))
done
killer & pids="$pids $!"
churn & pids="$pids $!"
life=1
# The phases' time is paid back from the sleeps that follow (each at least
# 1 s, so a life still runs between its samples): the soak stays as long.
debt=0
nap() {	# nap SECONDS
	z=$(awk -v w="$1" -v d="$debt" 'BEGIN { z = w - d; printf "%.1f", (z > 1 ? z : 1) }')
	debt=$(awk -v w="$1" -v d="$debt" -v z="$z" 'BEGIN { d -= w - z; printf "%.1f", (d > 0 ? d : 0) }')
	sleep "$z"
}
while :; do
	run_phases "$life"
	[ "$ph_secs" = 0.0 ] || diag "life $life: its phases took $ph_secs s (the life: $life_secs s)"
	debt=$(awk -v d="$debt" -v p="$ph_secs" 'BEGIN { printf "%.1f", d + p }')
	nap "$half"
	sample "$life" mid
	if [ "$life" -gt "$kills" ]; then
		touch "$W/stop"
		for p in $pids; do wait "$p"; done	# readers end before the daemon does
		sample "$life" end
		cz_stop soak TERM
		break
	fi
	nap "$half"
	sample "$life" end
	echo $((life + 1)) >"$W/life"
	echo "life $life killed=$(now)" >>"$W/lives"
	cz_stop soak KILL
	life=$((life + 1))
	start_pair "$life" || break
done
[ -e "$W/stop" ] || { touch "$W/stop"; for p in $pids; do wait "$p"; done; }
t_end=$(now)
ok "nothing mounted at the end" -- cz_wait "! cz_mounted '$M'" 50

# ---- verdict -------------------------------------------------------------------
# Reader lines: KIND STATUS TIME OUTPUT...  ->  one summary line per reader.
cat "$W"/readers.* >"$W/readers" 2>/dev/null
awk '
	function errname(s) {
		if (s ~ /not connected|ENOTCONN/) return "ENOTCONN"
		if (s ~ /connection abort|ECONNABORTED/) return "ECONNABORTED"
		if (s ~ /Operation canceled|ECANCELED/) return "ECANCELED"
		if (s ~ /No such file|ENOENT/) return "ENOENT"
		return "OTHER"
	}
	function num(key,    i) {
		for (i = 4; i < NF; i++) if ($i == key) return $(i + 1)
		return 0
	}
	function json(key,    m) {
		if (match($0, "\"" key "\":[0-9]+")) return substr($0, RSTART + length(key) + 3, RLENGTH - length(key) - 3)
		return 0
	}
	{
		kind = $1; st = $2; t = $3; reads = 0; bad = 0; err = ""
		if (st == 137) { print "killed", kind, t; next }
		if (kind ~ /^(read|readv|pread)$/) {
			reads = num("calls"); bad = num("bad"); bytes = num("bytes")
			if (num("end") != "OK") err = num("end")
		} else if (kind == "pz") {
			reads = json("calls"); bytes = json("bytes")
			if ($0 ~ /verify/) bad = 1
			if (st != 0 && !bad) err = errname($0)
		} else {
			reads = json("ios"); bytes = json("bytes"); bad = json("verify_failures")
			if ($0 ~ /verify:/ && !bad) bad = 1
			if (st != 0 && !bad) err = errname($0)
		}
		if (st != 0 && err == "" && !bad) err = "OTHER"
		print "reader", kind, t, reads + 0, bytes + 0, bad + 0, (err == "" ? "-" : err), (err == "OTHER" ? $0 : "")
	}' "$W/readers" >"$W/summary"
nreads=$(awk '$1 == "reader" { s += $4 } END { print s + 0 }' "$W/summary")
nbytes=$(awk '$1 == "reader" { s += $5 } END { printf "%.0f", s / 1048576 }' "$W/summary")
nbad=$(awk '$1 == "reader" { s += $6 } END { print s + 0 }' "$W/summary")
nkilled=$(awk '$1 == "killed"' "$W/summary" | wc -l)
diag "$(awk '{ print $2 }' "$W/readers" | wc -l) reader runs, $nkilled SIGKILLed;" \
	"$nreads reads verified ($nbytes MiB), $nbad bad bytes"
ok "no non-zero byte in $nreads verified reads ($nbytes MiB)" -- eval '[ "$nbad" -eq 0 ] && [ "$nreads" -gt 0 ]'
# every error: a documented errno, inside a window from a SIGKILL to 2 s after the next start
awk '$1 == "life" && $3 ~ /^killed=/ { sub(/killed=/, "", $3); k[$2] = $3 }
     $1 == "life" && $3 == "start" { for (i = 4; i <= NF; i++) if ($i ~ /^ready=/) { sub(/ready=/, "", $i); r[$2] = $i } }
     END { for (l in k) printf "window %.3f %.3f\n", k[l] - 0.5, r[l + 1] + 2 }' "$W/lives" >"$W/windows"
errs=$(awk 'NR == FNR { lo[NR] = $2; hi[NR] = $3; n = NR; next }
	$1 == "reader" && $7 != "-" {
		inw = 0
		for (i = 1; i <= n; i++) if ($3 >= lo[i] && $3 <= hi[i]) inw = 1
		print $7 (inw ? "" : "(outside-any-restart-window)")
	}' "$W/windows" "$W/summary" | sort | uniq -c | awk '{ printf "%s%s x%s", (NR > 1 ? ", " : ""), $2, $1 }')
diag "reader errors: ${errs:-none}"
ok "reader errors only ENOTCONN/ECONNABORTED/ECANCELED/ENOENT, each around a SIGKILL (${errs:-none})" -- \
	eval '! echo "$errs" | grep -q -e OTHER -e outside'
grep "OTHER" "$W/summary" | head -5 | sed 's/^/# /'
nstarts=$(grep -c ' start ' "$W/lives")
good=$(awk '/ start / && (($4 == "A=0") != ($5 == "B=0")) && $6 == "mounts=1"' "$W/lives" | wc -l)
ok "$nstarts daemon starts (first + $((nstarts - 1)) restarts after SIGKILL), each by two racing starts: one won, one mount ($good)" -- \
	eval '[ "$good" -eq "$nstarts" ] && [ "$nstarts" -eq $((kills + 1)) ]'
sed -n 's/^/# /p' "$W/lives"
nvalid=$(grep -c '^valid' "$W/churn" 2>/dev/null)
ninvalid=$(grep -c '^invalid' "$W/churn" 2>/dev/null)
ok "settings churn: $nvalid valid applied, $ninvalid invalid refused with nothing changed, no problem" -- \
	eval '! [ -s "$W/problems" ] && [ "${nvalid:-0}" -gt 0 ] && [ "${ninvalid:-0}" -gt 0 ]'
[ -s "$W/problems" ] && head -5 "$W/problems" | sed 's/^/# problem: /'
flat=$(awk '{ key = $2; if ($3 == "mid") { f[key] = $5; r[key] = $7 } else if (key in f) {
		printf "life %s fds %s->%s rss %s->%s kB%s; ", key, f[key], $5, r[key], $7,
			($9 > 0 ? " (of which huge pages " $9 " kB)" : "")
		if ($5 != f[key] || $7 - r[key] - $9 > max) bad = 1 } } END { exit bad }' max="$rss_max" "$W/samples")
st=$?
ok "daemon fds and RSS flat within each life, new huge pages not counted (${flat})" -- [ "$st" -eq 0 ]
# where a life's RSS grew: its mappings that grew most between the samples
for f in "$W"/smaps.*.end; do
	[ "$st" -ne 0 ] && [ -f "$f" ] || continue
	l=${f#"$W"/smaps.} l=${l%.end}
	awk -v l="$l" 'NR == FNR { r[$1] = $3; next }
	     { d = $3 - r[$1]; if (d > 64) printf "life %s: %s %s +%d kB (%d -> %d; huge pages %d kB)\n", l, $1, $2, d, r[$1], $3, $4 }' \
		"$W/smaps.$l.mid" "$f" 2>/dev/null | sort -t+ -k2 -rn | head -n 5 | sed 's/^/# rss grew: /'
done
ok "each daemon lived until the test killed it" -- eval '! [ -s "$W/deaths" ]'
[ -s "$W/deaths" ] && sed 's/^/# /' "$W/deaths"
diag "soak: $(awk -v a="$t_start" -v b="$t_end" 'BEGIN { printf "%.0f", b - a }') s," \
	"$nstarts daemons ($(grep -c killed= "$W/lives") SIGKILLed), $nreads reads verified, $nbad bad bytes"
done_testing
