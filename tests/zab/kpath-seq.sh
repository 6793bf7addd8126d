#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: a kernel sequence over a path rather than a file
# (source = kpath:clear_user, kernel = 6.1 6.12 7.2; zeroing/kpath.h):
# zab expand gives each step the tree's path (source = kpath:TREE:PATH)
# and a label saying what that release runs and on which features, the
# variant's alt= assumed; a path name not known, a tarball (a path needs
# the whole tree) and a tree the resolver does not understand stop the
# expansion with one line naming it; then (root and FUSE) zab run measures
# every step through real daemons and its table says what each ran.
# Needs: root fuse
. "$top_srcdir/tests/tap.sh"

[ "$ZERO_ARCH" = x86_64 ] || skip_all "x86-64 kernel paths only (ZERO_ARCH=$ZERO_ARCH)"
ZAB=${ZAB:-$top_builddir/zab}
base=${CUSEZERO_KSRC_TREES:-/var/cache/cusezero-ksrc}
for v in 6.1 6.12 7.2; do
	[ -f "$base/$v/linux-source-$v/arch/x86/kernel/cpu/amd.c" ] ||
		skip_all "no $v tree with its vendor files in $base: scripts/kernel-sources.sh"
done
CZ_TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$CZ_TMP"' EXIT
CUSEZERO_KSRC_CACHE=$CZ_TMP/ksrc XDG_CACHE_HOME=$CZ_TMP/cache XDG_DATA_HOME=$CZ_TMP/data
CUSEZERO_KERNEL_SOURCES="$base/6.1/linux-source-6.1 $base/6.12/linux-source-6.12 $base/7.2/linux-source-7.2"
export CUSEZERO_KSRC_CACHE XDG_CACHE_HOME XDG_DATA_HOME CUSEZERO_KERNEL_SOURCES
cmd=${PREAD_Z100K:-$top_builddir/pread_z100k/pread_z100k}
exp() {	# exp NAME VARIANT-LINES...: zab expand of one variant into NAME.x
	n=$1; shift
	{ printf '[experiment]\nname = kpath\n[benchmark pread]\ncmd = %s -n 200 --format simple {dev}\n[variant %s]\n' "$cmd" "$n"
	  for l in "$@"; do printf '%s\n' "$l"; done; } >"$CZ_TMP/$n.exp"
	"$ZAB" expand "$CZ_TMP/$n.exp" -o "$CZ_TMP/$n.x" 2>"$CZ_TMP/$n.err"
}
labels() { sed -n 's/^label = //p' "$1" | tr '\n' '|' | sed 's/|$//'; }

exp cu "source = kpath:clear_user" "kernel = 7.2 6.1 6.12"
rc=$?
ok "expand: exit $rc, steps in version order, each the tree's path" -- sh -c "[ $rc -eq 0 ] &&
	[ \$(grep -c '^source = kpath:$base/[0-9.]*/linux-source-[0-9.]*:clear_user\$' '$CZ_TMP/cu.x') -eq 3 ] &&
	sed -n 's/^kernel-version = //p' '$CZ_TMP/cu.x' | tr '\n' ' ' | grep -q '^6\.1\.[0-9]* 6\.12\.[0-9]* 7\.2\.[0-9]* \$'"
ok "expand: each label says what ran and on what: $(labels "$CZ_TMP/cu.x")" -- \
	sh -c "[ \$(grep -c '^label = [0-9.]* \(call [a-z_]*\|inline [a-z \$%,;0-9]*\) ([A-Z_]* o[nf]*\(, [A-Z_]* o[nf]*\)*)\$' '$CZ_TMP/cu.x') -eq 3 ]"
exp what "source = kpath:clear_user" "alt = FSRS=on" "kernel = 6.12 7.2"
ok "expand: alt= is assumed: $(labels "$CZ_TMP/what.x")" -- sh -c "[ '$(labels "$CZ_TMP/what.x" |
	sed 's/[0-9]*\.[0-9]*\.[0-9]* //g')' = 'inline rep stosb (FSRS on)|inline rep stosb (FSRS on)' ]"
