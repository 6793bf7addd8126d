#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A throwaway PostgreSQL server for the store and fleet tests, sourced:
#   pg_start DIR   initdb + pg_ctl start in DIR as an unprivileged user, on
#                  127.0.0.1 and a free port; a role czuser (password in
#                  DIR/pgpass, read the libpq way via PGPASSFILE) owning the
#                  database czstore.  Sets PG_URL (no password in it),
#                  PG_PORT, PGPASSFILE.  0, or 1 with the reason in PG_WHY.
#   pg_stop DIR    stop it (pg_ctl -m immediate)
#   pg_require DIR pg_start DIR, or the test skipped with the reason (a Bail
#                  out in CI, which installs the server); skipped too when
#                  this zab has no PostgreSQL back end (a cross build).
# The server binaries: /usr/lib/postgresql/*/bin (Debian's postgresql).
pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
pg_user=postgres
id "$pg_user" >/dev/null 2>&1 || pg_user=nobody

pg_as() { setpriv --reuid="$pg_user" --regid="$(id -g "$pg_user")" --clear-groups env HOME="$PG_DIR" "$@"; }

pg_start() {
	PG_DIR=$1 PG_WHY=
	[ -x "$pg_bin/initdb" ] || { PG_WHY="no PostgreSQL server (Debian: postgresql)"; return 1; }
	command -v setpriv >/dev/null || { PG_WHY="no setpriv (util-linux)"; return 1; }
	mkdir -p "$PG_DIR" && chmod 755 "$PG_DIR"
	# the server's user must reach DIR: the test's own 0700 temp folder above it gets o+x
	chmod o+x "$(dirname "$PG_DIR")"
	mkdir -p "$PG_DIR/data" "$PG_DIR/sock" && chown "$pg_user" "$PG_DIR" "$PG_DIR/data" "$PG_DIR/sock"
	printf 'postgres-secret\n' >"$PG_DIR/su.pw" && chown "$pg_user" "$PG_DIR/su.pw" && chmod 600 "$PG_DIR/su.pw"
	# TCP needs a password (scram-sha-256); the local socket trusts its user
	if ! pg_as "$pg_bin/initdb" -D "$PG_DIR/data" -U postgres --pwfile="$PG_DIR/su.pw" \
			--auth-local=trust --auth-host=scram-sha-256 >"$PG_DIR/initdb.log" 2>&1; then
		PG_WHY="initdb failed: $(tail -n 1 "$PG_DIR/initdb.log")"
		return 1
	fi
	n=0
	while :; do
		PG_PORT=$((20000 + ($$ + n * 7919) % 30000))
		pg_as "$pg_bin/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 \
			-o "-k $PG_DIR/sock -p $PG_PORT -c listen_addresses=127.0.0.1 -c fsync=off" \
			start >/dev/null 2>&1 && break
		n=$((n + 1))
		[ "$n" -lt 5 ] || { PG_WHY="pg_ctl start failed: $(tail -n 1 "$PG_DIR/server.log")"; return 1; }
	done
	pg_as "$pg_bin/psql" -h "$PG_DIR/sock" -p "$PG_PORT" -U postgres -d postgres -q -v ON_ERROR_STOP=1 \
		-c "CREATE ROLE czuser LOGIN PASSWORD 'czuser-secret'" \
		-c "CREATE DATABASE czstore OWNER czuser" >"$PG_DIR/psql.log" 2>&1 ||
		{ PG_WHY="creating the role: $(tail -n 1 "$PG_DIR/psql.log")"; return 1; }
	printf '127.0.0.1:%s:*:czuser:czuser-secret\n' "$PG_PORT" >"$PG_DIR/pgpass"
	chmod 600 "$PG_DIR/pgpass"
	PGPASSFILE=$PG_DIR/pgpass
	PG_URL=postgresql://czuser@127.0.0.1:$PG_PORT/czstore
	export PGPASSFILE PG_URL PG_PORT
	return 0
}

# pg_sql SQL: run SQL as the superuser (over the socket)
pg_sql() {
	pg_as "$pg_bin/psql" -h "$PG_DIR/sock" -p "$PG_PORT" -U postgres -d czstore -qAt -c "$1"
}

pg_stop() {
	[ -d "$1/data" ] && pg_as "$pg_bin/pg_ctl" -D "$1/data" -m immediate stop >/dev/null 2>&1
	return 0
}

pg_require() {
	"$ZAB" store ls --store postgresql://127.0.0.1:1/x 2>&1 | grep -q "without libpq" &&
		skip_all "this zab has no PostgreSQL back end (built without libpq: an arm64 cross build)"
	pg_start "$1" && return 0
	[ "${CI:-}" = true ] && { echo "Bail out! CI: $PG_WHY"; exit 1; }
	skip_all "$PG_WHY"
}
