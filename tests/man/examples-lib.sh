# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by tests/man/examples.sh (the man pages' EXAMPLES) and
# tests/man/readme.sh (the READMEs' command blocks): a documented example is
# a block of shell run as printed, in a scratch directory, with only the
# edits of SHORTEN below; its exit status is checked (sh -e: every command).
#
# Where a block runs.  A block that uses the device (cusezero, zeroctl, zab
# run, a FUSE mount) runs as root in a private mount and PID namespace
# (unshare): /mnt (with an empty z/ in it, README's /mnt/z), /run/cusezero
# and, when neither tree nor the scratch directory is under /tmp, /tmp are
# fresh tmpfs there, so the block's mounts are its own.  A device the block names but does not
# start (zeroctl.1's /dev/zero1, /run/cusezero/cusezero/zero) is started for
# it first: `cusezero --name NAME`.  When the block is done, every other
# process of its namespace (the daemons it left running) gets SIGTERM and
# 10 s to exit; the namespace's end unmounts what is left.
. "$top_srcdir/tests/man/lib.sh"

# Not under /tmp if it can be: a device block's namespace has its own /tmp.
ex_tmp=$(mktemp -d "$top_builddir/examples-test.XXXXXX" 2>/dev/null ||
	mktemp -d "${TMPDIR:-/tmp}/examples-test.XXXXXX") || exit 1
trap '[ -n "${EX_KEEP:-}" ] || rm -rf "$ex_tmp"' EXIT
PATH=$top_builddir:$top_builddir/pread_z100k:$PATH
# zab finds experiments by name here, as installed ones (zab-run(1)).
ZAB_EXPERIMENT_PATH=$top_srcdir/experiments
export PATH ZAB_EXPERIMENT_PATH

# Where the kernel has CUSE, /dev/NAME is a real, host-wide node: the
# examples' zero1 becomes a name of this run.  Without CUSE, cusezero serves
# NAME at /run/cusezero/NAME/zero instead (cusezero(1), --name): the
# examples' /dev/NAME is read as that path.  (/dev/cusezero becomes zxc$$.)
if [ -c /dev/cuse ]; then
	EX_DEV="s/zero1/zx$$/g; s|/dev/cusezero\\b|/dev/zxc$$|g"
else
	EX_DEV='s|/dev/zero1|/run/cusezero/zero1/zero|g; s|/dev/cusezero\([^a-z0-9_.-]\)|/run/cusezero/cusezero/zero\1|g; s|/dev/cusezero$|/run/cusezero/cusezero/zero|'
fi

# SHORTEN: the only edits, one per line, each making a block short (seconds,
# loop counts, sizes, offsets, sessions and repeats) or pointing it at this
# build tree; a command is never dropped.
#   --time 5 -> 0.3, --runtime=5 -> 1          zload: seconds
#   -l 1000/100/50 -> 20/5/5, -s 256MB -> 16MB   zbench: loops, mmap size
#   --offsets 0..127 -> 0..3, 0..127:4 -> 0..8:4  zbench align: offsets
#   size=1g -> 64m                              zload job file
#   pread_z100k -n 20000/10000 -> -n 500, bare pread_z100k -> -n 2000
#   zab run EXPERIMENT -> + -S 1 -W 0 -R 2 --var count=300
#   zab -S 2 -W 1 -R 3 / -S 4 -R 3 -> -S 1 -W 0 -R 2 / -S 1 -R 2
#   build/X -> $top_builddir/X, ./zab -> $top_builddir/zab (README: a build in build/)
#   sudo X -> X (the test is root; for another user the block is a SKIP: ex_mark_sudo)
SHORTEN='s/--time 5 /--time 0.3 /; s/--runtime=5 /--runtime=1 /; s/-l 1000$/-l 20/
s/-l 100 /-l 5 /; s/-l 50 /-l 5 /; s/-s 256MB/-s 16MB/
s/--offsets 0\.\.127 /--offsets 0..3 /; s/--offsets 0\.\.127:4/--offsets 0..8:4/
s/size=1g/size=64m/
s/\(pread_z100k.* \)-n [12]0000/\1-n 500/; s/pread_z100k$/pread_z100k -n 2000/
s/\(zab run [^ ]*\(quick-alignment\|quick-routine\|layout-or-code\)\)/\1 -S 1 -W 0 -R 2 --var count=300/
s/-S 2 -W 1 -R 3/-S 1 -W 0 -R 2/; s/-S 4 -R 3/-S 1 -R 2/
s#\(^\|[ =\x27"]\)build/#\1'"$top_builddir"'/#g; s#^\(sudo \)\?\./zab #'"$top_builddir"'/zab #
s/^sudo //'

