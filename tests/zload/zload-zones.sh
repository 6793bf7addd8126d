#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: fio's zonemode, cmdprio and log files in zload.
# zonemode=strided (zonesize, zonerange, zoneskip) puts the I/Os at fio's
# offsets (log_offset=1 logs, compared with fio's own where installed);
# zonemode=zbd on a regular file reads nothing (empty emulated zones,
# read_beyond_wp=0), as fio does, and refuses writes; cmdprio_percentage
# and cmdprio_bssplit give their share of the I/Os the priority, which
# log_prio=1 logs as fio's 0x%04x column, best effort for every user and real
# time where this process may set it (CAP_SYS_ADMIN or CAP_SYS_NICE: the
# kernel refuses the class to others, every read fails with EPERM, fio's
# too; a visible SKIP then); write_hist_log with log_hist_msec
# writes fio's histogram log (1856 bins, fewer with log_hist_coarseness),
# whose counts add up to the reads done.
# Needs: io_uring
. "$top_srcdir/tests/zload/zload-lib.sh"
Z=$ZLOAD
[ -x "$Z" ] || skip_all "zload not built ($Z): no liburing for this host"
cd "$CZ_TMP" || exit 1
truncate -s 67108864 reg || exit 1	# (busybox truncate takes no suffix)

# offs TOOL PREFIX ARGS...: the offset column of TOOL's lat log, one line.
offs() {
	t=$1 p=$2
	shift 2
	rm -f "${p}"_lat.1.log
	"$t" --name=t --filename=reg --size=64m --bs=64k --number_ios=8 --write_lat_log="$p" \
		--log_offset=1 --output=/dev/null "$@" 2>/dev/null
	awk -F', ' '{ printf "%s ", $5 }' "${p}"_lat.1.log 2>/dev/null
}
strided='0 65536 1179648 1245184 2359296 2424832 3538944 3604480 '
res=$(offs "$Z" z --rw=read --zonemode=strided --zonesize=128k --zoneskip=1m)
expect_eq "zonemode=strided zonesize=128k zoneskip=1m: 128 KiB, then 1 MiB skipped" "$res" "$strided"
res=$(offs "$Z" z --rw=read --zonesize=128k --zoneskip=1m)
expect_eq "zonesize without zonemode: strided, as fio" "$res" "$strided"
res=$(offs "$Z" z --rw=randread --bs=4k --zonerange=64k --zonesize=16k --zoneskip=1m --number_ios=12 |
	awk '{ for (i = 1; i <= NF; i++) { z = int((i - 1) / 4) * 1114112
		if ($i < z || $i >= z + 65536) { print "bad " $i; exit } } print "in zones" }')
expect_eq "randread zonerange=64k zonesize=16k: 4 I/Os in each 64 KiB zone, 1 MiB apart" "$res" "in zones"
if command -v fio >/dev/null; then
	res=$(offs fio f --rw=read --zonemode=strided --zonesize=128k --zoneskip=1m)
	expect_eq "fio's own offsets for zonemode=strided are the same" "$res" "$strided"
	res=$(offs fio f --rw=read --zonemode=strided --zonesize=96k --zonerange=64k --zoneskip=0)
	res2=$(offs "$Z" z --rw=read --zonemode=strided --zonesize=96k --zonerange=64k --zoneskip=0)
	expect_eq "zonesize > zonerange: the zone is read again, fio's offsets" "$res2" "$res"
else
	skip "fio not installed: no comparison with fio's offsets"
fi

one_line_error "zonemode=none with zonesize refused" -- "$Z" --zonemode=none --zonesize=1m reg
one_line_error "zonemode=strided without zonesize refused" -- "$Z" --zonemode=strided reg
one_line_error "zonemode=zbd with writes refused naming them" -- \
	"$Z" --zonemode=zbd --zonesize=1m --rw=randwrite reg
case $ERRLINE in *"writes at emulated write pointers"*) ;; *) fail "zbd writes: '$ERRLINE'" ;; esac
res=$("$Z" --name=t --filename=reg --rw=read --zonemode=zbd --zonesize=1m --output-format=terse 2>err |
	cut -d';' -f6)
expect_eq "zonemode=zbd read on a regular file: nothing read (empty zones)" "$res" "0"
ok "... and a note says why" -- grep -q "read_beyond_wp=0 leaves nothing to read" err
res=$("$Z" --name=t --filename=reg --rw=read --zonemode=zbd --zonesize=1m --read_beyond_wp=1 \
	--size=1m --output-format=terse 2>/dev/null | cut -d';' -f6)
expect_eq "zonemode=zbd read_beyond_wp=1: reads (1 MiB)" "$res" "1024"

# prio TOOL ARGS...: "count prio" of the clat log's last column.
prio() {
	t=$1
	shift
	rm -f p_clat.1.log
	"$t" --name=t --filename=reg --size=64m --rw=randread --bs=4k --number_ios=2000 \
		--ioengine=io_uring --iodepth=4 --write_lat_log=p --log_prio=1 --output=/dev/null "$@" \
		2>/dev/null
	awk -F', ' '{ print $NF }' p_clat.1.log 2>/dev/null | sort | uniq -c | awk '{ printf "%s:%s ", $2, $1 }'
}
# Best effort: no privilege needed.
res=$(prio "$Z" --prioclass=3 --cmdprio_percentage=30 --cmdprio_class=2 --cmdprio=3)
n=$(printf '%s\n' "$res" | tr ' ' '\n' | sed -n 's/^0x4003://p')
m=$(printf '%s\n' "$res" | tr ' ' '\n' | sed -n 's/^0x6000://p')
ok "cmdprio_percentage=30 cmdprio_class=2 cmdprio=3: ${n:-0} of 2000 best effort 3 (0x4003), ${m:-0} idle" -- \
	test "${n:-0}" -ge 450 -a "${n:-0}" -le 750 -a $((${n:-0} + ${m:-0})) -eq 2000
