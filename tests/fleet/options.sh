#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zab fleet's and zab pack's bad input (one line, exit 2 for
# a usage error, 1 for a file), zab pack's bundle (sha256sum -c accepts
# it, names rewritten, other lines as written), and --dry-run's vars file:
# every value from the user tagged !unsafe; --bisect's dry run (one SUT
# per class, its campaign, cz_mode as data) and the options it refuses.
# No SUT: nothing is run.
. "$top_srcdir/tests/zab/lib.sh"
T=$CZ_TMP
printf 'x: .byte 1\n' >"$T/a.S"
printf -- '--- a/a.S\n+++ b/a.S\n' >"$T/p.patch"
cat >"$T/e.exp" <<'EXP'
[experiment]
name = n, "q" {{ 7*7 }}
[benchmark x]
cmd = echo 1
# source = not/this.S
[variant a]
source = a.S:x
[variant b]
source = a.S:x
patch = p.patch
EXP
printf '[lab]\nh1 ansible_host=127.0.0.39\n' >"$T/inv.ini"
bad() {	# bad STATUS ARGS...: exit STATUS, one line
	want=$1; shift
	"$ZAB" "$@" >/dev/null 2>"$T/e"
	rc=$?
	ok "zab $(echo "$*" | sed "s|$T/||g"): exit $rc, one line: $(head -n 1 "$T/e")" -- \
		sh -c "[ $rc -eq $want ] && [ \$(wc -l <'$T/e') -eq 1 ]"
}
bad 2 fleet "$T/e.exp" -i "$T/inv.ini" --bogus
bad 2 fleet "$T/e.exp" -i "$T/inv.ini" --forks
bad 2 fleet "$T/e.exp" -i "$T/inv.ini" --forks abc
bad 2 fleet "$T/e.exp" -i "$T/inv.ini" --timeout 0
bad 2 fleet "$T/e.exp" -i "$T/inv.ini" --min-per-class x
bad 2 fleet "$T/e.exp" "$T/e.exp" -i "$T/inv.ini"
bad 2 fleet "$T/e.exp" -i "$T/inv.ini" --install prefix
bad 2 fleet "$T/e.exp" -i "$T/inv.ini" --install rpm
bad 2 fleet -i "$T/inv.ini"
bad 2 fleet --bisect "$T/e.exp" -i "$T/inv.ini" --html "$T/p.html"
bad 2 fleet --bisect "$T/e.exp" -i "$T/inv.ini" --min-per-class 2
bad 1 fleet "$T/none.exp" -i "$T/inv.ini"
bad 1 fleet "$T/e.exp" -i "$T/inv.ini" --install deb --package "$T/none.deb"
bad 2 pack "$T/e.exp"
bad 2 pack "$T/e.exp" "$T/b" extra
sed 's/p.patch/gone.patch/' "$T/e.exp" >"$T/gone.exp"
bad 1 pack "$T/gone.exp" "$T/g"
ok "a failed pack leaves no folder" -- [ ! -e "$T/g" ]

"$ZAB" pack "$T/e.exp" "$T/b" >"$T/pack.out" 2>&1
rc=$?
sed 's/^/# /' "$T/pack.out"
ok "zab pack: exit $rc, sha256sum -c accepts the bundle" -- \
	sh -c "[ $rc -eq 0 ] && cd '$T/b' && sha256sum --quiet -c SHA256SUMS"
ok "names rewritten to files/SHA256..., the rest as written" -- \
	sh -c "grep -q '^source = files/[0-9a-f]\{64\}/.*/a.S:x\$' '$T/b/experiment' &&
	       grep -q '^patch = files/[0-9a-f]\{64\}.patch\$' '$T/b/experiment' &&
	       grep -q '^# source = not/this.S\$' '$T/b/experiment' && grep -q '^name = n, \"q\" {{ 7\*7 }}\$' '$T/b/experiment'"
ok "the same file named twice is shipped once" -- [ "$(wc -l <"$T/b/SHA256SUMS")" -eq 3 ]
ok "it prints the SHA-256 of SHA256SUMS" -- \
	grep -q "SHA256SUMS: $(sha256sum <"$T/b/SHA256SUMS" | cut -c1-64)" "$T/pack.out"

