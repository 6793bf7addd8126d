#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: every job file of Debian's fio-examples
# (/usr/share/doc/fio/examples/*.fio), each section pointed at the cusezero
# FUSE zero file with runtime=1, run by fio and by zload; the table below
# says what each one does: both run, zload refuses it with one line naming
# the option and why (exit 2), or fio fails on it here.  A job file whose
# outcome differs from its row fails; the counts (fio runs, zload runs of
# those) are printed, with zload's share of fio's runs (target 90%).
# Jobs of other engines (network, RDMA, GPU, HTTP, zoned, ...) are not run
# by fio; zload must refuse them with one line.
# Needs: root fuse io_uring
. "$top_srcdir/tests/zload/zload-lib.sh"
Z=$ZLOAD
EX=${FIO_EXAMPLES:-/usr/share/doc/fio/examples}
[ -x "$Z" ] || skip_all "zload not built ($Z): no liburing for this host"
command -v fio >/dev/null || skip_all "fio not installed"
[ -d "$EX" ] || skip_all "fio-examples not installed ($EX)"

MNT=$CZ_TMP/mnt
mkdir -p "$MNT" "$CZ_TMP/jobs" || exit 1
cleanup() {
	if [ -s "$CZ_TMP/pid" ]; then
		kill "$(cat "$CZ_TMP/pid")" 2>/dev/null
		i=0
		while mountpoint -q "$MNT" && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	fi
	mountpoint -q "$MNT" && { fusermount3 -u "$MNT" 2>/dev/null || umount -l "$MNT"; }
	rm -rf "$CZ_TMP"
}
trap cleanup EXIT
if ! "$CUSEZERO" --name "fioex$$" --fuse "$MNT" --pidfile "$CZ_TMP/pid" 2>"$CZ_TMP/start"; then
	case $(cat "$CZ_TMP/start") in
	*ermission*|*"not permitted"*) skip_all "cusezero --fuse: $(head -n 1 "$CZ_TMP/start")" ;;
	esac
	fail "cusezero --fuse $MNT: $(head -n 1 "$CZ_TMP/start")"
	done_testing
	exit 1
fi
D=$MNT/zero

