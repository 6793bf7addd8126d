#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zab run measures every step of change sequences through
# real cusezero daemons (FUSE; short runs): a patch series (git
# format-patch output) and a git range of the routine file of
# tests/zab/kseqlib.sh, from the file zab expand wrote.  Every cell is
# measured end to end and in device; each daemon got its step's files;
# the run's JSON document has per variant sequence, step, steps and label,
# and in its routine_source the file's SHA-256, patchset_hash (KCIDB's:
# sha256sum of the patches in order, then of those lines), patchset_files
# in order, git_commit and the tree's kernel version; zab store export
# gives them back, zab store export --kcidb as KCIDB checkouts the KCIDB
# v5.3 schema accepts, and zab report reads the stored run.  The routine is
# x86-64 code and needs an assembler: elsewhere a visible SKIP.
# Needs: root fuse
. "$top_srcdir/tests/zab/kseqlib.sh"
[ "$ZERO_ARCH" = x86_64 ] || skip_all "the test routine is x86-64 code (ZERO_ARCH=$ZERO_ARCH)"
[ -x "$CUSEZERO" ] && [ -x "$PREAD_Z100K" ] || skip_all "cusezero or pread_z100k not built"
command -v "${CUSEZERO_KSRC_CC:-gcc}" >/dev/null || skip_all "no assembler (${CUSEZERO_KSRC_CC:-gcc})"
seq_make || { echo "Bail out! could not make the test repository"; exit 1; }

# Several --patch on one --source: applied in order, each to the result of the ones before.
p1=$(ls "$CZ_TMP"/fp/0001-*) p3=$(ls "$CZ_TMP"/fp/0003-*)
zb() { "$ZBENCH" memset -s 64KB -l 2 --format simple --source "$CZ_TMP/a/$REL" "$@"; }
zb --patch "$p1" --patch "$p3" >/dev/null 2>"$CZ_TMP/z.err"
rc=$?
ok "zbench --patch P1 --patch P3: both applied (exit $rc$(head -n 1 "$CZ_TMP/z.err" | sed 's/^/: /'))" -- [ $rc -eq 0 ]
zb --patch "$p3" --patch "$p3" >/dev/null 2>"$CZ_TMP/z.err"
rc=$?
ok "zbench --patch P3 --patch P3: the second is refused, named (exit $rc: $(head -n 1 "$CZ_TMP/z.err"))" -- \
	eval '[ $rc -eq 1 ] && grep -q "$p3 does not apply to $CZ_TMP/a/$REL" "$CZ_TMP/z.err"'

SEQ_CMD="$PREAD_Z100K -n 200 --format simple {dev}"
seq_exp "$CZ_TMP/e" "[variant s]" "source = $CZ_TMP/a/$REL" "series = $CZ_TMP/fp" \
	"[variant g]" "source = $REL" "git = $CZ_TMP/repo base..HEAD"
"$ZAB" expand "$CZ_TMP/e" -o "$CZ_TMP/e.x" 2>"$CZ_TMP/x.err"
rc=$?
ok "zab expand: exit $rc$(head -n 1 "$CZ_TMP/x.err" | sed 's/^/: /')" -- [ $rc -eq 0 ]
STORE=sqlite:$CZ_TMP/results.db
"$ZAB" run "$CZ_TMP/e.x" --store "$STORE" -S 1 -W 0 -R 2 --seed 1 --cusezero "$CUSEZERO" --no-progress \
	--json "$CZ_TMP/r.json" >"$CZ_TMP/r.out" 2>"$CZ_TMP/r.err"
rc=$?
ok "zab run of the expanded file: exit $rc$(grep -m 1 -v '^zab: ' "$CZ_TMP/r.err" | sed 's/^/: /')" -- [ $rc -eq 0 ]
sed 's/^/# /' "$CZ_TMP/r.out" | grep '│' | head -4
ok "every step measured, end to end and in device (8 variants, no FAILED)" -- \
	eval 'grep -q "in-device" "$CZ_TMP/r.out" && ! grep -q FAILED "$CZ_TMP/r.out" &&
	      [ $(grep -c "\"variant\": \"[sg]@[0-3]\"" "$CZ_TMP/r.json") -eq 24 ]'
ok "s@3's daemon got the file and its three patches, in order" -- \
	grep -q -- "--source=$CZ_TMP/a/$REL --patch=$CZ_TMP/fp/0001-[^ ]* --patch=$CZ_TMP/fp/0003-[^ ]* --patch=$CZ_TMP/fp/0004-[^ ]* " "$CZ_TMP/r.json"

# field VARIANT KEY: the value of "KEY" in VARIANT's object of the run's document.
field() {
	awk -v v="\"name\": \"$1\"," -v k="\"$2\": " '
		index($0, v) && /^      "name"/ { on = 1; next }
		on && /^    }/ { on = 0 }
		on && index($0, k) { sub(/^ *"[^"]*": /, ""); sub(/,$/, ""); print; exit }' "$CZ_TMP/r.json"
}
ok "s@2: sequence, step, steps, label: $(field s@2 sequence) $(field s@2 step) $(field s@2 steps) $(field s@2 label)" -- \
	eval '[ "$(field s@2 sequence)" = "\"s\"" ] && [ "$(field s@2 step)" = 2 ] &&
	      [ "$(field s@2 steps)" = 3 ] &&
	      [ "$(field s@2 label)" = "\"x86: align rep_stos_alternative to 64 bytes\"" ]'