# ex_text BLOCK: the block, and the C program it builds (ex_c).
ex_text() { cat "$1" "${1%.sh}.c" 2>/dev/null; }

# ex_needs_device BLOCK: does it mount, serve or talk to the device?
ex_needs_device() {
	ex_text "$1" | grep -v -- '--dry-run' |
		grep -Eq '(^|[ /;|&(])(cusezero|zeroctl)( |$)|zab run|/run/cusezero/|/mnt/|#include <cusezero.h>'
}

# ex_fixtures BLOCK: the devices the block uses but does not start, as the
# cusezero options that start them: a FUSE path /run/cusezero/NAME/zero is
# --fuse /run/cusezero/NAME (a FUSE device even where the kernel has CUSE),
# a node /dev/NAME is --name NAME.
ex_fixtures() {
	for n in $(ex_text "$1" | grep -oE '/run/cusezero/[a-z0-9_]+/|/dev/(zero1|zxc?[0-9]+|cusezero)\b' |
			sed 's|^/run/cusezero/\(.*\)/$|--fuse=/run/cusezero/\1|; s|^/dev/|--name=|' | sort -u); do
		b=${n##*[=/]}
		ex_text "$1" | grep -Eq -- "--(name |fuse /run/cusezero/)$b\b" || echo "$n"
	done
}

# ex_why_not BLOCK: why a device block cannot run here (empty: it can).
ex_why_not() {
	if [ "$(id -u)" != 0 ]; then echo "root (FUSE mounts)"
	elif [ ! -c /dev/fuse ]; then echo "/dev/fuse"
	elif [ ! -x "$top_builddir/cusezero" ]; then echo "cusezero (not built here)"
	elif [ "$(uname -m)" != "$ZERO_ARCH" ]; then
		echo "the device's ioctls, which qemu-user does not forward"
	elif ! unshare --mount --pid --fork --propagation private --mount-proc true 2>/dev/null; then
		echo "mount and PID namespaces (unshare)"
	fi
}

# ex_wrapper BLOCK RUNDIR OUT: the script that is PID 1 of a device block.
ex_wrapper() {
	cat <<EOF
mount -t tmpfs none /mnt && mkdir /mnt/z && mkdir -p /run/cusezero &&
	mount -t tmpfs none /run/cusezero || exit 97
case "$ex_tmp:$top_builddir:$top_srcdir" in /tmp/*|*:/tmp/*) ;; *) mount -t tmpfs none /tmp || exit 97 ;; esac
for o in $(ex_fixtures "$1" | tr '\n' ' '); do
	case \$o in --fuse=*) mkdir -p "\${o#--fuse=}" ;; esac
	cusezero "\$o" --pidfile "/run/cusezero/fixture.\$\$.\${o##*/}.pid" 2>>"$3" || exit 98
done
cd "$2" || exit 97
sh -e "$1" >>"$3" 2>&1
rc=\$?
kill -TERM -1 2>/dev/null
i=0
while [ \$i -lt 100 ]; do
	live=0
	for s in /proc/[0-9]*/stat; do
		read -r p c st rest 2>/dev/null <"\$s" || continue
		[ "\$p" = 1 ] || [ "\$p" = \$\$ ] || [ "\$st" = Z ] || live=\$((live + 1))
	done
	[ \$live -eq 0 ] && break
	sleep 0.1
	i=\$((i + 1))
done
if [ \$i -ge 100 ]; then
	echo "teardown: processes left after 10 s of SIGTERM:" \$(cat /proc/[0-9]*/comm) >>"$3"
	[ \$rc -ne 0 ] || rc=96
fi
exit \$rc
EOF
}

