#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: what a change sequence reads is data, never experiment text
# or daemon options.  A format-patch file name with a newline (a valid
# patch, an innocent subject) or with blanks ("0001-x --user=... .patch")
# is refused with one line naming it escaped, and nothing of it reaches
# zab expand's output or a daemon's arguments (a fake cusezero records
# them); a subject with control characters is one escaped label line.
# Needs: none
. "$top_srcdir/tests/zab/kseqlib.sh"

seq_make || { echo "Bail out! could not make the test repository"; exit 1; }
p1=$(ls "$CZ_TMP"/fp/0001-*)

# expand NAME SPEC-LINE...: zab expand of one sequence variant into $CZ_TMP/NAME.x
expand() {
	n=$1; shift
	seq_exp "$CZ_TMP/$n.exp" "[variant $n]" "$@"
	"$ZAB" expand "$CZ_TMP/$n.exp" -o "$CZ_TMP/$n.x" 2>"$CZ_TMP/$n.err"
}
# refused NAME WANT-GREP: exit 2, one line on stderr matching WANT-GREP
refused() {
	rn=$1 rw=$2
	ok "$rn: refused, exit $rc, one line: $(head -n 1 "$CZ_TMP/$rn.err")" -- \
		eval '[ $rc -eq 2 ] && [ $(wc -l <"$CZ_TMP/$rn.err") -eq 1 ] && grep -q -- "$rw" "$CZ_TMP/$rn.err"'
}
# a fake cusezero: its arguments, one a line, into $CZ_TMP/argv; it fails
FAKE_CZ=$CZ_TMP/fake-cusezero
printf '#!/bin/sh\nfor a; do printf "%%s\\n" "$a"; done >>"%s/argv"\nexit 1\n' "$CZ_TMP" >"$FAKE_CZ"
chmod +x "$FAKE_CZ"
# zab run with the fake as its daemon ($CUSEZERO names the daemon zab starts)
fake_run() { CUSEZERO=$FAKE_CZ "$ZAB" run "$@"; }

# a file name with a newline: a valid patch, an innocent subject
mkdir "$CZ_TMP/nl"
sed 's/^Subject: .*/Subject: [PATCH] an innocent fix/' "$p1" >"$CZ_TMP/nl/$(printf '0001-fix\ncmd=touch\tPWNED\n#.patch')"
expand nl "source = $CZ_TMP/a/$REL" "series = $CZ_TMP/nl"
rc=$?
refused nl "patch file name '0001-fix\\\\x0acmd=touch\\\\x09PWNED\\\\x0a#.patch' has a blank or control character"
ok "nl: nothing of the name is in zab expand's output" -- \
	eval '! grep -q "PWNED" "$CZ_TMP/nl.x" 2>/dev/null'
rm -f "$CZ_TMP/argv"
fake_run "$CZ_TMP/nl.exp" -S 1 -W 0 -R 1 --no-progress >/dev/null 2>"$CZ_TMP/nl.run"
rc=$?
ok "nl: zab run refuses it too (exit $rc), no daemon started" -- \
	eval '[ $rc -eq 2 ] && [ ! -e "$CZ_TMP/argv" ] && grep -q "0001-fix.x0acmd" "$CZ_TMP/nl.run"'

# a file name with blanks: would be daemon options if split on blanks
mkdir "$CZ_TMP/bl"
cp "$p1" "$CZ_TMP/bl/0001-x --user=adv5a --name=x.patch"
cp "$p1" "$CZ_TMP/bl/0001-x"	# what a blank-split name's first word would name
expand bl "source = $CZ_TMP/a/$REL" "series = $CZ_TMP/bl"
rc=$?
refused bl "patch file name '0001-x --user=adv5a --name=x.patch' has a blank or control character"
rm -f "$CZ_TMP/argv"
fake_run "$CZ_TMP/bl.exp" -S 1 -W 0 -R 1 --no-progress >/dev/null 2>"$CZ_TMP/bl.run"
rc=$?
ok "bl: zab run refuses it (exit $rc); no daemon got --user= as an option" -- \
	eval '[ $rc -eq 2 ] && ! grep -q "^--user=" "$CZ_TMP/argv" 2>/dev/null'

