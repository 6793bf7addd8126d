#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zload takes fio's command lines and job files as fio does:
# fio-only options accepted (--name, --ioengine=io_uring, --time_based,
# --readwrite, --direct, --group_reporting, --output), whole option names
# only (no abbreviations), [global] and job sections with ${VAR} and fio's
# sizes, one error naming an unsupported option and its line; fio's JSON,
# json+ and terse shapes; fio's log files; and fio's own post-processing
# tools (fio_jsonplus_clat2csv, fio2gnuplot, fio_generate_plots) read what
# zload wrote.  Where fio is installed, its output has the same keys.
# Needs: io_uring
. "$top_srcdir/tests/zload/zload-lib.sh"
Z=$ZLOAD
[ -x "$Z" ] || skip_all "zload not built ($Z): no liburing for this host"
cd "$CZ_TMP" || exit 1

# The command line of a fio user, pasted.
FIOARGS="--name=j --ioengine=io_uring --time_based --bs=4k --runtime=200ms --filename=/dev/zero"
ok "fio command line runs: $FIOARGS" -- quiet "$Z" $FIOARGS
ok "--readwrite=randread --direct=0 --group_reporting --numjobs=2" -- \
	quiet "$Z" $FIOARGS --readwrite=randread --direct=0 --group_reporting --numjobs=2
J=$("$Z" --json --ramp_time=300ms --runtime=300ms /dev/zero 2>err)
s=$(json_val "$J" seconds)
ok "--ramp_time=300ms --runtime=300ms: the measured run is the runtime ($s s, 0.25..2)" -- \
	awk -v s="$s" 'BEGIN { exit !(s >= 0.25 && s < 2) }'
"$Z" --output=r.json --output-format=json --runtime=200ms /dev/zero >out 2>err
rc=$?
ok "--output=r.json --output-format=json: exit $rc, nothing on stdout, JSON in the file" -- \
	sh -c "test $rc -eq 0 && test ! -s out && head -c 1 r.json | grep -q '{'"

# No getopt prefix matching: --output is not --output-format, --iodep is nothing.
for abbr in --outp=x --iodep=4 --runt=1 --time_base; do
	one_line_error "abbreviation $abbr refused" -- "$Z" "$abbr" /dev/zero
	case $ERRLINE in
	*"unknown option '$abbr' (see zload --help)"*) ;;
	*) fail "abbreviation $abbr: message '$ERRLINE'" ;;
	esac
done
one_line_error "--ioengine=mmap: refused naming zload's engines" -- "$Z" --ioengine=mmap /dev/zero
case $ERRLINE in *"engines are io_uring, libaio, sync, psync"*) ;; *) fail "--ioengine=mmap: '$ERRLINE'" ;; esac

# A job file: [global], two jobs, ${VAR}, $pagesize, fio's sizes, comments.
cat >two.fio <<'EOF'
# two jobs at once, as fio runs them
[global]
ioengine=io_uring
bs=${ZBS}
size=1m
filename=/dev/zero
; comment

[seq]
rw=read
iodepth = 4

[rand]
readwrite=randread
bs=$pagesize
numjobs=2
EOF
J=$(ZBS=8k "$Z" --output-format=json two.fio 2>err)
rc=$?
if [ $rc -eq 0 ] && command -v python3 >/dev/null; then
	res=$(printf '%s\n' "$J" | python3 -c 'import json, sys
d = json.load(sys.stdin)
print(" ".join("%s:%d" % (j["jobname"], j["read"]["total_ios"]) for j in d["jobs"]))')
	# Reads, not bytes: /dev/zero may return a short read when it would reschedule.
	expect_eq "job file: jobs and reads per job (8k and \$pagesize over 1m)" "$res" \
		"seq:128 rand:$((1048576 / $(getconf PAGESIZE))) rand:$((1048576 / $(getconf PAGESIZE)))"
else
	ok "job file runs (exit $rc: $(head -n 1 err))" -- test $rc -eq 0
fi
printf '[j]\nfilename=/dev/zero\nsize=1m\niodepth_low=2\n' >bad.fio
one_line_error "unsupported option in a job file" -- "$Z" bad.fio
case $ERRLINE in
*"bad.fio:4: option 'iodepth_low' is not supported by zload"*) ;;
*) fail "unsupported option: message '$ERRLINE'" ;;
esac
one_line_error "unset \${VAR} in a job file" -- env -u ZBS "$Z" two.fio
case $ERRLINE in *"two.fio:4: bs: \${ZBS} is not set"*) ;; *) fail "unset \${ZBS}: '$ERRLINE'" ;; esac

# Output shapes, read by python (fio's own tools are python too).
command -v python3 >/dev/null || { skip "no python3: shapes and fio's tools not checked"; done_testing; exit 0; }
"$Z" --name=j --bs=4k --iodepth=4 --runtime=600ms --time_based --filename=/dev/zero \
	--output-format=json+ --output=z.json --write_bw_log=zb --write_lat_log=zl \
	--write_iops_log=zi --log_avg_msec=100 2>err