want=$(for p in "$CZ_TMP"/fp/0001-* "$CZ_TMP"/fp/0003-*; do sha256sum "$p"; done | cut -c-64 | sha256sum | cut -c-64)
ok "s@2: patchset_hash is KCIDB's over its two patches ($want)" -- \
	[ "$(field s@2 patchset_hash)" = "\"$want\"" ]
ok "s@0: no patches: patchset_hash empty" -- [ "$(field s@0 patchset_hash)" = '""' ]
ok "s@2: patchset_files name the patches in order, with their SHA-256" -- \
	sh -c "awk '/\"name\": \"s@2\"/ { on = 1 } on && /\"patchset_files\"/ { f = 1 } f && /\"name\"/ { print } f && /\\]/ { exit }' '$CZ_TMP/r.json' |
	       tr -d ' ' | tr '\n' ' ' | grep -q '\"name\":\"0001-x86-reword-the-loop-s-comment.patch\", \"name\":\"0003-x86-align-rep_stos_alternative-to-64-bytes.patch\",'"
ok "s@1: the source file's SHA-256" -- \
	[ "$(field s@1 file_sha256)" = "\"$(sha256sum "$CZ_TMP/a/$REL" | cut -c-64)\"" ]
h=$(git -C "$CZ_TMP/repo" rev-parse HEAD)
ok "g@3: git_commit $h, the tree's kernel version 6.12.0, sequence_kind git" -- \
	eval '[ "$(field g@3 git_commit)" = "\"$h\"" ] && [ "$(field g@3 kernel_version)" = "\"6.12.0\"" ] &&
	      [ "$(field g@3 sequence_kind)" = "\"git\"" ]'

# The store keeps the document: export gives the provenance back; report reads the run.
"$ZAB" store export --store "$STORE" >"$CZ_TMP/export.json" 2>"$CZ_TMP/ex.err"
rc=$?
ok "zab store export: exit $rc, the steps' provenance back (step, label, patchset_hash, git_commit)" -- \
	eval '[ $rc -eq 0 ] && grep -q "\"label\": \"x86: an lfence in the loop\"" "$CZ_TMP/export.json" &&
	      grep -q "\"patchset_hash\": \"$want\"" "$CZ_TMP/export.json" &&
	      grep -q "\"git_commit\": \"$h\"" "$CZ_TMP/export.json" && grep -q "\"steps\": 3" "$CZ_TMP/export.json"'
# KCIDB (tests/store/kcidb.sh has the rest): the real steps as checkouts the schema accepts.
"$ZAB" store export --kcidb --store "$STORE" -o "$CZ_TMP/kcidb.json" 2>"$CZ_TMP/kc.err"
rc=$?
ok "zab store export --kcidb: exit $rc$(head -n 1 "$CZ_TMP/kc.err" | sed 's/^/: /')" -- [ $rc -eq 0 ]
if command -v python3 >/dev/null && python3 -c 'import jsonschema' 2>/dev/null; then
	ok "KCIDB: 8 checkouts, s@2's patchset_hash, g@3's commit, every in-device test measured" -- python3 -c "
import json, sys
d = json.load(open('$CZ_TMP/kcidb.json'))
co = {c['misc']['variant']: c for c in d['checkouts']}
dev = [t for t in d['tests'] if t['misc']['result_class'].endswith(' in-device')]
sys.exit(not (len(co) == 8 and co['s@2']['patchset_hash'] == '$want' and co['g@3']['git_commit_hash'] == '$h'
              and len(dev) == 8 and all(t['status'] == 'DONE' and t['number']['value'] > 0 for t in dev)))"
	ok "KCIDB: the v5.3 schema accepts the document" -- python3 -c "
import json, jsonschema
jsonschema.Draft7Validator(json.load(open('$top_srcdir/tests/data/kcidb-v5.json'))).validate(json.load(open('$CZ_TMP/kcidb.json')))"
else
	skip "KCIDB checks: no python3-jsonschema (Debian: python3-jsonschema)"
	skip "KCIDB schema: no python3-jsonschema"
fi
"$ZAB" report --store "$STORE" --experiment "sequence test" \
	>"$CZ_TMP/rep.out" 2>"$CZ_TMP/rep.err"
rc=$?
ok "zab report of the stored run: exit $rc, every step a column" -- \
	eval '[ $rc -eq 0 ] && grep -q "s@3" "$CZ_TMP/rep.out" && grep -q "g@3" "$CZ_TMP/rep.out"'
"$ZAB" history --store "$STORE" --experiment "sequence test" \
	--by patch --variant s@3 >"$CZ_TMP/hist.out" 2>"$CZ_TMP/hist.err"
rc=$?
ok "zab history --by patch reads the stored sequence run: exit $rc$(head -n 1 "$CZ_TMP/hist.err" | sed 's/^/: /')" -- \
	[ $rc -eq 0 ]
done_testing
