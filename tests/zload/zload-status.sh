#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zload --status-interval as fio's: a 3 s run with
# --status-interval=1 gives three JSON documents before the final one (as
# many as fio gives where fio is installed), each parses, io_bytes and
# runtime grow, bw_bytes is the running average (io_bytes / runtime), the
# last document is the final report; a job that has ended reports its final
# values in every later dump; psync with numjobs=2, with and without
# group_reporting; ramp_time's dumps restart at its end as fio's; the
# normal text repeats its "Run status group" lines (fio's count), terse gives a line per dump;
# with 64 jobs on a few CPUs every job still ends at its runtime (io_uring,
# psync) and dumps come at most once per tick; bad values (0, -1, abc, 1x,
# 500us, none) and the job-file spelling are refused with one line, exit 2.
# Needs: io_uring
. "$top_srcdir/tests/zload/zload-lib.sh"
Z=$ZLOAD
[ -x "$Z" ] || skip_all "zload not built ($Z): no liburing for this host"
command -v python3 >/dev/null || skip_all "python3 not installed"
cd "$CZ_TMP" || exit 1

# docs EXPR < OUTPUT: EXPR over ds, the JSON documents one after the other
# (zload's one a line, fio's pretty-printed), printed.
docs() { python3 -c "import json, sys
t = sys.stdin.read(); dec = json.JSONDecoder(); ds = []; i = 0
while True:
    while i < len(t) and t[i].isspace():
        i += 1
    if i == len(t):
        break
    d, i = dec.raw_decode(t, i); ds.append(d)
print($1)"; }

A="--name=x --filename=/dev/zero --rw=read --size=1g --time_based --runtime=3 --status-interval=1"
"$Z" $A --output-format=json >s.json 2>err
expect_eq "3 s, --status-interval=1: exit 0, stderr empty" "$?:$(cat err)" "0:"
n=$(docs 'len(ds)' <s.json)
expect_eq "JSON: three dumps and the final report, one document a line" "$n:$(wc -l <s.json)" "4:4"
# The final report may equal the last dump: a job ends its runtime itself,
# and on a loaded machine main's last tick can come at that end.
res=$(docs 'all(a["jobs"][0]["read"]["io_bytes"] <= b["jobs"][0]["read"]["io_bytes"] and
	a["jobs"][0]["read"]["runtime"] < b["jobs"][0]["read"]["runtime"] for a, b in zip(ds[:-1], ds[1:-1])) and
	ds[-2]["jobs"][0]["read"]["runtime"] <= ds[-1]["jobs"][0]["read"]["runtime"] and
	ds[-2]["jobs"][0]["read"]["io_bytes"] <= ds[-1]["jobs"][0]["read"]["io_bytes"]' <s.json)
expect_eq "io_bytes never decreases, runtime grows from dump to dump (to the final: does not drop)" "$res" True
res=$(docs '[round(d["jobs"][0]["read"]["runtime"] / 1000) for d in ds]' <s.json)
expect_eq "the dumps at 1, 2, 3 s of the job, then the end at 3 s" "$res" "[1, 2, 3, 3]"
# Running averages: bw_bytes = io_bytes / runtime (ms, rounded) of the same dump.
res=$(docs 'all(abs(r["bw_bytes"] - r["io_bytes"] * 1000.0 / r["runtime"]) <= 0.01 * r["bw_bytes"]
	for r in (d["jobs"][0]["read"] for d in ds))' <s.json)
expect_eq "each dump's bw_bytes is its io_bytes over its runtime (a running average)" "$res" True
res=$(docs 'ds[-1]["bytes"] == ds[-1]["jobs"][0]["read"]["io_bytes"] >= ds[-2]["bytes"] > 0' <s.json)
expect_eq "the last document is the final report (bytes, at least the last dump's)" "$res" True
"$Z" --name=x --filename=/dev/zero --size=4m --output-format=json >plain.json
res=$(docs 'sorted(ds[0]["jobs"][0]) == sorted(json.loads(open("s.json").readline())["jobs"][0]) and
	sorted(ds[0]) == sorted(json.loads(open("s.json").readline()))' <plain.json)
expect_eq "a dump has the keys of a report without the option" "$res" True
if command -v fio >/dev/null; then
	fio $A --output-format=json >f.json 2>/dev/null
	expect_eq "fio itself: as many documents" "$(docs 'len(ds)' <f.json)" "$n"
else
	skip "fio not installed: no comparison of the number of dumps"
fi

# A job that has ended reports its final values in every later dump.
"$Z" --name=a --filename=/dev/zero --size=16m --name=b --filename=/dev/zero --time_based \
	--runtime=2 --status-interval=500ms --output-format=json >ab.json 2>err
res=$(docs 'len(ds), len(set((d["jobs"][0]["read"]["io_bytes"], d["jobs"][0]["read"]["runtime"])
	for d in ds)), ds[0]["jobs"][0]["read"]["io_bytes"], ds[-2]["jobs"][1]["read"]["io_bytes"] <= ds[-1]["jobs"][1]["read"]["io_bytes"]' <ab.json)
expect_eq "jobs a (16m, done at once) and b (2 s): 4 dumps + final, a's values the same in all" \
	"$res" "5 1 16777216 True"

# The synchronous engines, numjobs=2, with and without group_reporting.
B="--name=p --filename=/dev/zero --ioengine=psync --numjobs=2 --time_based --runtime=2 --status-interval=1"
"$Z" $B --group_reporting --output-format=json >g.json 2>err
res=$(docs '[len(d["jobs"]) for d in ds], all(a["bytes"] <= b["bytes"] for a, b in zip(ds, ds[1:])),
	ds[0]["jobs"][0]["read"]["io_bytes"] > 0' <g.json)
expect_eq "psync numjobs=2 group_reporting: 2 dumps + final, one entry each, growing" \
	"$res" "[1, 1, 1] True True"
"$Z" $B --output-format=json >j.json 2>err
res=$(docs '[len(d["jobs"]) for d in ds], all(j["read"]["io_bytes"] > 0 for d in ds for j in d["jobs"])' <j.json)
expect_eq "psync numjobs=2: 2 dumps + final, both jobs in each, both reading" "$res" "[2, 2, 2] True"

# shape < TERSE: "io" for each line with read KiB (field 6; else 0), and between lines
# "<=" or ">" as the read runtime (field 9, ms) grows or drops: the counters restart
# (its drop does not depend on the machine's speed, the KiB's would).
shape() {
	awk -F';' '{ s = s (NR > 1 ? (prev <= $9 ? "<=" : ">") : "") ($6 > 0 ? "io" : 0); prev = $9 }
		END { print s }'
}
# ramp_time: the dumps of the ramp, then the counters restart at its end (fio 3.33's too).
R="--name=r --filename=/dev/zero --size=1g --ramp_time=1 --runtime=1 --time_based --status-interval=400ms"
"$Z" $R --output-format=terse >r.terse 2>err
res=$(shape <r.terse)
expect_eq "ramp_time=1 runtime=1, every 400ms: 2 ramp dumps, a restart, 3 dumps, the final" "$res" "io<=io>io<=io<=io<=io"
if command -v fio >/dev/null; then
	fio $R --output-format=terse >f.terse 2>/dev/null
	# fio's ramp ends a little later in its dump ticks: compare the restarts, one each.
	restarts() { shape | awk -F'>' '{ print NF - 1 }'; }
	expect_eq "fio itself: one restart too" "$(restarts <f.terse)" "$(restarts <r.terse)"
else
	skip "fio not installed: no comparison of the ramp"
fi

# Normal text: the block per dump, its "Run status group" lines, a blank line.
C="--name=x --filename=/dev/zero --rw=read --size=1g --time_based --runtime=2 --status-interval=1"
"$Z" $C >s.txt 2>err
n=$(grep -c '^Run status group 0 (all jobs):$' s.txt)
expect_eq "normal output: 'Run status group' twice in dumps, once at the end" "$n" 3
expect_eq "normal output: a READ line per block" "$(grep -c '^   READ: bw=' s.txt)" 3
ok "normal output: a blank line after each dump's READ line" -- \
	sh -c "test \"\$(grep -A1 '^   READ: bw=' s.txt | grep -c '^\$')\" -ge 2"
if command -v fio >/dev/null; then
	fio $C >f.txt 2>/dev/null
	expect_eq "fio itself: as many 'Run status group' blocks" \
		"$(grep -c '^Run status group 0 (all jobs):$' f.txt)" "$n"
else
	skip "fio not installed: no comparison of the text blocks"
fi
"$Z" $C --output-format=terse >s.terse 2>err
res=$(awk -F';' '$1 == 3 && $3 == "x" { n++ } END { print n, NR }' s.terse)
expect_eq "terse: a line per dump and the final one" "$res" "3 3"

# More busy jobs than CPUs: the report thread gets a small share of a CPU and
# a dump of 64 jobs takes it long, yet each job ends at its runtime itself
# (it once ran until main, busy with a dump, got to stopping it: 3-15 s for
# 2 on a 2-vCPU VM), and a dump never holds a job.  Bounds are loose (a busy
# machine delays a job's last I/O): each job 1.5 times its runtime at most,
# the whole run twice its runtime and 4 s; at least one dump, at most one
# per 100 ms tick.  io_uring and psync.
for eng in io_uring psync; do
	t0=$(date +%s%N)
	"$Z" --name=m --filename=/dev/zero --ioengine=$eng --size=1g --numjobs=64 --time_based \
		--runtime=2 --status-interval=100ms --output-format=json >m.json 2>err
	rc=$?
	wall=$(( ($(date +%s%N) - t0) / 1000000 ))
	res=$(docs '"%d %s %d" % (len(ds) - 1, min(j["job_runtime"] for j in ds[-1]["jobs"]) >= 2000,
		max(j["job_runtime"] for j in ds[-1]["jobs"]))' <m.json 2>&1)
	# shellcheck disable=SC2086 # the three numbers, as words
	set -- $res
	diag "$eng, 64 jobs, 2 s, every 100ms: ${wall} ms wall, $1 dumps, the longest job $3 ms"
	ok "$eng, 64 jobs, --runtime=2 --status-interval=100ms: exit 0, every job ran 2 s" -- \
		test "$rc:${2:-}" = "0:True"
	ok "$eng: no job ran past 3 s (longest: ${3:-?} ms)" -- test "${3:-9999}" -lt 3000
	ok "$eng: the run took less than 8 s (${wall} ms)" -- test "$wall" -lt 8000
	n=no
	[ "${1:-0}" -ge 1 ] && [ "${1:-0}" -le 20 ] && n=yes
	expect_eq "$eng: between 1 and 20 dumps before the final report (${1:-?})" "$n" yes
done

# Bad values: one line naming the value, exit 2 (fio: too small, or no time).
for v in 0 -1 abc 1x 500us ""; do
	one_line_error "--status-interval='$v' refused" -- "$Z" --status-interval="$v" /dev/zero
	expect_eq "--status-interval='$v': exit 2, the value named" \
		"$rc:$(printf '%s' "$ERRLINE" | grep -c -- "--status-interval")" "2:1"
done
printf '[x]\nfilename=/dev/zero\nstatus-interval=1\n' >job.fio
one_line_error "status-interval in a job file refused (fio's: command line only)" -- "$Z" job.fio
expect_eq "job-file status-interval: exit 2" "$rc" 2
done_testing
