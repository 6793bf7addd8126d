#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: every zload option changes what zload's own counters say
# (--json), on /dev/zero and on a regular file; the summaries are well formed.
# Needs: io_uring
. "$top_srcdir/tests/zload/zload-lib.sh"
Z=$ZLOAD
[ -x "$Z" ] || skip_all "zload not built ($Z): no liburing for this host"

# run_json DESC ARGS...: run zload --json, keep the output in $J.
run_json() {
	desc=$1; shift
	J=$("$Z" --json "$@" 2>"$CZ_TMP/err"); rc=$?
	if [ $rc -ne 0 ] || [ -z "$J" ]; then
		fail "$desc: zload $* exited $rc: $(head -n 3 "$CZ_TMP/err" | tr '\n' '|')"
		return 1
	fi
	return 0
}
# check DESC KEY EXPECTED (in $J)
check() { expect_eq "$1: $2" "$(json_val "$J" "$2")" "$3"; }

# 4 MiB of 4 KiB reads: 1024 reads, each a whole page, never short.
S="--size 4MB --bs 4KB"

if run_json default $S /dev/zero; then
	# fio's defaults: IORING_OP_READ, one read per submission.
	check default op read
	check default ios 1024
	check default bytes 4194304
	check default ops_readv 0
	check default ops_read 1024
	check default batch_submit 1
	check default ops_read_fixed 0
	check default fixed_file_ops 0
	check default max_inflight 1
	check default sqpoll false
	check default errors 0
	check default short_reads 0
	if [ -s "$CZ_TMP/err" ]; then fail "default: stderr not empty (not a tty): $(head -c 200 "$CZ_TMP/err")"
	else pass "default: no progress line on stderr when it is not a terminal"; fi
	p50=$(json_val "$J" p50); p90=$(json_val "$J" p90); p99=$(json_val "$J" p99)
	p999=$(json_val "$J" p99.9); max=$(json_val "$J" max); n=$(json_val "$J" samples)
	if [ "$p50" -le "$p90" ] && [ "$p90" -le "$p99" ] && [ "$p99" -le "$p999" ] &&
	   [ "$p999" -le "$max" ] && [ "$max" -gt 0 ] && [ "$n" -eq 1024 ]; then
		pass "clat percentiles ordered: p50 $p50 <= p90 $p90 <= p99 $p99 <= p99.9 $p999 <= max $max ns, $n samples"
	else
		fail "clat percentiles: p50 $p50 p90 $p90 p99 $p99 p99.9 $p999 max $max samples $n"
	fi
fi

if run_json "--qd 32" $S --qd 32 /dev/zero; then
	check "--qd 32 (fio's submit batch: 1)" max_submit_batch 1
	check "--qd 32" ios 1024
fi
if run_json "--qd 32 --batch-submit 32" $S --qd 32 --batch-submit 32 /dev/zero; then
	check "--qd 32 --batch-submit 32" max_inflight 32
	check "--qd 32 --batch-submit 32" max_submit_batch 32
fi
if run_json "--qd 32 --batch-submit 8" $S --qd 32 --batch-submit 8 /dev/zero; then
	check "--batch-submit 8" max_submit_batch 8
	# /dev/zero completes reads inline, so they may be reaped before the next batch.
	m=$(json_val "$J" max_inflight)
	if [ "$m" -ge 8 ] && [ "$m" -le 32 ]; then pass "--batch-submit 8: max_inflight $m in 8..32"
	else fail "--batch-submit 8: max_inflight $m not in 8..32"; fi
	check "--batch-submit 8" batch_submit 8
fi
if run_json "--qd 32 --batch-complete 8" $S --qd 32 --batch-submit 32 --batch-complete 8 /dev/zero; then
	check "--batch-complete 8" batch_complete 8
	calls=$(($(json_val "$J" submit_calls) + $(json_val "$J" wait_calls)))
	if [ "$calls" -le $((1024 / 8 + 3)) ]; then pass "--batch-complete 8: $calls submit/wait calls for 1024 reads"
	else fail "--batch-complete 8: $calls submit/wait calls for 1024 reads (> 1024/8 + 3)"; fi
	b=$(json_val "$J" max_cqe_batch)
	if [ "$b" -ge 8 ]; then pass "--batch-complete 8: max_cqe_batch $b >= 8"
	else fail "--batch-complete 8: max_cqe_batch $b < 8"; fi
fi
if run_json "--fixedbufs" $S --qd 4 --fixedbufs /dev/zero; then
	check "--fixedbufs" op read_fixed
	check "--fixedbufs" ops_read_fixed 1024
	check "--fixedbufs" ops_readv 0
	check "--fixedbufs" buffers_registered true
fi
if run_json "--registerfiles" $S --registerfiles /dev/zero; then
	check "--registerfiles" fixed_file_ops 1024
	check "--registerfiles" files_registered true
	check "--registerfiles" ops_read 1024
fi
if run_json "--nonvectored" $S --nonvectored /dev/zero; then
	check "--nonvectored" op read
	check "--nonvectored" ops_read 1024
	check "--nonvectored" ops_readv 0
fi
if run_json "--nonvectored=0" $S --nonvectored=0 /dev/zero; then
	check "--nonvectored=0" op readv
	check "--nonvectored=0" ops_readv 1024
fi
if run_json "--jobs 2" $S --jobs 2 /dev/zero; then
	check "--jobs 2 (--size is per job)" ios 2048
	check "--jobs 2" bytes 8388608
