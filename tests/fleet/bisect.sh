#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zab fleet --bisect: each SUT class bisects on its own.  Three
# real sshd on 127.0.0.2-4 as SUTs, classes x86_a (two SUTs) and x86_b
# (one), zab from the build (--install none); a 16-step sequence
# (fakebench) whose steps 9..16 are 30% slower on x86_a only (the
# benchmark ignores the steps' scale in x86_b's run folders).  One SUT per
# class runs zab bisect, both classes at once; the answers differ per
# class (x86_a: first change at step 9, x86_b: no change), the probes are
# imported into the controller's store under the campaign, with each
# SUT's inventory name, and the SUT of x86_a not chosen ran nothing.
# Only loopback addresses: nothing else may receive traffic here.
# Needs: root
. "$top_srcdir/tests/zab/lib.sh"
. "$top_srcdir/tests/zab/seqlib.sh"
need() {
	[ "${CI:-}" = true ] && { echo "Bail out! CI: $1"; exit 1; }
	skip_all "$1"
}
[ -x /usr/sbin/sshd ] || need "no sshd (Debian: openssh-server)"
command -v ansible-playbook >/dev/null || need "no ansible-playbook (Debian: ansible-core)"
command -v ssh-keygen >/dev/null || need "no ssh-keygen (Debian: openssh-client)"
T=$CZ_TMP
trap 'for s in 2 3 4; do pkill -f "$T/sut$s/sshd_config" 2>/dev/null; done; rm -rf "$T"' EXIT
. "$top_srcdir/tests/fleet/sshlib.sh"
ssh_keys || { echo "Bail out! ssh-keygen failed"; exit 1; }
for s in 2 3 4; do sshd_start $s || { echo "Bail out! sshd $s: $(tail -n 1 "$T/sut$s/sshd.log")"; exit 1; }; done
{
	echo "[x86_a]"; inventory_line 2; inventory_line 3
	echo; echo "[x86_b]"; inventory_line 4
	inventory_vars
	echo "cz_zab=$(cd "$(dirname "$ZAB")" && pwd)/$(basename "$ZAB")"
} >"$T/inventory.ini"
ansible_env
unset CUSEZERO_STORE
url="sqlite:$T/ctl.db"

# the sequence: s@9..s@16 at FAKE_SCALE 0.7; in sut4's run folder (class x86_b) scale 1
printf '#!/bin/sh\ncase "$(pwd -P)" in */sut4/*) FAKE_SCALE=1; export FAKE_SCALE ;; esac\nexec "%s" "$@"\n' \
	"$FAKE" >"$T/bench" && chmod 755 "$T/bench" || exit 1
FAKE=$T/bench seq_file "$T/seq.ini" fleetseq 16 9

"$ZAB" fleet --bisect "$T/seq.ini" -i "$T/inventory.ini" --store "$url" --results "$T/res" \
	--campaign fb --timeout 150 -- --seed 7 >"$T/b.out" 2>&1
rc=$?
grep -E '^  class|^zab fleet: (bisect|[0-9])' "$T/b.out" | sed 's/^/# /'
ok "zab fleet --bisect over 2 classes: exit $rc" -- [ $rc -eq 0 ]
ok "one SUT per class: sut2 for x86_a, sut4 for x86_b" -- \
	grep -qx 'zab fleet: bisect on 2 classes: x86_a (sut2) x86_b (sut4)' "$T/b.out"
ok "x86_a: first change at step 9" -- \
	grep -q '^  class x86_a (sut2): first change: step 9/16 s@9: -[23][0-9.]*% (R) in x on x86_a$' "$T/b.out"
ok "x86_b: no change" -- grep -q '^  class x86_b (sut4): no change on x86_b: step 16/16 ' "$T/b.out"
"$ZAB" store ls runs --store "$url" --campaign fb --format csv >"$T/runs.csv"
ok "the probes are in the controller's store, tagged fb, each SUT's name and class" -- python3 -c "
import csv, sys
rows = list(csv.DictReader(open('$T/runs.csv')))
got = sorted(set((r['sut_name'], r['sut_class']) for r in rows))
sys.exit(not rows or got != [('sut2', 'x86_a'), ('sut4', 'x86_b')])"
ok "sut3 (x86_a, not chosen) ran nothing" -- sh -c "! ls '$T/sut3/work' 2>/dev/null | grep -q ."
"$ZAB" bisect --stored --store "$url" "$T/seq.ini" >"$T/s.out" 2>"$T/s.err"
sed 's/^/# --stored: /' "$T/s.out" "$T/s.err"
ok "bisect --stored over the imported probes: the same answers, nothing run" -- sh -c "
	grep -q '^first change: step 9/16 s@9: .* on x86_a' '$T/s.out' && grep -q '^no change on x86_b' '$T/s.out' &&
	grep -q '^zab: bisect: 0 runs made' '$T/s.err'"
done_testing
