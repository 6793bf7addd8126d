# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the bench/*.sh scripts: . "$(dirname "$0")/lib.sh" after setting
# bench=NAME (the script's name, the prefix of its error lines).
#   die MSG          one line "NAME: MSG" on stderr, exit 1 (a failure)
#   usage MSG        the same, exit 2 (bad options or arguments)
#   median [N...]    the median of the numbers (arguments, else one a line
#                    on stdin); 0 for none
#   median_spread    stdin, one number a line: "median spread% best", the
#                    spread (max - min) / median showing how noisy the
#                    machine was, best the largest value
#   daemon_start MNT [OPTS...]   cusezero --fuse MNT with a pidfile MNT.pid,
#                    its stderr in MNT.err; MNT is created; status of the start
#   daemon_stop MNT  SIGTERM the daemon started at MNT, wait (5 s) for the
#                    unmount, else unmount it lazily
#   uring_param_save / uring_param_restore   keep and put back the host's
#                    /sys/module/fuse/parameters/enable_uring (rows that
#                    switch the FUSE io_uring transport on)
die() { echo "${bench:-bench}: $*" >&2; exit 1; }
usage() { echo "${bench:-bench}: $*" >&2; exit 2; }

median() {
	if [ $# -gt 0 ]; then printf '%s\n' "$@"; else cat; fi | sort -g | awk '{ v[NR] = $1 } END {
		if (!NR) print 0; else if (NR % 2) print v[(NR + 1) / 2]
		else printf "%.10g\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

median_spread() {
	sort -g | awk '{ v[NR] = $1 } END {
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%s %.1f %s\n", m, (m > 0 ? (v[NR] - v[1]) / m * 100 : 0), v[NR] }'
}

daemon_start() {
	bench_mnt=$1; shift
	[ -x "${CUSEZERO:-}" ] || die "cusezero not found at '${CUSEZERO:-}' (set CUSEZERO)"
	mkdir -p "$bench_mnt" || return 1
	"$CUSEZERO" --name "${bench:-bench}$$" --fuse "$bench_mnt" --pidfile "$bench_mnt.pid" "$@" \
		2>"$bench_mnt.err"
}

daemon_stop() {
	[ -s "$1.pid" ] || return 0
	kill "$(cat "$1.pid")" 2>/dev/null || true
	i=0
	while mountpoint -q "$1" 2>/dev/null && [ $i -lt 50 ]; do
		sleep 0.1; i=$((i + 1))
	done
	if mountpoint -q "$1" 2>/dev/null; then
		fusermount3 -u "$1" 2>/dev/null || umount -l "$1" 2>/dev/null || true
	fi
	rm -f "$1.pid"
}

uring_param=/sys/module/fuse/parameters/enable_uring
uring_param_save() { uring_param_saved=$(cat "$uring_param" 2>/dev/null || true); }
uring_param_restore() {
	[ -n "${uring_param_saved:-}" ] || return 0
	[ "$(cat "$uring_param" 2>/dev/null)" = "$uring_param_saved" ] && return 0
	echo "$uring_param_saved" >"$uring_param" 2>/dev/null ||
		echo "${bench:-bench}: could not restore $uring_param to $uring_param_saved" >&2
}
