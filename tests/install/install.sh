#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: make install into a scratch DESTDIR installs the programs, a
# man page per program plus cusezero(4) and zab-experiment(5), the
# experiments, the docs, a bash completion per program, the systemd template
# unit and the udev rule; then the installed pieces are used: man renders
# each page, the completions complete, systemd-analyze verifies the unit, zab
# runs an installed experiment by name (--dry-run).
. "$top_srcdir/tests/man/lib.sh"

D=$(mktemp -d "${TMPDIR:-/tmp}/install-test.XXXXXX") || exit 1
trap 'rm -rf "$D"' EXIT
# A make of its own: the jobserver of the make running this test is not ours.
env -u MAKEFLAGS -u MFLAGS make -C "$top_builddir" install DESTDIR="$D/root" >"$D/log" 2>&1
rc=$?
ok "make install DESTDIR=...: exit $rc" -- test "$rc" -eq 0
[ "$rc" -eq 0 ] || { sed 's/^/# /' "$D/log" | tail -20; done_testing; exit 1; }

# installed PATTERN: the one installed file whose path ends with PATTERN.
installed() { find "$D/root" -path "*$1" | head -n 1; }

for f in bin/zbench bin/zab bin/pread_z100k include/cusezero.h \
	 man/man1/zbench.1 man/man1/zab.1 man/man1/pread_z100k.1 man/man1/cusezero.1 \
	 man/man1/zeroctl.1 man/man1/zload.1 man/man4/cusezero.4 man/man5/zab-experiment.5 \
	 man/man1/zab-run.1 man/man1/zab-report.1 man/man1/zab-compare.1 man/man1/zab-history.1 \
	 man/man1/zab-bisect.1 man/man1/zab-expand.1 man/man1/zab-pack.1 man/man1/zab-hyperfine.1 \
	 man/man1/zab-store.1 man/man1/zab-fleet.1 \
	 cusezero/experiments/quick-alignment cusezero/experiments/clear_user-alignment \
	 cusezero/experiments/clear_pages-memset cusezero/experiments/README.md \
	 cusezero/experiments/layout-or-code cusezero/experiments/quick-routine \
	 doc/cusezero/README.md doc/cusezero/DESIGN.md doc/cusezero/sources.md doc/cusezero/layouts.md \
	 bash-completion/completions/cusezero bash-completion/completions/zeroctl \
	 bash-completion/completions/zload bash-completion/completions/pread_z100k \
	 bash-completion/completions/zbench bash-completion/completions/zab \
	 systemd/system/cusezero@.service udev/rules.d/60-cusezero.rules; do
	ok "installed: .../$f" -- test -n "$(installed "/$f")"
done
for p in "cusezero $CUSEZERO" "zeroctl $ZEROCTL" "zload $ZLOAD"; do
	set -- $p
	if [ -x "$2" ]; then ok "installed: .../bin/$1" -- test -n "$(installed "/bin/$1")"
	else skip "bin/$1: not built here"; fi
done

# man renders every installed page by name, from the installed tree only.
mandir=$(dirname "$(dirname "$(installed /man1/zab.1)")")
if command -v man >/dev/null 2>&1; then
	for page in cusezero zeroctl zload pread_z100k zbench zab zab-run "4 cusezero" zab-experiment; do
		# shellcheck disable=SC2086
		out=$(MANPATH=$mandir MANWIDTH=80 man -P cat $page 2>&1)
		ok "man $page: renders from the installed tree (NAME, EXAMPLES)" -- \
			sh -c 'printf "%s\n" "$1" | grep -q "^NAME" && printf "%s\n" "$1" | grep -q "^EXAMPLES"' - "$out"
	done
else
	skip "man (man-db) not installed: installed pages not rendered"
fi

