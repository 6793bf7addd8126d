#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/fleet.sh [COUNTS...]: what zab fleet (ansible-playbook) costs on top
# of the experiment, for 1, 2, 4 and 8 SUTs (default).  Each SUT is a real
# sshd on 127.0.0.N (tests/fleet/sshlib.sh) with its own install prefix;
# the playbook unpacks the build's make install there, runs one experiment
# (2 sessions x 3 repeats x 2 variants of "sleep 0.2": 2.4 s of commands)
# and imports every result into an SQLite store on the controller.  Per
# count, one line:
#   SUTs  wall s (zab fleet, end to end)  run s (the slowest SUT's own run,
#   from the store: ended - started)  overhead s = wall - run
# On a 2-CPU machine the SUTs share the CPUs: the overhead grows with the
# count for that reason too; on a real fleet each SUT has its own.
# As root (sshd, root logins over loopback only).  top_builddir (default
# build/) names the build to use.
set -u
top_srcdir=$(cd "$(dirname "$0")/.." && pwd)
b=${top_builddir:-$top_srcdir/build}
ZAB=$b/zab
[ -x "$ZAB" ] || { echo "fleet.sh: $ZAB not built" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "fleet.sh: run as root (sshd SUTs on loopback)" >&2; exit 1; }
for p in /usr/sbin/sshd ansible-playbook ssh-keygen; do
	command -v "$p" >/dev/null || { echo "fleet.sh: $p missing (Debian: openssh-server, ansible-core)" >&2; exit 1; }
done
[ $# -gt 0 ] || set -- 1 2 4 8
for c in "$@"; do
	case $c in ''|*[!0-9]*|0*) echo "fleet.sh: SUT count '$c': expected 1..250" >&2; exit 2 ;; esac
	[ "$c" -le 250 ] || { echo "fleet.sh: SUT count '$c': expected 1..250" >&2; exit 2; }
done
T=$(mktemp -d) || exit 1
chmod 755 "$T"
. "$top_srcdir/tests/fleet/sshlib.sh"
started=
trap 'for n in $started; do sshd_stop $n; done; rm -rf "$T"' EXIT
make -C "$b" install DESTDIR="$T/stage" prefix=/cz >"$T/install.log" 2>&1 ||
	{ echo "fleet.sh: make install: $(tail -n 1 "$T/install.log")" >&2; exit 1; }
tar -C "$T/stage/cz" -czf "$T/cusezero.tgz" . || exit 1
ssh_keys || exit 1
ansible_env
# Ansible's own ssh defaults (a persistent master per SUT), not the test's
# ControlMaster=no (which makes a killed sshd drop at once); FLEET_SSH_ARGS
# replaces them.
ANSIBLE_SSH_ARGS=${FLEET_SSH_ARGS:--C -o ControlMaster=auto -o ControlPersist=60s -o UserKnownHostsFile=/dev/null}
ANSIBLE_CONTROL_PATH_DIR=$T/cp
export ANSIBLE_CONTROL_PATH_DIR
unset CUSEZERO_STORE
cat >"$T/bench.exp" <<EXP
[experiment]
name = fleet-bench
sessions = 2
repeats = 3
warmups = 0
[benchmark nap]
cmd = sleep 0.2; echo 100
unit = bytes/sec
[variant x]
[variant y]
EXP
echo "# bench/fleet.sh: $(grep -m 1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) CPUs; $(ansible-playbook --version | head -n 1)"
printf '%5s %8s %8s %11s %14s\n' SUTs wall_s run_s overhead_s overhead_s/SUT
for count in "$@"; do
	i=2
	{
		echo "[bench]"
		while [ $i -lt $((count + 2)) ]; do
			case " $started " in *" $i "*) ;; *)
				sshd_start $i || { echo "fleet.sh: sshd $i: $(tail -n 1 "$T/sut$i/sshd.log")" >&2; exit 1; }
				started="$started $i" ;;
			esac
			inventory_line $i | sed "s|/sut$i/|/c$count/sut$i/|g"
			i=$((i + 1))
		done
		inventory_vars
	} >"$T/inv$count.ini" || exit 1
	store=sqlite:$T/s$count.db
	t0=$(date +%s%N)
	"$ZAB" fleet "$T/bench.exp" -i "$T/inv$count.ini" --store "$store" --campaign "b$count" \
		--forks "$count" --install prefix --package "$T/cusezero.tgz" --results "$T/r$count" \
		>"$T/out$count" 2>&1 ||
		{ echo "fleet.sh: zab fleet over $count SUTs failed:" >&2; tail -n 5 "$T/out$count" >&2; exit 1; }
	t1=$(date +%s%N)
	"$ZAB" store ls runs --store "$store" --campaign "b$count" --format csv >"$T/runs$count.csv"
	python3 - "$T/runs$count.csv" "$count" "$t0" "$t1" <<'PY'
import csv, sys
from datetime import datetime
rows = list(csv.DictReader(open(sys.argv[1])))
n = int(sys.argv[2])
if len(rows) != n:
    sys.exit("fleet.sh: %d runs stored for %d SUTs" % (len(rows), n))
t = lambda s: datetime.fromisoformat(s.replace("Z", "+00:00")).timestamp()
run = max(t(r["ended"]) - t(r["started"]) for r in rows)
wall = (int(sys.argv[4]) - int(sys.argv[3])) / 1e9
print("%5d %8.2f %8.2f %11.2f %14.2f" % (n, wall, run, wall - run, (wall - run) / n))
PY
done