# a daemon's arguments are passed one each: cusezero-args words, then source=
seq_exp "$CZ_TMP/args.exp" "[variant v]" "cusezero-args = --threads 2" \
	"source = $CZ_TMP/a/$REL:rep_stos_alternative" "[variant w]" "routine = default"
rm -f "$CZ_TMP/argv"
fake_run "$CZ_TMP/args.exp" -S 1 -W 0 -R 1 --no-progress >/dev/null 2>&1
ok "the daemon's arguments: cusezero-args words and --source=FILE:SYMBOL, one each" -- \
	eval 'grep -qx -- "--threads" "$CZ_TMP/argv" && grep -qx -- "2" "$CZ_TMP/argv" &&
	      grep -qx -- "--source=$CZ_TMP/a/$REL:rep_stos_alternative" "$CZ_TMP/argv"'

# a subject with control characters: one label line, escaped
mkdir "$CZ_TMP/cc"
sed "s/^Subject: .*/Subject: [PATCH] fix$(printf '\r')label = x$(printf '\033')[2J/" "$p1" >"$CZ_TMP/cc/0001-fix.patch"
expand cc "source = $CZ_TMP/a/$REL" "series = $CZ_TMP/cc"
rc=$?
ok "cc: a subject with control characters expands (exit $rc$(head -n 1 "$CZ_TMP/cc.err" | sed 's/^/: /'))" -- [ $rc -eq 0 ]
ok "cc: its label is escaped, no control character in the output: $(labels "$CZ_TMP/cc.x")" -- \
	eval '[ "$(labels "$CZ_TMP/cc.x")" = "base|fix\\x0dlabel = x\\x1b[2J" ] && ! LC_ALL=C grep -q "[[:cntrl:]]" "$CZ_TMP/cc.x"'
"$ZAB" run --dry-run "$CZ_TMP/cc.x" >/dev/null 2>&1
rc=$?
ok "cc: the expanded file loads (exit $rc)" -- [ $rc -eq 0 ]

# kernel = TARBALL: regular members only; any other that matched refused by name
rootonly=$CZ_TMP/root-only
echo "SECRET = 1" >"$rootonly" && chmod 0600 "$rootonly"
# tb NAME: $CZ_TMP/tb-NAME/linux-7.2 with the file and a top Makefile, to be changed
tb() {
	t=$CZ_TMP/tb-$1/linux-7.2
	mkdir -p "$t/${REL%/*}" && cp "$CZ_TMP/a/$REL" "$t/$REL" &&
		printf 'VERSION = 7\nPATCHLEVEL = 2\nSUBLEVEL = 0\nEXTRAVERSION =\n' >"$t/Makefile"
}
# tbx NAME WANT-GREP: zab expand of kernel = the tree and NAME's tarball, bounded
tbx() {
	tar -cf "$CZ_TMP/$1.tar" -C "$CZ_TMP/tb-$1" linux-7.2
	seq_exp "$CZ_TMP/$1.exp" "[variant k]" "source = $REL" "kernel = $CZ_TMP/tb-ok/linux-7.2 $CZ_TMP/$1.tar"
	timeout 300 "$ZAB" expand "$CZ_TMP/$1.exp" -o "$CZ_TMP/$1.x" 2>"$CZ_TMP/$1.err"
	rc=$?
	refused "$1" "$2"
}
tb ok
tb link && ln -sf "$rootonly" "$CZ_TMP/tb-link/linux-7.2/$REL"
tbx link "kernel tarball $CZ_TMP/link.tar: member linux-7.2/$REL is a symbolic link: only regular files are taken"
ok "link: the root-only file is in no blob" -- \
	eval '! grep -rqs SECRET "$XDG_CACHE_HOME/cusezero/blobs"'
