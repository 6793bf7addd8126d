#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zab judge as the command of git bisect run.  The test builds
# a git repository of x86's clear_page_64.S (a kernel tree from
# scripts/kernel-sources.sh) with 8 commits: comment-only ones, one that
# touches another file, and one that plants an lfence in the unrolled
# 64-byte loop of rep_stos_alternative (several times slower).  git bisect
# run with zab judge --good on the first commit names the planted one.  A
# revision without the routine is skipped (125); bad usage is one line and
# exit 255 (git bisect run stops rather than marking revisions bad); SIGTERM
# stops the measurement and removes its folder (exit 143).
# In process (zbench memset --source): no device, no root.
# Needs: none
. "$top_srcdir/tests/zab/lfencelib.sh"

repo=$CZ_TMP/linux
f=arch/x86/lib/clear_page_64.S
mkdir -p "$repo/arch/x86/lib" && cp "$src" "$repo/$f" && echo readme >"$repo/README" || exit 1
commit() { git -C "$repo" -c user.name=t -c user.email=t@example.org commit -q -a "$@"; }
git -C "$repo" init -q && git -C "$repo" add -A && commit -m "x86/lib: clear_page_64.S" &&
	git -C "$repo" tag base &&
	for i in 1 2; do sed -i "1a /* comment $i */" "$repo/$f"; commit -m "x86/lib: comment $i" || exit 1; done &&
	echo more >>"$repo/README" && commit -m "README only" &&
	sed -i 's|^\taddq \$64,%rdi$|&\n\tlfence|' "$repo/$f" && commit -m "x86/lib: fence the unrolled loop" &&
	for i in 3 4 5; do sed -i "1a /* comment $i */" "$repo/$f"; commit -m "x86/lib: comment $i" || exit 1; done ||
	{ echo "Bail out! cannot build the repository"; exit 1; }
grep -q '^	lfence$' "$repo/$f" || { echo "Bail out! the lfence was not planted"; exit 1; }
planted=$(git -C "$repo" rev-parse HEAD~3)
ok "8 commits, the planted one 5th" -- sh -c "[ \$(git -C '$repo' rev-list --count HEAD) -eq 8 ] &&
	git -C '$repo' log -1 --format=%s $planted | grep -qx 'x86/lib: fence the unrolled loop'"

# --band 45, 5 sessions: the planted loop reads about -70%; comment-only
# commits must not come out bad from a loaded machine's noise (with CI's
# second lane booting an arm64 VM beside it, one read -26% (R) at 3 sessions)
judge="$ZAB judge --source $f:rep_stos_alternative --good base --band 45 --sessions 5 --seed 1"
(cd "$repo" && git bisect start HEAD base >/dev/null && git bisect run $judge) >"$CZ_TMP/b.out" 2>"$CZ_TMP/b.err"
rc=$?
sed -n 's/^zab judge: /# /p' "$CZ_TMP/b.out"
ok "git bisect run zab judge: exit $rc, names the planted commit" -- sh -c "[ $rc -eq 0 ] &&
	grep -q '^$planted is the first bad commit' '$CZ_TMP/b.out'"
ok "each step judged by one line: good or bad" -- sh -c "grep -q '^zab judge: .*: bad\$' '$CZ_TMP/b.out' &&
	grep -q '^zab judge: .*: good\$' '$CZ_TMP/b.out'"
git -C "$repo" bisect reset -q >/dev/null 2>&1

# a revision without the routine: skip (125), one line
sed -i 's/rep_stos_alternative/rep_stos_renamed/' "$repo/$f"
(cd "$repo" && $judge) >/dev/null 2>"$CZ_TMP/s.err"
rc=$?
ok "the routine absent here: exit $rc (125, skip): $(cat "$CZ_TMP/s.err")" -- sh -c "[ $rc -eq 125 ] &&
	[ \$(wc -l <'$CZ_TMP/s.err') -eq 1 ] && grep -q 'has no rep_stos_alternative' '$CZ_TMP/s.err'"
# a routine that does not assemble here: skip (125)
git -C "$repo" checkout -q -- . && echo 'garbage(' >>"$repo/$f"
(cd "$repo" && $judge) >"$CZ_TMP/g.out" 2>"$CZ_TMP/g.err"
rc=$?
ok "the file does not assemble here: exit $rc (125, skip)" -- sh -c "[ $rc -eq 125 ] &&
	grep -q ': skip\$' '$CZ_TMP/g.out'"
git -C "$repo" checkout -q -- .

# bad usage or set-up: one line, exit 255 (git bisect run stops)
for args in "--source $f:rep_stos_alternative --good nope" "--source $f:rep_stos_alternative" \
	    "--source $f --good base" "--source /abs:x --good base" "--source ../$f:x --good base" \
	    "--source $f:rep_stos_alternative --good base --band x" "--bogus"; do
	# shellcheck disable=SC2086
	(cd "$repo" && "$ZAB" judge $args) >/dev/null 2>"$CZ_TMP/e"
	rc=$?
	ok "zab judge $args: exit $rc, one line: $(cat "$CZ_TMP/e")" -- \
		sh -c "[ $rc -eq 255 ] && [ \$(wc -l <'$CZ_TMP/e') -eq 1 ]"
done
(cd "$CZ_TMP" && "$ZAB" judge --source "$f:rep_stos_alternative" --good base) >/dev/null 2>"$CZ_TMP/e"
rc=$?
ok "outside a work tree: exit $rc, one line: $(cat "$CZ_TMP/e")" -- \
	sh -c "[ $rc -eq 255 ] && [ \$(wc -l <'$CZ_TMP/e') -eq 1 ]"
ok "no folder left behind in TMPDIR" -- sh -c "! ls -d '$CZ_TMP'/zab-judge.* 2>/dev/null"

# SIGTERM while it measures (a long run: 100 sessions): passed on, folder removed, exit 143
(cd "$repo" && exec "$ZAB" judge --source "$f:rep_stos_alternative" --good base --sessions 100) \
	>/dev/null 2>"$CZ_TMP/t.err" &
jp=$!
n=0
while ! ls "$CZ_TMP"/zab-judge.*/judge.ini >/dev/null 2>&1 && [ $n -lt 1200 ]; do sleep 0.1; n=$((n + 1)); done
kill -TERM $jp
wait $jp
rc=$?
ok "SIGTERM: exit $rc (143), said in one line, the folder removed" -- sh -c "[ $rc -eq 143 ] &&
	grep -q '^zab: judge: stopped by signal 15' '$CZ_TMP/t.err' && ! ls -d '$CZ_TMP'/zab-judge.* 2>/dev/null"
done_testing
