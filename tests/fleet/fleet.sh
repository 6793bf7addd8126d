#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: one experiment over a fleet through Ansible (zab fleet,
# ansible/fleet.yml).  Three real sshd on 127.0.0.2-4, each a SUT with its
# own install prefix (the build's make install, as a tarball the role
# unpacks), classes x86_a (two SUTs) and x86_b (one), and a real
# PostgreSQL server as the store: the store then holds every SUT's run and
# samples, and the report shows each class.  Then a second campaign in which
# one SUT's sshd dies mid-run: the others' results are kept, that SUT is
# reported, and the same command again (its sshd back) runs only that one.
# Only loopback addresses: nothing else may receive traffic here.
# Needs: root
. "$top_srcdir/tests/zab/lib.sh"
. "$top_srcdir/tests/store/pglib.sh"
need() {
	[ "${CI:-}" = true ] && { echo "Bail out! CI: $1"; exit 1; }
	skip_all "$1"
}
[ -x /usr/sbin/sshd ] || need "no sshd (Debian: openssh-server)"
command -v ansible-playbook >/dev/null || need "no ansible-playbook (Debian: ansible-core)"
command -v ssh-keygen >/dev/null || need "no ssh-keygen (Debian: openssh-client)"
pg_require "$CZ_TMP/pg"
T=$CZ_TMP
trap 'for s in 2 3 4; do pkill -f "$T/sut$s/sshd_config" 2>/dev/null; done; pg_stop "$T/pg"; rm -rf "$T"' EXIT

# the install: the build's make install, packed relative to its prefix
make -C "$top_builddir" install DESTDIR="$T/stage" prefix=/cz >"$T/install.log" 2>&1 ||
	{ echo "Bail out! make install: $(tail -n 1 "$T/install.log")"; exit 1; }
tar -C "$T/stage/cz" -czf "$T/cusezero.tgz" . || exit 1

# three SUTs: an sshd each on its own loopback address and port
. "$top_srcdir/tests/fleet/sshlib.sh"
ssh_keys || { echo "Bail out! ssh-keygen failed"; exit 1; }
for s in 2 3 4; do sshd_start $s || { echo "Bail out! sshd $s: $(tail -n 1 "$T/sut$s/sshd.log")"; exit 1; }; done
{
	echo "[x86_a]"; inventory_line 2; inventory_line 3
	echo; echo "[x86_b]"; inventory_line 4
	inventory_vars
} >"$T/inventory.ini"
ansible_env
unset CUSEZERO_STORE

# the experiment: b 1.5x a, a few seconds on every SUT
cat >"$T/fleet.exp" <<EXP
[experiment]
name = fleet-test
sessions = 2
repeats = 3
warmups = 0
[benchmark x]
cmd = sleep 0.1; $FAKE --sd 0.01
unit = bytes/sec
[variant a]
[variant b]
env.FAKE_SCALE = 1.5
EXP
fleet() { "$ZAB" fleet "$T/fleet.exp" -i "$T/inventory.ini" --store "$PG_URL" --install prefix \
	--package "$T/cusezero.tgz" --results "$T/results-$1" --campaign "$1" --timeout 60; }

fleet c1 >"$T/c1.out" 2>&1
rc=$?
ok "zab fleet over 3 SUTs: exit $rc" -- [ $rc -eq 0 ]
grep -E '^  sut| [|] ' "$T/c1.out" | sed 's/^/# /'
"$ZAB" store ls runs --store "$PG_URL" --campaign c1 --format csv >"$T/c1.csv"
ok "the store holds one run per SUT, with its class and samples" -- python3 -c "
import csv, sys
rows = list(csv.DictReader(open('$T/c1.csv')))
got = sorted((r['sut_name'], r['sut_class'], int(r['samples'])) for r in rows)
sys.exit(got != [('sut2', 'x86_a', 12), ('sut3', 'x86_a', 12), ('sut4', 'x86_b', 12)])"
ok "the report shows each class (a column group each), b's (I) in both" -- \
	sh -c "grep -Eq '[|] x86_a( |\$)' '$T/c1.out' && grep -Eq '[|] x86_b( |\$)' '$T/c1.out' && [ \$(grep -o '(I)' '$T/c1.out' | wc -l) -ge 2 ]"