exp page "source = kpath:clear_page" "alt = ERMS=on" "kernel = 6.12 7.2"
ok "expand: clear_page with ERMS: $(labels "$CZ_TMP/page.x")" -- sh -c \
	"labels() { sed -n 's/^label = //p' \"\$1\" | tr '\n' '|' | sed 's/|\$//'; }
	 labels '$CZ_TMP/page.x' | grep -q '^6\.12\.[0-9]* call clear_page_erms (REP_GOOD o[nf]*, ERMS on)|7\.2\.[0-9]* inline rep stosb (REP_GOOD o[nf]*, ERMS on)\$'"

err() {	# err NAME WANT VARIANT-LINES...: expand fails, one line
	n=$1 w=$2; shift 2
	exp "$n" "$@"
	rc=$?
	ok "error $n: exit $rc, one line: $(head -n 1 "$CZ_TMP/$n.err")" -- \
		sh -c "[ $rc -ne 0 ] && [ \$(wc -l <'$CZ_TMP/$n.err') -eq 1 ] && grep -q -- '$w' '$CZ_TMP/$n.err'"
}
err name "source kpath:memset: expected kpath:clear_user or kpath:clear_page" \
	"source = kpath:memset" "kernel = 6.1 6.12"
mkdir -p "$CZ_TMP/tb/linux-7.9"
cp "$base/7.2/linux-source-7.2/Makefile" "$CZ_TMP/tb/linux-7.9/"
tar -czf "$CZ_TMP/linux-7.9.tar.gz" -C "$CZ_TMP/tb" linux-7.9
err tarball "kpath:clear_user reads a tree, not a tarball" \
	"source = kpath:clear_user" "kernel = 6.1 $CZ_TMP/linux-7.9.tar.gz"
t=$CZ_TMP/odd/linux-source-6.12
mkdir -p "$t/arch/x86/include/asm" "$t/arch/x86/kernel/cpu"
cp "$base/6.12/linux-source-6.12/Makefile" "$t/"
cp "$base/6.12/linux-source-6.12/arch/x86/kernel/cpu/amd.c" "$t/arch/x86/kernel/cpu/"
sed 's/ALTERNATIVE("rep stosb",/ALTERNATIVE_4("rep stosb",/' \
	"$base/6.12/linux-source-6.12/arch/x86/include/asm/uaccess_64.h" >"$t/arch/x86/include/asm/uaccess_64.h"
err odd "6\\.12\\.[0-9]*: arch/x86/include/asm/uaccess_64.h:[0-9]*: __clear_user() construct not understood: ALTERNATIVE_4" \
	"source = kpath:clear_user" "kernel = 6.1 $t"

# the run: every step measured, the table says what each ran
[ -x "$cmd" ] && [ -x "$CUSEZERO" ] || { skip "run: cusezero or pread_z100k not built"; done_testing; }
"$ZAB" run "$CZ_TMP/cu.x" --store "sqlite:$CZ_TMP/r.db" -S 1 -W 0 -R 2 --seed 1 --cusezero "$CUSEZERO" \
	--no-progress --json "$CZ_TMP/r.json" >"$CZ_TMP/r.out" 2>"$CZ_TMP/r.err"
rc=$?
ok "run: exit $rc, no FAILED cell$(grep -m 1 FAILED "$CZ_TMP/r.out" | sed 's/^/: /')" -- \
	sh -c "[ $rc -eq 0 ] && ! grep -q FAILED '$CZ_TMP/r.out' && grep -q 'in-device' '$CZ_TMP/r.out'"
ran=$(grep '^Ran: ' "$CZ_TMP/r.out")
ok "run: the table says what each step ran: $ran" -- sh -c "[ -n '$ran' ] &&
	for k in 0 1 2; do echo '$ran' | grep -q \"cu@\$k: [0-9.]* \(call\|inline\) \" || exit 1; done"
ok "run: each step's routine_source is the kernel path with its resolution" -- sh -c \
	"[ \$(grep -c '\"kind\": \"kernel path\"' '$CZ_TMP/r.json') -eq 3 ] &&
	 [ \$(grep -c '\"resolved\": \"[0-9.]* \(call\|inline\) ' '$CZ_TMP/r.json') -eq 3 ]"
done_testing
