#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: every command block of README.md, experiments/README.md and
# doc/*.md (4-space indented blocks and fenced ones) runs as printed, with
# the edits of tests/man/examples-lib.sh (SHORTEN) and of KSRC below, in a
# scratch directory, device blocks as root in a private namespace with their
# daemons stopped after them (tests/man/examples-lib.sh), and exits 0.  A
# fenced ```ini block is an experiment file: zab run --dry-run parses it; a
# ```text block is a program's output or a figure, not run.  A block of
# alternatives (LINE_BY_LINE) runs a line at a time.  The commands that
# cannot run in a test are in SKIP_LIST with the reason, each one a visible
# SKIP line; every other command runs.  README's fleet report reads a SQLite
# store filled by one local run of the experiment (the fleet itself:
# tests/fleet/fleet.sh).
. "$top_srcdir/tests/man/examples-lib.sh"
tmp=$ex_tmp

# Commands not run here, "COMMAND-START|reason" (a logical line, with its
# continuation lines, starting with COMMAND-START; "*TEXT|reason": one
# holding TEXT).
SKIP_LIST='scripts/setup main|installs packages (apt-get) and runs the main job: for a fresh machine
scripts/setup test|installs packages, boots VMs and runs every suite, this test included: CI runs it
scripts/setup package|builds, lintian-checks and installs the Debian package: CI runs it (scripts/setup test)
autoreconf -fi|rebuilds the tree and runs make check, which runs this test
make install|installs into the system: tests/install/install.sh runs it into a DESTDIR
systemctl enable|enables a system service: tests/install/install.sh verifies the unit (systemd-analyze)
zab fleet|needs SUTs over ssh and a PostgreSQL server: tests/fleet/fleet.sh runs it on three sshd on loopback
echo Y > /sys/module/fuse/parameters/enable_uring|sets a host-wide kernel switch: tests/cuse/fuse-uring.sh sets it, under its lock, and puts it back
*--transport uring|sets the host-wide enable_uring switch while it serves: tests/cuse/fuse-uring.sh runs it under its lock
top_builddir=build/ bench/|a benchmark (a minute and more) that sets or puts back the host-wide enable_uring switch: by hand, on a quiet machine
cd linux|a kernel git tree: tests/zab/judge-git.sh runs git bisect run zab judge on a history it builds
git bisect|bisects a kernel tree of the reader: tests/zab/judge-git.sh runs git bisect run zab judge on a history it builds
SOAK_PHASES=|needs the arm64 cross build (build-arm64/) and boots the arm64 VM for up to 25 minutes: scripts/setup check-arm64 runs the VM suite'

# Blocks whose lines are alternatives (one daemon per mount point), run a
# line (with its continuation lines) at a time: DOC:BLOCK.
LINE_BY_LINE='doc/fuse-uring.md:1 doc/fuse-uring.md:2 doc/fuse-uring.md:3'

# README's fleet: the team's PostgreSQL store is a SQLite file here, filled
# by one local run of the experiment the fleet ran.
FLEET_URL=postgresql://me@db/results
FLEET_RUN='zab run experiments/quick-alignment'