# a change sequence (a quilt series) expands first: one variant per step, every patch shipped
mkdir -p "$T/pq"
printf -- '--- a/a.S\n+++ b/a.S\n@@ -1 +1 @@\n-x: .byte 1\n+x: .byte 2\n' >"$T/pq/one.patch"
printf -- '--- a/a.S\n+++ b/a.S\n@@ -1 +1 @@\n-x: .byte 2\n+x: .byte 3\n' >"$T/pq/two.patch"
printf 'one.patch\ntwo.patch\n' >"$T/pq/series"
printf '[experiment]\nname = seq\n[benchmark x]\ncmd = echo 1\n[variant s]\nsource = a.S:x\nseries = pq/series\n' >"$T/seq.exp"
(cd / && "$ZAB" pack "$T/seq.exp" "$T/sb") >/dev/null 2>"$T/e"
rc=$?
ok "zab pack of a series, from another folder: exit $rc$(head -n 1 "$T/e" | sed 's/^./: &/')" -- \
	sh -c "[ $rc -eq 0 ] && cd '$T/sb' && sha256sum --quiet -c SHA256SUMS"
ok "its steps s@0..s@2, step 2 with both patches shipped" -- \
	sh -c "grep -q '^\[variant s@2\]' '$T/sb/experiment' &&
	       grep -q '^patch = files/$(sha256sum <"$T/pq/one.patch" | cut -c1-64).patch files/$(sha256sum <"$T/pq/two.patch" | cut -c1-64).patch\$' '$T/sb/experiment'"

if command -v ansible-inventory >/dev/null; then
	XDG_CACHE_HOME=$T/cache "$ZAB" fleet "$T/e.exp" -i "$T/inv.ini" --store "sqlite:$T/s.db" --dry-run \
		--results "$T/r" -- --var "X={{ 7*7 }}" >"$T/dry" 2>&1
	rc=$?
	sed 's/^/# /' "$T/dry"
	ok "--dry-run: exit $rc, the ansible-playbook line with -e @vars" -- \
		sh -c "[ $rc -eq 0 ] && grep -q '^ansible-playbook .* -e @$T/r/vars.yml' '$T/dry'"
	ok "the experiment's name is !unsafe data in the vars file, as written" -- \
		grep -qxF 'cz_name: !unsafe "n, \"q\" {{ 7*7 }}"' "$T/r/vars.yml"
	ok "so are the zab run options" -- grep -qxF '  - !unsafe "X={{ 7*7 }}"' "$T/r/vars.yml"
	ok "no value without !unsafe but the numbers" -- \
		sh -c "! grep -v '^#\\|!unsafe\\|^cz_timeout: [0-9]*\$\\|^cz_todo:\$\\|^cz_zab_args:\$' '$T/r/vars.yml' | grep -q ."
	XDG_CACHE_HOME=$T/cache "$ZAB" fleet --bisect "$T/e.exp" -i "$T/inv.ini" --store "sqlite:$T/s.db" \
		--dry-run --results "$T/rb" -- --band 5 >"$T/dryb" 2>&1
	rc=$?
	ok "--bisect --dry-run: exit $rc, one SUT per class, a campaign of its own, cz_mode bisect as data" -- \
		sh -c "[ $rc -eq 0 ] && grep -qx 'zab fleet: bisect on 1 class: lab (h1)' '$T/dryb' &&
		grep -q '^zab fleet: campaign .*-bisect: 1 of 1 SUTs to run' '$T/dryb' &&
		grep -qxF 'cz_mode: !unsafe \"bisect\"' '$T/rb/vars.yml' && grep -qxF '  - !unsafe \"--band\"' '$T/rb/vars.yml'"
else
	skip "--bisect --dry-run: no ansible-inventory"
	skip "--dry-run: no ansible-inventory (Debian: ansible-core)"
	skip "the vars file: no ansible-inventory"
	skip "the vars file: no ansible-inventory"
	skip "the vars file: no ansible-inventory"
fi
done_testing