tb mklink && ln -sf "$rootonly" "$CZ_TMP/tb-mklink/linux-7.2/Makefile"
tbx mklink "member linux-7.2/Makefile is a symbolic link"
tb fifo && rm "$CZ_TMP/tb-fifo/linux-7.2/$REL" && mkfifo "$CZ_TMP/tb-fifo/linux-7.2/$REL"
tbx fifo "member linux-7.2/$REL is a FIFO"
if [ "$(id -u)" -eq 0 ]; then
	tb blk && rm "$CZ_TMP/tb-blk/linux-7.2/$REL" && mknod "$CZ_TMP/tb-blk/linux-7.2/$REL" b 7 0
	tbx blk "member linux-7.2/$REL is a block device"
	ok "blk: tar made no device node" -- \
		eval '[ -z "$(find "$CZ_TMP" -type b ! -path "$CZ_TMP/tb-blk/*" 2>/dev/null)" ]'
else
	skip "a block-device member: not root (mknod)"
fi

# a FIFO where a file is expected: refused, never waited on (bounded: a hang fails)
mkfifo "$CZ_TMP/fifo"
# xrefused NAME WANT-GREP VARIANT-LINES...: zab expand with another variant beside
xrefused() {
	fn=$1 fw=$2; shift 2
	seq_exp "$CZ_TMP/$fn.exp" "[variant $fn]" "$@" "[variant other]" "routine = default"
	timeout 300 "$ZAB" expand "$CZ_TMP/$fn.exp" -o "$CZ_TMP/$fn.x" 2>"$CZ_TMP/$fn.err"
	rc=$?
	refused "$fn" "$fw"
}
mkdir "$CZ_TMP/fpf" && cp "$p1" "$CZ_TMP/fpf/" && mkfifo "$CZ_TMP/fpf/0002-x.patch"
xrefused fifo-member "patch $CZ_TMP/fpf/0002-x.patch: a FIFO" "source = $CZ_TMP/a/$REL" "series = $CZ_TMP/fpf"
xrefused fifo-series "series $CZ_TMP/fifo: a FIFO" "source = $CZ_TMP/a/$REL" "series = $CZ_TMP/fifo"
xrefused fifo-tarball "kernel $CZ_TMP/fifo: a FIFO, not a tree or a tarball" "source = $REL" \
	"kernel = $CZ_TMP/tb-ok/linux-7.2 $CZ_TMP/fifo"
xrefused fifo-source "source $CZ_TMP/fifo: a FIFO, not a regular file" "source = $CZ_TMP/fifo"
xrefused fifo-patch "patch $CZ_TMP/fifo: a FIFO, not a regular file" "source = $CZ_TMP/a/$REL" "patch = $CZ_TMP/fifo"
timeout 300 "$ZAB" pack "$CZ_TMP/fifo-source.exp" "$CZ_TMP/fifo-bundle" >/dev/null 2>"$CZ_TMP/fifo-pack.err"
rc=$?
ok "zab pack of a FIFO source: refused (exit $rc): $(head -n 1 "$CZ_TMP/fifo-pack.err")" -- \
	eval '[ $rc -eq 1 ] && [ $(wc -l <"$CZ_TMP/fifo-pack.err") -eq 1 ] && grep -q "$CZ_TMP/fifo: a FIFO" "$CZ_TMP/fifo-pack.err"'

# more steps than an experiment holds (64 variants): counted and refused before any work
nblobs() { find "$XDG_CACHE_HOME/cusezero/blobs" -mindepth 1 -maxdepth 1 -type d 2>/dev/null | wc -l; }
mkdir "$CZ_TMP/many"
i=1
while [ $i -le 100 ]; do
	sed "s/^Subject: .*/Subject: [PATCH $i\/100] change $i/" "$p1" >"$CZ_TMP/many/$(printf %04d $i)-change-$i.patch"
	i=$((i + 1))
