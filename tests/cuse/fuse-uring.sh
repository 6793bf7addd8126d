#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: the FUSE front end over io_uring (cusezero --transport).
# With --transport uring every kind of read returns zeros (the daemon runs
# with --poison, so a request that skips the routine shows up), concurrent
# readers and killed readers work, the requests really arrive by io_uring
# (the daemon's debug summary counts them), the stats count them, the text
# files refuse sendfile and read whole with read(2) over the ring; a daemon
# stopped while a queue thread is still setting up (held back by busy loops
# on its CPU) stops cleanly, with no TSan report in a TSan build; auto falls
# back to /dev/fuse with a note when enable_uring is N; uring sets it as root,
# and puts it back when the last uring daemon that needed it stops;
# a bad --transport is refused.  Needs root and a kernel with
# CONFIG_FUSE_IO_URING; restores /sys/module/fuse/parameters/enable_uring.
# Needs: root fuse io_uring
. "$top_srcdir/tests/cuse/lib.sh"
cz_require_fuse

cz_take_enable_uring

# A bad value: one line naming the option, status 2.
"$CUSEZERO" --fuse "$CZ_TMP/mnt-bad" --transport bogus 2>"$CZ_TMP/bad.err"
st=$?
ok "--transport bogus exits 2 (got $st)" -- [ "$st" -eq 2 ]
ok "--transport bogus: the error names the option" -- grep -q -- "--transport" "$CZ_TMP/bad.err"

# Without the right to unmount, the ring's teardown races auto_unmount: refused.
if command -v fusermount3 >/dev/null; then
	mkdir -p "$CZ_TMP/mnt-user"
	"$CUSEZERO" --fuse "$CZ_TMP/mnt-user" --pidfile "$CZ_TMP/user.pid" --user nobody \
		--transport uring 2>"$CZ_TMP/user.err"
	st=$?
	ok "--transport uring --user nobody is refused (status $st)" -- [ "$st" -ne 0 ]
	ok "--transport uring --user nobody: nothing left mounted" -- \
		cz_wait "! cz_mounted '$CZ_TMP/mnt-user'" 150
fi

# The ring-served device, through the same checks as tests/cuse/io.sh.
if cz_start ring --poison --transport uring; then
	Z=$CZ_TMP/mnt-ring/zero
	pass "cusezero --transport uring started"
	n=$(head -c 5000000 "$Z" | tr -d '\000' | wc -c)
	ok "head -c 5000000: only zero bytes (non-zero: $n)" -- [ "$n" -eq 0 ]
	n=$(dd if="$Z" bs=100k count=7 2>/dev/null | wc -c)
	ok "dd bs=100k count=7 gives 716800 bytes (got $n)" -- [ "$n" -eq 716800 ]
	n=$(dd if="$Z" bs=1M count=8 2>/dev/null | tr -d '\000' | wc -c)
	ok "dd bs=1M count=8: only zero bytes (non-zero: $n)" -- [ "$n" -eq 0 ]
	ok "dd of=zero (write) accepted" -- sh -c "dd if=/dev/urandom of='$Z' bs=64k count=4 2>/dev/null"
	cz_check io "$Z"
	cz_check uring "$Z"
	cz_check stress "$Z" 3
	cz_check killed "$Z"
	req=$(awk '$1 == "requests" { print $2 }' "$CZ_TMP/mnt-ring/stats")
	ok "stats count the ring's requests (requests = $req)" -- [ "${req:-0}" -gt 100 ]
	errs=$(awk '$1 == "routine_errors" { print $2 }' "$CZ_TMP/mnt-ring/stats")
	ok "stats: routine_errors = 0 (got $errs)" -- [ "$errs" = 0 ]
	# The text files over the ring: the daemon tells a page-cache copy
	# (sendfile: refused) from a read(2) by the read's lock owner, which
	# the kernel sets on direct reads whatever the transport; the ring's
	# kernels are newer than the first VM's (Debian's arm64 7.3: EIO), so
	# checked here too.
	D=$CZ_TMP/mnt-ring
	cz_sendfile_refused "ring: sendfile of stats.json" "$D/stats.json"
	ok "ring: read(2) of control gives the settings" -- grep -q '^chunk=[0-9]' "$D/control"
	if command -v busybox >/dev/null 2>&1; then
		ok "ring: busybox cat of stats.json (sendfile, then read(2)): whole, no NUL" -- \
			sh -c "busybox cat '$D/stats.json' | tr '\\000' @ | tail -c 2 | grep -q '}'"
	else
		skip "ring: busybox cat of the text files: no busybox here (apt-get install busybox)"
	fi
	ok "SIGTERM stops the daemon" -- cz_stop ring
	ok "no mount left at mnt-ring" -- eval "! cz_mounted '$CZ_TMP/mnt-ring'"
