#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# ksrc-prebuild.sh BUILDDIR [RUNNER...]: for tests/zab/ksrc.sh in a VM that
# has no assembler (the arm64 VM), build on this host what it will load:
# the newest kernel tree's arm64 memset.S and clear_user.S, base and with
# the test's .p2align 6 patch, assembled by the cross compiler through the
# build's zbench (RUNNER: how an arm64 program runs here, e.g.
# "qemu-aarch64 -L /usr/aarch64-linux-gnu"; none under binfmt_misc), into
# BUILDDIR/tests/zab/ksrc-prebuilt/: cache/ (the objects), align.patch,
# files (the kernel files, copied into the VM at the same paths) and root.
# The loader's cache key covers the file, the patch's changes and the
# compiler's name and version; cc-version holds that version line for the
# VM (CUSEZERO_KSRC_CC_VERSION), so it hits the cache and needs neither
# compiler nor GNU patch.  Status 0 and a
# line saying what was built, or 1 and why (the test then SKIPs in the VM).
bld=$1; shift
out=$bld/tests/zab/ksrc-prebuilt
roots=${CUSEZERO_KERNEL_SOURCES:-$(ls -d /var/cache/cusezero-ksrc/*/linux-source-* 2>/dev/null)}
root=
for r in $roots; do
	grep -q ARM64_HAS_MOPS "$r/arch/arm64/lib/memset.S" 2>/dev/null && root=$r
done
[ -n "$root" ] || { echo "ksrc-prebuild: no kernel tree with arm64 MOPS alternatives"; exit 1; }
rm -rf "$out"
mkdir -p "$out/cache" "$out/a/arch/arm64/lib" "$out/b/arch/arm64/lib" || exit 1
rel=arch/arm64/lib/clear_user.S
cp "$root/$rel" "$out/a/$rel"
# the same patch tests/zab/ksrc.sh writes on a host with a compiler
sed 's/^SYM_FUNC_START(__arch_clear_user)/\t.p2align 6\n&/' "$root/$rel" >"$out/b/$rel"
(cd "$out" && diff -u "a/$rel" "b/$rel") >"$out/align.patch"
rm -rf "$out/a" "$out/b"
CUSEZERO_KSRC_CACHE=$out/cache "$@" "$bld/zbench" memset -s 4KB -f c_store_loop --format simple \
	--source "$root/arch/arm64/lib/memset.S" --source "$root/$rel:__arch_clear_user" \
	--source "$root/$rel:__arch_clear_user" --patch "$out/align.patch" >"$out/zbench.out" 2>&1 ||
	{ echo "ksrc-prebuild: zbench failed: $(tail -n 1 "$out/zbench.out")"; exit 1; }
printf '%s\n' "$root/arch/arm64/lib/memset.S" "$root/$rel" >"$out/files"
"${CUSEZERO_KSRC_CC:-aarch64-linux-gnu-gcc}" --version | head -n 1 >"$out/cc-version"
echo "$root" >"$out/root"
echo "ksrc-prebuild: $(ls "$out/cache" | grep -c '\.ksrc$') objects from $root in $out/cache"