ok "json+ run with bw, lat and iops logs (exit $?)" -- test -s z.json
res=$(python3 -c 'import json
j = json.load(open("z.json"))["jobs"][0]
r, b = j["read"], j["read"]["clat_ns"]["bins"]
print(all(d in j for d in ("read", "write", "trim")), sum(b.values()) == r["clat_ns"]["N"] == r["total_ios"],
      j["write"]["total_ios"], j["jobname"])' 2>&1)
expect_eq "json+: read/write/trim objects, clat bins summing to the reads, idle write" "$res" "True True 0 j"
for f in zb_bw.1.log zi_iops.1.log zl_lat.1.log zl_clat.1.log zl_slat.1.log; do
	ok "log $f: fio's 5 fields per line" -- \
		awk -F', ' 'NF != 5 || $3 != 0 { bad = 1 } END { exit bad || NR < 3 }' "$f"
done
"$Z" --output-format=terse --runtime=200ms /dev/zero >t 2>err
ok "terse: fio's 121 fields, version 3, fio's version format in field 2" -- \
	awk -F';' 'NF != 121 || $1 != 3 || $2 !~ /^fio-[0-9]+\.[0-9]+$/ { bad = 1 } END { exit bad || NR != 1 }' t
res=$("$Z" --output-format=json --runtime=100ms /dev/zero 2>/dev/null | python3 -c "import json, sys
d = json.load(sys.stdin); print(d['fio version'], d['zload version'].startswith('zload-'))")
expect_eq "JSON: fio's \"fio version\" format (the fio release zload follows), zload's own apart" \
	"$res" "$(cut -d';' -f2 t) True"
# disk_util: the block device under a regular file, none for /dev/zero.
du() { "$1" --name=j --filename="$2" --size=1m --output-format=json 2>/dev/null | python3 -c "import json, sys
d = json.load(sys.stdin); u = d.get('disk_util'); print(sorted(u[0]) if u else None)"; }
expect_eq "disk_util: absent for /dev/zero, as fio's" "$(du "$Z" /dev/zero)" "None"
head -c 1048576 /dev/zero >du.img
dev=$(stat -c '%Hd:%Ld' du.img 2>/dev/null)
if [ -n "$dev" ] && [ -e "/sys/dev/block/$dev" ]; then
	expect_eq "disk_util of a file on $dev: fio's keys" "$(du "$Z" du.img)" \
		"['in_queue', 'name', 'read_ios', 'read_merges', 'read_ticks', 'util', 'write_ios', 'write_merges', 'write_ticks']"
	if command -v fio >/dev/null; then
		expect_eq "fio's own disk_util has the same keys" "$(du fio du.img)" "$(du "$Z" du.img)"
	fi
else
	skip "the scratch directory is on no block device (${dev:-?}): no disk_util to compare"
fi
# bw_agg: the bandwidth samples' mean against the run's, 0 without samples.
agg() { "$1" --name=j --filename=/dev/zero --ioengine=psync --size=16m --output-format=json \
	2>/dev/null | python3 -c "import json, sys
r = json.load(sys.stdin)['jobs'][0]['read']; print(r['bw_agg'], r['bw_samples'])"; }
expect_eq "a run too short for a bandwidth sample: bw_agg 0, as fio's" "$(agg "$Z")" "0.0 0"
if command -v fio >/dev/null; then
	expect_eq "fio itself: bw_agg 0 there" "$(agg fio)" "0.0 0"
fi

# fio's post-processing tools on zload's output (Debian's fio package).
if command -v fio_jsonplus_clat2csv >/dev/null && python3 -c 'import six' 2>/dev/null; then
	ok "fio_jsonplus_clat2csv reads zload's json+" -- quiet fio_jsonplus_clat2csv z.json c.csv
	ok "fio_jsonplus_clat2csv --validate: CSV matches zload's bins" -- \
		quiet fio_jsonplus_clat2csv --validate z.json c.csv
else
	skip "fio_jsonplus_clat2csv (fio package, python3-six) not installed"
fi
if command -v fio2gnuplot >/dev/null && command -v gnuplot >/dev/null; then
	mkdir g && cp zb_bw.1.log g/ && (cd g && fio2gnuplot -b -g >out 2>&1)
	ok "fio2gnuplot -b -g plots zload's bw log" -- sh -c 'ls g/*.png g/*.gnuplot 2>/dev/null | grep -q .'
else
	skip "fio2gnuplot or gnuplot not installed"
fi
if command -v fio_generate_plots >/dev/null && command -v gnuplot >/dev/null; then
	mkdir p && cp zl_lat.1.log p/zl_lat.log && cp zb_bw.1.log p/zb_bw.log &&
		(cd p && fio_generate_plots zload >out 2>&1)
	ok "fio_generate_plots plots zload's logs" -- sh -c 'ls p/*.svg 2>/dev/null | grep -q .'
else
	skip "fio_generate_plots or gnuplot not installed"
fi

# fio itself, same arguments: the same keys in each job and its read object.
if command -v fio >/dev/null; then
	A="--name=j --ioengine=io_uring --bs=4k --runtime=200ms --time_based --size=1g --filename=/dev/zero --output-format=json+"
	fio $A >f.json 2>err && "$Z" $A >zz.json 2>>err
	res=$(python3 -c 'import json
f, z = (json.load(open(n))["jobs"][0] for n in ("f.json", "zz.json"))
miss = [k for k in f if k not in z]
miss += ["read." + k for k in f["read"] if k not in z["read"]]
miss += ["clat_ns." + k for k in f["read"]["clat_ns"] if k not in z["read"]["clat_ns"]]
print(" ".join(miss) or "none")' 2>&1)
	expect_eq "fio's job keys missing from zload's json+" "$res" none
else
	skip "fio not installed: shapes not compared"
fi
done_testing
