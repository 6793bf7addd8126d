#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: SQLite stores in folders other users can reach.  Run as
# root, a writer follows no symbolic link another user owns (planted in a
# folder of theirs, or in one of root's), writes in no folder another user
# owns or may write (unless sticky), and makes stores and export -o files
# 0600 whatever the umask, never writing through a link; links root owns
# are followed, and a reader may read a store in another user's folder.
# Needs: root
. "$top_srcdir/tests/zab/lib.sh"
. "$top_srcdir/tests/store/lib.sh"
unset CUSEZERO_STORE
other=nobody
id "$other" >/dev/null 2>&1 || skip_all "no user $other to plant files as"
command -v setpriv >/dev/null || skip_all "no setpriv (util-linux)"
as_other() { setpriv --reuid="$other" --regid="$(id -g "$other")" --clear-groups "$@"; }
results 2 "$CZ_TMP/r" || { echo "Bail out! zab run failed"; exit 1; }
chmod 755 "$CZ_TMP"
umask 022

# refused WHAT URL PATTERN: a writer (import) refused in one line naming why, the victim not made
refused() {
	"$ZAB" store import --store "$2" "$CZ_TMP/r1.json" >/dev/null 2>"$CZ_TMP/e"
	rc=$?
	ok "$1: exit $rc, one line: $(cat "$CZ_TMP/e")" -- \
		sh -c "[ $rc -eq 1 ] && [ \$(wc -l <'$CZ_TMP/e') -eq 1 ] && grep -q -- '$3' '$CZ_TMP/e' && [ ! -e '$CZ_TMP/victim.db' ]"
}

# a folder of the other user's, with a link planted in it
mkdir "$CZ_TMP/theirs" && chown "$other" "$CZ_TMP/theirs"
as_other ln -s "$CZ_TMP/victim.db" "$CZ_TMP/theirs/s.db"
refused "a link planted in another user's folder" "sqlite:$CZ_TMP/theirs/s.db" "owned by uid $(id -u "$other")"
refused "a new store in another user's folder" "sqlite:$CZ_TMP/theirs/new.db" "owned by uid $(id -u "$other"), not by you or root"
ok "... nothing made there" -- [ ! -e "$CZ_TMP/theirs/new.db" ]
# a link another user owns, in root's own folder
mkdir -m 700 "$CZ_TMP/mine"
ln -s "$CZ_TMP/victim.db" "$CZ_TMP/mine/s.db" && chown -h "$other" "$CZ_TMP/mine/s.db"
refused "a link owned by another user in root's folder" "sqlite:$CZ_TMP/mine/s.db" "symbolic link owned by uid"
# a folder on the way another user owns
mkdir -p "$CZ_TMP/theirs2/sub" && chown "$other" "$CZ_TMP/theirs2"
refused "a folder on the way owned by another user" "sqlite:$CZ_TMP/theirs2/sub/s.db" "owned by uid"
# a folder anyone may write, not sticky
mkdir -m 777 "$CZ_TMP/open" && chmod 777 "$CZ_TMP/open"
refused "a folder writable by others" "sqlite:$CZ_TMP/open/s.db" "writable by others"
# a sticky one (as /tmp) is fine
mkdir "$CZ_TMP/sticky" && chmod 1777 "$CZ_TMP/sticky"
"$ZAB" store import --store "sqlite:$CZ_TMP/sticky/s.db" "$CZ_TMP/r1.json" >/dev/null 2>"$CZ_TMP/e"
ok "a sticky folder writable by all takes a store: $(cat "$CZ_TMP/e")" -- test -s "$CZ_TMP/sticky/s.db"

# modes: the store and its folders, export -o, whatever the umask
"$ZAB" store import --store "sqlite:$CZ_TMP/mine/new/s.db" "$CZ_TMP/r1.json" "$CZ_TMP/r2.json" >/dev/null 2>&1
ok "a new store: 0600 in a new 0700 folder (umask 022)" -- \
	[ "$(stat -c %a "$CZ_TMP/mine/new/s.db" "$CZ_TMP/mine/new" | tr '\n' ' ')" = "600 700 " ]
"$ZAB" store export --store "sqlite:$CZ_TMP/mine/new/s.db" -o "$CZ_TMP/out.json"
ok "export -o: 0600" -- [ "$(stat -c %a "$CZ_TMP/out.json")" = 600 ]
printf 'keep\n' >"$CZ_TMP/target"
ln -s "$CZ_TMP/target" "$CZ_TMP/link.json"
"$ZAB" store export --store "sqlite:$CZ_TMP/mine/new/s.db" -o "$CZ_TMP/link.json" 2>"$CZ_TMP/e"
rc=$?
ok "export -o at a symbolic link: exit $rc, the link replaced by a new 0600 file, its target untouched" -- \
	sh -c "[ $rc -eq 0 ] && [ \"\$(cat '$CZ_TMP/target')\" = keep ] && [ ! -L '$CZ_TMP/link.json' ] &&
	       [ \"\$(stat -c %a '$CZ_TMP/link.json')\" = 600 ]"

# links root owns are followed; a reader reads in another user's folder
ln -s "$CZ_TMP/mine/new/s.db" "$CZ_TMP/mine/alias.db"
"$ZAB" store import --store "sqlite:$CZ_TMP/mine/alias.db" "$CZ_TMP/r1.json" >"$CZ_TMP/o" 2>&1
ok "a link of root's own is followed: $(cat "$CZ_TMP/o")" -- grep -q "already stored" "$CZ_TMP/o"
cp "$CZ_TMP/mine/new/s.db" "$CZ_TMP/theirs/copy.db" && chown "$other" "$CZ_TMP/theirs/copy.db"
"$ZAB" store ls runs --store "sqlite:$CZ_TMP/theirs/copy.db" --format csv >"$CZ_TMP/o" 2>"$CZ_TMP/e"
ok "a reader reads a store in another user's folder: $(cat "$CZ_TMP/e")" -- [ "$(wc -l <"$CZ_TMP/o")" -eq 3 ]
done_testing
