#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zab pack (and so zab fleet) ships kernel paths: each
# source = kpath:TREE:PATH (a kernel = ... sequence's steps, and a variant
# naming its tree) becomes kpath:files/kpath-SHA256:PATH, a folder holding
# the files of TREE the resolver reads in the tree's layout, listed in
# SHA256SUMS; a tree shipped twice is one folder.  A shipped tree resolves
# as its original does for every CPU described (so a SUT resolves on its
# own CPU), loads on this one, and zab run in a copy of the bundle
# resolves and checks its kpath variants from the shipped trees alone.
# Needs: none
. "$top_srcdir/tests/zab/lib.sh"
[ "$ZERO_ARCH" = x86_64 ] || skip_all "x86-64 kernel paths only (ZERO_ARCH=$ZERO_ARCH)"
command -v python3 >/dev/null || skip_all "no python3 (JSON checks)"
command -v sha256sum >/dev/null || skip_all "no sha256sum"
ZBENCH=${ZBENCH:-$top_builddir/zbench}
[ -x "$ZBENCH" ] || skip_all "zbench not built ($ZBENCH)"
base=${CUSEZERO_KSRC_TREES:-/var/cache/cusezero-ksrc}
for v in 6.1 6.12 7.2; do
	[ -f "$base/$v/linux-source-$v/arch/x86/kernel/cpu/amd.c" ] ||
		skip_all "no $v tree with its vendor files in $base: scripts/kernel-sources.sh"
done
unset CUSEZERO_STORE
CUSEZERO_KERNEL_SOURCES="$base/6.1/linux-source-6.1 $base/6.12/linux-source-6.12 $base/7.2/linux-source-7.2"
XDG_CACHE_HOME=$CZ_TMP/cache XDG_DATA_HOME=$CZ_TMP/data CUSEZERO_KSRC_CACHE=$CZ_TMP/ksrc TMPDIR=$CZ_TMP
export CUSEZERO_KERNEL_SOURCES XDG_CACHE_HOME XDG_DATA_HOME CUSEZERO_KSRC_CACHE TMPDIR
t612=$base/6.12/linux-source-6.12
mkdir "$CZ_TMP/src"
cat >"$CZ_TMP/src/k.exp" <<EOF
[experiment]
name = kpack
repeats = 2
[benchmark x]
cmd = $FAKE --mean 10
[variant cu]
source = kpath:clear_user
kernel = 6.1 6.12 7.2
[variant off]
source = kpath:$t612:clear_user
alt = FSRS=off
EOF
"$ZAB" pack "$CZ_TMP/src/k.exp" "$CZ_TMP/b" >"$CZ_TMP/pack.out" 2>"$CZ_TMP/pack.err"
rc=$?
B=$CZ_TMP/b
ok "zab pack: exit $rc (0) $(head -c 300 "$CZ_TMP/pack.err")" -- [ $rc -eq 0 ]
ok "each kpath source names a shipped tree folder, the path and alt = kept; 3 trees, 'off' sharing 6.12's" -- sh -c "
	[ \$(grep -c '^source = kpath:files/kpath-[0-9a-f]\{64\}:clear_user\$' '$B/experiment') -eq 4 ] &&
	! grep -q '^source = kpath:/' '$B/experiment' && grep -q '^alt = FSRS=off\$' '$B/experiment' &&
	[ \$(sed -n 's/^source = kpath:\(.*\):clear_user\$/\1/p' '$B/experiment' | sort -u | wc -l) -eq 3 ] &&
	[ \$(ls '$B/files' | wc -l) -eq 3 ]"
ok "SHA256SUMS lists every file of the bundle, and they check" -- sh -c "
	cd '$B' && sha256sum -c --quiet SHA256SUMS &&
	[ \$(find . -type f ! -name SHA256SUMS | wc -l) -eq \$(wc -l <SHA256SUMS) ]"
