#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/store.sh [RUNS [SAMPLES_PER_RUN]]: the results store at scale, on
# this machine, for SQLite and for a PostgreSQL server started here
# (tests/store/pglib.sh; as root).  From a real zab result (fakebench, two
# variants) it makes one file of RUNS runs (default 1000) of SAMPLES_PER_RUN
# samples each (default 1000: 10^6 samples in all), each run its own UUID,
# then times
#   import      zab store import FILE           (goal: < 10 s for 10^6)
#   report      zab report --store --experiment  (goal: < 1 s over 10^6 in 1000 runs)
#   byclass     the same, --by sut-class (a column group per class)
#   html        the same with --html (the page: tables and gnuplot's figures)
#   history     zab history --by kernel
#   compare     zab compare --store sut-class:class-0 sut-class:class-1
#   export      zab store export of every run
# and prints one line per back end and step, with samples per second.
# top_builddir (default build/) names the build to use.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
b=${top_builddir:-$top/build}
runs=${1:-1000}
per=${2:-1000}
ZAB=$b/zab
FAKE=$b/tests/zab/fakebench
[ -x "$ZAB" ] && [ -x "$FAKE" ] || { echo "store.sh: build first (make check builds $FAKE)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "store.sh: needs python3" >&2; exit 1; }
CZ_TMP=$(mktemp -d) || exit 1
. "$top/tests/store/pglib.sh"
trap 'pg_stop "$CZ_TMP/pg"; rm -rf "$CZ_TMP"' EXIT

"$ZAB" run -b "x=$FAKE --sd 0.01" --unit bytes/sec -v a -v 'b:FAKE_SCALE=1.5' -S 2 -R 3 --seed 1 \
	--no-store --no-progress --sut bench-class --json "$CZ_TMP/one.json" >/dev/null 2>&1 ||
	{ echo "store.sh: zab run failed" >&2; exit 1; }
# RUNS copies, each cell with per/2 samples (two cells per run), fresh UUIDs, 4 classes
python3 - "$CZ_TMP/one.json" "$CZ_TMP/big.json" "$runs" "$per" <<'PY'
import json, random, sys, uuid
one = json.load(open(sys.argv[1])); runs = int(sys.argv[3]); per = int(sys.argv[4]) // 2
rnd = random.Random(1); out = []
for i in range(runs):
    d = json.loads(json.dumps(one))
    d["run"]["uuid"] = str(uuid.UUID(int=rnd.getrandbits(128), version=4))
    d["sut"] = "class-%d" % (i % 4)
    for c in d["cells"]:
        base = c["samples"][0]
        c["samples"] = [base * (1 + rnd.gauss(0, 0.01)) for _ in range(per)]
        c["sample_sessions"] = [1 + k * 2 // per for k in range(per)]
    d["experiment"]["sessions"] = 2
    d["experiment"]["repeats"] = per // 2
    out.append(d)
json.dump({"zab": 1, "results": out}, open(sys.argv[2], "w"))
PY
total=$((runs * (per / 2) * 2))
echo "# store.sh: $runs runs x $((per / 2 * 2)) samples = $total samples; $(grep -m 1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) CPUs"

ms() { date +%s%N | cut -b1-13; }
step() {	# step BACKEND WHAT COMMAND...: time it, one line
	be=$1 what=$2; shift 2
	t0=$(ms)
	"$@" >"$CZ_TMP/out" 2>"$CZ_TMP/err" || { echo "$be $what: failed: $(tail -n 1 "$CZ_TMP/err")"; return 1; }
	t=$(( $(ms) - t0 ))
	printf '%-10s %-7s %7.3f s  %10.0f samples/s\n' "$be" "$what" "$(echo "$t / 1000" | bc -l)" \
		"$(echo "$total * 1000 / ($t + 1)" | bc -l)"
}
bench() {	# bench BACKEND URL
	step "$1" import "$ZAB" store import --store "$2" "$CZ_TMP/big.json"
	step "$1" report "$ZAB" report --store "$2" --experiment "command line"
	step "$1" byclass "$ZAB" report --store "$2" --experiment "command line" --by sut-class
	step "$1" html "$ZAB" report --store "$2" --experiment "command line" --by sut-class \
		--html "$CZ_TMP/r.html"
	step "$1" history "$ZAB" history --store "$2" --experiment "command line" --by kernel
	step "$1" compare "$ZAB" compare --store "$2" sut-class:class-0 sut-class:class-1
	step "$1" export "$ZAB" store export --store "$2" --experiment "command line" -o "$CZ_TMP/back.json"
}
bench sqlite "sqlite:$CZ_TMP/s.db"
if [ "$(id -u)" = 0 ] && pg_start "$CZ_TMP/pg"; then
	bench postgresql "$PG_URL"
else
	echo "postgresql: skipped (${PG_WHY:-needs root to start a server as another user})"
fi