ok "each SUT ran its own install (its prefix unpacked)" -- \
	sh -c "[ -x '$T/sut2/prefix/bin/zab' ] && [ -x '$T/sut3/prefix/bin/zab' ] && [ -x '$T/sut4/prefix/bin/zab' ]"
fleet c1 >"$T/c1b.out" 2>&1
ok "the same command again: every SUT has its run, nothing run again" -- \
	sh -c "grep -q 'every SUT has its run' '$T/c1b.out' && [ \$('$ZAB' store ls runs --store '$PG_URL' --campaign c1 --format csv | wc -l) -eq 4 ]"

# campaign c2: sut3's sshd dies while its experiment runs
fleet c2 >"$T/c2.out" 2>&1 &
fp=$!
n=0
while ! pgrep -f "sut-name sut3 --campaign c2" >/dev/null && [ $n -lt 600 ]; do sleep 0.1; n=$((n + 1)); done
sshd_stop 3
pkill -f "sut-name sut3 --campaign c2"
wait $fp
rc=$?
grep -E '^  sut' "$T/c2.out" | sed 's/^/# /'
ok "a SUT lost mid-run: exit $rc (not 0), that SUT reported" -- \
	sh -c "[ $rc -ne 0 ] && grep -q '^  sut3: \(unreachable\|run failed\|timed out\)' '$T/c2.out' && grep -q '^  sut2: ok' '$T/c2.out' && grep -q '^  sut4: ok' '$T/c2.out'"
ok "the others' runs are kept" -- \
	[ "$("$ZAB" store ls runs --store "$PG_URL" --campaign c2 --format csv | tail -n +2 | cut -d, -f4 | sort | tr '\n' ' ')" = "sut2 sut4 " ]
states=$(pg_sql "SELECT sut_name || ':' || state FROM fleet_states WHERE campaign = 'c2' ORDER BY 1" | tr '\n' ' ')
ok "the store (PostgreSQL) has sut3's state, not complete, the others complete: $states" -- \
	sh -c "echo '$states' | grep -Eqx 'sut2:complete sut3:(unreachable|run failed|timed out) sut4:complete '"
sshd_start 3
fleet c2 >"$T/c2b.out" 2>&1
rc=$?
ok "the same command again runs only the gap: exit $rc" -- \
	sh -c "[ $rc -eq 0 ] && grep -q '1 of 3 SUTs to run' '$T/c2b.out'"
ok "now one run per SUT in c2, none twice" -- \
	[ "$("$ZAB" store ls runs --store "$PG_URL" --campaign c2 --format csv | tail -n +2 | cut -d, -f4 | sort | tr '\n' ' ')" = "sut2 sut3 sut4 " ]
ok "and its state is complete now" -- \
	[ "$(pg_sql "SELECT state FROM fleet_states WHERE campaign = 'c2' AND sut_name = 'sut3'")" = complete ]

# bad input: one line, exit status 1 or 2
for args in "$T/none.exp -i $T/inventory.ini" "$T/fleet.exp -i $T/none.ini" "$T/fleet.exp" \
	    "$T/fleet.exp -i $T/inventory.ini --forks 0" "$T/fleet.exp -i $T/inventory.ini --install rpm"; do
	# shellcheck disable=SC2086
	"$ZAB" fleet $args >/dev/null 2>"$T/e"
	rc=$?
	ok "zab fleet $(echo "$args" | sed "s|$T/||g"): exit $rc, one line: $(cat "$T/e")" -- \
		sh -c "{ [ $rc -eq 1 ] || [ $rc -eq 2 ]; } && [ \$(wc -l <'$T/e') -eq 1 ]"
done
done_testing