ok "a shipped tree holds the resolver's files: Makefile, both headers, vendor rules, lib .S" -- sh -c "
	for d in '$B'/files/kpath-*; do
		for f in Makefile arch/x86/include/asm/uaccess_64.h arch/x86/include/asm/page_64.h \
			arch/x86/kernel/cpu/amd.c arch/x86/kernel/cpu/intel.c arch/x86/lib/clear_page_64.S; do
			[ -f \"\$d/\$f\" ] || exit 1
		done
	done"
# the bundle elsewhere, as a SUT gets it: resolves as the originals do
cp -r "$B" "$CZ_TMP/sut"
for d in "$CZ_TMP"/sut/files/kpath-*; do
	rel=$(sed -n 's/^VERSION = //p;s/^PATCHLEVEL = //p' "$d/Makefile" | paste -sd.)
	orig=$base/$rel/linux-source-$rel
	same=yes
	for cpu in amd:0x19:erms,fsrm amd:0x17:erms intel:6/0x8f:erms,fsrm intel:6/0x3f:erms hygon:0x18:erms; do
		"$ZBENCH" kpath --tree "$orig" --cpu "$cpu" -v 2>&1 | sed "s|$orig|TREE|g" >"$CZ_TMP/o.txt"
		"$ZBENCH" kpath --tree "$d" --cpu "$cpu" -v 2>&1 | sed "s|$d|TREE|g" >"$CZ_TMP/s.txt"
		cmp -s "$CZ_TMP/o.txt" "$CZ_TMP/s.txt" || { same=no; diag "$rel $cpu: $(diff "$CZ_TMP/o.txt" "$CZ_TMP/s.txt" | head -n 4)"; }
	done
	ok "shipped $rel resolves both paths as its tree does, for 5 CPUs described" -- [ $same = yes ]
	"$ZBENCH" kpath --tree "$d" --load >"$CZ_TMP/l.txt" 2>&1
	lrc=$?
	ok "shipped $rel: what it runs on this CPU assembles, checks and loads (exit $lrc)" -- [ $lrc -eq 0 ]
done

(cd "$CZ_TMP/sut" && "$ZAB" run -e experiment --no-store --no-progress --json "$CZ_TMP/r.json") \
	>/dev/null 2>"$CZ_TMP/r.err"
rc=$?
ok "zab run in the bundle: exit $rc (0); each variant's tree is a shipped one" -- python3 -c "
import json, sys
d = json.load(open('$CZ_TMP/r.json'))
trees = [v['routine_source']['tree'] for v in d['variants']]
sys.exit(not ($rc == 0 and len(trees) == 4 and all(t.startswith('files/kpath-') for t in trees)))"
ok "... and its kernel reference checks the variants of the running kernel's path from them" -- python3 -c "
import json, sys
k = json.load(open('$CZ_TMP/r.json'))['environment']['kernel_ref']
if 'error' in k:
    sys.exit(0)                           # not measured here (emulated): said, not checked
names = sorted([c['variant'] for c in k.get('checks', [])] + [c['variant'] for c in k.get('not_checked', [])])
sys.exit(not (names == ['cu@0', 'cu@1', 'cu@2', 'off'] and
              not any('no such' in c['why'] for c in k.get('not_checked', []))))"

# a tree that is not one: one line naming it
sed "s|^source = kpath:$t612:|source = kpath:$CZ_TMP/src:|" "$CZ_TMP/src/k.exp" >"$CZ_TMP/src/bad.exp"
"$ZAB" pack "$CZ_TMP/src/bad.exp" "$CZ_TMP/b2" >/dev/null 2>"$CZ_TMP/e"
rc=$?
ok "a kpath folder without a Makefile: exit $rc (1), one line naming it: $(cat "$CZ_TMP/e")" -- sh -c "
	[ $rc -ne 0 ] && [ \$(wc -l <'$CZ_TMP/e') -eq 1 ] && grep -q '$CZ_TMP/src' '$CZ_TMP/e' && [ ! -e '$CZ_TMP/b2' ]"
done_testing