# README's kernel-patch commands name a kernel tree T and a patch P: here T
# is the newest tree of scripts/kernel-sources.sh and P a patch written here
# (a .p2align 6 before rep_stos_alternative in arch/x86/lib/clear_page_64.S).
ktree=${CUSEZERO_KERNEL_SOURCES:-$(ls -d /var/cache/cusezero-ksrc/*/linux-source-* 2>/dev/null)}
ktree=$(echo "$ktree" | tr ' ' '\n' | tail -n 1)
KSRC="s#\\bT/#$ktree/#g; s#--patch P\\b#--patch $tmp/align.patch#g; s#patch=P\"#patch=$tmp/align.patch\"#g"
rel=arch/x86/lib/clear_page_64.S
if [ -n "$ktree" ] && [ -f "$ktree/$rel" ]; then
	mkdir -p "$tmp/a/${rel%/*}" "$tmp/b/${rel%/*}"
	cp "$ktree/$rel" "$tmp/a/$rel"
	sed 's/^SYM_FUNC_START(rep_stos_alternative)/\t.p2align 6\n&/' "$ktree/$rel" >"$tmp/b/$rel"
	(cd "$tmp" && diff -u "a/$rel" "b/$rel") >"$tmp/align.patch"
fi
# The objects built from T go to this run's scratch, not the user's cache.
CUSEZERO_KSRC_CACHE=$tmp/ksrc-cache
export CUSEZERO_KSRC_CACHE
# experiments/README.md: zab "from a build tree", $SRCDIR the source tree.
SRCDIR=$top_srcdir
export SRCDIR

# blocks DOC: one file per command block of the Markdown file DOC.
blocks() {
	awk -v out="$tmp/$2" '
		function open_block(ext) { n++; f = out "." n ext; printf "" >f }
		fence && /^```/ { fence = 0; if (f != "") close(f); f = ""; next }
		fence == 2 { next }
		fence { print >>f; next }
		/^```text/ { fence = 2; next }
		/^```/ { fence = 1; open_block($0 ~ /^```ini/ ? ".ini" : ".sh"); next }
		/^    / && (prev_blank || f != "") { if (f == "") open_block(".sh")
			print substr($0, 5) >>f; prev_blank = 0; next }
		/^[[:space:]]*$/ { prev_blank = 1; next }
		{ if (f != "") close(f); f = ""; prev_blank = 0 }
	' "$1"
}

# skipped BLOCK: drop the SKIP_LIST commands (and their continuation lines)
# from BLOCK, one "COMMAND|reason" line each on stdout.
skipped() {
	awk -v list="$SKIP_LIST" '
		BEGIN { n = split(list, l, "\n") }
		cont { cont = /\\$/; next }
		{ for (i = 1; i <= n; i++) {
			split(l[i], kv, "|")
			k = kv[1]; any = substr(k, 1, 1) == "*"
			if (any) k = substr(k, 2)
			if (any ? index($0, k) > 0 : index($0, k) == 1) {
				c = $0; sub(/[[:space:]]+#.*/, "", c); sub(/[[:space:]]*\\$/, "", c)
				print c "|" substr(l[i], length(kv[1]) + 2) >"/dev/stderr"
				cont = /\\$/; next
			} }
		  print }
	' "$1" 2>"$1.skip" >"$1.kept"
	mv "$1.kept" "$1"
	cat "$1.skip"
}

# lines BLOCK: BLOCK split into BLOCK-1.sh, BLOCK-2.sh, ... one logical line
# each (comments and blank lines dropped); BLOCK removed.
lines() {
	awk -v out="${1%.sh}" '
		!cont && /^[[:space:]]*(#.*)?$/ { next }
		!cont { k++; f = out "-" k ".sh" }
		{ print >>f; cont = /\\$/ }
	' "$1"
	rm -f "$1"
}

for doc in README.md experiments/README.md $(cd "$top_srcdir" && ls doc/*.md); do
	name=$(echo "$doc" | tr / _)
	blocks "$top_srcdir/$doc" "$name"
	for lb in $LINE_BY_LINE; do
		[ "${lb%:*}" = "$doc" ] && [ -f "$tmp/$name.${lb##*:}.sh" ] && lines "$tmp/$name.${lb##*:}.sh"
	done
	for b in "$tmp/$name".*.sh "$tmp/$name".*.ini; do
		[ -f "$b" ] || continue
		n=${b%.*}
		n=${n##*.}
		case $b in *.ini)
			mv "$b" "${b%.ini}.x.ini"; ex_ini "${b%.ini}.x.ini" >"${b%.ini}.x.sh"
			ex_run "$doc block $n (an experiment file): parses" "${b%.ini}.x.sh"
			continue ;;
		esac
		case $n in *-*) n="${n%-*} line ${n#*-}" ;; esac
		skipped "$b" >"$tmp/skips"
		while IFS='|' read -r cmd why; do
			skip "$doc block $n: $cmd: $why"
		done <"$tmp/skips"
		grep -qv '^[[:space:]]*\(#.*\)\?$' "$b" || continue	# nothing left to run
		what="$doc block $n: $(ex_label "$b")"
		if grep -q "^zab report --store $FLEET_URL" "$b"; then
			diag "$doc block $n: the store is $tmp/fleet.db, filled first by $FLEET_RUN"
			{ echo "$FLEET_RUN --store sqlite:$tmp/fleet.db >/dev/null"
			  sed "s#$FLEET_URL#sqlite:$tmp/fleet.db#g" "$b"; } >"$b.fleet" && mv "$b.fleet" "$b"
		fi
		if grep -Eq '(^|[ =])T/' "$b"; then
			[ "$ZERO_ARCH" = x86_64 ] || { skip "$what: x86-64 kernel files (this build: $ZERO_ARCH)"; continue; }
			[ -s "$tmp/align.patch" ] || { skip "$what: needs a kernel tree T (scripts/kernel-sources.sh)"; continue; }
			command -v "${CC:-gcc}" >/dev/null || { skip "$what: needs an assembler (gcc)"; continue; }
		fi
		ex_mark_sudo "$b"
		sed -i -e "$SHORTEN" -e "$EX_DEV" -e "$KSRC" "$b"
		m=$(ex_missing "$b")
		[ -z "$m" ] || { skip "$what: needs $m"; continue; }
		ex_run "$what" "$b"
	done
done
done_testing
