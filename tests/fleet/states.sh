#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zab fleet tells each SUT's state and keeps failures out of
# the measurements.  Five SUTs: one unreachable (its sshd gone), one whose
# zab is another version (preflight), one whose zab run fails, one whose
# run outlasts --timeout, one that completes; then a prefix tarball without
# bin/zab (install failed, said right after unpacking).  Each state is one
# line and a row in the store's fleet_states, only the complete SUT has a
# run, "n of m SUTs complete" per class (zab fleet's and zab report's), and
# --min-per-class decides the
# exit status.  Loopback sshd on 127.0.0.26-31 only.
# Needs: root
. "$top_srcdir/tests/zab/lib.sh"
need() {
	[ "${CI:-}" = true ] && { echo "Bail out! CI: $1"; exit 1; }
	skip_all "$1"
}
[ "$(id -u)" = 0 ] || skip_all "needs root (sshd)"
[ -x /usr/sbin/sshd ] || need "no sshd (Debian: openssh-server)"
command -v ansible-playbook >/dev/null || need "no ansible-playbook (Debian: ansible-core)"
command -v sqlite3 >/dev/null || need "no sqlite3 (Debian: sqlite3)"
T=$CZ_TMP
trap 'for s in 26 27 28 29 30 31; do pkill -f "$T/sut$s/sshd_config" 2>/dev/null; done; rm -rf "$T"' EXIT
. "$top_srcdir/tests/fleet/sshlib.sh"
ssh_keys || { echo "Bail out! ssh-keygen failed"; exit 1; }
for s in 26 27 28 29 30 31; do sshd_start $s || { echo "Bail out! sshd $s: $(tail -n 1 "$T/sut$s/sshd.log")"; exit 1; }; done
sshd_stop 26
version=$("$ZAB" --version | cut -d' ' -f3)
fakezab() {	# fakezab NAME VERSION RUN-BODY: a zab that answers --version so
	printf '#!/bin/sh\n[ "$1" = --version ] && { echo "zab (cusezero) %s"; exit 0; }\n%s\n' "$2" "$3" >"$T/$1"
	chmod 755 "$T/$1"
}
fakezab zab-old 0.0.1 'exit 0'
fakezab zab-fails "$version" 'echo "zab: this run fails" >&2; exit 1'
fakezab zab-slow "$version" 'sleep 600'
{
	echo "[class_a]"
	echo "$(inventory_line 26) cz_zab=$ZAB"
	echo "$(inventory_line 27) cz_zab=$T/zab-old"
	echo "[class_b]"
	echo "$(inventory_line 28) cz_zab=$T/zab-fails"
	echo "$(inventory_line 29) cz_zab=$T/zab-slow"
	echo "$(inventory_line 30) cz_zab=$ZAB"
	inventory_vars
} >"$T/inventory.ini"
ansible_env
unset CUSEZERO_STORE
cat >"$T/fleet.exp" <<EXP
[experiment]
name = states
sessions = 1
repeats = 2
[benchmark x]
cmd = $FAKE --sd 0.01
unit = bytes/sec
[variant a]
[variant b]
EXP
fleet() { "$ZAB" fleet "$T/fleet.exp" -i "$T/inventory.ini" --store "sqlite:$T/s.db" --campaign s1 \
	--results "$T/results" --timeout 20 "$@"; }
fleet >"$T/o1" 2>&1
rc=$?
grep -E '^  ' "$T/o1" | sed 's/^/# /'
ok "exit $rc: not every SUT completed" -- [ $rc -eq 1 ]
state() {	# state SUT STATE WHY [LINE]: the line (STATE, or LINE) and the store's row
	ok "sut$1: $2, one line: $(grep "^  sut$1: " "$T/o1" | cut -c1-140)" -- \
		sh -c "[ \$(grep -c '^  sut$1: ' '$T/o1') -eq 1 ] && grep -q '^  sut$1: ${4:-$2}.*$3' '$T/o1' &&
		       [ \"\$(sqlite3 '$T/s.db' \"SELECT state FROM fleet_states WHERE campaign = 's1' AND sut_name = 'sut$1'\")\" = '$2' ]"
}
state 26 unreachable ""
state 27 "preflight failed" "version"
state 28 "run failed" "this run fails"
state 29 "timed out" ""
state 30 complete "" ok
ok "only the complete SUT has a run: a failure is never a measurement" -- \
	[ "$("$ZAB" store ls runs --store "sqlite:$T/s.db" --campaign s1 --format csv | tail -n +2 | cut -d, -f4 | tr '\n' ' ')" = "sut30 " ]
ok "n of m SUTs complete per class" -- \
	sh -c "grep -q '^  class class_a: 0 of 2 SUTs complete' '$T/o1' && grep -q '^  class class_b: 1 of 3 SUTs complete' '$T/o1'"
fleet --min-per-class 1 --limit class_a >"$T/o2" 2>&1
rc=$?
ok "--min-per-class 1, class_a none complete: exit $rc" -- \
	sh -c "[ $rc -eq 1 ] && grep -q 'class class_a: 0 of 2 SUTs complete (fewer than --min-per-class)' '$T/o2'"
fleet --min-per-class 1 --limit sut30 >"$T/o3" 2>&1
rc=$?
ok "--min-per-class 1 met: exit $rc" -- sh -c "[ $rc -eq 0 ] && grep -q 'every SUT has its run' '$T/o3'"

# the report reads the same record: n of m per class, and what became of the others
"$ZAB" report --store "sqlite:$T/s.db" --experiment states --campaign s1 --by sut-class >"$T/rep1" 2>&1
rc=$?
ok "report --campaign: exit $rc, n of m SUTs complete per class, each failed SUT's state" -- \
	sh -c "[ $rc -eq 0 ] && grep -q '^  class class_a: 0 of 2 SUTs complete' '$T/rep1' &&
	       grep -q '^  class class_b: 1 of 3 SUTs complete' '$T/rep1' && grep -q '^    sut28: run failed' '$T/rep1'"
"$ZAB" report --store "sqlite:$T/s.db" --experiment states --campaign s1 --min-per-class 1 >"$T/rep2" 2>&1
rc=$?
ok "report --min-per-class 1: exit $rc, class_a short of it" -- \
	sh -c "[ $rc -eq 1 ] && grep -q 'class class_a: 0 of 2 SUTs complete (fewer than --min-per-class)' '$T/rep2'"
"$ZAB" report --store "sqlite:$T/s.db" --experiment states --min-per-class 1 >"$T/rep3" 2>&1
rc=$?
ok "report --min-per-class without --campaign: exit $rc, one line" -- \
	sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$T/rep3') -eq 1 ]"

# install failed: a prefix tarball without bin/zab is refused right after unpacking
mkdir -p "$T/stage/share" && echo x >"$T/stage/share/x" && tar -C "$T/stage" -czf "$T/nozab.tgz" . || exit 1
{ echo "[class_c]"; inventory_line 31; inventory_vars; } >"$T/inv2.ini"
"$ZAB" fleet "$T/fleet.exp" -i "$T/inv2.ini" --store "sqlite:$T/s.db" --campaign s2 --results "$T/r2" \
	--install prefix --package "$T/nozab.tgz" --timeout 20 >"$T/o4" 2>&1
rc=$?
grep -E '^  ' "$T/o4" | sed 's/^/# /'
ok "a tarball without bin/zab: exit $rc, install failed, said at bin/zab" -- \
	sh -c "[ $rc -eq 1 ] && grep -q '^  sut31: install failed: .*bin/zab' '$T/o4'"
done_testing
