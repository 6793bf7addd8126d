#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: a measured run is never lost on PostgreSQL
# (tests/store/pglib.sh's private server): the server restarted while zab
# run measures, the run is still recorded (the connection opened again);
# the server stopped, the run's document is kept under
# $XDG_STATE_HOME/cusezero/unstored, named in the one error line, exit 1,
# and zab store flush brings it in once and removes it.  Eight first-time
# writers on a new database, five times over: none refused.  A server
# warning reaches stderr as one zab line, never libpq's raw lines.
# Needs: root
. "$top_srcdir/tests/zab/lib.sh"
. "$top_srcdir/tests/store/lib.sh"
. "$top_srcdir/tests/store/pglib.sh"
pg_require "$CZ_TMP/pg"
trap 'pg_stop "$CZ_TMP/pg"; rm -rf "$CZ_TMP"' EXIT
unset CUSEZERO_STORE
XDG_STATE_HOME=$CZ_TMP/state
export XDG_STATE_HOME
results 8 "$CZ_TMP/r" || { echo "Bail out! zab run failed"; exit 1; }
kept=$CZ_TMP/state/cusezero/unstored

# only_zab_lines FILE: every line of FILE is one of zab's ("zab: ...")
only_zab_lines() { ! grep -qv '^zab: ' "$1"; }

# pg_server start|stop|restart: the server of pg_start, on its port
pg_server() {
	pg_as "$pg_bin/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 -m fast \
		-o "-k $PG_DIR/sock -p $PG_PORT -c listen_addresses=127.0.0.1 -c fsync=off" "$1" >/dev/null 2>&1
}

# 1. first use: eight writers at once on a database that has no store yet, five times
bad=0
for t in 1 2 3 4 5; do
	pg_as "$pg_bin/psql" -h "$PG_DIR/sock" -p "$PG_PORT" -U postgres -d postgres -qAt \
		-c "CREATE DATABASE czfirst$t OWNER czuser" >/dev/null
	url=postgresql://czuser@127.0.0.1:$PG_PORT/czfirst$t
	for i in 1 2 3 4 5 6 7 8; do
		"$ZAB" store import --store "$url" "$CZ_TMP/r$i.json" >"$CZ_TMP/first$i" 2>&1 &
	done
	wait
	n=$("$ZAB" store ls runs --store "$url" --format csv | tail -n +2 | wc -l)
	if [ "$n" -ne 8 ] || grep -qv imported "$CZ_TMP"/first*; then
		bad=$((bad + 1))
		diag "try $t: $n runs; $(grep -hv imported "$CZ_TMP"/first* | head -n 1)"
	fi
done
ok "8 first-time writers, 5 tries: every run stored, none refused ($bad bad tries)" -- [ "$bad" -eq 0 ]

# 2. the server restarted while the experiment runs: the run is recorded all the same
cat >"$CZ_TMP/restart" <<EOF
#!/bin/sh
if [ ! -e "$CZ_TMP/restarted" ]; then
	: >"$CZ_TMP/restarted"
	setpriv --reuid=$pg_user --regid=$(id -g "$pg_user") --clear-groups env HOME="$PG_DIR" \
		"$pg_bin/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 -m fast restart >/dev/null 2>&1
fi
exec "$FAKE" "\$@"
EOF
chmod +x "$CZ_TMP/restart"
"$ZAB" run -b "x=$CZ_TMP/restart --sd 0.01" -v a -v b -S 1 -R 3 --no-progress --campaign restart \
	--store "$PG_URL" >/dev/null 2>"$CZ_TMP/e"
rc=$?
ok "server restarted mid-run: exit $rc, the run recorded: $(tail -n 1 "$CZ_TMP/e")" -- \
	sh -c "[ $rc -eq 0 ] && [ -e '$CZ_TMP/restarted' ] && grep -q '^zab: recorded run' '$CZ_TMP/e' &&
		[ \$('$ZAB' store ls runs --store '$PG_URL' --campaign restart --format csv | wc -l) -eq 2 ]"
