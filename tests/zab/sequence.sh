#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: change sequences expand into one variant per step.  From a
# small routine file in the kernel's style and its git history made here
# (tests/zab/kseqlib.sh): a series as git format-patch output, as a quilt
# series file and as an mbox (with a cover letter), a git range (one commit
# changing only a comment, one changing another file only), and kernel
# trees and a tarball made here: zab expand's names NAME@K, labels, order,
# files (blob cache entries named by their SHA-256, patches applied in
# order), provenance keys; the expanded file runs on its own; errors (a bad
# series file, a patch that does not apply at step k, a bad git range, an
# unknown kernel version listing the known ones, a missing --source file in
# cusezero, zbench and zab).  Debian's 6.1, 6.12, 7.2 trees as a kernel
# sequence when scripts/kernel-sources.sh has unpacked them.
# Needs: none
. "$top_srcdir/tests/zab/kseqlib.sh"

seq_make || { echo "Bail out! could not make the test repository"; exit 1; }
ok "the test repository, format-patch output, quilt series and mbox are made" -- \
	[ -s "$CZ_TMP/series.mbox" ] && [ -s "$CZ_TMP/quilt/series" ]
want_labels="base|x86: reword the loop's comment|x86: align rep_stos_alternative to 64 bytes|x86: an lfence in the loop"

# expand NAME SPEC-LINE...: zab expand of one sequence variant into $CZ_TMP/NAME.x
expand() {
	n=$1; shift
	seq_exp "$CZ_TMP/$n.exp" "[variant $n]" "$@"
	"$ZAB" expand "$CZ_TMP/$n.exp" -o "$CZ_TMP/$n.x" 2>"$CZ_TMP/$n.err"
}

