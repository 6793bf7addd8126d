#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# busy-check.sh: the test suite on a busy machine -- busy loops at nice 19,
# LOOPS per CPU (default 5: a load of about 10 on 2 CPUs), beside `make
# check` in a configured build tree.  Every bound in the tests must hold
# there; a test that passes alone and fails here has a timing to fix.
#
#   scripts/busy-check.sh [BUILD [MAKE-ARGS...]]   (default: build/ of the checkout)
#   e.g. scripts/busy-check.sh build TESTS='tests/cuse/fuse-uring.sh'
#
# Not part of `scripts/setup test` (it would double CI's time); run by hand
# before changing a test's waits.  The loops end with the script.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
[ $# -eq 0 ] || shift
[ -f "$build/Makefile" ] || { echo "busy-check: $build: not a configured build tree (no Makefile)" >&2; exit 2; }
per=${LOOPS:-5}
case $per in ''|*[!0-9]*) echo "busy-check: LOOPS=$per: not a whole number" >&2; exit 2 ;; esac
ncpu=$(nproc)
pids=
trap 'kill $pids 2>/dev/null || true' EXIT INT TERM
i=0
while [ "$i" -lt $((per * ncpu)) ]; do
	nice -n 19 sh -c 'while :; do :; done' &
	pids="$pids $!"
	i=$((i + 1))
done
echo "busy-check: $((per * ncpu)) busy loops at nice 19 on $ncpu CPUs; make check in $build"
make -C "$build" -j"$ncpu" check "$@"
