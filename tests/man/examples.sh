#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: the EXAMPLES of every man page run as printed: each .EX block
# a shell script (a C program is built and run, an experiment file parsed by
# zab run --dry-run), in a scratch directory, the built programs first in
# PATH, with only the substitutions of tests/man/examples-lib.sh (durations,
# loop counts, offsets shortened), and exit 0.  Device examples run as root
# in a private namespace, with the device they name started for them and
# their daemons stopped after them.  A block needing what this machine lacks
# (perf, fio, fio's tools, root, the x86-64 routines, io_uring under
# qemu-user) is a visible skip.
. "$top_srcdir/tests/man/examples-lib.sh"
tmp=$ex_tmp

# An example that is an installed experiment file: PAGE:BLOCK=FILE.  Its
# settings (comments and blank lines aside) are the file's.
SAME_AS="zab-experiment.5:1=quick-alignment"

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
		sed -i -e 's/\\-/-/g' -e 's/\\e/\\/g' -e 's/\\(em/ /g' -e 's/\\(dq/"/g' "$b"
		case $(head -n 1 "$b") in
		"#include"*) sed -e "$EX_DEV" "$b" >"${b%.sh}.c"; ex_c "${b%.sh}.c" >"$b" ;;
		"["*) mv "$b" "${b%.sh}.ini"; ex_ini "${b%.sh}.ini" >"$b" ;;
		*) ex_mark_sudo "$b"; sed -i -e "$SHORTEN" -e "$EX_DEV" "$b" ;;
		esac
	done
}

# settings FILE: an experiment file's lines that are not comments or blank.
settings() { grep -Ev '^[[:space:]]*([#;]|$)' "$1"; }

for src in "$top_srcdir"/man/*.[145]; do
	page=$(basename "$src")
	bin=$top_builddir/${page%.[145]}
	case $page in
	zab-*.[15]|cusezero.4) bin=$top_builddir/zab ;;
	pread_z100k.1) bin=$top_builddir/pread_z100k/pread_z100k ;;
	esac
	[ -x "$bin" ] || { skip "$page: $(basename "$bin") not built here"; continue; }
	grep -q '^\.SH EXAMPLES' "$src" || { fail "$page: no EXAMPLES section"; continue; }
	blocks "$src"
	for b in "$tmp/$page".*.sh; do
		[ -f "$b" ] || { fail "$page: no EXAMPLES blocks"; break; }
		n=${b%.sh}
		n=${n##*.}
		what="$page example $n: $(ex_label "$b")"
		[ -f "${b%.sh}.c" ] && what="$page example $n: a C program"
		[ -f "${b%.sh}.ini" ] && what="$page example $n: an experiment file, $(head -n 1 "${b%.sh}.ini")"
		m=$(ex_missing "$b")
		if [ -n "$m" ]; then
			skip "$what: needs $m"
			continue
		fi
		ex_run "$what" "$b"
	done
done
for s in $SAME_AS; do
	b=$tmp/${s%%=*}
	b=${b%:*}.${b##*:}.ini
	f=$top_srcdir/experiments/${s#*=}
	settings "$b" >"$tmp/doc" 2>/dev/null
	settings "$f" >"$tmp/file"
	ok "${s%%=*}: the example's settings are experiments/${s#*=}'s" -- \
		eval 'diff -u "$tmp/file" "$tmp/doc" >"$tmp/diff"'
	sed 's/^/# /' "$tmp/diff"
done
done_testing