res=$(prio "$Z" --bs=4k --cmdprio_bssplit=4k/50/2/3:4k/50/3/5)
ok "cmdprio_bssplit=4k/50/2/3:4k/50/3/5: both priorities logged ($res)" -- \
	sh -c 'case "$1" in *0x4003:*0x6005:*) exit 0 ;; esac; exit 1' sh "$res"
res=$(prio "$Z" --prio=5)
expect_eq "prio=5 alone: best effort level 5 on every I/O (0x4005), as fio's" "$res" "0x4005:2000 "
res=$(prio "$Z" --cmdprio_percentage=100 --cmdprio_class=2 --log_prio=0)
expect_eq "log_prio=0: the column says 0 for best effort, as fio's" "$res" "0:2000 "
if command -v fio >/dev/null; then
	res=$(prio fio --norandommap --prioclass=3 --cmdprio_percentage=30 --cmdprio_class=2 --cmdprio=3 |
		tr ' ' '\n' | cut -d: -f1 | tr '\n' ' ')
	expect_eq "fio logs the same two values" "$res" "0x4003 0x6000 "
	res=$(prio fio --norandommap --prio=5 | cut -d: -f1)
	expect_eq "fio logs prio=5 as 0x4005 too" "$res" "0x4005"
fi
# Real time (cmdprio_class's default): CAP_SYS_ADMIN or CAP_SYS_NICE.
why=$(rt_ioprio_why)
if [ -n "$why" ]; then
	for c in "cmdprio_percentage=30, real time" "cmdprio_bssplit with a real-time entry" \
		 "log_prio=0: 1 for real time" "fio: the same real-time values"; do
		skip "$c: $why"
	done
else
	res=$(prio "$Z" --prioclass=3 --cmdprio_percentage=30 --cmdprio_class=1)
	n=$(printf '%s\n' "$res" | tr ' ' '\n' | sed -n 's/^0x2000://p')
	m=$(printf '%s\n' "$res" | tr ' ' '\n' | sed -n 's/^0x6000://p')
	ok "cmdprio_percentage=30: ${n:-0} of 2000 real time (0x2000), ${m:-0} idle (prioclass=3)" -- \
		test "${n:-0}" -ge 450 -a "${n:-0}" -le 750 -a $((${n:-0} + ${m:-0})) -eq 2000
	res=$(prio "$Z" --bs=4k --cmdprio_bssplit=4k/50/1/3:4k/50/3/5)
	ok "cmdprio_bssplit=4k/50/1/3:4k/50/3/5: both priorities logged ($res)" -- \
		sh -c 'case "$1" in *0x2003:*0x6005:*) exit 0 ;; esac; exit 1' sh "$res"
	res=$(prio "$Z" --cmdprio_percentage=100 --log_prio=0)
	expect_eq "log_prio=0: the column says 1 for real time, as fio's" "$res" "1:2000 "
	if command -v fio >/dev/null; then
		res=$(prio fio --norandommap --prioclass=3 --cmdprio_percentage=30 | tr ' ' '\n' | cut -d: -f1 | tr '\n' ' ')
		expect_eq "fio logs the same two values" "$res" "0x2000 0x6000 "
	else
		skip "fio not installed: no comparison of the real-time values"
	fi
fi
one_line_error "cmdprio_percentage with ioengine=psync refused" -- \
	"$Z" --ioengine=psync --cmdprio_percentage=10 reg
one_line_error "cmdprio_percentage with cmdprio_bssplit refused" -- \
	"$Z" --cmdprio_percentage=10 --cmdprio_bssplit=4k/10 reg
one_line_error "cmdprio_bssplit=4k/x refused" -- "$Z" --cmdprio_bssplit=4k/x reg

# hist TOOL ARGS...: "fields-per-line lines" of TOOL's clat histogram log.
hist() {
	t=$1
	shift
	rm -f h_clat_hist.1.log
	"$t" --name=h --filename=/dev/zero --rw=read --size=1t --runtime=1 --time_based \
		--write_hist_log=h --output=/dev/null "$@" 2>/dev/null
	awk -F', ' '{ n[NF] = 1 } END { for (k in n) printf "%d ", k; printf "%d\n", NR }' h_clat_hist.1.log
}
res=$(hist "$Z" --log_hist_msec=200)
case $res in
"1859 "[3-6]) pass "write_hist_log log_hist_msec=200: time, dir, bs and 1856 bins per line ($res)" ;;
*) fail "write_hist_log: '$res', expected 1859 fields on 3..6 lines" ;;
esac
"$Z" --name=h --filename=/dev/zero --rw=read --number_ios=50000 --write_hist_log=h --log_hist_msec=1 \
	--output-format=terse >t 2>/dev/null
res=$(awk -F', ' '{ for (i = 4; i <= NF; i++) s += $i } END { print (s <= 50000 && s > 40000) }' \
	h_clat_hist.1.log)
expect_eq "the bins count the reads of the windows logged (<= 50000)" "$res" "1"
res=$(hist "$Z" --log_hist_msec=200 --log_hist_coarseness=2)
expect_eq "log_hist_coarseness=2: 1856 / 4 bins" "${res% *}" "467"
res=$(hist "$Z")
expect_eq "without log_hist_msec the file is empty, as fio's" "$res" "0"
if command -v fio >/dev/null; then
	res=$(hist fio --log_hist_msec=200 --log_hist_coarseness=2)
	expect_eq "fio's own histogram log: the same fields per line" "${res% *}" "467"
fi
done_testing
