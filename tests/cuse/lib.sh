# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the tests/cuse/*.sh tests: TAP helpers, a private temporary
# directory, daemons started with a pidfile (only those are ever stopped),
# bounded waits, and a cleanup trap that leaves no mount behind.
. "$top_srcdir/tests/tap.sh"

# cz_require_fuse: the scratch directory and cleanup trap of a device test.
# Root, /dev/fuse and $CUSEZERO are the test's "# Needs: root fuse" line,
# checked by tests/tap.sh (tests/needs.sh); asserted here again in case the
# line is missing.
cz_require_fuse() {
	case " $(cz_needs "$0") " in
	*" fuse "*) ;;
	*) echo "Bail out! $0 starts cusezero but has no '# Needs: root fuse' line"; exit 99 ;;
	esac
	CZ_TMP=$(mktemp -d /tmp/cusezero-test.XXXXXX) || skip_all "mktemp failed"
	chmod 755 "$CZ_TMP"
	trap cz_cleanup EXIT
	trap 'exit 1' INT TERM
	cz_san_init
}

# Sanitizer builds: a background daemon's stderr is /dev/null, so an ASan,
# UBSan or TSan report (and the abort that may follow it) would leave no
# trace but a dead daemon.  Reports from every program a test starts go to
# files in $CZ_TMP/san/ instead, and done_testing adds one check that none is
# there.
cz_san_init() {
	cz_san=""
	libs=$(ldd "$CUSEZERO" 2>/dev/null)
	case $libs in *libasan*) cz_san=ASan ;; esac
	case $libs in *libubsan*) cz_san="${cz_san:+$cz_san+}UBSan" ;; esac
	case $libs in *libtsan*) cz_san="${cz_san:+$cz_san+}TSan" ;; esac
	[ -n "$cz_san" ] || return 0
	mkdir -m 1777 "$CZ_TMP/san"	# (writable by daemons that dropped privileges)
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}log_path=$CZ_TMP/san/report"
	UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}log_path=$CZ_TMP/san/report"
	TSAN_OPTIONS="${TSAN_OPTIONS:+$TSAN_OPTIONS:}log_path=$CZ_TMP/san/report"
	LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$top_srcdir/tests/cuse/lsan.supp"
	export ASAN_OPTIONS UBSAN_OPTIONS TSAN_OPTIONS LSAN_OPTIONS
	tap_final=cz_san_verdict
}

# A process SIGKILLed during LeakSanitizer's exit-time check leaves an empty
# file or "Unable to get registers from thread N": shown, not counted.
cz_san_verdict() {
	n=$(grep -l -e 'ERROR: ' -e 'runtime error' -e 'WARNING: ThreadSanitizer' \
		"$CZ_TMP"/san/report.* 2>/dev/null | wc -l)
	ok "no $cz_san report from the programs this test started ($n)" -- [ "$n" -eq 0 ]
	for f in "$CZ_TMP"/san/report.*; do
		[ -f "$f" ] || continue
		diag "$f ($(wc -l <"$f") lines):"
		head -80 "$f" | sed 's/^/#   /'
	done
}

cz_pid() { cat "$CZ_TMP/$1.pid" 2>/dev/null; }

# nmounts PATH: how many mounts (live or stale) /proc/self/mountinfo has at
# PATH; it writes space, tab, newline and backslash as \040 \011 \012 \134.
nmounts() {
	CZ_ESC=$(printf '%s' "$1" | sed 's/\\/\\134/g; s/ /\\040/g; s/	/\\011/g') \
		awk '$5 == ENVIRON["CZ_ESC"]' /proc/self/mountinfo | wc -l
}

# Is anything (live or stale) mounted at $1?
cz_mounted() { [ "$(nmounts "$1")" -gt 0 ]; }

