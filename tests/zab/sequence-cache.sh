#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zab's blob cache (the files of git and tarball sequence
# steps) is trusted as the kernel-source build cache is: every folder from
# "/" down checked (owner this user or root, not writable by others), a
# symbolic link followed only when this user or root owns it; and a blob
# is checked against its name (its content's SHA-256) when it is used: a
# blob changed after zab expand is refused by zab run and zab pack with
# one line.  As root, with user nobody: a cache under a folder nobody
# owns, and a blobs folder that is nobody's symbolic link, are refused;
# a blob nobody swapped in is not used.
# Needs: none
. "$top_srcdir/tests/zab/kseqlib.sh"

seq_make || { echo "Bail out! could not make the test repository"; exit 1; }
# x NAME: zab expand of a git sequence into $CZ_TMP/NAME.x, stderr NAME.err; rc
x() {
	seq_exp "$CZ_TMP/$1.exp" "[variant g]" "source = $REL" "git = $CZ_TMP/repo base..HEAD"
	"$ZAB" expand "$CZ_TMP/$1.exp" -o "$CZ_TMP/$1.x" 2>"$CZ_TMP/$1.err"
	rc=$?
}
# one NAME FILE WANT: exit 2 or 1 with one line on FILE matching WANT
one() {
	on=$1 of=$2 ow=$3
	ok "$on: refused (exit $rc), one line: $(head -n 1 "$of")" -- \
		eval '[ $rc -ne 0 ] && [ $(wc -l <"$of") -eq 1 ] && grep -q -- "$ow" "$of"'
}

x ok
ok "a private cache: zab expand exit $rc$(head -n 1 "$CZ_TMP/ok.err" | sed 's/^/: /')" -- [ $rc -eq 0 ]
blob=$(sed -n 's/^source = //p' "$CZ_TMP/ok.x" | tail -n 1)
ok "its last step's file is a blob: $blob" -- [ -f "$blob" ]

# a blob changed after zab expand: refused where it is used
cp "$blob" "$CZ_TMP/blob.good"
echo '# changed' >>"$blob"
"$ZAB" run --dry-run "$CZ_TMP/ok.x" >/dev/null 2>"$CZ_TMP/run.err"
rc=$?
one "zab run of a changed blob" "$CZ_TMP/run.err" "blob $blob: its content's SHA-256 is [0-9a-f]*\.\.\., not its name's"
"$ZAB" pack "$CZ_TMP/ok.x" "$CZ_TMP/bundle" >/dev/null 2>"$CZ_TMP/pack.err"
rc=$?
one "zab pack of a changed blob" "$CZ_TMP/pack.err" "blob $blob: its content's SHA-256"
ok "zab pack left no bundle" -- [ ! -e "$CZ_TMP/bundle" ]
x again
ok "zab expand writes the blob again (exit $rc), with its name's content" -- \
	eval '[ $rc -eq 0 ] && cmp -s "$blob" "$CZ_TMP/blob.good"'
"$ZAB" run --dry-run "$CZ_TMP/ok.x" >/dev/null 2>&1
rc=$?
ok "then zab run takes it (exit $rc)" -- [ $rc -eq 0 ]
chmod 0777 "$XDG_CACHE_HOME/cusezero"
x open
one "a cache folder writable by others" "$CZ_TMP/open.err" "blob cache $XDG_CACHE_HOME/cusezero/blobs: refused: .*writable by others"
chmod 0700 "$XDG_CACHE_HOME/cusezero"

# another user's folders: root only
nobody=$(id -u nobody 2>/dev/null)
if [ "$(id -u)" -ne 0 ] || [ -z "$nobody" ] || ! command -v setpriv >/dev/null; then
	skip "cross-user cases: not root, no user nobody or no setpriv"
	done_testing
	exit
fi
as_nobody() { setpriv --reuid="$nobody" --regid="$(id -g nobody)" --clear-groups "$@"; }
chmod 0755 "$CZ_TMP"
mkdir -m 0755 "$CZ_TMP/theirs" && chown nobody "$CZ_TMP/theirs"
XDG_CACHE_HOME=$CZ_TMP/theirs/cache x under
one "a cache under a folder nobody owns" "$CZ_TMP/under.err" \
	"blob cache $CZ_TMP/theirs/cache/cusezero/blobs: refused: the folder holding cache is owned by uid $nobody"
ok "nothing was written there" -- [ ! -e "$CZ_TMP/theirs/cache/cusezero/blobs" ]
mkdir -m 0700 "$CZ_TMP/c2" "$CZ_TMP/c2/cusezero"
as_nobody mkdir -m 0755 "$CZ_TMP/theirs/blobs"
as_nobody ln -s "$CZ_TMP/theirs/blobs" "$CZ_TMP/theirs/link"
cp -P "$CZ_TMP/theirs/link" "$CZ_TMP/c2/cusezero/blobs" 2>/dev/null ||
	ln -s "$CZ_TMP/theirs/blobs" "$CZ_TMP/c2/cusezero/blobs"
chown -h nobody "$CZ_TMP/c2/cusezero/blobs"
XDG_CACHE_HOME=$CZ_TMP/c2 x link
one "a blobs folder that is nobody's symbolic link" "$CZ_TMP/link.err" "blob cache $CZ_TMP/c2/cusezero/blobs: refused: blobs is a symbolic link owned by uid $nobody"
# an expanded file naming blobs in a folder nobody controls: nobody swaps one in
mkdir -p "$CZ_TMP/theirs/c3/cusezero"
cp -a "$XDG_CACHE_HOME/cusezero/blobs" "$CZ_TMP/theirs/c3/cusezero/"
chmod -R a+rX "$CZ_TMP/theirs/c3"
sed "s|$XDG_CACHE_HOME/|$CZ_TMP/theirs/c3/|" "$CZ_TMP/ok.x" >"$CZ_TMP/theirs.x"
"$ZAB" run --dry-run "$CZ_TMP/theirs.x" >/dev/null 2>&1
rc=$?
ok "the copied blobs are used while they hold their names' content (exit $rc)" -- [ $rc -eq 0 ]
tblob=$CZ_TMP/theirs/c3/${blob#"$XDG_CACHE_HOME/"}
as_nobody sh -c "mv '$CZ_TMP/theirs/c3' '$CZ_TMP/theirs/old' && cp -r '$CZ_TMP/theirs/old' '$CZ_TMP/theirs/c3' &&
	sed -i 's/rep_stos_alternative/mine/' '$tblob'"
"$ZAB" run --dry-run "$CZ_TMP/theirs.x" >/dev/null 2>"$CZ_TMP/swap.err"
rc=$?
one "blobs nobody swapped in" "$CZ_TMP/swap.err" "blob $CZ_TMP/theirs/c3/cusezero/blobs/[0-9a-f]*/clear_page_64.S: "
done_testing