else
	fail "start cusezero --transport uring: $(cat "$CZ_TMP/ring.err")"
fi

# Do the requests really come by ring?  The debug summary at exit says.
mkdir -p "$CZ_TMP/mnt-dbg"
"$CUSEZERO" -d --fuse "$CZ_TMP/mnt-dbg" --transport uring 2>"$CZ_TMP/dbg.err" &
dpid=$!
echo "$dpid" >"$CZ_TMP/dbg.pid"
if cz_wait "[ -e '$CZ_TMP/mnt-dbg/zero' ]" 100; then
	dd if="$CZ_TMP/mnt-dbg/zero" of=/dev/null bs=100k count=50 2>/dev/null
	kill -TERM "$dpid"
	wait "$dpid"
	rm -f "$CZ_TMP/dbg.pid"
	nring=$(sed -n 's/.* \([0-9][0-9]*\) requests by io_uring.*/\1/p' "$CZ_TMP/dbg.err")
	ok "50 reads of 100 KiB were served by io_uring (count: ${nring:-none})" -- \
		[ "${nring:-0}" -ge 50 ]
	[ -n "$nring" ] || grep -i uring "$CZ_TMP/dbg.err" | sed 's/^/# /'
else
	fail "cusezero -d --transport uring: no zero file after 10 s: $(tail -3 "$CZ_TMP/dbg.err")"
fi

# A queue thread the scheduler holds back: queue 1 is pinned to CPU 1, and
# four busy loops there leave it (nice 19) a fraction of a percent, so it
# often sets up its ring only after SIGTERM, while queue 0's ring is torn
# down.  The daemon must still stop, and (TSan build) the late ring, which
# the kernel maps at the address queue 0's ring just left, must not meet
# queue 0's accesses unordered (liburing maps rings by raw system calls).
if taskset -c 1 true 2>/dev/null; then
	late_bad=""
	r=0
	while [ "$r" -lt 8 ]; do
		r=$((r + 1))
		hogs=""
		for h in 1 2 3 4; do
			timeout 10 taskset -c 1 sh -c 'while :; do :; done' &
			hogs="$hogs $!"
		done
		mkdir -p "$CZ_TMP/mnt-late"
		if nice -n 19 "$CUSEZERO" --fuse "$CZ_TMP/mnt-late" --pidfile "$CZ_TMP/late.pid" \
			--transport uring 2>"$CZ_TMP/late.err"; then
			p=$(cz_pid late)
			kill -TERM "$p"
			sleep 0.3
			kill $hogs
			wait $hogs 2>/dev/null
			cz_wait "! kill -0 $p 2>/dev/null" 100 || late_bad="$late_bad stop$r"
			rm -f "$CZ_TMP/late.pid"
		else
			kill $hogs
			wait $hogs 2>/dev/null
			late_bad="$late_bad start$r($(head -1 "$CZ_TMP/late.err"))"
		fi
		cz_mounted "$CZ_TMP/mnt-late" && late_bad="$late_bad mounted$r"
	done
	ok "8 starts and SIGTERMs with queue 1 held back: all stopped, nothing mounted${late_bad:+ (failed:$late_bad)}" -- \
		[ -z "$late_bad" ]
else
	skip "late queue thread: CPU 1 is not available here (taskset -c 1)"
fi

# param_back SIGNAL NAME: the daemon NAME, stopped by SIGNAL, put enable_uring
# back to N -- unless another --transport uring daemon (another test, another
# checkout's suite) ran meanwhile and switched it on for itself.
param_back() {
	if pgrep -f -- '--transport uring' >/dev/null; then
		skip "uring: $1 put enable_uring back: another --transport uring daemon runs here"
	else
		ok "uring: $1 put enable_uring back to N (now $(cat "$PARAM"))" -- [ "$(cat "$PARAM")" = N ]
	fi
}