cz_cleanup() {
	for pf in "$CZ_TMP"/*.pid; do
		[ -f "$pf" ] || continue
		p=$(cat "$pf")
		[ -n "$p" ] && kill -TERM "$p" 2>/dev/null
	done
	sleep 0.3
	for m in "$CZ_TMP"/mnt-*; do
		[ -d "$m" ] || continue
		if cz_mounted "$m"; then
			diag "cleanup: unmounting leftover $m"
			umount -l "$m" 2>/dev/null || fusermount3 -u -z "$m" 2>/dev/null
		fi
	done
	rm -rf "$CZ_TMP"
}

# Wait up to $2 tenths of a second for command $1 (eval'd) to succeed.
cz_wait() {
	i=0
	while [ "$i" -lt "$2" ]; do
		eval "$1" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# The same by the clock: cz_within SECONDS CONDITION (eval'd); 1 if not in
# time.  cz_up: seconds since boot, 10 ms resolution (busybox date has no %N);
# cz_since T: seconds from cz_up's T to now.  Bounds derived from a measured
# time (tests/cuse/soak.sh, memlimit.sh) need the clock: in TCG a 0.1 s step of
# cz_wait takes several times as long.
cz_up() { cut -d' ' -f1 /proc/uptime; }
cz_since() { awk -v a="$1" -v b="$(cz_up)" 'BEGIN { printf "%.2f", b - a }'; }
cz_within() {
	cz_end=$(awk -v s="$1" -v t="$(cz_up)" 'BEGIN { print t + s }')
	until eval "$2"; do
		awk -v e="$cz_end" -v t="$(cz_up)" 'BEGIN { exit !(t > e) }' && return 1
		sleep 0.1
	done
}
# cz_gone PID...: none of them is running.  cz_pstate PID...: "PID STATE WCHAN; " of each live one.
cz_gone() { for cz_g in "$@"; do ! kill -0 "$cz_g" 2>/dev/null || return 1; done; }
cz_pstate() {
	for cz_g in "$@"; do
		[ -r "/proc/$cz_g/stat" ] && printf '%s %s %s; ' "$cz_g" \
			"$(cut -d' ' -f3 "/proc/$cz_g/stat")" "$(cat "/proc/$cz_g/wchan" 2>/dev/null)"
	done
}

# cz_start NAME [OPTIONS...]: background daemon at $CZ_TMP/mnt-NAME.
cz_start() {
	n=$1; shift
	[ -d "$CZ_TMP/mnt-$n" ] || mkdir "$CZ_TMP/mnt-$n" 2>/dev/null
	"$CUSEZERO" --fuse "$CZ_TMP/mnt-$n" --pidfile "$CZ_TMP/$n.pid" "$@" 2>"$CZ_TMP/$n.err"
}

# cz_stop NAME [SIGNAL]: signal the daemon, wait (10 s) until it is gone.
cz_stop() {
	p=$(cz_pid "$1")
	[ -n "$p" ] || return 1
	kill -"${2:-TERM}" "$p" 2>/dev/null
	cz_wait "! kill -0 $p 2>/dev/null" 100 || return 1
	rm -f "$CZ_TMP/$1.pid"
}

# cz_check CHECK DEVICE [ARGS]: run zdev-check, its TAP lines renumbered into ours.
cz_check() {
	out=$CZ_TMP/check.out
	"$top_builddir/tests/cuse/zdev-check" "$@" >"$out" 2>"$CZ_TMP/check.err"
	st=$?
	nfail=0
	while IFS= read -r line; do
		case $line in
		"ok "*"# SKIP"*) skip "${line#*# SKIP }" ;;
		"ok "*) pass "${line#ok * - }" ;;
		"not ok "*) fail "${line#not ok * - }"; nfail=$((nfail + 1)) ;;
		1..*) ;;
		*) echo "$line" ;;
		esac
	done <"$out"
	sed 's/^/# stderr: /' "$CZ_TMP/check.err"
	if [ "$st" -ne 0 ] && [ "$nfail" -eq 0 ]; then
		fail "zdev-check $1 exited with status $st"
	fi
}

# The host-wide /sys/module/fuse/parameters/enable_uring is flipped by more
# than one test (and by `--transport uring`): a test that depends on its
# value holds this lock for its whole run, so parallel tests (make -j, other
# checkouts on the machine) do not change it under each other.  The lock
# file's path is fixed (not under $TMPDIR): the switch is the host's.
cz_lock_enable_uring() {
	command -v flock >/dev/null || return 0
	exec 9>/tmp/cusezero-enable_uring.lock
	flock 9
}

# cz_take_enable_uring: a test of the io_uring transport: the lock above,
# $PARAM (the switch) and $param_saved (its value), the switch set to Y and
# put back at exit; skip_all without CONFIG_FUSE_IO_URING or when it cannot
# be written.  cz_set_enable_uring VALUE sets it meanwhile.
cz_set_enable_uring() { echo "$1" >"$PARAM" 2>/dev/null; }
cz_take_enable_uring() {
	cz_lock_enable_uring
	PARAM=/sys/module/fuse/parameters/enable_uring
	[ -f "$PARAM" ] || skip_all "kernel without CONFIG_FUSE_IO_URING (no $PARAM)"
	param_saved=$(cat "$PARAM")
	cz_set_enable_uring Y || skip_all "cannot write $PARAM"
	trap 'cz_set_enable_uring "$param_saved"; cz_cleanup' EXIT
}

# cz_sendfile_refused WHAT FILE: one TAP line: sendfile(2) of a text file
# copies nothing and fails -- EINVAL from the daemon, which the caller sees
# as EIO where the kernel reads FUSE pages through iomap (Linux 7.x).
cz_sendfile_refused() {
	"$top_builddir/tests/cuse/sendcat" "$2" >"$CZ_TMP/sent" 2>"$CZ_TMP/sent.err"
	_st=$?
	ok "$1: refused, nothing copied (status $_st: $(cat "$CZ_TMP/sent.err"))" -- \
		sh -c "[ $_st -eq 1 ] && grep -q -e 'Invalid argument' -e 'Input/output error' '$CZ_TMP/sent.err' && [ ! -s '$CZ_TMP/sent' ]"
}

# cz_usable_routines: the registry's routines usable here, one per line.
# --routine help marks an unusable one on the line after it ("unusable
# here: ..."), so a filter on single lines keeps its name.
cz_usable_routines() {
	"$CUSEZERO" --routine help | awk 'NR > 1 && /^[^[:space:]]/ { if (n) print name; name = $1; n = 1; next }
		/unusable here/ { n = 0 } END { if (n) print name }'
}
