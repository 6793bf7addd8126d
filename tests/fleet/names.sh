#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zab fleet takes every name as data.  An experiment whose
# name, file name, campaign and zab run options hold commas, quotes, '*',
# spaces, {{ 7*7 }}, an Ansible lookup that would run a command on the
# controller, and non-ASCII; hosts whose names differ by a dot only (no
# regex: sut.24 is not sutx24).  Nothing is templated (no file the lookups
# would write), every name is stored as written, --limit reports no other
# host, a re-run runs only the SUT with no run, HOME unset works, and the
# stored run names the SHA-256 of every file shipped.  Loopback sshd on
# 127.0.0.24-25 only.
# Needs: root
. "$top_srcdir/tests/zab/lib.sh"
need() {
	[ "${CI:-}" = true ] && { echo "Bail out! CI: $1"; exit 1; }
	skip_all "$1"
}
[ "$(id -u)" = 0 ] || skip_all "needs root (sshd)"
[ -x /usr/sbin/sshd ] || need "no sshd (Debian: openssh-server)"
command -v ansible-playbook >/dev/null || need "no ansible-playbook (Debian: ansible-core)"
command -v jq >/dev/null || need "no jq"
T=$CZ_TMP
trap 'for s in 24 25; do pkill -f "$T/sut$s/sshd_config" 2>/dev/null; done; rm -rf "$T"' EXIT
. "$top_srcdir/tests/fleet/sshlib.sh"
ssh_keys || { echo "Bail out! ssh-keygen failed"; exit 1; }
for s in 24 25; do sshd_start $s || { echo "Bail out! sshd $s: $(tail -n 1 "$T/sut$s/sshd.log")"; exit 1; }; done
{
	echo "[lab_a]"; inventory_line 24 | sed 's/^sut24 /sut.24 /'
	echo "[lab_b]"; inventory_line 25 | sed 's/^sut25 /sutx24 /'
	inventory_vars
	echo "cz_zab=$ZAB"
} >"$T/inventory.ini"
ansible_env
unset CUSEZERO_STORE

odd="a, \"q\" 'p' * {{ 7*7 }} é"
dir="$T/$odd"
mkdir -p "$dir"
printf 'some data\n' >"$dir/data $odd.txt"
name="lat, \"bw\" * {{ 7*7 }} {{ lookup('pipe', 'id > $T/tpl-name') }} é"
cat >"$dir/$odd.exp" <<EXP
[experiment]
name = $name
sessions = 1
repeats = 2
warmups = 0
[benchmark x]
cmd = $FAKE --sd 0.01
unit = bytes/sec
[variant a]
[variant b]
EXP
prep="true '{{ lookup(\"pipe\", \"id > $T/tpl-arg\") }}'"
fleet() { "$ZAB" fleet "$dir/$odd.exp" -i "$T/inventory.ini" --store "sqlite:$T/s.db" --timeout 60 "$@" -- --prepare "$prep"; }
runs() { "$ZAB" store ls runs --store "sqlite:$T/s.db" --format json | jq -r "$1"; }

XDG_CACHE_HOME=$T/cache fleet --limit sutx24 >"$T/o1" 2>&1
rc=$?
grep -E '^  |SUTs' "$T/o1" | sed 's/^/# /'
ok "--limit sutx24: exit $rc, sutx24 ran, sut.24 not reported" -- \
	sh -c "[ $rc -eq 0 ] && grep -q '^  sutx24: ok' '$T/o1' && ! grep -q 'sut\.24' '$T/o1'"
env -u HOME -u XDG_CACHE_HOME "$ZAB" fleet "$dir/$odd.exp" -i "$T/inventory.ini" --store "sqlite:$T/s.db" \
	--timeout 60 -- --prepare "$prep" >"$T/o2" 2>&1
rc=$?
grep -E '^  |SUTs' "$T/o2" | sed 's/^/# /'
ok "again, HOME unset: exit $rc, only sut.24 ran (1 of 2), not taken for sutx24" -- \
	sh -c "[ $rc -eq 0 ] && grep -q '1 of 2 SUTs to run' '$T/o2' && grep -q '^  sut\.24: ok' '$T/o2'"
ok "one run per SUT, named as written" -- \
	[ "$(runs '.[] | .sut_name' | sort | tr '\n' ' ')" = "sut.24 sutx24 " ]
ok "the experiment's name stored exactly: $(runs '.[0].experiment')" -- \
	[ "$(runs '.[0].experiment')" = "$name" ]
camp="c, \"1\" * {{ lookup('pipe', 'id > $T/tpl-camp') }} é"
XDG_CACHE_HOME=$T/cache fleet --campaign "$camp" >"$T/o3" 2>&1
rc=$?
ok "--campaign with the same characters: exit $rc, both SUTs' runs under it" -- \
	sh -c "[ $rc -eq 0 ] && [ \$('$ZAB' store ls runs --store 'sqlite:$T/s.db' --campaign '$(printf %s "$camp" | sed "s/'/'\\\\''/g")' --format json | jq length) -eq 2 ]"
"$ZAB" store export --store "sqlite:$T/s.db" --campaign "$camp" -o "$T/exp.json"
ok "nothing was templated: no file a lookup would have written" -- \
	sh -c "[ ! -e '$T/tpl-name' ] && [ ! -e '$T/tpl-arg' ] && [ ! -e '$T/tpl-camp' ] && ! grep -q ' 49 ' '$T/o1' '$T/o2' '$T/o3'"
ok "each stored run names the SHA-256 of its shipped experiment" -- \
	sh -c "jq -e '(if has(\"results\") then .results else [.] end) | length == 2 and all(.[]; .shipped.sha256sums | test(\"^[0-9a-f]{64}\$\"))' '$T/exp.json' >/dev/null"
done_testing
