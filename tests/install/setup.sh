#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: scripts/setup as a newcomer meets it.  --help lists every step
# the script takes and it takes every step --help lists; no step or an
# unknown one is one line on stderr and exit 2.  deps-main with every package
# installed (dpkg-query says so) runs no apt-get, as any user.  With a
# package missing while another process holds one of apt's locks, it names
# that process (pid and command line), says that it waits, and runs apt-get
# once the lock is free (as root: installing needs it).  dpkg-query and
# apt-get are stand-ins in a folder of the test's own put first in PATH (no
# package is installed), and the lock is a file of the test's own
# (SETUP_APT_LOCKS), never apt's.
# Needs: none
. "$top_srcdir/tests/tap.sh"
S=$top_srcdir/scripts/setup
T=$(mktemp -d "${TMPDIR:-/tmp}/setup-test.XXXXXX") || exit 1
holder=
trap '[ -z "$holder" ] || kill "$holder" 2>/dev/null; rm -rf "$T"' EXIT
cd "$T" || exit 1

# --help and the steps of the script's case statement ("step)<TAB>...").
sh "$S" --help >help 2>err
rc=$?
ok "--help: exit 0, nothing on stderr (exit $rc: $(head -c 200 err))" -- test "$rc:$(cat err)" = "0:"
steps=$(sed -n 's/^\([a-z][a-z0-9-]*\))\t.*/\1/p' "$S")
listed=$(sed -n 's/^  \([a-z][a-z0-9-]*\)  .*/\1/p' help)
ok "the script has steps (main, test, deps, build, check ...)" -- \
	test "$(echo "$steps" | grep -cx 'main\|test\|deps\|deps-main\|build\|demo\|check')" -eq 7
for s in $steps; do
	ok "--help lists step $s" -- sh -c 'echo "$1" | grep -qx "$2"' sh "$listed" "$s"
done
for s in $listed; do
	ok "--help's step $s is one the script takes" -- sh -c 'echo "$1" | grep -qx "$2"' sh "$steps" "$s"
done
for a in "" "bogus"; do
	sh "$S" $a >out 2>err
	rc=$?
	if [ -z "$a" ]; then
		# no step: the usage itself, on stderr
		ok "no step: exit 2, the usage on stderr, nothing on stdout" -- \
			test "$rc:$(wc -c <out):$(grep -c '^  check-user ' err)" = "2:0:1"
	else
		ok "step '$a': exit 2, one line naming it" -- \
			test "$rc:$(wc -l <err):$(grep -c "'$a'" err)" = "2:1:1"
	fi
done

# Stand-ins: dpkg-query finds every package but those in $T/missing;
# apt-get only writes down how it was called.
mkdir bin
cat >bin/dpkg-query <<'EOF'
#!/bin/sh
p=$(eval echo "\${$#}")
if grep -qx "$p" "$SETUP_TEST_DIR/missing" 2>/dev/null; then
	echo "dpkg-query: no packages found matching $p" >&2
	exit 1
fi
printf 'ii |1.0'
EOF
cat >bin/apt-get <<'EOF'
#!/bin/sh
echo "$*" >>"$SETUP_TEST_DIR/apt.log"
EOF
chmod +x bin/dpkg-query bin/apt-get
SETUP_TEST_DIR=$T
export SETUP_TEST_DIR
: >missing

PATH="$T/bin:$PATH" sh "$S" deps-main >out 2>err
rc=$?
ok "deps-main, every package installed: exit 0 (exit $rc: $(tail -n 2 err | tr '\n' '|'))" -- test "$rc" -eq 0
ok "deps-main, every package installed: apt-get not run" -- test ! -e apt.log
ok "deps-main, every package installed: it says so" -- grep -q 'apt-get not run' out

if [ "$(id -u)" != 0 ]; then
	skip "a package missing while a lock is held: installing needs root (# Needs: none; the rest runs)"
	done_testing
	exit
fi
command -v flock >/dev/null || { skip "flock(1) not installed: no lock holder"; done_testing; exit; }
echo fio >missing
: >lock
flock lock sleep 120 &
holder=$!
i=0
while [ $i -lt 50 ] && ! grep -q "^[^ ]*FLOCK .* $holder " /proc/locks; do sleep 0.1; i=$((i + 1)); done
SETUP_APT_LOCKS="$T/lock" PATH="$T/bin:$PATH" sh "$S" deps-main >out 2>err &
setup=$!
i=0
while [ $i -lt 100 ] && ! grep -q waiting err; do sleep 0.1; i=$((i + 1)); done
line=$(grep waiting err | head -n 1)
diag "$line"
ok "fio missing, the lock held: setup says it waits" -- test -n "$line"
ok "... naming the lock, the holder's pid and command line" -- \
	sh -c 'case $1 in *"$2, held by process $3 (flock lock sleep 120)"*) ;; *) exit 1 ;; esac' sh "$line" "$T/lock" "$holder"
ok "... and runs no apt-get while the lock is held" -- test ! -e apt.log
kill "$holder"
wait "$holder" 2>/dev/null
holder=
i=0
while [ $i -lt 300 ] && kill -0 "$setup" 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
wait "$setup"
rc=$?
ok "the lock freed: setup goes on, exit 0 (exit $rc)" -- test "$rc" -eq 0
ok "... saying the locks are free" -- grep -q 'free after' err
ok "... and runs apt-get update, then install with fio" -- \
	sh -c 'sed -n 1p apt.log | grep -q "update" && sed -n 2p apt.log | grep -q "install .* fio"'
done_testing