# FILE OUTCOME [WHAT]: both = fio and zload run (exit 0); refuse = zload exits
# 2 with one line containing WHAT, fio runs; fiofails = fio fails or does not
# finish in 20 s here, zload runs (run) or refuses (refuse:WHAT); fioflaky =
# the same, but fio finishes some runs and not others here (rate_iops with
# io_submit_mode=offload on the FUSE file), left out of the counts; other =
# another engine: fio is not run, zload refuses with one line containing WHAT.
#
# Where both exit 0 but do different work (fio 3.33 here, the FUSE file
# being 2^63-1 bytes):
# - basic-verify, cmdprio-bssplit, cmdprio-percentage: fio cannot allocate
#   its random map for that size ("failed allocating random map") and does
#   no I/O; zload keeps no random map (fio's norandommap) and runs them:
#   the write phase of basic-verify ends by runtime, so neither verifies.
# - zbd-seq-read: fio emulates zones of zonesize on a file that has none;
#   its 32-bit zone count overflows here (2^35 zones of 256 MiB) and it
#   reads as without zones.
#   zload emulates the zones as fio does on a smaller regular file (empty,
#   read_beyond_wp=0): nothing to read, as fio on a 2 GiB regular file.
TABLE='
1mbs_clients.fio fiofails refuse:ratemin
aio-read.fio both
backwards-read.fio both
basic-verify.fio both
butterfly.fio both
cmdprio-bssplit.fio both
cmdprio-percentage.fio both
cross-stripe-verify.fio fiofails refuse:verify_backlog
dedupe-global.fio fiofails run
disk-zone-profile.fio both
enospc-pressure.fio fiofails refuse:continue_on_error
exitwhat.fio both
fio-rand-RW.fio both
fio-rand-read.fio both
fio-rand-write.fio both
fio-seq-RW.fio both
fio-seq-read.fio both
fio-seq-write.fio both
fixed-rate-submission.fio fioflaky run
flow.fio both
fsx.fio both
iometer-file-access-server.fio both
jesd219.fio both
latency-profile.fio both
numa.fio fiofails run
poisson-rate-submission.fio fioflaky refuse:rate_process
rand-zones.fio both
ssd-steadystate.fio both
ssd-test.fio both
steadystate.fio both
surface-scan.fio fiofails refuse:verify_pattern
tiobench-example.fio both
waitfor.fio both
xnvme-compare.fio fiofails refuse:FIO_IODEPTH
xnvme-zoned.fio fiofails refuse:FIO_IODEPTH
zbd-rand-write.fio refuse writes at emulated write pointers
zbd-seq-read.fio both
cpp_null.fio other ioengine=cpp_null
cpuio.fio other ioengine=cpuio
dev-dax.fio other ioengine=dev-dax
dfs.fio other ioengine=dfs
e4defrag.fio other ioengine=e4defrag
e4defrag2.fio other ioengine=e4defrag
exec.fio other ioengine=exec
falloc.fio other ioengine=falloc
filecreate-ioengine.fio other nrfiles
filedelete-ioengine.fio other ioengine=filedelete
filestat-ioengine.fio other ioengine=filestat
ftruncate.fio other ioengine=ftruncate
gfapi.fio other ioengine=gfapi
gpudirect-rdmaio-client.fio other ioengine=rdma
gpudirect-rdmaio-server.fio other ioengine=rdma
http-s3-crypto.fio other ioengine=http
http-s3-storage-class.fio other ioengine=http
http-s3.fio other ioengine=http
http-swift.fio other ioengine=http
http-webdav.fio other ioengine=http
ime.fio other $jobnum
libcufile-cufile.fio other ioengine=libcufile
libcufile-posix.fio other ioengine=libcufile
libhdfs.fio other ioengine=libhdfs
libiscsi.fio other ioengine=libiscsi
libpmem.fio other ioengine=libpmem
librpma_apm-client.fio other ioengine=librpma_apm_client
librpma_apm-server.fio other ioengine=librpma_apm_server
librpma_gpspm-client.fio other ioengine=librpma_gpspm_client
librpma_gpspm-server.fio other ioengine=librpma_gpspm_server
libzbc-rand-write.fio other ioengine=libzbc
libzbc-seq-read.fio other ioengine=libzbc
mtd.fio other ioengine=mtd
nbd.fio other ioengine=nbd
netio.fio other ioengine=net
netio_multicast.fio other ioengine=net
nfs.fio other nfs_url
null.fio other ioengine=null
pmemblk.fio other ioengine=pmemblk
rados.fio other ioengine=rados
rbd.fio other ioengine=rbd
rdmaio-client.fio other ioengine=rdma
rdmaio-server.fio other ioengine=rdma
sg_verify-fail.fio other buffer_pattern
sg_verify.fio other buffer_pattern
sg_write_same_ndob.fio other buffer_pattern
uring-cmd-ng.fio other ioengine=io_uring_cmd
uring-cmd-zoned.fio other ioengine=io_uring_cmd
zipf.fio other ioengine=null
'