ok "... and stderr holds only zab's lines" -- only_zab_lines "$CZ_TMP/e"

# 3. the server down when the run ends: kept, named, exit 1
cat >"$CZ_TMP/stop" <<EOF
#!/bin/sh
setpriv --reuid=$pg_user --regid=$(id -g "$pg_user") --clear-groups env HOME="$PG_DIR" \
	"$pg_bin/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >/dev/null 2>&1
exec "$FAKE" "\$@"
EOF
chmod +x "$CZ_TMP/stop"
"$ZAB" run -b "x=$CZ_TMP/stop --sd 0.01" -v a -v b -S 1 -R 2 --no-progress --campaign down \
	--store "$PG_URL" >/dev/null 2>"$CZ_TMP/e"
rc=$?
file=$(sed -n 's/.*; kept in \([^ ]*\.json\) .*/\1/p' "$CZ_TMP/e")
ok "server down at the end: exit $rc, the kept file named: $(grep -v '^zab: command line' "$CZ_TMP/e" | tail -n 1)" -- \
	sh -c "[ $rc -eq 1 ] && [ -n '$file' ] && [ -s '$file' ] && grep -q 'not stored in $PG_URL' '$CZ_TMP/e'"
ok "... under \$XDG_STATE_HOME/cusezero/unstored, 0600 in a 0700 folder" -- \
	sh -c "[ \"\$(dirname '$file')\" = '$kept' ] && [ \"\$(stat -c %a '$file' '$kept')\" = '600
700' ]"
ok "... and stderr holds only zab's lines" -- only_zab_lines "$CZ_TMP/e"
cp "$file" "$CZ_TMP/copy.json"
pg_server start
"$ZAB" store flush >"$CZ_TMP/o" 2>"$CZ_TMP/e"
rc=$?
ok "store flush: exit $rc, imported into the store it was meant for: $(cat "$CZ_TMP/o" "$CZ_TMP/e")" -- \
	sh -c "[ $rc -eq 0 ] && grep -q ': imported ' '$CZ_TMP/o' &&
		[ \$('$ZAB' store ls runs --store '$PG_URL' --campaign down --format csv | wc -l) -eq 2 ]"
ok "... the kept files removed" -- sh -c "[ -n '$file' ] && [ ! -e '$file' ] && [ -z \"\$(ls -A '$kept')\" ]"
"$ZAB" store flush >"$CZ_TMP/o" 2>&1
ok "a second flush: nothing to do: $(cat "$CZ_TMP/o")" -- grep -q "no kept run" "$CZ_TMP/o"
"$ZAB" store import --store "$PG_URL" "$CZ_TMP/copy.json" >"$CZ_TMP/o" 2>&1
ok "importing the kept file again: already stored, once: $(cat "$CZ_TMP/o")" -- \
	sh -c "grep -q 'already stored' '$CZ_TMP/o' &&
		[ \$('$ZAB' store ls runs --store '$PG_URL' --campaign down --format csv | wc -l) -eq 2 ]"

# 4. a server's warning: one line of zab's
pg_sql "CREATE FUNCTION czwarn() RETURNS trigger LANGUAGE plpgsql AS
	\$\$ BEGIN RAISE WARNING 'a warning from the server'; RETURN NEW; END \$\$;
	CREATE TRIGGER czwarn BEFORE INSERT ON runs FOR EACH ROW EXECUTE FUNCTION czwarn()"
"$ZAB" store import --store "$PG_URL" "$CZ_TMP/r8.json" >/dev/null 2>"$CZ_TMP/e"
ok "a server warning: one zab line naming the store: $(cat "$CZ_TMP/e")" -- \
	sh -c "only_zab_lines() { ! grep -qv '^zab: ' \"\$1\"; }; only_zab_lines '$CZ_TMP/e' &&
		[ \$(wc -l <'$CZ_TMP/e') -eq 1 ] && grep -q 'a warning from the server' '$CZ_TMP/e'"
done_testing
