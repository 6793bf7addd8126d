#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: pread_z100k and zload read zeros from the cusezero FUSE
# device (MOUNTPOINT/zero), with --verify, through every zload I/O path;
# zload --status-interval dumps on it.
# Skips (visibly) without the daemon, root or /dev/fuse.
# Needs: root fuse io_uring
. "$top_srcdir/tests/zload/zload-lib.sh"
P=$PREAD_Z100K
Z=$ZLOAD
[ -x "$P" ] || skip_all "pread_z100k not built ($P)"

MNT=$CZ_TMP/mnt
mkdir -p "$MNT" || exit 1
cleanup() {
	if [ -s "$CZ_TMP/pid" ]; then
		kill "$(cat "$CZ_TMP/pid")" 2>/dev/null
		i=0
		while mountpoint -q "$MNT" && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	fi
	if mountpoint -q "$MNT"; then
		fusermount3 -u "$MNT" 2>/dev/null || umount -l "$MNT"
	fi
	rm -rf "$CZ_TMP"
}
trap cleanup EXIT

if ! "$CUSEZERO" --name "zloadtest$$" --fuse "$MNT" --pidfile "$CZ_TMP/pid" 2>"$CZ_TMP/start"; then
	case $(cat "$CZ_TMP/start") in
	*ermission*|*"not permitted"*) skip_all "cusezero --fuse: $(head -n 1 "$CZ_TMP/start")" ;;
	esac
	echo "not ok 1 - cusezero --fuse $MNT failed: $(head -n 1 "$CZ_TMP/start")"
	echo "1..1"
	exit 1
fi
D=$MNT/zero
if [ ! -e "$D" ]; then
	fail "cusezero --fuse returned but $D does not exist"
	done_testing
	exit 1
fi
pass "cusezero --fuse $MNT: $D is there"

ok "pread_z100k --verify -n 200 $D" -- quiet "$P" --verify -n 200 "$D"
ok "pread_z100k --verify -s 4KB -n 200 $D" -- quiet "$P" --verify -s 4KB -n 200 "$D"
out=$("$P" -n 200 "$D"); rc=$?
if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -Eqx '[0-9]+\.[0-9]{6}'; then
	pass "pread_z100k -n 200 $D: '$out'"
else
	fail "pread_z100k -n 200 $D: exit $rc, '$out'"
fi
J=$("$P" -n 50 --json "$D")
expect_eq "pread_z100k --json: bytes" "$(json_val "$J" bytes)" 5120000

if [ ! -x "$Z" ]; then
	skip "zload not built ($Z): no liburing for this host"
	done_testing
	exit
fi
for opts in "" "--qd 32" "--qd 32 --bs 100KB" "--qd 8 --fixedbufs --registerfiles" "--nonvectored --qd 4" \
	    "--jobs 2 --qd 4"; do
	J=$("$Z" --json --verify --size 8MB $opts "$D" 2>"$CZ_TMP/err"); rc=$?
	e=$(json_val "$J" errors) vf=$(json_val "$J" verify_failures) b=$(json_val "$J" bytes)
	if [ $rc -eq 0 ] && [ "$e" = 0 ] && [ "$vf" = 0 ] && [ "$b" -ge 8388608 ]; then
		pass "zload --verify --size 8MB $opts: $b bytes, $(json_val "$J" short_reads) short, max_inflight $(json_val "$J" max_inflight)"
	else
		fail "zload --verify $opts on $D: exit $rc errors '$e' verify_failures '$vf': $(head -n 2 "$CZ_TMP/err" | tr '\n' '|')"
	fi
done
# The whole queue submitted at once (fio's default batch is 1: then how many
# reads are in flight depends on how fast the daemon answers -- 1 in the
# arm64 VM, 32 on a host).
J=$("$Z" --json --qd 32 --batch-submit 32 --size 4MB "$D")
expect_eq "zload --qd 32 --batch-submit 32 on the FUSE device: max_inflight" "$(json_val "$J" max_inflight)" 32
# Completions arrive asynchronously here: --batch-complete 16 must reap at
# least 16 per wait, so the loop runs at most ios/16 (+ the drain) times.
J=$("$Z" --json --qd 32 --batch-submit 32 --batch-complete 16 --size 8MB "$D")
ios=$(json_val "$J" ios) calls=$(($(json_val "$J" submit_calls) + $(json_val "$J" wait_calls)))
if [ -n "$ios" ] && [ "$calls" -le $((ios / 16 + 3)) ] && [ "$(json_val "$J" max_cqe_batch)" -ge 16 ]; then
	pass "--batch-complete 16: $calls submit/wait calls for $ios reads (<= ios/16 + 3)"
else
	fail "--batch-complete 16: $calls submit/wait calls for '$ios' reads, max_cqe_batch $(json_val "$J" max_cqe_batch)"
fi
out=$("$Z" --format simple --size 4MB "$D"); rc=$?
if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -Eqx '[0-9]+'; then
	pass "zload --format simple $D: '$out'"
else
	fail "zload --format simple $D: exit $rc, '$out'"
fi
# --status-interval on the FUSE file: dumps of the reads so far, then the final report.
"$Z" --name=st --filename="$D" --qd 8 --verify --time_based --runtime=1 --status-interval=250ms \
	--output-format=json >"$CZ_TMP/st.json" 2>"$CZ_TMP/err"; rc=$?
# one compact document a line; awk, not python3 (the arm64 VM has none): the dumps,
# each one's read io_bytes growing from > 0, the last one's verify_failures
res=$(awk '{ n++; b = $0; sub(/.*"read":\{[^}]*"io_bytes":/, "", b); sub(/[^0-9].*/, "", b)
		if (b == "" || b + 0 <= 0 || b + 0 < prev) bad = 1; prev = b + 0
		v = $0; sub(/.*"verify_failures":/, "", v); sub(/[^0-9].*/, "", v) }
	END { print n, (bad ? "False" : "True"), v }' "$CZ_TMP/st.json")
expect_eq "zload --status-interval=250ms --runtime=1 $D: 4 dumps + final, growing, verified (exit $rc)" \
	"$rc $res" "0 5 True 0"

done_testing
