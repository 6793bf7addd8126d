#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zload under fio's option names does what the same options
# under zload's names do (same counters); --rw randread reads other offsets
# than sequential reads; the JSON has fio's per-job "read" object (slat /
# clat / lat with N = reads, clat percentiles, bandwidth samples, CPU);
# exit status 2 for a bad option, 1 for a failed run, 0 otherwise.
# Needs: io_uring
. "$top_srcdir/tests/zload/zload-lib.sh"
Z=$ZLOAD
[ -x "$Z" ] || skip_all "zload not built ($Z): no liburing for this host"

run_json() {	# DESC ARGS...: J = the JSON of zload --json ARGS
	desc=$1; shift
	J=$("$Z" --json "$@" 2>"$CZ_TMP/err"); rc=$?
	[ $rc -eq 0 ] && [ -n "$J" ] && return 0
	fail "$desc: zload $* exited $rc: $(head -n 3 "$CZ_TMP/err" | tr '\n' '|')"
	return 1
}
check() { expect_eq "$1: $2" "$(json_val "$J" "$2")" "$3"; }

if run_json "fio names" --filename=/dev/zero --bs=4k --iodepth=8 --numjobs=2 \
	--iodepth_batch_submit=4 --iodepth_batch_complete_min=2 --size=4MB; then
	check "fio names" qd 8
	check "fio names" numjobs 2
	check "fio names" batch_submit 4
	check "fio names" batch_complete 2
	check "fio names" ios 2048
	check "fio names" max_submit_batch 4
fi
if run_json "--iodepth_batch / --iodepth_batch_complete" --iodepth 8 --iodepth_batch 2 \
	--iodepth_batch_complete 1 --size 1MB /dev/zero; then
	check "--iodepth_batch 2" batch_submit 2
fi
if run_json "--fixedbufs=1 --registerfiles=1 --nonvectored=0" --size 1MB --iodepth 4 \
	--fixedbufs=1 --registerfiles=1 --nonvectored=0 /dev/zero; then
	check "--fixedbufs=1" op read_fixed
	check "--registerfiles=1" files_registered true
fi
if run_json "--fixedbufs=0 --nonvectored=1" --size 1MB --fixedbufs=0 --nonvectored=1 /dev/zero; then
	check "--nonvectored=1" op read
fi
if run_json "--sqthread_poll" --size 1MB --iodepth 4 --sqthread_poll /dev/zero; then
	case $(json_val "$J" dropped_setup_flags) in
	*SQPOLL*) skip "--sqthread_poll: this kernel rejected IORING_SETUP_SQPOLL" ;;
	*) check "--sqthread_poll" sqpoll true ;;
	esac
fi
if run_json "--runtime=300ms --output-format=json" --runtime=300ms /dev/zero; then
	s=$(json_val "$J" seconds)
	ok "--runtime=300ms: ran $s s (0.25..5)" -- awk -v s="$s" 'BEGIN { exit !(s >= 0.25 && s < 5) }'
fi
out=$("$Z" --output-format=json --size 1MB /dev/zero 2>&1)
ok "--output-format=json: a JSON object" -- sh -c 'case $1 in "{"*"}") exit 0 ;; esac; exit 1' - "$out"

# 1 MiB of zeros, then 1 MiB whose every block holds a 'Z': sequential reads
# of 1 MiB see only zeros; size bounds random offsets too (fio's region), so
# random reads of size 1MB see only zeros, and io_size 1MB (the region is the
# 2 MiB file) hits the Zs.
head -c 1048576 /dev/zero >"$CZ_TMP/half"
head -c 1048576 /dev/zero | tr '\0' Z >>"$CZ_TMP/half"
"$Z" --rw=read --size 1MB --verify "$CZ_TMP/half" >/dev/null 2>&1
ok "--rw=read --size 1MB: only the zero half read (exit 0)" -- test $? -eq 0
"$Z" --rw=randread --size 1MB --verify "$CZ_TMP/half" >/dev/null 2>&1
ok "--rw=randread --size 1MB: random offsets stay in the zero half (exit $?)" -- test $? -eq 0
"$Z" --rw=randread --io_size 1MB --verify "$CZ_TMP/half" >/dev/null 2>"$CZ_TMP/err"
rc=$?
ok "--rw=randread --io_size 1MB: random offsets reach the Z half (exit $rc)" -- \
	sh -c "test $rc -eq 1 && grep -q 'verify: .* = 0x5a' '$CZ_TMP/err'"
