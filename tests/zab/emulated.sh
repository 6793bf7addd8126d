#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: a zab run on emulated hardware (forced with CUSEZERO_EMULATED,
# lib/emul.h) takes no kernel reference and says why in one line; its JSON
# environment and the store's copy carry "emulated" and the reason, the
# default SUT class ends in "(emulated)", and its table's footer (and zab
# report's of the file) says the figures time the emulator.  Not emulated,
# none of it.
# Needs: none
. "$top_srcdir/tests/zab/lib.sh"
command -v python3 >/dev/null || skip_all "no python3 (JSON checks)"
unset CUSEZERO_STORE
url=sqlite:$CZ_TMP/e.db

erun() {
	"$ZAB" run -b "x=$FAKE --sd 0.01 --mean 10" --unit bytes/sec -v a -v b -S 1 -R 3 --no-progress \
		--name emul --store "$url" "$@"
}

CUSEZERO_EMULATED='a test' erun --json "$CZ_TMP/e.json" >"$CZ_TMP/e.out" 2>"$CZ_TMP/e.err"
rc=$?
ok "run: exit $rc, one line: no kernel reference, why ($(grep 'kernel reference' "$CZ_TMP/e.err"))" -- sh -c "
	[ $rc -eq 0 ] && [ \$(grep -c 'kernel reference' '$CZ_TMP/e.err') -eq 1 ] &&
	grep -q '^zab: kernel reference not taken on emulated hardware (a test (CUSEZERO_EMULATED))\$' '$CZ_TMP/e.err'"
ok "JSON: environment.emulated, its reason, kernel_ref an error with no figure, SUT '(emulated)'" -- python3 -c "
import json, sys
d = json.load(open('$CZ_TMP/e.json'))
e = d['environment']
k = e['kernel_ref']
sys.exit(not (e['emulated'] is True and e['emulated_why'] == 'a test (CUSEZERO_EMULATED)'
              and 'kernel' not in k and k['error'].startswith('not taken on emulated hardware')
              and d['sut'].endswith(' (emulated)')))"
ok "the table's footer says emulated" -- \
	grep -q '^Emulated: a test (CUSEZERO_EMULATED): the figures time the emulator, not the hardware (no kernel reference taken)\.$' \
	"$CZ_TMP/e.out"
"$ZAB" report "$CZ_TMP/e.json" >"$CZ_TMP/r.out" 2>&1
ok "zab report of the file: the footer too" -- grep -q '^Emulated: a test' "$CZ_TMP/r.out"
"$ZAB" store export --store "$url" --experiment emul >"$CZ_TMP/x.json" 2>"$CZ_TMP/x.err" ||
	diag "store export: $(cat "$CZ_TMP/x.err")"
ok "the store's copy carries emulated" -- python3 -c "
import json, sys
d = json.load(open('$CZ_TMP/x.json'))
runs = d['results'] if 'results' in d else [d]
sys.exit(not (len(runs) == 1 and runs[0]['environment']['emulated'] is True))"

CUSEZERO_EMULATED=0 erun --kernel-ref no --json "$CZ_TMP/n.json" >"$CZ_TMP/n.out" 2>"$CZ_TMP/n.err"
ok "not emulated: no field, no footer line, SUT without '(emulated)'" -- python3 -c "
import json, sys
d = json.load(open('$CZ_TMP/n.json'))
sys.exit('emulated' in d['environment'] or 'emulated' in d['sut'] or
         'Emulated' in open('$CZ_TMP/n.out').read())"
done_testing
