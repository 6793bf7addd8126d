#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: fio's engines, writes and job-file syntax in zload: sync,
# psync, pvsync, pvsync2 run (depth 1, noted), libaio runs on io_uring with
# a note; rw=write/randrw write to /dev/zero and report a write block;
# rwmixread splits the I/Os; rw=read:-8k and bssplit take fio's meaning;
# iodepth=32 keeps 32 in flight on /dev/zero; inline ';'/'#' comments,
# include and $VAR in job files; --section; refused options name the reason;
# and where fio is installed, the JSON key sets (job level, read, write,
# iodepth maps) and the "Run status group" lines match fio's.
# Needs: io_uring
. "$top_srcdir/tests/zload/zload-lib.sh"
Z=$ZLOAD
[ -x "$Z" ] || skip_all "zload not built ($Z): no liburing for this host"
command -v python3 >/dev/null || skip_all "python3 not installed"
cd "$CZ_TMP" || exit 1

# py EXPR < JSON: EXPR over d (the document) and j (its first job).
py() { python3 -c "import json, sys
d = json.load(sys.stdin); j = d['jobs'][0]
print($1)"; }

for e in sync psync pvsync pvsync2; do
	out=$("$Z" --ioengine=$e --iodepth=4 --rw=randrw --size=1m --json /dev/zero 2>err)
	rc=$?
	res=$(printf '%s\n' "$out" | py 'j["read"]["io_bytes"] + j["write"]["io_bytes"], j["iodepth_level"]["1"]')
	expect_eq "ioengine=$e: 1 MiB moved at depth 1 (exit $rc)" "$res" "1048576 100.0"
	ok "ioengine=$e --iodepth=4: a note says it runs at depth 1" -- grep -q "ioengine=$e is synchronous: iodepth=4 runs as 1" err
done
"$Z" --ioengine=libaio --size=64k /dev/zero >/dev/null 2>err
ok "ioengine=libaio: a note says it runs on io_uring" -- grep -q 'libaio runs on io_uring' err

res=$("$Z" --rw=write --bs=8k --size=1m --json /dev/zero | py 'j["write"]["total_ios"], j["read"]["total_ios"]')
expect_eq "rw=write: 128 writes of 8k, no reads" "$res" "128 0"
res=$("$Z" --rw=randrw --rwmixread=75 --size=4m --json /dev/zero |
	py 'round(100.0 * j["read"]["total_ios"] / (j["read"]["total_ios"] + j["write"]["total_ios"]))')
ok "rwmixread=75: $res% reads (70..80)" -- test "$res" -ge 70 -a "$res" -le 80
res=$("$Z" --iodepth=32 --runtime=300ms --json /dev/zero | py 'j["iodepth_level"]["32"] > 90, d["counters"]["max_inflight"]')
expect_eq "iodepth=32 on /dev/zero: 32 in flight (fio's meaning)" "$res" "True 32"

# rw=read:-8k with bs=4k: each read 4k below the one before, from 0 to the
# last block (a Z there), where reading forward finds zeros.
head -c 61440 /dev/zero >f && printf 'Z' >>f && head -c 4095 /dev/zero >>f
"$Z" --rw=read --bs=4k --number_ios=2 --verify f >/dev/null 2>&1
ok "rw=read: two reads forward are zeros" -- test $? -eq 0
"$Z" --rw=read:-8k --bs=4k --number_ios=2 --verify f >/dev/null 2>err
ok "rw=read:-8k: the second read is the last block (the Z at 61440)" -- \
	grep -q 'offset 61440 = 0x5a' err

t0=$(date +%s)
"$Z" --ss=iops:50% --ss_dur=2s --ss_ramp=1s --runtime=20 --size=1t --output-format=json /dev/zero >ss.json
t1=$(date +%s)
# The "steadystate" object: fio's keys (compared with fio's own where installed).
sskeys() { py 'sorted(j["steadystate"]) + sorted(j["steadystate"]["data"]) + [j["steadystate"]["ss"], j["steadystate"]["attained"], len(j["steadystate"]["data"]["iops"])]'; }
expect_eq "JSON steadystate: fio's keys, criterion, attained, 2 samples" "$(sskeys <ss.json)" \
	"['attained', 'criterion', 'data', 'duration', 'max_deviation', 'slope', 'ss', 'bw', 'bw_mean', 'iops', 'iops_mean', 'iops:50.000000%', 1, 2]"
if command -v fio >/dev/null; then
	fio --name=s --filename=/dev/zero --ss=iops:50% --ss_dur=2s --ss_ramp=1s --runtime=20 --size=1t \
		--output-format=json >fss.json 2>/dev/null
	expect_eq "fio's own steadystate object has the same shape" "$(sskeys <fss.json)" "$(sskeys <ss.json)"
fi
ok "ss=iops:50% ss_dur=2s ss_ramp=1s: steady on /dev/zero, stopped after $((t1 - t0)) s of --runtime=20" -- \
	test $((t1 - t0)) -lt 10
res=$("$Z" --percentile_list=50:99.5 --size=64k --json /dev/zero | py 'sorted(j["read"]["clat_ns"]["percentile"])')
expect_eq "--percentile_list=50:99.5: the clat percentiles given" "$res" "['50.000000', '99.500000']"
res=$("$Z" --bssplit=4k/50:64k/50 --size=16m --json /dev/zero | py 'j["read"]["io_bytes"] // j["read"]["total_ios"]')
ok "bssplit=4k/50:64k/50: mean size $res B (25000..45000)" -- test "$res" -ge 25000 -a "$res" -le 45000

# Job files: comments after values, include, $VAR, --section.
printf '[global]\nfilename=/dev/zero ; the device\nsize=64k # per job\n' >g.inc
cat >j.fio <<'EOT'
include g.inc
[a]
bs=$ZBS;comment
[b]
rw=write#comment
EOT
res=$(ZBS=16k "$Z" --output-format=json j.fio | py '[(x["jobname"], x["read"]["total_ios"], x["write"]["total_ios"]) for x in d["jobs"]]')
expect_eq "include, inline comments, \$ZBS: jobs a and b" "$res" "[('a', 4, 0), ('b', 0, 16)]"
res=$(ZBS=16k "$Z" --section=b --output-format=json j.fio | py '[x["jobname"] for x in d["jobs"]]')
expect_eq "--section=b runs b only" "$res" "['b']"
one_line_error "zonemode=zbd without zonesize refused naming it" -- "$Z" --zonemode=zbd /dev/zero
case $ERRLINE in *"needs zonesize"*) ;; *) fail "zonemode=zbd: '$ERRLINE'" ;; esac
one_line_error "--readonly with rw=write refused" -- "$Z" --readonly --rw=write /dev/zero
one_line_error "random_distribution=zipf:1.2 refused naming what zload does" -- \
	"$Z" --random_distribution=zipf:1.2 /dev/zero
