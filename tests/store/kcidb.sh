#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zab store export --kcidb: a stored change sequence (fakebench
# steps s@0..s@3, written out as zab expand writes them, the last one
# failing; a built-in variant beside them) exported as a KCIDB document
# that the KCIDB I/O schema v5.3 (tests/data/kcidb-v5.json, from
# kernelci/kcidb-io) accepts, and that it refuses once a required field is
# removed.  One checkout per step with KCIDB's patchset_hash (checked
# against the schema's own recipe, sha256sum of the patches, then of those
# lines) and patchset_files, a build per checkout on the run's
# architecture, a test per result class whose number is the stored
# median, status DONE (ERROR for the failed cell), the verdict against the
# base with its interval in misc; ids cusezero:..., sorted; the same file
# twice; a run stored without run.uuid named by the store's UUID.  A run
# with no kernel variant and --kcidb on store ls: one line.
# Needs: none
. "$top_srcdir/tests/zab/lib.sh"
# python3-jsonschema (Debian; scripts/setup's PKG_TEST) validates the document
command -v python3 >/dev/null || skip_all "no python3"
python3 -c 'import jsonschema' 2>/dev/null || skip_all "no python3-jsonschema (Debian: python3-jsonschema)"
SCHEMA=$top_srcdir/tests/data/kcidb-v5.json
STORE=sqlite:$CZ_TMP/s.db
unset CUSEZERO_STORE

# The sequence as zab expand writes it (fakebench stands in for the daemon's runs).
{
	printf '[experiment]\nname = kseq\nsessions = 2\nrepeats = 3\n\n'
	printf '[benchmark x]\ncmd = %s --sd 0.01 --mean 1000\nunit = bytes/sec\nbetter = higher\n\n' "$FAKE"
	printf '[benchmark y]\ncmd = %s --sd 0.01 --mean 5\nunit = s\nbetter = lower\n' "$FAKE"
	for k in 0 1 2 3; do
		s=1.0
		[ "$k" -ge 2 ] && s=0.7
		printf '\n[variant s@%d]\nenv.FAKE_SCALE = %s\nsequence = s\nsequence-kind = series\n' "$k" "$s"
		printf 'step = %d\nsteps = 3\nlabel = x86: patch %d\n' "$k" "$k"
		[ "$k" -eq 3 ] && printf 'cmd = false\n'
	done
	printf '\n[variant builtin]\nenv.FAKE_SCALE = 1.0\n'
} >"$CZ_TMP/e"
"$ZAB" run "$CZ_TMP/e" --no-store --seed 7 --no-progress --json "$CZ_TMP/r.json" >/dev/null 2>"$CZ_TMP/err"
[ -s "$CZ_TMP/r.json" ] || { echo "Bail out! zab run wrote no result: $(head -n 1 "$CZ_TMP/err")"; exit 1; }

# Each step's routine_source as a device run records it (resultjson.c): the
# file, its kernel version, the step's patches in order and their hash.
mkdir -p "$CZ_TMP/p"
for k in 1 2 3; do
	printf 'From: t\nSubject: [PATCH %d/3] x86: patch %d\n\n--- a/f\n+++ b/f\n' "$k" "$k" >"$CZ_TMP/p/000$k-x86-patch_$k%.patch"
done
python3 - "$CZ_TMP" <<'EOF' || { echo "Bail out! could not add the routine sources"; exit 1; }
import hashlib, json, os, sys
tmp = sys.argv[1]
doc = json.load(open(tmp + "/r.json"))
patches = sorted(os.listdir(tmp + "/p"))
for v in doc["variants"]:
    if "step" not in v:
        continue
    mine = [tmp + "/p/" + p for p in patches[:v["step"]]]
    shas = [hashlib.sha256(open(p, "rb").read()).hexdigest() for p in mine]
    rs = {"kind": "kernel source", "file": "/src/linux/arch/x86/lib/clear_page_64.S:clear_page_orig",
          "file_sha256": "0" * 64, "kernel_version": "6.12.0",
          "patchset_hash": hashlib.sha256("".join(s + "\n" for s in shas).encode()).hexdigest() if mine else "",
          "patchset_files": [{"name": os.path.basename(p), "path": p, "sha256": s} for p, s in zip(mine, shas)]}
    if v["step"] == 1:
        rs["git_commit"] = "0123456789abcdef0123456789abcdef01234567"
    v["routine_source"] = rs
json.dump(doc, open(tmp + "/r.json", "w"), indent=2)
EOF
"$ZAB" store import --store "$STORE" "$CZ_TMP/r.json" >"$CZ_TMP/imp" 2>&1
uuid=$(sed -n 's/.*imported //p' "$CZ_TMP/imp")
ok "the sequence's run stored: $(cat "$CZ_TMP/imp")" -- [ -n "$uuid" ]