for kind in fp quilt mbox; do
	case $kind in
	fp) spec="series = $CZ_TMP/fp" ;;
	quilt) spec="series = $CZ_TMP/quilt/series" ;;
	mbox) spec="series = $CZ_TMP/series.mbox" ;;
	esac
	expand "$kind" "source = $CZ_TMP/a/$REL" "$spec"
	rc=$?
	ok "series ($kind): zab expand exit $rc$(head -n 1 "$CZ_TMP/$kind.err" | sed 's/^/: /')" -- [ $rc -eq 0 ]
	ok "series ($kind): steps $kind@0..3, the patch changing another file is no step: $(names "$CZ_TMP/$kind.x")" -- \
		[ "$(names "$CZ_TMP/$kind.x")" = "$kind@0 $kind@1 $kind@2 $kind@3" ]
	ok "series ($kind): labelled base, then by subject without [PATCH k/N]: $(labels "$CZ_TMP/$kind.x")" -- \
		[ "$(labels "$CZ_TMP/$kind.x")" = "$want_labels" ]
	ok "series ($kind): step k applies patches 1..k in order (0 1 2 3 patch names)" -- \
		[ "$(awk '/^\[variant/ { if (s) print n + 0; s = 1; n = 0 } /^patch = / { n = NF - 2 }
			END { print n + 0 }' "$CZ_TMP/$kind.x" | tr '\n' ' ')" = "0 1 2 3 " ]
	ok "series ($kind): step 3's last patch is the lfence one" -- \
		sh -c "grep '^patch = ' '$CZ_TMP/$kind.x' | tail -n 1 | grep -q 'lfence-in-the-loop.patch\$'"
	ok "series ($kind): provenance keys (sequence, kind, step, steps)" -- \
		sh -c "grep -q '^sequence = $kind\$' '$CZ_TMP/$kind.x' && grep -q '^sequence-kind = series\$' '$CZ_TMP/$kind.x' &&
		       [ \$(grep -c '^steps = 3\$' '$CZ_TMP/$kind.x') -eq 4 ] && grep -q '^step = 3\$' '$CZ_TMP/$kind.x'"
done
ok "mbox: its patches are written to the blob cache, named as format-patch names them" -- \
	sh -c "grep '^patch = ' '$CZ_TMP/mbox.x' | tail -n 1 | tr ' ' '\n' | grep -q '^$XDG_CACHE_HOME/cusezero/blobs/[0-9a-f]\{64\}/0004-x86-an-lfence-in-the-loop.patch\$'"
p=$(grep '^patch = ' "$CZ_TMP/mbox.x" | tail -n 1 | awk '{ print $NF }')
ok "mbox: a blob's folder is its content's SHA-256" -- \
	[ "$(sha256sum "$p" | cut -c-64)" = "$(basename "$(dirname "$p")")" ]

# The expanded file is an experiment on its own: its variants, in order, parse.
"$ZAB" run --dry-run "$CZ_TMP/fp.x" >"$CZ_TMP/dry" 2>&1
rc=$?
ok "the expanded file runs on its own (zab run --dry-run: exit $rc)" -- [ $rc -eq 0 ]
ok "zab run of the sequence itself has the same variants" -- \
	sh -c "'$ZAB' run --dry-run '$CZ_TMP/fp.exp' 2>&1 | grep -q 'fp@3' && grep -q 'fp@3' '$CZ_TMP/dry'"
"$ZAB" expand "$CZ_TMP/fp.x" -o "$CZ_TMP/fp.xx" 2>/dev/null
ok "expanding an expanded file changes nothing" -- cmp -s "$CZ_TMP/fp.x" "$CZ_TMP/fp.xx"
# base = a sequence's name: its step 0, in memory and in the expanded file
{ cat "$CZ_TMP/fp.exp"; printf '[variant other]\nenv.X = 1\n'; } |
	sed 's/^name = .*/&\nbase = fp/' >"$CZ_TMP/b.exp"
"$ZAB" expand "$CZ_TMP/b.exp" -o "$CZ_TMP/b.x" 2>"$CZ_TMP/b.err"
rc=$?
ok "base = fp (a sequence) is fp@0 in the expanded file, which runs (exit $rc)" -- \
	eval '[ $rc -eq 0 ] && grep -qx "base = fp@0" "$CZ_TMP/b.x" && "$ZAB" run --dry-run "$CZ_TMP/b.x" >/dev/null 2>&1'

# git: the file at base, then every commit of base..HEAD that changes it.
expand g "source = $REL" "git = $CZ_TMP/repo base..HEAD" "align = 0"
rc=$?
ok "git: zab expand exit $rc$(head -n 1 "$CZ_TMP/g.err" | sed 's/^/: /')" -- [ $rc -eq 0 ]
git -C "$CZ_TMP/repo" log --reverse --format='%h %s' base..HEAD -- "$REL" >"$CZ_TMP/g.want"
want="$(git -C "$CZ_TMP/repo" log -1 --format='%h %s' base)|$(tr '\n' '|' <"$CZ_TMP/g.want" | sed 's/|$//')"
ok "git: g@0..g@3, labelled by abbreviated hash and subject, oldest first: $(labels "$CZ_TMP/g.x")" -- \
	eval '[ "$(names "$CZ_TMP/g.x")" = "g@0 g@1 g@2 g@3" ] && [ "$(labels "$CZ_TMP/g.x")" = "$want" ]'
ok "git: every step keeps the variant's other keys (align = 0)" -- \
	[ "$(grep -c '^align = 0$' "$CZ_TMP/g.x")" -eq 4 ]
ok "git: git-commit is the full hash, kernel-version the commit's Makefile's" -- \
	sh -c "grep -q '^git-commit = $(git -C "$CZ_TMP/repo" rev-parse HEAD)\$' '$CZ_TMP/g.x' &&
	       [ \$(grep -c '^kernel-version = 6.12.0\$' '$CZ_TMP/g.x') -eq 4 ]"
bad=0
for h in $(sed -n 's/^git-commit = //p' "$CZ_TMP/g.x"); do
	f=$(awk -v h="$h" '/^source = / { s = $3 } $0 == "git-commit = " h { print s }' "$CZ_TMP/g.x")
	git -C "$CZ_TMP/repo" show "$h:$REL" | cmp -s - "$f" || bad=$((bad + 1))
	[ "$(sha256sum "$f" | cut -c-64)" = "$(basename "$(dirname "$f")")" ] || bad=$((bad + 1))
done
ok "git: each step's file is git show COMMIT:FILE, in the blob cache under its SHA-256 ($bad wrong)" -- \
	[ $bad -eq 0 ]

# kernel: trees and a tarball made here, given out of order.
mk_tree() {	# mk_tree DIR [V P S]: a tree with the file (and a top Makefile)
	mkdir -p "$1/${REL%/*}" && seq_file >"$1/$REL"
	[ $# -eq 1 ] || printf 'VERSION = %s\nPATCHLEVEL = %s\nSUBLEVEL = %s\nEXTRAVERSION =\n' "$2" "$3" "$4" >"$1/Makefile"
}
mk_tree "$CZ_TMP/trees/x" 6 1 158
mk_tree "$CZ_TMP/trees/linux-source-6.12"
mk_tree "$CZ_TMP/tb/linux-7.2" 7 2 0
tar -czf "$CZ_TMP/linux-7.2.tar.gz" -C "$CZ_TMP/tb" linux-7.2
expand k "source = $REL" "kernel = $CZ_TMP/linux-7.2.tar.gz $CZ_TMP/trees/linux-source-6.12 $CZ_TMP/trees/x"
rc=$?
ok "kernel (paths): zab expand exit $rc$(head -n 1 "$CZ_TMP/k.err" | sed 's/^/: /')" -- [ $rc -eq 0 ]
ok "kernel (paths): in version order, labelled by version: $(labels "$CZ_TMP/k.x")" -- \
	[ "$(labels "$CZ_TMP/k.x")" = "6.1.158|6.12|7.2.0" ]
ok "kernel (paths): the tarball's file comes from the blob cache" -- \
	sh -c "grep -q '^source = $XDG_CACHE_HOME/cusezero/blobs/[0-9a-f]*/clear_page_64.S\$' '$CZ_TMP/k.x'"
CUSEZERO_KERNEL_SOURCES="$CZ_TMP/trees/linux-source-6.12 $CZ_TMP/trees/x"
export CUSEZERO_KERNEL_SOURCES
expand kv "source = $REL" "kernel = 6.12 6.1"
rc=$?
ok "kernel (versions of CUSEZERO_KERNEL_SOURCES): exit $rc, $(labels "$CZ_TMP/kv.x")" -- \
	eval '[ $rc -eq 0 ] && [ "$(labels "$CZ_TMP/kv.x")" = "6.1.158|6.12" ] &&
	      grep -q "^source = $CZ_TMP/trees/x/$REL\$" "$CZ_TMP/kv.x"'
expand kvv "source = $REL" "kernel = v6.12 v6.1"
rc=$?
ok "kernel = v6.12 v6.1 (a leading v, as kernel tags): exit $rc, $(labels "$CZ_TMP/kvv.x")$(head -n 1 "$CZ_TMP/kvv.err" | sed 's/^/: /')" -- \
	eval '[ $rc -eq 0 ] && [ "$(labels "$CZ_TMP/kvv.x")" = "6.1.158|6.12" ] &&
	      grep -q "^source = $CZ_TMP/trees/x/$REL\$" "$CZ_TMP/kvv.x"'

# errors: one line naming the bad value, exit 2 (usage of the file)
err() {	# err NAME WANT-GREP VARIANT-LINES...: zab expand fails with that line
	n=$1 w=$2; shift 2
	expand "$n" "$@"
	rc=$?
	ok "error $n: exit $rc, one line: $(head -n 1 "$CZ_TMP/$n.err")" -- \
		eval '[ $rc -eq 2 ] && [ $(wc -l <"$CZ_TMP/$n.err") -eq 1 ] && grep -q -- "$w" "$CZ_TMP/$n.err"'
}
head -c 100 /dev/urandom | tr -d '\n' >"$CZ_TMP/binary"
printf '\0' >>"$CZ_TMP/binary"
err binary "series $CZ_TMP/binary: binary data" "source = $CZ_TMP/a/$REL" "series = $CZ_TMP/binary"
printf '0001-x86-reword-the-loop-s-comment.patch\nno-such.patch\n' >"$CZ_TMP/quilt/bad-series"
err missing-patch "bad-series:2: patch .*no-such.patch: No such file" "source = $CZ_TMP/a/$REL" \
	"series = $CZ_TMP/quilt/bad-series"
(cd "$CZ_TMP/quilt" && ls 0003-*.patch 0003-*.patch) >"$CZ_TMP/quilt/twice-series"
err not-applying "patch 2/2 'x86: align rep_stos_alternative to 64 bytes' (.*0003-x86-align-rep_stos_alternative-to-64-bytes.patch) does not apply after the 1 before it" \
	"source = $CZ_TMP/a/$REL" "series = $CZ_TMP/quilt/twice-series"
err range "git = $CZ_TMP/repo: no-such-tag is not a commit of it" \
	"source = $REL" "git = $CZ_TMP/repo no-such-tag..HEAD"
err not-a-range "expected git = REPOSITORY A..B" "source = $REL" "git = $CZ_TMP/repo base"
err not-in-repo "$REL.x is not in the repository" "source = $REL.x" "git = $CZ_TMP/repo base..HEAD"
err kernel-unknown "kernel 9.9: no tree of that version (trees here: .*6.12.*6.1.158\|kernel 9.9: no tree of that version (trees here: .*6.1.158.*6.12" \
	"source = $REL" "kernel = 6.1 9.9"
err kernel-unknown-v "kernel v9.9: no tree of that version" "source = $REL" "kernel = v6.1 v9.9"
err two-kinds "one sequence per variant" "source = $REL" "kernel = 6.1 6.12" "git = $CZ_TMP/repo base..HEAD"
err no-source "needs one source=" "series = $CZ_TMP/fp"
err patch-and-series "patch= beside series=" "source = $CZ_TMP/a/$REL" "patch = $CZ_TMP/fp/0001-x86-reword-the-loop-s-comment.patch" "series = $CZ_TMP/fp"

# A missing --source file is said as such (it was "no default for this file"); named
# without an arch/ folder, which an arm64 build would refuse first as another architecture's
m=$CZ_TMP/missing/${REL##*/}
for prog in "$CUSEZERO" "$ZBENCH memset -s 4KB -l 1"; do
	p=${prog%% *}
	[ -x "$p" ] || { skip "${p##*/} not built"; continue; }
	$prog --source="$m" >/dev/null 2>"$CZ_TMP/m.err"
	rc=$?
	ok "${p##*/} --source=MISSING: exit $rc: $(head -n 1 "$CZ_TMP/m.err")" -- \
		eval '[ $rc -ne 0 ] && grep -q "$m: No such file or directory" "$CZ_TMP/m.err" && ! grep -q "no default" "$CZ_TMP/m.err"'
done
"$ZAB" run -b 'x=echo 1' -v "a:source=$m" -v b --dry-run >/dev/null 2>"$CZ_TMP/m.err"
rc=$?
ok "zab variant source=MISSING: exit $rc: $(head -n 1 "$CZ_TMP/m.err")" -- \
	eval '[ $rc -eq 2 ] && grep -q "source $m: No such file or directory" "$CZ_TMP/m.err"'

# Every sequence and provenance key zab takes is in zab-experiment(5).
keys=$(sed -n '/^int zab_seq_key/,/^}/p' "$top_srcdir/tools/zab/model/sequence.c" |
	grep -oE 'strcmp\(k, "[^"]+"\)' | sed 's/.*"\(.*\)".*/\1/' | sort -u)
missing=
for k in $keys; do
	sed 's/\\-/-/g' "$top_srcdir/man/zab-experiment.5" | grep -q "^\.B[IR]* .*\b$k\b" || missing="$missing $k"
done
ok "zab-experiment(5) documents every sequence key ($(echo $keys | wc -w))${missing:+; not:$missing}" -- \
	[ -n "$keys" ] && [ -z "$missing" ]

# Debian's trees, as scripts/kernel-sources.sh unpacks them.
unset CUSEZERO_KERNEL_SOURCES
if [ -d /var/cache/cusezero-ksrc/6.1 ] && [ -d /var/cache/cusezero-ksrc/6.12 ] && [ -d /var/cache/cusezero-ksrc/7.2 ]; then
	# the file's default function is 6.1's clear_user_original, 6.12's and 7.2's
	# rep_stos_alternative: never compared silently
	err deb-default "kernel = 7.2 6.1 6.12: $REL runs a different function per release when none is named (6\.1\.[0-9]*: clear_user_original, 6\.12\.[0-9]*: rep_stos_alternative, 7\.2\.[0-9]*: rep_stos_alternative)" \
		"source = $REL" "kernel = 7.2 6.1 6.12"
	expand deb "source = $REL" "kernel = 7.2 6.12"
	rc=$?
	ok "kernel = 7.2 6.12 (Debian's trees, one default function): exit $rc, $(labels "$CZ_TMP/deb.x")" -- \
		eval '[ $rc -eq 0 ] && [ "$(names "$CZ_TMP/deb.x")" = "deb@0 deb@1" ] &&
		      labels "$CZ_TMP/deb.x" | grep -q "^6\.12[.|].*7\.2"'
	expand debsym "source = $REL:clear_page_orig" "kernel = 6.12 6.1"
	rc=$?
	ok "kernel = 6.12 6.1 with :clear_page_orig named: exit $rc, $(labels "$CZ_TMP/debsym.x")" -- \
		eval '[ $rc -eq 0 ] && labels "$CZ_TMP/debsym.x" | grep -q "^6\.1[.|].*6\.12"'
else
	skip "no Debian 6.1, 6.12 and 7.2 trees (scripts/kernel-sources.sh)"
fi
done_testing