fi
if run_json "--sqpoll" $S --qd 8 --sqpoll /dev/zero; then
	case $(json_val "$J" dropped_setup_flags) in
	*SQPOLL*) skip "--sqpoll: this kernel rejected IORING_SETUP_SQPOLL" ;;
	*)	check "--sqpoll" sqpoll true
		check "--sqpoll" ios 1024
		case $(json_val "$J" setup_flags) in
		*SQPOLL*) pass "--sqpoll: setup_flags has SQPOLL" ;;
		*) fail "--sqpoll: setup_flags '$(json_val "$J" setup_flags)'" ;;
		esac ;;
	esac
fi
if run_json "--sqpoll --sqpoll-cpu 0" $S --sqpoll --sqpoll-cpu 0 /dev/zero; then
	case $(json_val "$J" setup_flags) in
	*SQ_AFF*) pass "--sqpoll-cpu 0: setup_flags has SQ_AFF" ;;
	*) skip "--sqpoll-cpu 0: SQ_AFF dropped: '$(json_val "$J" dropped_setup_flags)'" ;;
	esac
fi

# A setup flag the kernel rejects is dropped with a one-line note: an SQ
# thread pinned to a CPU that is not online makes the kernel say EINVAL.
if [ "$(nproc)" -lt 64 ] && run_json "--sqpoll-cpu 63 (offline)" $S --sqpoll --sqpoll-cpu 63 /dev/zero; then
	check "--sqpoll-cpu 63" dropped_setup_flags SQ_AFF
	check "--sqpoll-cpu 63" sqpoll true
	check "--sqpoll-cpu 63" ios 1024
	if [ "$(wc -l <"$CZ_TMP/err")" -eq 1 ] && grep -q 'note: kernel rejected IORING_SETUP_SQ_AFF' "$CZ_TMP/err"; then
		pass "--sqpoll-cpu 63: one note: $(cat "$CZ_TMP/err")"
	else
		fail "--sqpoll-cpu 63: stderr '$(tr '\n' '|' <"$CZ_TMP/err")'"
	fi
fi

# --cpu: the job really ran where it was pinned.
if "$Z" --cpu 0 $S /dev/zero >/dev/null 2>"$CZ_TMP/err"; then
	run_json "--cpu 0" $S --cpu 0 /dev/zero && check "--cpu 0" job_cpus "[0]"
else
	skip "--cpu 0: cannot pin here: $(cat "$CZ_TMP/err")"
fi
if [ "$(nproc)" -ge 2 ] && "$Z" --cpu 1 $S /dev/zero >/dev/null 2>&1; then
	J=$("$Z" --json --cpu 1 $S /dev/zero)
	expect_eq "--cpu 1: job_cpus" "$(printf '%s\n' "$J" | sed -n 's/.*"job_cpus":\(\[[0-9,]*\]\).*/\1/p')" "[1]"
	J=$("$Z" --json --jobs 2 --cpu 0-1 $S /dev/zero)
	expect_eq "--jobs 2 --cpu 0-1: job_cpus" "$(printf '%s\n' "$J" | sed -n 's/.*"job_cpus":\(\[[0-9,]*\]\).*/\1/p')" "[0,1]"
else
	skip "--cpu 1: fewer than 2 usable CPUs"
fi

# --time: runs about that long (a loose lower bound: the job thread may start
# a little after the clock does; not a timing assertion).
if run_json "--time 0.3" --time 0.3 /dev/zero; then
	s=$(json_val "$J" seconds)
	if awk -v s="$s" 'BEGIN { exit !(s >= 0.25) }'; then pass "--time 0.3: ran $s s"
	else fail "--time 0.3: ran only $s s"; fi
fi

# A regular file smaller than --size: offsets wrap at its size.
head -c 65536 /dev/zero >"$CZ_TMP/zeros"
if run_json "regular file wraps" --size 1MB --bs 4KB --qd 8 --verify "$CZ_TMP/zeros"; then
	check "64 KiB file, --size 1MB" ios 256
	check "64 KiB file, --size 1MB" bytes 1048576
	check "64 KiB file, --verify" verify_failures 0
fi

# On a terminal stderr gets a live progress line (once a second).
if command -v script >/dev/null 2>&1; then
	script -qec "'$Z' --time 2.5 /dev/zero" /dev/null >"$CZ_TMP/tty" 2>&1
	if grep -q 'IOPS .* MiB/s' "$CZ_TMP/tty" && grep -q 'read: IOPS=' "$CZ_TMP/tty"; then
		pass "progress line on a terminal: $(tr '\r' '\n' <"$CZ_TMP/tty" | grep -m 1 'IOPS .* MiB/s')"
	else
		fail "no progress line on a terminal: $(head -c 300 "$CZ_TMP/tty" | tr '\r\n' '||')"
	fi
else
	skip "no script(1) to give zload a terminal"
fi

out=$("$Z" $S --format simple /dev/zero); rc=$?
if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -Eqx '[0-9]+'; then
	pass "--format simple: one integer (bytes/sec) '$out'"
else
	fail "--format simple: exit $rc, '$out'"
fi
out=$("$Z" $S --qd 4 --batch-submit 4 /dev/zero); rc=$?
if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q 'IOPS=[0-9]' &&
   printf '%s\n' "$out" | grep -q 'clat (usec): p50=[0-9.]* p90=[0-9.]* p99=[0-9.]* p99.9=[0-9.]* max=' &&
   printf '%s\n' "$out" | grep -q 'max_inflight=4'; then
	pass "normal summary: IOPS, BW, clat p50 p90 p99 p99.9 max, counters"
else
	fail "normal summary: exit $rc: $(printf '%s' "$out" | tr '\n' '|')"
fi

done_testing