if run_json "--rw randread" --rw randread --size 4MB --bs 4KB "$CZ_TMP/half"; then
	check "--rw randread" rw randread
	check "--rw randread" ios 1024
fi

# fio's per-job object, read by a real JSON parser.
if perl -MJSON::PP -e 1 2>/dev/null; then
	"$Z" --json --numjobs 2 --iodepth 4 --runtime 1.2 /dev/zero >"$CZ_TMP/j" 2>/dev/null
	res=$(perl -MJSON::PP -e 'local $/; my $j = decode_json(<STDIN>); my @o;
		for my $job (@{$j->{jobs}}) { my $r = $job->{read};
			push @o, join(",", $job->{jobname}, $r->{total_ios} == $r->{slat_ns}{N} ? "slatN" : "x",
				$r->{total_ios} == $r->{clat_ns}{N} ? "clatN" : "x",
				$r->{total_ios} == $r->{lat_ns}{N} ? "latN" : "x",
				$r->{clat_ns}{percentile}{"50.000000"} > 0 ? "p50" : "x",
				$r->{clat_ns}{min} <= $r->{clat_ns}{max} ? "minmax" : "x",
				$r->{lat_ns}{mean} >= $r->{clat_ns}{mean} ? "lat>=clat" : "x",
				$r->{bw_samples} >= 2 && $r->{bw_min} <= $r->{bw_mean} && $r->{bw_mean} <= $r->{bw_max} ? "bw" : "x",
				$r->{iops_samples} >= 2 ? "iops" : "x",
				exists $job->{usr_cpu} && exists $job->{sys_cpu} && $job->{usr_cpu} + $job->{sys_cpu} > 0 ? "cpu" : "x",
				$r->{bw} == int($r->{bw_bytes} / 1024 + 0.5) ? "KiB" : "x") }
		print join(" ", @o), " ", $j->{ios} == $j->{jobs}[0]{read}{total_ios} + $j->{jobs}[1]{read}{total_ios} ? "sum" : "x";' <"$CZ_TMP/j" 2>&1)
	want="zload,slatN,clatN,latN,p50,minmax,lat>=clat,bw,iops,cpu,KiB zload,slatN,clatN,latN,p50,minmax,lat>=clat,bw,iops,cpu,KiB sum"
	expect_eq "JSON jobs[]: fio's read object per job (slat/clat/lat N = reads, percentiles, bw and iops samples, CPU, KiB/s)" "$res" "$want"
else
	skip "perl JSON::PP missing: per-job JSON not parsed"
fi

# Exit statuses: 2 usage, 1 failure, 0 success.
"$Z" --iodepth 0 /dev/zero 2>/dev/null; ok "bad value: exit 2" -- test $? -eq 2
"$Z" --rw=trim /dev/zero 2>"$CZ_TMP/err"; rc=$?
ok "--rw=trim: exit $rc, 'zload sends no trims'" -- sh -c "test $rc -eq 2 && grep -q 'sends no trims' '$CZ_TMP/err'"
"$Z" --size 4KB "$CZ_TMP/none" 2>/dev/null; ok "missing file: exit 1" -- test $? -eq 1
"$Z" --cpu 0,100 --size 4KB /dev/zero 2>"$CZ_TMP/err"; rc=$?
if [ "$(nproc)" -le 100 ]; then
	ok "--cpu 0,100: parsed beyond 64 CPUs, refused as not usable here (exit $rc)" -- \
		sh -c "test $rc -eq 2 && grep -q 'CPU 100 is not one this process may run on' '$CZ_TMP/err'"
fi
done_testing