case $ERRLINE in *"uniformly (random) or by zones"*) ;; *) fail "zipf: '$ERRLINE'" ;; esac

# fio itself, same command line: keys and summary lines.
if command -v fio >/dev/null; then
	A="--name=j --ioengine=psync --rw=randrw --bs=4k --size=1m --filename=/dev/zero"
	fio $A --output-format=json >f.json 2>/dev/null && "$Z" $A --output-format=json >z.json 2>/dev/null
	res=$(python3 -c 'import json
f, z = (json.load(open(n)) for n in ("f.json", "z.json"))
def keys(o, p=""):
    out = set()
    for k, v in o.items():
        if k in ("job options", "global options", "percentile"):
            continue
        out.add(p + k)
        if isinstance(v, dict):
            out |= keys(v, p + k + ".")
    return out
miss = sorted(keys(f["jobs"][0]) - keys(z["jobs"][0])) + sorted(k for k in f if k not in z)
print(" ".join(miss) or "none")' 2>&1)
	expect_eq "fio's JSON keys (top, job level, read, write, iodepth maps) all in zload's" "$res" none
	fio $A >f.txt 2>/dev/null
	"$Z" $A >z.txt 2>/dev/null
	for pat in 'Run status group 0 (all jobs):' '   READ: bw=.*, io=.*, run=[0-9]*-[0-9]*msec' \
		   '  WRITE: bw=.*, io=.*, run=[0-9]*-[0-9]*msec' '  IO depths    : 1=' '     submit    : 0=' \
		   '     complete  : 0='; do
		ok "summary line '$pat': fio's and zload's" -- sh -c "grep -q '^$pat' f.txt && grep -q '^$pat' z.txt"
	done
else
	skip "fio not installed: no comparison"
fi
done_testing
