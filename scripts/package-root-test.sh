#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# package-root-test.sh: run inside the fresh root where scripts/package.sh
# installed cusezero_*.deb.  Uses only what the package installed (and its
# dependencies): every program from /usr/bin, the device through its FUSE
# fallback (the root has /dev/fuse but no /dev/cuse), the installed
# experiment by name.  TAP on stdout; exit 1 on any failure.
set -u
n=0
failed=0
ok() {		# ok DESC -- CMD...
	desc=$1; shift; [ "$1" = -- ] && shift
	n=$((n + 1))
	if "$@" >/tmp/out 2>&1; then echo "ok $n - $desc"
	else echo "not ok $n - $desc"; sed 's/^/# /' /tmp/out | tail -15; failed=1; fi
}
dev=/run/cusezero/pkgtest/zero

for p in cusezero zeroctl zload pread_z100k zbench zab; do
	ok "/usr/bin/$p --version: $($p --version 2>&1)" -- \
		sh -c "test \"\$(command -v $p)\" = /usr/bin/$p && $p --version | grep -q '^$p (cusezero) '"
done
ok "man pages installed (cusezero.1 .. zab-experiment.5)" -- \
	test -f /usr/share/man/man1/cusezero.1.gz -a -f /usr/share/man/man4/cusezero.4.gz \
	     -a -f /usr/share/man/man5/zab-experiment.5.gz
ok "cusezero@.service and 60-cusezero.rules installed" -- \
	test -f /lib/systemd/system/cusezero@.service -a -f /lib/udev/rules.d/60-cusezero.rules

# The device: no CUSE in this root, so cusezero falls back to FUSE by itself.
ok "cusezero --name pkgtest: ready (FUSE fallback at $dev)" -- \
	sh -c "cusezero --name pkgtest --pidfile /run/pkgtest.pid && test -e $dev"
ok "zeroctl $dev: current settings" -- sh -c "zeroctl $dev | grep -q '^routine'"
ok "zeroctl --routine clear_user_arm64 --align 56, then --stats --json" -- \
	sh -c "zeroctl $dev --routine clear_user_arm64 --align 56 &&
	       zeroctl $dev --stats --json | grep -q '\"routine\": *\"clear_user_arm64\"'"
ok "pread_z100k --verify -n 2000 $dev" -- pread_z100k --verify -n 2000 "$dev"
ok "zload --verify --size 32MB --iodepth 8 $dev: every byte zero" -- \
	zload --verify --size 32MB --iodepth 8 "$dev"
ok "zbench memset -s 64KB -l 10 -f all: a GB/sec line per usable routine" -- \
	sh -c "zbench memset -s 64KB -l 10 -f all | grep -q 'GB/sec'"
kill "$(cat /run/pkgtest.pid)" 2>/dev/null
i=0
while [ -e "$dev" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
ok "cusezero stops on SIGTERM, its mount gone" -- test ! -e "$dev"

# zab: the installed experiment by name, from a directory that has none.
start=$(date +%s)
ok "zab run quick-alignment (cwd /, the installed experiment)" -- \
	sh -c "cd / && zab run quick-alignment --no-progress > /tmp/zab.out && cat /tmp/zab.out"
echo "# zab run quick-alignment took $(($(date +%s) - start)) s:"
sed 's/^/#   /' /tmp/zab.out 2>/dev/null | head -30
echo "1..$n"
exit $failed