# enable_uring = N: auto falls back with a note, uring (root) switches it on.
cz_set_enable_uring N
mkdir -p "$CZ_TMP/mnt-auto"
"$CUSEZERO" -d --fuse "$CZ_TMP/mnt-auto" --transport auto 2>"$CZ_TMP/auto.err" &
echo $! >"$CZ_TMP/auto.pid"
if cz_wait "[ -e '$CZ_TMP/mnt-auto/zero' ]" 100; then
	n=$(dd if="$CZ_TMP/mnt-auto/zero" bs=100k count=20 2>/dev/null | tr -d '\000' | wc -c)
	ok "auto with enable_uring=N: reads are zeros (non-zero: $n)" -- [ "$n" -eq 0 ]
	ok "auto with enable_uring=N: a debug note says io_uring is off" -- \
		grep -q "io_uring transport off" "$CZ_TMP/auto.err"
	cz_stop auto
else
	fail "start cusezero -d --transport auto: $(tail -3 "$CZ_TMP/auto.err")"
fi
if cz_start on --transport uring; then
	ok "uring with enable_uring=N sets it (now $(cat "$PARAM"))" -- [ "$(cat "$PARAM")" = Y ]
	n=$(dd if="$CZ_TMP/mnt-on/zero" bs=100k count=20 2>/dev/null | tr -d '\000' | wc -c)
	ok "uring after switching it on: reads are zeros (non-zero: $n)" -- [ "$n" -eq 0 ]
	cz_stop on
	# The switch must be Y before the mount: the kernel offers the ring in INIT.
	ok "uring after switching it on: the ring was offered ($(head -1 "$CZ_TMP/on.err"))" -- \
		eval "! grep -q 'unavailable' '$CZ_TMP/on.err'"
	param_back SIGTERM on
else
	fail "start cusezero --transport uring with enable_uring=N: $(cat "$CZ_TMP/on.err")"
fi
if cz_start on2 --transport uring; then
	cz_stop on2 INT
	param_back SIGINT on2
fi
# Two uring daemons started together, both finding enable_uring = N: the
# first to stop leaves it on for the other, the last one puts it back.
cz_set_enable_uring N
cz_start both1 --transport uring &
b1=$!
cz_start both2 --transport uring &
b2=$!
wait "$b1"
s1=$?
wait "$b2"
s2=$?
if [ "$s1:$s2" = 0:0 ]; then
	cz_stop both1
	ok "two uring daemons: the first stopped, enable_uring stays Y for the other (now $(cat "$PARAM"))" -- \
		[ "$(cat "$PARAM")" = Y ]
	cz_stop both2
	param_back "the last of two uring daemons" both2
else
	fail "two uring daemons: start: $(cat "$CZ_TMP/both1.err" "$CZ_TMP/both2.err")"
	cz_stop both1
	cz_stop both2
fi
cz_set_enable_uring Y
if cz_start on3 --transport uring; then
	cz_stop on3
	ok "uring: enable_uring found Y stays Y (now $(cat "$PARAM"))" -- [ "$(cat "$PARAM")" = Y ]
fi
# A second start on the mount of a stopped io_uring daemon: the kernel has
# handed the probe's request to the stopped daemon's ring, so SIGKILL cannot
# end the probe; the start must still refuse, within its 3 s probe (not hang).
if cz_start stopu --transport uring; then
	p=$(cz_pid stopu)
	kill -STOP "$p"
	t0=$(date +%s)
	timeout 60 "$CUSEZERO" --fuse "$CZ_TMP/mnt-stopu" --pidfile "$CZ_TMP/stopu2.pid" 2>"$CZ_TMP/stopu2.err"
	st=$? t=$(( $(date +%s) - t0 ))
	ok "uring: a start on a stopped daemon's mount refuses in ${t} s (exit $st): $(head -n 1 "$CZ_TMP/stopu2.err")" -- \
		sh -c "[ $st -eq 1 ] && [ $t -lt 30 ] && grep -q 'does not answer' '$CZ_TMP/stopu2.err'"
	kill -CONT "$p"
	ok "uring: the stopped daemon, continued, serves and stops" -- \
		eval '[ "$(head -c 1000 "$CZ_TMP/mnt-stopu/zero" | wc -c)" -eq 1000 ] && cz_stop stopu'
else
	fail "start cusezero --transport uring (stopu): $(cat "$CZ_TMP/stopu.err")"
fi
cz_set_enable_uring N
if cz_start dev --transport dev; then
	n=$(dd if="$CZ_TMP/mnt-dev/zero" bs=100k count=20 2>/dev/null | tr -d '\000' | wc -c)
	ok "--transport dev: reads are zeros (non-zero: $n)" -- [ "$n" -eq 0 ]
	cz_stop dev
else
	fail "start cusezero --transport dev: $(cat "$CZ_TMP/dev.err")"
fi
done_testing