"$ZAB" store export --kcidb --store "$STORE" --experiment kseq -o "$CZ_TMP/k.json" 2>"$CZ_TMP/err"
rc=$?
ok "store export --kcidb: exit $rc$(head -n 1 "$CZ_TMP/err" | sed 's/^/: /')" -- [ $rc -eq 0 ]
"$ZAB" store export --store "$STORE" --run "$uuid" -o "$CZ_TMP/back.json"

# validate DOC: the schema's verdict (Draft 7, as kcidb-io validates), its first error on stderr.
validate() {
	python3 - "$SCHEMA" "$1" <<'EOF'
import json, sys, jsonschema
v = jsonschema.Draft7Validator(json.load(open(sys.argv[1])), format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)
errs = sorted(v.iter_errors(json.load(open(sys.argv[2]))), key=lambda e: list(e.path))
for e in errs[:1]:
    sys.stderr.write("%s at %s\n" % (e.message, "/".join(str(p) for p in e.path)))
sys.exit(1 if errs else 0)
EOF
}
validate "$CZ_TMP/k.json" 2>"$CZ_TMP/verr"
rc=$?
ok "the KCIDB v5.3 schema accepts it$(sed 's/^/: /' "$CZ_TMP/verr")" -- [ $rc -eq 0 ]
# negative: a build without its required checkout_id, a test without its origin
for cut in 'd["builds"][0].pop("checkout_id")' 'd["tests"][3].pop("origin")' 'd.pop("version")'; do
	python3 -c "import json; d = json.load(open('$CZ_TMP/k.json')); $cut; json.dump(d, open('$CZ_TMP/bad.json', 'w'))"
	validate "$CZ_TMP/bad.json" 2>"$CZ_TMP/verr"
	rc=$?
	ok "without $cut the schema refuses it (exit $rc: $(cat "$CZ_TMP/verr"))" -- [ $rc -eq 1 ]
done

# check PYTHON: d is the KCIDB document, run the stored run's document
check() {
	python3 - "$CZ_TMP" "$1" <<'EOF'
import hashlib, json, os, statistics, sys, urllib.parse
tmp = sys.argv[1]
d = json.load(open(tmp + "/k.json"))
run = json.load(open(tmp + "/back.json"))
co = {c["misc"]["variant"]: c for c in d["checkouts"]}
tests = {t["id"].split(":", 2)[2]: t for t in d["tests"]}
arch = d["builds"][0]["architecture"]
def cell(b, v):
    return [c for c in run["cells"] if c["benchmark"] == b and c["variant"] == v][0]
def sha(p):
    return hashlib.sha256(open(p, "rb").read()).hexdigest()
sys.exit(not eval(sys.argv[2]))
EOF
}
ok "version 5.3, origin cusezero everywhere" -- check \
	'd["version"] == {"major": 5, "minor": 3} and all(o["origin"] == "cusezero" for k in ("checkouts", "builds", "tests") for o in d[k])'
ok "one checkout per step (4), none for the built-in variant" -- check \
	'sorted(co) == ["s@0", "s@1", "s@2", "s@3"] and len(d["checkouts"]) == 4'
ok "one build per checkout, on the run's architecture, linked by id" -- check \
	'len(d["builds"]) == 4 and sorted(b["checkout_id"] for b in d["builds"]) == sorted(c["id"] for c in d["checkouts"]) and all(b["architecture"] == {"aarch64": "arm64"}.get(run["environment"]["machine"], run["environment"]["machine"]) for b in d["builds"])'
ok "ids: cusezero:RUN:VARIANT[:ARCH[:CLASS]], every list sorted by id" -- check \
	'co["s@2"]["id"] == "cusezero:%s:s@2" % run["run"]["uuid"] and all([o["id"] for o in d[k]] == sorted(o["id"] for o in d[k]) for k in ("checkouts", "builds", "tests"))'
ok "patchset_hash of s@3 is sha256sum's of the three patches" -- [ "$(python3 -c "import json; print([c for c in json.load(open('$CZ_TMP/k.json'))['checkouts'] if c['misc']['variant'] == 's@3'][0]['patchset_hash'])")" = \
	"$(cd "$CZ_TMP/p" && sha256sum ./*.patch | cut -c-64 | sha256sum | cut -c-64)" ]
ok "the base's patchset_hash is empty, with no patch files" -- check \
	'co["s@0"]["patchset_hash"] == "" and co["s@0"]["patchset_files"] == []'
ok "patchset_files of s@2: name and file:// URL of each patch, in order" -- check \
	'co["s@2"]["patchset_files"] == [{"name": p, "url": "file://" + urllib.parse.quote(tmp + "/p/" + p)} for p in sorted(os.listdir(tmp + "/p"))[:2]] and "%25.patch" in co["s@2"]["patchset_files"][0]["url"]'
