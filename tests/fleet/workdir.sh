#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: a SUT's work folder that another local user could have made
# or entered is refused.  A folder that is world-writable and sticky
# ($T/shared, mode 1777) stands in for /var/tmp; an unprivileged user
# (nobody) pre-creates the work folder of one SUT, plants a symlink as
# another's and keeps swapping every experiment file it can reach for one
# whose cmd = line records who ran it.  zab fleet must refuse those SUTs
# with one line each, never run the swapped experiment (as root), store
# nothing from them -- and still run the SUT whose work folder is private.
# Loopback sshd on 127.0.0.20-23 only.
# Needs: root
. "$top_srcdir/tests/zab/lib.sh"
need() {
	[ "${CI:-}" = true ] && { echo "Bail out! CI: $1"; exit 1; }
	skip_all "$1"
}
[ "$(id -u)" = 0 ] || skip_all "needs root (sshd, and another user to play the attacker)"
[ -x /usr/sbin/sshd ] || need "no sshd (Debian: openssh-server)"
command -v ansible-playbook >/dev/null || need "no ansible-playbook (Debian: ansible-core)"
command -v setpriv >/dev/null || need "no setpriv (Debian: util-linux)"
nobody=$(id -u nobody 2>/dev/null) || skip_all "no user nobody"
T=$CZ_TMP
trap 'kill $swap 2>/dev/null; for s in 20 21 22 23; do pkill -f "$T/sut$s/sshd_config" 2>/dev/null; done; rm -rf "$T"' EXIT
chmod 711 "$T"          # the attacker may pass through, not list or write
. "$top_srcdir/tests/fleet/sshlib.sh"
ssh_keys || { echo "Bail out! ssh-keygen failed"; exit 1; }
for s in 20 21 22 23; do sshd_start $s || { echo "Bail out! sshd $s: $(tail -n 1 "$T/sut$s/sshd.log")"; exit 1; }; done

mkdir -m 1777 "$T/shared"
mkdir -m 755 "$T/private"
as_nobody() { setpriv --reuid="$nobody" --regid="$(id -g nobody)" --clear-groups "$@"; }
# sut20: the default name, made first by the attacker (0777, its own)
as_nobody sh -c "mkdir -m 777 '$T/shared/cusezero-fleet' && ln -s '$T/victim' '$T/shared/cusezero-fleet/lock'"
# sut21: a symlink to the attacker's folder
as_nobody sh -c "mkdir -m 777 '$T/shared/mine' && ln -s '$T/shared/mine' '$T/shared/cz21'"
# sut22: absent, but its parent is the 1777 folder; sut23: a private one
{
	echo "[lab]"
	echo "$(inventory_line 20 | sed 's/ cz_workdir=[^ ]*//') cz_workdir=$T/shared/cusezero-fleet"
	echo "$(inventory_line 21 | sed 's/ cz_workdir=[^ ]*//') cz_workdir=$T/shared/cz21"
	echo "$(inventory_line 22 | sed 's/ cz_workdir=[^ ]*//') cz_workdir=$T/shared/cz22"
	echo "$(inventory_line 23 | sed 's/ cz_workdir=[^ ]*//') cz_workdir=$T/private/work"
	inventory_vars
	echo "cz_zab=$ZAB"
} >"$T/inventory.ini"
ansible_env
unset CUSEZERO_STORE

cat >"$T/fleet.exp" <<EXP
[experiment]
name = workdir-test
sessions = 1
repeats = 2
warmups = 0
[benchmark x]
cmd = sleep 0.2; $FAKE --sd 0.01
unit = bytes/sec
[variant a]
[variant b]
EXP
sed "s|^cmd = |cmd = id -u >>$T/pwned; |" "$T/fleet.exp" >"$T/evil.exp"
chmod 644 "$T/evil.exp"
# the attacker: every experiment file in a folder it owns, replaced by its own
setpriv --reuid="$nobody" --regid="$(id -g nobody)" --clear-groups sh -c "while :; do for d in '$T/shared/cusezero-fleet' '$T/shared/mine'; do
	for f in \"\$d\"/*.exp \"\$d\"/*/experiment; do [ -f \"\$f\" ] || continue
		cmp -s '$T/evil.exp' \"\$f\" || { cp '$T/evil.exp' \"\$d/.x\" && mv -f \"\$d/.x\" \"\$f\"; }
	done; done; sleep 0.02; done" 2>/dev/null &
swap=$!

"$ZAB" fleet "$T/fleet.exp" -i "$T/inventory.ini" --store "sqlite:$T/store.db" --campaign w1 \
	--results "$T/results" --timeout 60 >"$T/out" 2>&1
rc=$?
kill $swap 2>/dev/null
grep -E '^  sut' "$T/out" | sed 's/^/# /'
ok "the swapped experiment never ran$([ -e "$T/pwned" ] && echo ": it ran as uid $(sort -u "$T/pwned" | tr "\n" " ")")" -- [ ! -e "$T/pwned" ]
ok "exit $rc: not every SUT ran" -- [ $rc -eq 1 ]
for s in 20 21 22; do
	ok "sut$s refused, one line: $(grep "^  sut$s: " "$T/out" | cut -c1-150)" -- \
		sh -c "[ \$(grep -c '^  sut$s: ' '$T/out') -eq 1 ] && grep -q '^  sut$s: preflight failed: .*refused' '$T/out'"
done
ok "the private work folder's SUT ran" -- grep -q '^  sut23: ok' "$T/out"
ok "the store holds sut23's run only: nothing forged" -- \
	[ "$("$ZAB" store ls runs --store "sqlite:$T/store.db" --campaign w1 --format csv | tail -n +2 | cut -d, -f4 | tr '\n' ' ')" = "sut23 " ]
ok "the planted lock symlink was not followed" -- [ ! -e "$T/victim" ]
ok "the run folder went; the work folder is root's, mode 0700" -- \
	sh -c "[ \"\$(stat -c %u:%a '$T/private/work')\" = 0:700 ] && [ -z \"\$(ls '$T/private/work' | grep -v '^lock\$')\" ]"
done_testing