# ex_mark_sudo BLOCK: before SHORTEN drops its "sudo ", note that the block
# runs a command as root (ex_missing: a visible SKIP for any other user).
ex_mark_sudo() {
	if grep -q '^sudo ' "$1"; then : >"${1%.sh}.sudo"; else rm -f "${1%.sh}.sudo"; fi
}

# ex_missing BLOCK: what it needs that is not here (empty: nothing).
ex_missing() {
	src=$1
	if [ -e "${1%.sh}.sudo" ] && [ "$(id -u)" != 0 ]; then
		echo "root (the example runs sudo)"; return
	fi
	[ -f "${1%.sh}.c" ] && src=${1%.sh}.c
	# the examples are x86-64's (perf's x86 names, rep_stosb) and zload's
	# need io_uring, which qemu-user (the arm64 suite on another host) lacks
	if [ "$ZERO_ARCH" != x86_64 ]; then
		case $(cat "$src") in *x86-64-*|*rep_stos*)
			echo "x86-64 routines (this build: $ZERO_ARCH)"; return ;;
		esac
		if [ "$(uname -m)" != "$ZERO_ARCH" ] && grep -q zload "$1"; then
			echo "io_uring, which qemu-user does not emulate"; return
		fi
	fi
	[ "$src" = "$1" ] || command -v "${CC:-cc}" >/dev/null || { echo "a C compiler"; return; }
	for cmd in perf fio fio_jsonplus_clat2csv fio2gnuplot gnuplot; do
		if grep -Eq "(^|[ ;|&])$cmd( |\$)" "$1" && ! command -v "$cmd" >/dev/null; then
			echo "$cmd"
			return
		fi
	done
	case $(cat "$1") in *fio2gnuplot*)
		command -v gnuplot >/dev/null || echo gnuplot ;;
	esac
	# the reader's own servers (a team's PostgreSQL, a fleet's SUTs): the
	# store and fleet tests run the same commands on loopback instead
	case $(cat "$1") in *.example.org*)
		echo "the reader's own servers (example.org): tests/store/pg.sh and tests/fleet/fleet.sh run these on loopback" ;;
	esac
	# git bisect over the reader's kernel tree: the judge test builds one
	case $(cat "$1") in *"git bisect start"*)
		echo "the reader's kernel git tree: tests/zab/judge-git.sh runs git bisect run zab judge on a history it builds" ;;
	esac
}

# ex_label BLOCK: its first command, short, for the TAP line.
ex_label() { grep -v '^[[:space:]]*\(#.*\)\{0,1\}$' "$1" | head -n 1 | sed 's/  *#.*//; s/ *\\$//; s/  */ /g' |
	cut -c1-60 | sed 's/\\/\\\\/g'; }	# (tap.sh's echo reads backslashes)

# ex_run WHAT BLOCK: run it (see the top), one TAP line.
ex_run() {
	rm -rf "$ex_tmp/run" && mkdir "$ex_tmp/run" && : >"$ex_tmp/out"
	if ex_needs_device "$2"; then
		why=$(ex_why_not "$2")
		[ -z "$why" ] || { skip "$1: needs $why"; return; }
		ex_wrapper "$2" "$ex_tmp/run" "$ex_tmp/out" >"$ex_tmp/wrap.sh"
		unshare --mount --pid --fork --propagation private --mount-proc \
			sh "$ex_tmp/wrap.sh"
	else
		(cd "$ex_tmp/run" && sh -e "$2" >"$ex_tmp/out" 2>&1)
	fi
	rc=$?
	if [ $rc -eq 0 ]; then pass "$1"
	else
		fail "$1: exit $rc: $(tail -n 3 "$ex_tmp/out" | tr '\n' '|')"
		sed 's/^/#   ran: /' "$2"
	fi
}

# ex_c BLOCK.c: the shell block that builds and runs a C example.
ex_c() {
	printf '%s -Wall -Werror -I%s -o prog %s\n./prog\n' "${CC:-cc}" "$top_srcdir/include" "$1"
}

# ex_ini BLOCK.ini: the shell block that parses an experiment file (a lone
# [variant] gets a benchmark and two variants to compare with; nothing runs).
ex_ini() {
	printf "zab run --dry-run -b 'x=echo 1' -v ex-a -v ex-b %s >/dev/null\n" "$1"
}