# Each section (and [global]) gets filename=$D and runtime=1 last, after
# its own filename=, directory= and runtime= lines are dropped.
point() {
	awk -v D="$D" '
	function tail_sect() { if (insect) { print "filename=" D; print "runtime=1" } }
	{ line = $0; sub(/^[ \t]+/, "", line) }
	line ~ /^\[/ { tail_sect(); print; insect = 1; next }
	line ~ /^(filename|directory|runtime)[ \t]*=/ { next }
	{ print }
	END { tail_sect() }'
}

# zload's outcome: "run", or "refuse:LINE" (exit 2, one line on stderr
# besides notes), or "fail:STATUS:LINE".
zload_outcome() {
	"$Z" --output=/dev/null "$1" >/dev/null 2>"$CZ_TMP/zerr"
	rc=$?
	grep -v '^zload: note: ' "$CZ_TMP/zerr" >"$CZ_TMP/zline"
	if [ $rc -eq 0 ]; then echo run
	elif [ $rc -eq 2 ] && [ "$(wc -l <"$CZ_TMP/zline")" -eq 1 ]; then echo "refuse:$(cat "$CZ_TMP/zline")"
	else echo "fail:$rc:$(head -n 2 "$CZ_TMP/zline" | tr '\n' '|')"; fi
}

# Rows must list exactly the job files there are.
ls "$EX" | sed -n 's/\.gz$//; /\.fio$/p' | sort -u >"$CZ_TMP/have"
printf '%s\n' "$TABLE" | awk 'NF { print $1 }' | sort >"$CZ_TMP/listed"
ok "the table lists every job file of $EX ($(wc -l <"$CZ_TMP/have") files)" -- \
	cmp -s "$CZ_TMP/have" "$CZ_TMP/listed"

fio_runs=0 both=0 refused=0
export FIO_RW=randread FIO_BS=4k	# the xnvme jobs' ${FIO_RW} and ${FIO_BS}
while read -r f outcome what; do
	[ -n "$f" ] || continue
	src=$EX/$f
	[ -e "$src" ] || src=$src.gz
	[ -e "$src" ] || { fail "$f: not in $EX"; continue; }
	job=$CZ_TMP/jobs/$f
	case $src in *.gz) gzip -dc "$src" ;; *) cat "$src" ;; esac | point >"$job"
	z=$(cd "$CZ_TMP/jobs" && zload_outcome "$f")
	if [ "$outcome" = other ]; then
		case $z in
		refuse:*"$what"*) pass "$f: another engine, zload refuses: ${z#refuse:}" ;;
		*) fail "$f: zload: '$z', expected a refusal naming $what" ;;
		esac
		continue
	fi
	# Its own process group: a killed fio leaves its job processes behind.
	(cd "$CZ_TMP/jobs" && setsid sh -c 'echo $$ >"$1"; exec timeout -k 5 20 fio --output=/dev/null "$2"' \
		sh "$CZ_TMP/fpgid" "$f" >/dev/null 2>"$CZ_TMP/ferr")
	frc=$?
	[ $frc -eq 0 ] || kill -KILL -- "-$(cat "$CZ_TMP/fpgid")" 2>/dev/null
	# fio's job processes start sessions of their own and may outlive fio:
	# those working in the jobs folder are this run's.
	jobs_dir=$(cd "$CZ_TMP/jobs" && pwd -P)
	for p in /proc/[0-9]*; do
		case $(readlink "$p/cwd" 2>/dev/null) in
		"$jobs_dir"|"$jobs_dir (deleted)") kill -KILL "${p#/proc/}" 2>/dev/null ;;
		esac
	done
	if [ "$outcome" = fioflaky ]; then
		case $what:$z in
		run:run) pass "$f: fio exit $frc here (varies), zload runs it" ;;
		refuse:*:refuse:*"${what#refuse:}"*) pass "$f: fio exit $frc here (varies), zload refuses: ${z#refuse:}" ;;
		*) fail "$f: zload: '$z', expected $what" ;;
		esac
		continue
	fi
	if [ "$outcome" = fiofails ]; then
		if [ $frc -eq 0 ]; then
			fail "$f: fio runs it here (exit 0); the table says it fails"
			continue
		fi
		case $what:$z in
		run:run) pass "$f: fio fails here (exit $frc), zload runs it" ;;
		refuse:*:refuse:*) case $z in
			*"${what#refuse:}"*) pass "$f: fio fails here (exit $frc), zload refuses: ${z#refuse:}" ;;
			*) fail "$f: zload: '$z', expected a refusal naming ${what#refuse:}" ;;
			esac ;;
		*) fail "$f: fio fails here (exit $frc); zload: '$z', expected $what" ;;
		esac
		continue
	fi
	if [ $frc -ne 0 ]; then
		fail "$f: fio fails here (exit $frc: $(head -n 1 "$CZ_TMP/ferr")); the table says it runs"
		continue
	fi
	fio_runs=$((fio_runs + 1))
	case $outcome:$z in
	both:run) both=$((both + 1)); pass "$f: fio and zload run it" ;;
	refuse:refuse:*"$what"*)
		refused=$((refused + 1)); pass "$f: fio runs it, zload refuses: ${z#refuse:}" ;;
	*) fail "$f: fio runs it; zload: '$z', the table says $outcome $what" ;;
	esac
done <<EOF2
$TABLE
EOF2

pct=$((fio_runs ? 100 * both / fio_runs : 0))
echo "# fio runs $fio_runs job files here; zload runs $both of them ($pct%), refuses $refused naming why"
ok "counts add up: $both run + $refused refused = $fio_runs fio runs" -- \
	test $((both + refused)) -eq "$fio_runs"
done_testing