done
xrefused many-folder "series $CZ_TMP/many: 100 of its 100 patches change $CZ_TMP/a/$REL: 101 steps, room for 63 here (an experiment holds 64 variants at most)" \
	"source = $CZ_TMP/a/$REL" "series = $CZ_TMP/many"
cat "$CZ_TMP"/many/*.patch >"$CZ_TMP/many.mbox"
before=$(nblobs)
xrefused many-mbox "series $CZ_TMP/many.mbox: 100 of its 100 patches change .*: 101 steps, room for 63 here (an experiment holds 64 variants at most)" \
	"source = $CZ_TMP/a/$REL" "series = $CZ_TMP/many.mbox"
ok "many-mbox: no message was written to the blob cache ($before folders, then $(nblobs))" -- \
	[ "$(nblobs)" -eq "$before" ]
trees=
i=0
while [ $i -lt 70 ]; do trees="$trees $CZ_TMP/tb-ok/linux-7.2"; i=$((i + 1)); done
xrefused many-trees "kernel = 70 trees: 70 steps, room for 63 here (an experiment holds 64 variants at most)" "source = $REL" "kernel =$trees"
(
	cd "$CZ_TMP/repo" && git checkout -qb many && i=0 &&
	while [ $i -lt 70 ]; do echo "/* $i */" >>"$REL" && git commit -qam "step $i" || exit 1; i=$((i + 1)); done
) || echo "Bail out! could not make 70 commits"
before=$(nblobs)
xrefused many-commits "git = $CZ_TMP/repo base..many: 7[0-9] commits change $REL: 7[0-9] steps, room for 63 here (an experiment holds 64 variants at most)" \
	"source = $REL" "git = $CZ_TMP/repo base..many"
ok "many-commits: at most the base's file was written to the blob cache ($before folders, then $(nblobs))" -- \
	[ "$(nblobs)" -le $((before + 1)) ]

# a series patch that deletes the file: refused, named
mkdir "$CZ_TMP/del" && cp "$p1" "$CZ_TMP/del/"
printf 'From 0 Mon Sep 17 00:00:00 2001\nSubject: [PATCH 2/2] remove it\n\n---\ndiff --git a/%s b/%s\ndeleted file mode 100644\n--- a/%s\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n' \
	"$REL" "$REL" "$REL" >"$CZ_TMP/del/0002-remove-it.patch"
xrefused deletes "series $CZ_TMP/del: patch 2/2 'remove it' (.*0002-remove-it.patch) deletes $CZ_TMP/a/$REL" \
	"source = $CZ_TMP/a/$REL" "series = $CZ_TMP/del"

# git = REPO A..B and nothing else; a symmetric range is refused as such
xrefused git-junk "git = $CZ_TMP/repo base..HEAD junk: expected git = REPOSITORY A..B, and nothing after it" \
	"source = $REL" "git = $CZ_TMP/repo base..HEAD junk"
xrefused git-sym "git = $CZ_TMP/repo base...HEAD: expected git = REPOSITORY A..B (a symmetric range A...B is no sequence)" \
	"source = $REL" "git = $CZ_TMP/repo base...HEAD"

# the repository's log.showSignature does not make zab run its gpg.program
printf '#!/bin/sh\ntouch "%s/gpg-ran"\nexit 1\n' "$CZ_TMP" >"$CZ_TMP/fake-gpg" && chmod +x "$CZ_TMP/fake-gpg"
(
	cd "$CZ_TMP/repo" && git checkout -qb signed base && echo '/* signed */' >>"$REL" &&
	git commit -qam "a signed change" &&
	c=$(git cat-file commit HEAD | awk '{ print } /^committer / {
		print "gpgsig -----BEGIN PGP SIGNATURE-----"; print " "; print " iQEzBAABCAAdFiEE"
		print " -----END PGP SIGNATURE-----" }' | git hash-object -t commit -w --stdin) &&
	git update-ref refs/heads/signed "$c" &&
	git config log.showSignature true && git config gpg.program "$CZ_TMP/fake-gpg"
) || echo "Bail out! could not make a signed commit"
git -C "$CZ_TMP/repo" log -1 signed >/dev/null 2>&1
ok "the fake gpg.program runs for git log in that repository (the case is real)" -- [ -e "$CZ_TMP/gpg-ran" ]
rm -f "$CZ_TMP/gpg-ran"
seq_exp "$CZ_TMP/sig.exp" "[variant sig]" "source = $REL" "git = $CZ_TMP/repo base..signed"
"$ZAB" expand "$CZ_TMP/sig.exp" -o "$CZ_TMP/sig.x" 2>"$CZ_TMP/sig.err"
rc=$?
ok "git = over a signed commit with log.showSignature: exit $rc, gpg.program not run" -- \
	eval '[ $rc -eq 0 ] && [ ! -e "$CZ_TMP/gpg-ran" ] && [ "$(names "$CZ_TMP/sig.x")" = "sig@0 sig@1" ]'

