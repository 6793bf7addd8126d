#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: an SQLite store on a full disk (a 2 MiB tmpfs the test
# mounts): a run measured while the disk filled is kept under
# $XDG_STATE_HOME/cusezero/unstored and named in one line, exit 1, and
# zab store flush stores it once the disk has room, removing the kept
# files; an import into a new path on the full disk leaves nothing behind.
# Needs: root
. "$top_srcdir/tests/zab/lib.sh"
. "$top_srcdir/tests/store/lib.sh"
unset CUSEZERO_STORE
XDG_STATE_HOME=$CZ_TMP/state
export XDG_STATE_HOME
mnt=$CZ_TMP/mnt
mkdir "$mnt"
mount -t tmpfs -o size=2m,mode=700 czfull "$mnt" 2>"$CZ_TMP/e" || skip_all "cannot mount a tmpfs: $(cat "$CZ_TMP/e")"
trap 'umount "$mnt"; rm -rf "$CZ_TMP"' EXIT
results 1 "$CZ_TMP/r" || { echo "Bail out! zab run failed"; exit 1; }
kept=$CZ_TMP/state/cusezero/unstored

# a benchmark that fills the disk the store is on, then measures
cat >"$CZ_TMP/fill" <<EOF
#!/bin/sh
dd if=/dev/zero of="$mnt/fill" bs=64k >/dev/null 2>&1
exec "$FAKE" "\$@"
EOF
chmod +x "$CZ_TMP/fill"
"$ZAB" run -b "x=$CZ_TMP/fill --sd 0.01" -v a -v b -S 1 -R 2 --no-progress --campaign full \
	--store "sqlite:$mnt/s.db" >/dev/null 2>"$CZ_TMP/e"
rc=$?
file=$(sed -n 's/.*; kept in \([^ ]*\.json\) .*/\1/p' "$CZ_TMP/e")
# the announcement and the kernel reference are not the error
ok "disk full when the run ends: exit $rc, kept and named: $(grep -v '^zab: command line\|^zab: kernel reference' "$CZ_TMP/e")" -- \
	sh -c "[ $rc -eq 1 ] && [ -s '$file' ] && [ \"\$(dirname '$file')\" = '$kept' ] && grep -q 'No space left on device\\|full' '$CZ_TMP/e'"
ok "... one line" -- [ "$(grep -vc '^zab: command line\|^zab: kernel reference' "$CZ_TMP/e")" -eq 1 ]
"$ZAB" store flush >"$CZ_TMP/o" 2>"$CZ_TMP/e"
rc=$?
ok "flush while the disk is still full: exit $rc, the run still kept: $(cat "$CZ_TMP/e")" -- \
	sh -c "[ $rc -eq 1 ] && [ -s '$file' ]"
rm -f "$mnt/fill"
"$ZAB" store flush >"$CZ_TMP/o" 2>"$CZ_TMP/e"
rc=$?
ok "flush with room again: exit $rc, imported: $(cat "$CZ_TMP/o" "$CZ_TMP/e")" -- \
	sh -c "[ $rc -eq 0 ] && grep -q ': imported ' '$CZ_TMP/o' && [ ! -e '$file' ] && [ -z \"\$(ls -A '$kept')\" ] &&
		[ \$('$ZAB' store ls runs --store 'sqlite:$mnt/s.db' --campaign full --format csv | wc -l) -eq 2 ]"

# an import into a new path on the full disk: nothing left behind
dd if=/dev/zero of="$mnt/fill" bs=64k >/dev/null 2>&1
"$ZAB" store import --store "sqlite:$mnt/new/dir/s.db" "$CZ_TMP/r1.json" >/dev/null 2>"$CZ_TMP/e"
rc=$?
ok "import into a new path on a full disk: exit $rc, one line: $(cat "$CZ_TMP/e")" -- \
	sh -c "[ $rc -eq 1 ] && [ \$(wc -l <'$CZ_TMP/e') -eq 1 ]"
ok "... nothing left behind" -- [ ! -e "$mnt/new" ]
done_testing