ok "git_commit_hash on the step that has a commit only" -- check \
	'co["s@1"]["git_commit_hash"] == "0123456789abcdef0123456789abcdef01234567" and "git_commit_hash" not in co["s@2"]'
ok "a test per step and result class (4 x 2)" -- check 'len(d["tests"]) == 8'
ok "s@2 x: its number is the stored median, in the benchmark's unit" -- check \
	'tests["s@2:%s:x" % arch]["number"] == {"value": statistics.median(cell("x", "s@2")["samples"]), "unit": "bytes/sec"}'
ok "s@1 y: its number is the stored median too" -- check \
	'abs(tests["s@1:%s:y" % arch]["number"]["value"] - statistics.median(cell("y", "s@1")["samples"])) < 1e-12'
ok "measured cells DONE, the failed step's ERROR with no number and its error as excerpt" -- check \
	'all(t["status"] == ("ERROR" if ":s@3:" in t["id"] else "DONE") for t in d["tests"]) and "number" not in tests["s@3:%s:x" % arch] and "false" in tests["s@3:%s:x" % arch]["log_excerpt"]'
ok "builds PASS and checkouts valid where measured, neither said of the failed step" -- check \
	'all(("status" in b) == (":s@3:" not in b["id"]) for b in d["builds"]) and "valid" not in co["s@3"] and co["s@2"]["valid"] is True'
ok "s@2 x (0.7x, higher better): R vs s@0, the change inside its interval, below 0" -- check \
	'(lambda v: v["mark"] == "R" and v["base"] == "s@0" and v["ci_low_pct"] <= v["change_pct"] <= v["ci_high_pct"] < 0 and v["rule"] == "overlap")(tests["s@2:%s:x" % arch]["misc"]["verdict"])'
ok "s@2 y (0.7x, lower better): I; the base's mark is base" -- check \
	'tests["s@2:%s:y" % arch]["misc"]["verdict"]["mark"] == "I" and tests["s@0:%s:x" % arch]["misc"]["verdict"]["mark"] == "base"'
ok "paths cusezero.BENCHMARK.CLASS, the step's label in its checkout" -- check \
	'tests["s@2:%s:x" % arch]["path"] == "cusezero.fakebench.x" and co["s@2"]["misc"]["label"] == "x86: patch 2" and co["s@2"]["misc"]["step"] == 2'
"$ZAB" store export --kcidb --store "$STORE" --experiment kseq >"$CZ_TMP/k2.json" 2>/dev/null
ok "the same document twice (to stdout this time)" -- cmp -s "$CZ_TMP/k.json" "$CZ_TMP/k2.json"

# a file from before run.uuid: its ids carry the UUID the store derived for it
python3 -c "import json; d = json.load(open('$CZ_TMP/r.json')); d.pop('run'); json.dump(d, open('$CZ_TMP/old.json', 'w'))"
"$ZAB" store import --store "sqlite:$CZ_TMP/old.db" "$CZ_TMP/old.json" >/dev/null 2>&1
old=$("$ZAB" store ls runs --store "sqlite:$CZ_TMP/old.db" --format csv | sed -n '2s/,.*//p')
"$ZAB" store export --kcidb --store "sqlite:$CZ_TMP/old.db" -o "$CZ_TMP/old-k.json" 2>"$CZ_TMP/err"
rc=$?
ok "a run stored without run.uuid: exit $rc, ids cusezero:$old:...$(head -n 1 "$CZ_TMP/err" | sed 's/^/: /')" -- \
	eval '[ $rc -eq 0 ] && [ -n "$old" ] && grep -q "\"id\": \"cusezero:$old:s@0\"" "$CZ_TMP/old-k.json"'

# no kernel variant: one line, exit 1; --kcidb elsewhere: a usage error
"$ZAB" run -b "x=$FAKE" -v a -v b -S 1 -R 2 --store "$STORE" --no-progress >/dev/null 2>&1
"$ZAB" store export --kcidb --store "$STORE" --experiment "command line" -o "$CZ_TMP/none.json" 2>"$CZ_TMP/err"
rc=$?
ok "runs without a kernel variant: exit $rc, one line ($(cat "$CZ_TMP/err")), no file" -- \
	eval '[ $rc -eq 1 ] && [ $(wc -l <"$CZ_TMP/err") -eq 1 ] && grep -q "kernel change sequence step" "$CZ_TMP/err" && [ ! -e "$CZ_TMP/none.json" ]'
"$ZAB" store ls --kcidb --store "$STORE" >/dev/null 2>"$CZ_TMP/err"
rc=$?
ok "store ls --kcidb: exit $rc, $(cat "$CZ_TMP/err")" -- eval '[ $rc -eq 2 ] && grep -q "kcidb" "$CZ_TMP/err"'
done_testing