# zab pack splits source = FILE[:SYMBOL] as zab run does: at the last ':' unless a '/' follows
mkdir "$CZ_TMP/w:b" && cp "$CZ_TMP/a/$REL" "$CZ_TMP/w:b/x.S" && echo "the wrong file" >"$CZ_TMP/w"
want=$(sha256sum "$CZ_TMP/w:b/x.S" | cut -c-64)
for sym in "" ":rep_stos_alternative"; do
	rm -rf "$CZ_TMP/colon-bundle"
	seq_exp "$CZ_TMP/colon.exp" "[variant c]" "source = $CZ_TMP/w:b/x.S$sym" "[variant other]" "routine = default"
	"$ZAB" pack "$CZ_TMP/colon.exp" "$CZ_TMP/colon-bundle" >/dev/null 2>"$CZ_TMP/colon.err"
	rc=$?
	got=$(sed -n 's/^source = //p' "$CZ_TMP/colon-bundle/experiment" 2>/dev/null)
	ok "zab pack of source = .../w:b/x.S$sym: exit $rc, ships x.S, keeps '$sym': $got" -- \
		eval '[ $rc -eq 0 ] && [ "$got" = "files/$want$CZ_TMP/w:b/x.S$sym" ] &&
		      cmp -s "$CZ_TMP/colon-bundle/files/$want$CZ_TMP/w:b/x.S" "$CZ_TMP/w:b/x.S"'
done

# a tree's file that is a link to a name with a newline: zab pack names sources by their
# real path, which must not put that name into the bundle's experiment
mk() { mkdir -p "$1/${REL%/*}" && printf 'VERSION = 7\nPATCHLEVEL = %s\nSUBLEVEL = 0\n' "$2" >"$1/Makefile"; }
mk "$CZ_TMP/nt1" 1 && cp "$CZ_TMP/a/$REL" "$CZ_TMP/nt1/$REL"
mk "$CZ_TMP/nt2" 2 && cp "$CZ_TMP/a/$REL" "$CZ_TMP/$(printf 'x\ncmd=touch PWNED\n#.S')"
ln -s "$CZ_TMP/$(printf 'x\ncmd=touch PWNED\n#.S')" "$CZ_TMP/nt2/$REL"
seq_exp "$CZ_TMP/nt.exp" "[variant nt]" "source = $REL" "kernel = $CZ_TMP/nt1 $CZ_TMP/nt2"
"$ZAB" pack "$CZ_TMP/nt.exp" "$CZ_TMP/nt-bundle" >/dev/null 2>"$CZ_TMP/nt.err"
rc=$?
ok "zab pack of a source linked to a name with a newline: refused (exit $rc): $(head -n 1 "$CZ_TMP/nt.err")" -- \
	eval '[ $rc -eq 1 ] && [ $(wc -l <"$CZ_TMP/nt.err") -eq 1 ] && grep -q "x\\\\x0acmd=touch PWNED\\\\x0a#.S" "$CZ_TMP/nt.err" &&
	      ! grep -qs PWNED "$CZ_TMP/nt-bundle/experiment"'
done_testing