# systemd-analyze verify: the installed unit, its ExecStart pointed at this
# build's daemon (the installed path exists only in DESTDIR).
unit=$(installed /systemd/system/cusezero@.service)
exec_path=$(sed -n 's/^ExecStart=\([^ ]*\) .*/\1/p' "$unit")
ok "unit: ExecStart $exec_path is the installed cusezero" -- test -x "$D/root$exec_path"
if ! command -v systemd-analyze >/dev/null 2>&1; then
	[ "${CI:-}" = true ] && fail "systemd-analyze missing (CI installs systemd)" ||
		skip "systemd-analyze not installed: unit not verified"
elif [ ! -x "$CUSEZERO" ]; then
	skip "cusezero not built here: unit not verified"
else
	mkdir "$D/units"
	sed "s|^ExecStart=[^ ]*|ExecStart=$CUSEZERO|" "$unit" >"$D/units/cusezero@.service"
	# Documentation=man:...: verify runs man(1), which finds the pages just installed.
	out=$(cd "$D/units" && MANPATH=$mandir systemd-analyze verify "$D/units/cusezero@zero1.service" 2>&1)
	rc=$?
	ok "systemd-analyze verify cusezero@zero1.service: exit $rc, no warning" -- \
		test "$rc" -eq 0 -a -z "$out"
	[ -z "$out" ] || printf '%s\n' "$out" | sed 's/^/# /'
fi
rules=$(installed /udev/rules.d/60-cusezero.rules)
ok "udev rule: SUBSYSTEM==\"cuse\" with a MODE and a GROUP" -- \
	grep -Eq '^SUBSYSTEM=="cuse", KERNEL=="[^"]+", GROUP="[^"]+", MODE="0[0-7]{3}"$' "$rules"

# zab runs an installed experiment by name, from a directory without one.
exp=$(dirname "$(installed /experiments/quick-alignment)")
out=$(cd / && ZAB_EXPERIMENT_PATH=$exp "$ZAB" run --dry-run quick-alignment 2>&1)
rc=$?
ok "zab run --dry-run quick-alignment (by name, from /): exit $rc, a session listed" -- \
	sh -c 'test "$1" -eq 0 && printf "%s\n" "$2" | grep -q "^session 1:"' - "$rc" "$out"

# The completions, sourced as bash-completion does.
bc=/usr/share/bash-completion/bash_completion
if [ ! -r "$bc" ] || ! command -v bash >/dev/null 2>&1; then
	[ "${CI:-}" = true ] && fail "bash-completion missing (CI installs it)" ||
		skip "bash-completion not installed: completions not run"
else
	comp=$(dirname "$(installed /completions/zab)")
	# complete NAME WORD...: the candidates for the last word.
	complete_words() {
		name=$1; shift
		bash -c '. "$1"; . "$2/$3"; shift 3; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
			COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
			"_$(basename "$0")" "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
			printf "%s\n" "${COMPREPLY[@]}"' "$name" "$bc" "$comp" "$name" "$@" 2>&1
	}
	ok "completion: zload --iodep -> --iodepth" -- \
		sh -c 'complete_out=$1; printf "%s\n" "$complete_out" | grep -qx -- --iodepth' - \
		"$(complete_words zload "$ZLOAD" --iodep)"
	ok "completion: zbench memset -f c_store_l -> c_store_loop (from zbench's own list)" -- \
		sh -c 'printf "%s\n" "$1" | grep -qx c_store_loop' - \
		"$(complete_words zbench "$ZBENCH" memset -f c_store_l)"
	ok "completion: zab run quick -> quick-alignment (installed experiments)" -- \
		sh -c 'printf "%s\n" "$1" | grep -qx quick-alignment' - \
		"$(ZAB_EXPERIMENT_PATH=$exp complete_words zab "$ZAB" run quick)"
	ok "completion: pread_z100k --for -> --format" -- \
		sh -c 'printf "%s\n" "$1" | grep -qx -- --format' - \
		"$(complete_words pread_z100k "$PREAD_Z100K" --for)"
fi
done_testing
