#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zab fleet ships what an experiment names.  The SUT's sshd
# runs in its own mount namespace with a tmpfs over the folder that holds
# the experiment, its kernel source file and its patch, so the SUT cannot
# see them at the controller's paths: both variants (the kernel's file as
# is, and with a .p2align 6 patch) must still run there from the shipped
# copies, checked by SHA-256, and be stored with the hash of every file.
# A file the experiment names that does not exist: one line naming it.
# Loopback sshd on 127.0.0.32 only.
# Needs: root fuse
. "$top_srcdir/tests/zab/lib.sh"
need() {
	[ "${CI:-}" = true ] && { echo "Bail out! CI: $1"; exit 1; }
	skip_all "$1"
}
[ "$(id -u)" = 0 ] || skip_all "needs root (sshd, mount namespaces)"
[ -x /usr/sbin/sshd ] || need "no sshd (Debian: openssh-server)"
command -v ansible-playbook >/dev/null || need "no ansible-playbook (Debian: ansible-core)"
command -v unshare >/dev/null || need "no unshare (Debian: util-linux)"
command -v jq >/dev/null || need "no jq"
[ -x "$CUSEZERO" ] && [ -x "$PREAD_Z100K" ] || skip_all "cusezero or pread_z100k not built"
[ -c /dev/fuse ] || skip_all "no /dev/fuse"
roots=${CUSEZERO_KERNEL_SOURCES:-$(ls -d /var/cache/cusezero-ksrc/*/linux-source-* 2>/dev/null)}
[ -n "$roots" ] || skip_all "no kernel sources (scripts/kernel-sources.sh)"
case $ZERO_ARCH in
x86_64) rel=arch/x86/lib/clear_page_64.S sym=rep_stos_alternative ;;
*) rel=arch/arm64/lib/clear_user.S sym=__arch_clear_user ;;
esac
command -v gcc >/dev/null || skip_all "no assembler (gcc)"
command -v patch >/dev/null || skip_all "no GNU patch"
root=$(echo "$roots" | tr ' ' '\n' | tail -n 1)
T=$CZ_TMP
trap 'pkill -f "$T/sut32/sshd_config" 2>/dev/null; rm -rf "$T"' EXIT
CUSEZERO_KSRC_CACHE=$T/cache; export CUSEZERO_KSRC_CACHE

# the experiment, the kernel's file (in a tree's layout) and a patch, all in $T/src
mkdir -p "$T/src/linux/${rel%/*}" "$T/a/${rel%/*}" "$T/b/${rel%/*}"
cp "$root/$rel" "$T/src/linux/$rel"
cp "$root/$rel" "$T/a/$rel"
sed "s/^SYM_FUNC_START($sym)/\t.p2align 6\n&/" "$root/$rel" >"$T/b/$rel"
(cd "$T" && diff -u "a/$rel" "b/$rel") >"$T/src/align.patch"
cat >"$T/src/ship.exp" <<EXP
[experiment]
name = shipped kernel file
sessions = 1
repeats = 2
warmups = 0
[benchmark pread]
cmd = $PREAD_Z100K -n 300 --format simple {dev}
[variant base]
source = linux/$rel:$sym
[variant patched]
source = linux/$rel:$sym
patch = align.patch
EXP

# the SUT: an sshd whose mount namespace hides $T/src under an empty tmpfs
. "$top_srcdir/tests/fleet/sshlib.sh"
ssh_keys || { echo "Bail out! ssh-keygen failed"; exit 1; }
sshd() { unshare -m --propagation private sh -c "mount -t tmpfs tmpfs '$T/src' && exec /usr/sbin/sshd \"\$@\"" sshd "$@"; }
SSHD=sshd
sshd_start 32 || { echo "Bail out! sshd 32: $(tail -n 1 "$T/sut32/sshd.log")"; exit 1; }
{ echo "[lab]"; echo "$(inventory_line 32) cz_zab=$ZAB"; inventory_vars; } >"$T/inventory.ini"
ansible_env
unset CUSEZERO_STORE
ssh -i "$T/id" -o UserKnownHostsFile=/dev/null -o StrictHostKeyChecking=no -p "$(cat "$T/sut32/port")" \
	root@127.0.0.32 "ls -A '$T/src'" >"$T/seen" 2>/dev/null
ok "the SUT does not see the controller's source folder (it sees: '$(cat "$T/seen")')" -- \
	sh -c "[ -z \"\$(cat '$T/seen')\" ] && [ -s '$T/src/align.patch' ]"

"$ZAB" fleet "$T/src/ship.exp" -i "$T/inventory.ini" --store "sqlite:$T/s.db" --campaign ship \
	--results "$T/results" --timeout 300 -- --cusezero "$CUSEZERO" >"$T/out" 2>&1
rc=$?
grep -E '^  ' "$T/out" | sed 's/^/# /'
ok "zab fleet over the SUT that cannot see the files: exit $rc" -- sh -c "[ $rc -eq 0 ] && grep -q '^  sut32: ok' '$T/out'"
"$ZAB" store export --store "sqlite:$T/s.db" --campaign ship -o "$T/doc.json"
src=$(sha256sum <"$T/src/linux/$rel" | cut -c1-64)
pat=$(sha256sum <"$T/src/align.patch" | cut -c1-64)
ok "the stored run holds both variants, measured" -- \
	sh -c "jq -e '[.variants[].name] | sort == [\"base\", \"patched\"]' '$T/doc.json' >/dev/null && ! grep -q FAILED '$T/out'"
ok "it names the SHA-256 of the kernel file ($src) and of the patch" -- \
	sh -c "jq -e '[.shipped.files[].sha256] | index(\"$src\") != null and index(\"$pat\") != null' '$T/doc.json' >/dev/null"
ok "the patched variant's daemon got the shipped patch, by its hash" -- grep -q -- "--patch=files/$pat" "$T/doc.json"

sed "s/align.patch/missing.patch/" "$T/src/ship.exp" >"$T/src/missing.exp"
"$ZAB" fleet "$T/src/missing.exp" -i "$T/inventory.ini" --store "sqlite:$T/s.db" --campaign miss \
	--results "$T/r2" >/dev/null 2>"$T/e"
rc=$?
ok "a missing file: exit $rc, one line naming it: $(cat "$T/e")" -- \
	sh -c "[ $rc -eq 1 ] && [ \$(wc -l <'$T/e') -eq 1 ] && grep -q 'missing.patch' '$T/e'"
done_testing
