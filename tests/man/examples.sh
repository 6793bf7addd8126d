#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: the EXAMPLES of zload(1) and zbench(1) run as printed (each
# .EX block a shell script, in a scratch directory, the built programs first
# in PATH) and exit 0, with durations, loop counts and offsets shortened by
# the substitutions below -- the only edits, so a broken example fails here.
# A block needing what this machine lacks (perf, fio, fio's tools, a running
# device) is a visible skip.
. "$top_srcdir/tests/man/lib.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/man-examples.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# What makes a block short: seconds, loops, sizes, offsets.
SHORTEN='s/--time 5 /--time 0.3 /; s/--runtime=5 /--runtime=1 /; s/-l 1000$/-l 20/
s/-l 100 /-l 5 /; s/-l 50 /-l 5 /; s/-s 256MB/-s 16MB/; s/--offsets 0\.\.127/--offsets 0..3/
s/size=1g/size=64m/'

# blocks PAGE: one file per .EX/.EE block of its EXAMPLES, groff escapes undone.
blocks() {
	awk -v out="$tmp/$(basename "$1")" '
		/^\.SH EXAMPLES/ { in_ex = 1; next }
		/^\.SH/ { in_ex = 0 }
		in_ex && /^\.EX/ { n++; f = out "." n ".sh"; printf "" >f; next }
		in_ex && /^\.EE/ { close(f); f = ""; next }
		f != "" { print >>f }
	' "$1"
	for b in "$tmp/$(basename "$1")".*.sh; do
		[ -f "$b" ] || continue
		sed -i -e 's/\\-/-/g' -e 's/\\e/\\/g' -e 's/\\(em/ /g' -e "$SHORTEN" "$b"
	done
}

# missing BLOCK: what it needs that is not here (empty: nothing).
missing() {
	# the pages' examples are x86-64's (perf's x86 names, rep_stosb) and zload's
	# need io_uring, which qemu-user (the arm64 suite on another host) lacks
	if [ "$ZERO_ARCH" != x86_64 ]; then
		case $(cat "$1") in *x86-64-*|*rep_stos*)
			echo "x86-64 routines (this build: $ZERO_ARCH)"; return ;;
		esac
		if [ "$(uname -m)" != "$ZERO_ARCH" ] && grep -q zload "$1"; then
			echo "io_uring, which qemu-user does not emulate"; return
		fi
	fi
	case $(cat "$1") in *"/run/cusezero/"*)
		[ -e /run/cusezero/cusezero/zero ] || { echo "a running device at /run/cusezero/cusezero"; return; } ;;
	esac
	for cmd in perf fio fio_jsonplus_clat2csv fio2gnuplot gnuplot; do
		if grep -Eq "(^|[ ;|&])$cmd( |\$)" "$1" && ! command -v "$cmd" >/dev/null; then
			echo "$cmd"
			return
		fi
	done
	case $(cat "$1") in *fio2gnuplot*)
		command -v gnuplot >/dev/null || echo gnuplot ;;
	esac
}

PATH=$top_builddir:$PATH
export PATH
for page in zload.1 zbench.1; do
	bin=$top_builddir/${page%.1}
	[ -x "$bin" ] || { skip "$page: ${page%.1} not built here"; continue; }
	blocks "$top_srcdir/man/$page"
	for b in "$tmp/$page".*.sh; do
		[ -f "$b" ] || { fail "$page: no EXAMPLES blocks"; break; }
		n=${b%.sh}
		what="$page example ${n##*.}: $(head -n 1 "$b" | cut -c1-60)"
		m=$(missing "$b")
		if [ -n "$m" ]; then
			skip "$what: needs $m"
			continue
		fi
		mkdir -p "$tmp/run" && rm -rf "$tmp/run"/* &&
			(cd "$tmp/run" && sh -e "$b" >"$tmp/out" 2>&1)
		rc=$?
		if [ $rc -eq 0 ]; then pass "$what"
		else fail "$what: exit $rc: $(tail -n 3 "$tmp/out" | tr '\n' '|')"; fi
	done
done
done_testing
