#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: one zab fleet run over two microarchitectures: an x86-64 SUT
# (a real sshd on 127.0.0.6, this host) in group x86 and the project's
# arm64 VM (qemu-system-aarch64 TCG, Debian's arm64 kernel, a busybox
# initramfs with Debian's arm64 Dropbear sshd and python3.11, reached
# through QEMU user networking, hostfwd on 127.0.0.7 only) in group arm64.
# Each gets the make install of its own build as a prefix tarball; the
# store (SQLite) then holds both runs with their samples, the arm64 one
# recorded on an aarch64 machine, and the report by SUT class shows an x86
# column group and an arm64 one.
# Then a second zab fleet, on the arm64 VM alone, from shipped files:
# Debian's arm64 clear_user.S (6.12 when unpacked) as is and with a
# .p2align 6 patch, pread_z100k through the cusezero FUSE device in the VM,
# the objects built here (the VM has no compiler) and shipped with
# cz_ksrc_cache.  The store must hold both variants' samples under the
# arm64 class with the file's and the patch's SHA-256; no verdict is
# checked (TCG timings say nothing about arm64 hardware).
# Run by scripts/test-arm64.sh after the arm64 cross build (it needs both
# builds): top_builddir is build-arm64, CZ_FLEET_X86_BUILD the native build
# (default SRCDIR/build, as scripts/setup makes it).  Without a requirement:
# a visible SKIP, with CI=true a failure.
# Needs: root
# The vmlib.sh functions set globals (src, d, f, r ...): this script keeps clear of them.
set -u
. "$top_srcdir/tests/tap.sh"
need() {
	[ "${CI:-}" = true ] && { echo "Bail out! CI: $1"; exit 1; }
	skip_all "$1"
}
. "$top_srcdir/tests/vm/vmlib.sh"
vm_missing() { need "$*"; }
top=$(cd "$top_srcdir" && pwd)
armb=$(cd "$top_builddir" && pwd)
x86b=${CZ_FLEET_X86_BUILD:-$top/build}
[ -x "$x86b/zab" ] && [ -f "$x86b/Makefile" ] || need "no native build in $x86b (CZ_FLEET_X86_BUILD)"
[ -x "$armb/zab" ] && readelf -h "$armb/zab" 2>/dev/null | grep -q AArch64 ||
	need "$armb is not an arm64 build (scripts/test-arm64.sh runs this test)"
[ -x /usr/sbin/sshd ] || need "no sshd (Debian: openssh-server)"
command -v ansible-playbook >/dev/null || need "no ansible-playbook (Debian: ansible-core)"
command -v ssh-keygen >/dev/null || need "no ssh-keygen (Debian: openssh-client)"
vm_arch_setup aarch64
command -v "$qemu" >/dev/null 2>&1 || need "$qemu not found (Debian package $qemu_pkg)"
[ -x "$busybox" ] || need "no arm64 busybox ($busybox_hint)"
sut=$vm_cache/sut
[ -f "$sut/.complete" ] || need "no arm64 SUT files in $sut (scripts/setup deps: vm_arm64_sut_files)"
vm_find_kernel	# kernel, kver, moddir
ZAB=$x86b/zab
T=$(mktemp -d "${TMPDIR:-/tmp}/cz-fleet-arm64.XXXXXX") || { echo "Bail out! mktemp"; exit 1; }
qpid=
trap '[ -n "$qpid" ] && kill "$qpid" 2>/dev/null; pkill -f "$T/sut6/sshd_config" 2>/dev/null; rm -rf "$T"' EXIT
trap 'exit 130' INT TERM HUP
t0=$(date +%s)

# the installs: each build's make install, packed relative to its prefix
for b in x86:"$x86b" arm64:"$armb"; do
	a=${b%%:*} d=${b#*:}
	make -C "$d" install DESTDIR="$T/stage-$a" prefix=/cz >"$T/install-$a.log" 2>&1 ||
		{ echo "Bail out! make install ($a): $(tail -n 1 "$T/install-$a.log")"; exit 1; }
	tar -C "$T/stage-$a/cz" -czf "$T/cusezero-$a.tgz" . || exit 1
done

# the VM: kernel, virtio_net, busybox, the SUT files, the arm64 install's libraries
root=$T/root
mkdir -p "$root/bin" "$root/lib/modules" "$root/etc" "$root/root/.ssh" "$root/tmp"
(cd "$sut" && tar cf - --exclude=./.complete .) | (cd "$root" && tar xf -) || exit 1
cp "$busybox" "$root/bin/busybox" && cp "$top/tests/fleet/sutinit.sh" "$root/init" &&
	chmod 0755 "$root/init" || exit 1
# modchain NAME: NAME's module and its dependencies, leaves first (none: built in)
modchain() {
	awk -v want="$1" '
	{ name = $1; sub(/:$/, "", name); n = name; sub(/.*\//, "", n); sub(/\.ko.*$/, "", n)
	  if (n == want) { for (i = NF; i >= 2; i--) print $i; print name; exit } }' "$moddir/modules.dep"
}
mods=$(modchain virtio_net)
[ -n "$mods" ] || grep -q '/virtio_net\.ko' "$moddir/modules.builtin" || need "kernel $kver has no virtio_net"
# fuse for the second run's device variants (the cusezero daemon in the VM)
fmods=$(modchain fuse)
[ -n "$fmods" ] || grep -q '/fuse\.ko' "$moddir/modules.builtin" || need "kernel $kver has no fuse"
mods="$mods $fmods"
# shellcheck disable=SC2086 # a list of modules
vm_copy_modules "$moddir" "$root/lib/modules" $mods
elfs=
# shellcheck disable=SC2044 # make install's file names have no blanks
for f in $(find "$T/stage-arm64/cz" -type f -perm -u+x); do vm_is_elf "$f" && elfs="$elfs $f"; done
# shellcheck disable=SC2086 # a list of files
vm_copy_libs "$root" $elfs
printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n' >"$root/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' >"$root/etc/group"
ln -s /proc/self/mounts "$root/etc/mtab"
. "$top/tests/fleet/sshlib.sh"
ssh_keys || { echo "Bail out! ssh-keygen failed"; exit 1; }
cp "$T/authorized_keys" "$root/root/.ssh/authorized_keys"
chmod 700 "$root/root" "$root/root/.ssh" && chmod 600 "$root/root/.ssh/authorized_keys"
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) | gzip -1 >"$T/initrd.gz" ||
	{ echo "Bail out! building the initramfs failed"; exit 1; }
diag "initramfs $(du -k "$T/initrd.gz" | cut -f1) KiB, kernel $kver, modules: $(tr '\n' ' ' <"$root/lib/modules/order")"

# The second run: the question of a 2025 report about arm64's clear_user,
# "does a .p2align 6 before __arch_clear_user change its speed?", from
# shipped files.  The VM has no compiler: the objects are built here by the
# arm64 build's zbench (through qemu-aarch64) into a cache folder that the
# inventory names as cz_ksrc_cache; the role ships it beside the bundle and
# zab in the VM loads the shipped file and patch from it.
ksrc_prepare() {
	kroots=${CUSEZERO_KERNEL_SOURCES:-$(ls -d /var/cache/cusezero-ksrc/*/linux-source-* 2>/dev/null)}
	kroot=
	for r in $kroots; do	# Debian's 6.12 when there, else the newest tree
		[ -f "$r/arch/arm64/lib/clear_user.S" ] || continue
		case $kroot in */linux-source-6.12) ;; *) kroot=$r ;; esac
	done
	[ -n "$kroot" ] || { ksrc_why="no kernel tree with arch/arm64/lib/clear_user.S (scripts/kernel-sources.sh)"; return; }
	kfile=$kroot/arch/arm64/lib/clear_user.S
	rel=arch/arm64/lib/clear_user.S
	mkdir -p "$T/a/${rel%/*}" "$T/b/${rel%/*}" "$T/kcache"
	cp "$kfile" "$T/a/$rel"
	sed 's/^SYM_FUNC_START(__arch_clear_user)/\t.p2align 6\n&/' "$kfile" >"$T/b/$rel"
	(cd "$T" && diff -u "a/$rel" "b/$rel") >"$T/p2align6.patch"
	kcc=${CUSEZERO_KSRC_CC:-aarch64-linux-gnu-gcc}
	# the documented one-liner (man zab-fleet, cz_ksrc_cache); the loader's
	# headers are part of the key: the VM's install's, so the installed copy
	CUSEZERO_KSRC_CACHE=$T/kcache CUSEZERO_KCOMPAT=$T/stage-arm64/cz/share/cusezero/kcompat \
		"${ZBENCH:-$armb/zbench}" \
		memset -s 4KB -f c_store_loop --format simple --source "$kfile:__arch_clear_user" \
		--source "$kfile:__arch_clear_user" --patch "$T/p2align6.patch" >"$T/kbuild.out" 2>&1 ||
		{ ksrc_why="zbench could not build the objects: $(tail -n 1 "$T/kbuild.out")"; return; }
	echo "$kcc" >"$T/kcache/cc"
	"$kcc" --version | head -n 1 >"$T/kcache/cc-version"
	ksrc_why=
}
ksrc_why="not prepared"
vport=$((22000 + $$ % 5000 + 7))
log=$armb/tests/fleet/fleet-arm64.console
mkdir -p "$(dirname "$log")" && : >"$log"
# restrict=on: the guest reaches nothing; only the forward from 127.0.0.7 in.
tq=$(date +%s)
# shellcheck disable=SC2086 # $qemu_machine is a list of options
nice -n 10 "$qemu" -accel tcg $qemu_machine -m 1024 -smp 2 -display none -monitor none \
	-serial "file:$log" -no-reboot -kernel "$kernel" -initrd "$T/initrd.gz" \
	-netdev "user,id=n0,restrict=on,hostfwd=tcp:127.0.0.7:$vport-:22" -device virtio-net-pci,netdev=n0 \
	-append "console=$console panic=-1 quiet loglevel=3" </dev/null >"$T/qemu.out" 2>&1 &
qpid=$!

# meanwhile the x86 SUT, and the second run's objects (below)
ksrc_prepare
sshd_start 6 || { echo "Bail out! sshd 6: $(tail -n 1 "$T/sut6/sshd.log")"; exit 1; }
n=0
while ! grep -q '@@CZSUT@@ ready' "$log" && kill -0 "$qpid" 2>/dev/null && [ $n -lt 600 ]; do
	sleep 1; n=$((n + 1))
done
t_boot=$(($(date +%s) - tq))
if ! grep -q '@@CZSUT@@ ready' "$log"; then
	tr -d '\r' <"$log" | tail -n 20 | sed 's/^/# console: /'
	echo "Bail out! the arm64 VM did not come up in ${t_boot} s (console: $log)"
	exit 1
fi
pass "the arm64 VM is up, sshd listening (${t_boot} s after QEMU started)"
{
	echo "[x86]"; inventory_line 6
	echo; echo "[arm64]"
	echo "arm64-vm ansible_host=127.0.0.7 ansible_port=$vport cz_prefix=/opt/cz cz_workdir=/root/work" \
		"cz_package_sut=$T/cusezero-arm64.tgz ansible_ssh_transfer_method=piped"
	inventory_vars
} >"$T/inventory.ini"
ansible_env
unset CUSEZERO_STORE
vssh() { ssh -i "$T/id" -p "$vport" -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
	-o ConnectTimeout=20 -o BatchMode=yes -o LogLevel=ERROR root@127.0.0.7 "$@"; }
vssh 'python3 -c "import platform; print(platform.machine())"' >"$T/py.out" 2>"$T/ssh.err"
ok "ssh into the arm64 VM runs its python3: $(cat "$T/py.out")$(tail -n 1 "$T/ssh.err" | sed 's/^./, &/')" -- \
	[ "$(cat "$T/py.out")" = aarch64 ]

# the experiment: an alignment A/B, the same on both: the kernel's
# __arch_clear_user (arm64's own, x86-64's port of it) with its loop head at
# code offset 0 (in one cache line) and 56 (straddling two), zbench of each
# install, a few seconds of work per SUT on x86-64
cat >"$T/fleet.exp" <<EXP
[experiment]
name = fleet-arm64-test
sessions = 2
repeats = 3
warmups = 0
var.zbench = zbench
[benchmark clear_user 1MB]
cmd = {zbench} memset -s 1MB -f clear_user_arm64 --align {align} -l 4 --format simple
unit = bytes/sec
better = higher
[variant line-contained]
var.align = 0
[variant straddling]
var.align = 56
EXP
store=$T/store.db
t1=$(date +%s)
"$ZAB" fleet "$T/fleet.exp" -i "$T/inventory.ini" --store "$store" --install prefix \
	--package "$T/cusezero-x86.tgz" --results "$T/results" --campaign arm64 --timeout 900 >"$T/fleet.out" 2>&1
rc=$?
t_play=$(($(date +%s) - t1))
sed 's/^/# /' "$T/fleet.out"
ok "zab fleet over x86 and arm64: exit $rc (${t_play} s)" -- [ $rc -eq 0 ]
"$ZAB" store ls runs --store "$store" --campaign arm64 --format csv >"$T/runs.csv"
"$ZAB" store ls suts --store "$store" --campaign arm64 --format json >"$T/suts.json"
ok "the store holds one run per class, each with its samples" -- python3 -c "
import csv, sys
rows = list(csv.DictReader(open('$T/runs.csv')))
got = sorted((r['sut_class'], int(r['samples'])) for r in rows)
sys.exit(got != [('arm64', 12), ('x86', 12)])"
ok "the arm64 run's SUT machine is aarch64, the x86 one's x86_64" -- python3 -c "
import json, sys
suts = json.load(open('$T/suts.json'))
suts = suts['suts'] if isinstance(suts, dict) else suts
m = {s['sut_class']: s['machine'] for s in suts}
print('# suts:', m)
sys.exit(not (m.get('arm64') == 'aarch64' and m.get('x86') == 'x86_64'))"
"$ZAB" report --store "$store" --experiment fleet-arm64-test --campaign arm64 --by sut-class >"$T/report.out" 2>&1
sed 's/^/# /' "$T/report.out"
ok "the report by SUT class has an x86 and an arm64 column group" -- \
	sh -c "grep -Eq '[|] x86( |\$)' '$T/report.out' && grep -Eq '[|] arm64( |\$)' '$T/report.out'"
# e_machine (ELF offset 18, little-endian): 183 is EM_AARCH64 (elf.h)
vssh 'cat /opt/cz/bin/zab' 2>/dev/null | od -An -j18 -N2 -tu2 >"$T/em"
ok "the arm64 VM ran its own install (an aarch64 zab in /opt/cz: e_machine $(tr -d ' ' <"$T/em"))" -- \
	grep -qx ' *183' "$T/em"

if [ -n "$ksrc_why" ]; then
	[ "${CI:-}" = true ] && { echo "Bail out! CI: the .p2align 6 run: $ksrc_why"; exit 1; }
	skip "the .p2align 6 run: $ksrc_why"
	done_testing
	exit
fi
diag "kernel file $kfile, objects: $(ls "$T/kcache" | tr '\n' ' ')"
cat >"$T/p2align6.exp" <<EXP
[experiment]
name = arm64 clear_user p2align6
sessions = 1
repeats = 2
warmups = 0
kernel-ref = no
[benchmark pread_z100k]
cmd = pread_z100k -n 100 --format simple {dev}
[variant base]
source = $kfile:__arch_clear_user
[variant p2align6]
source = $kfile:__arch_clear_user
patch = $T/p2align6.patch
EXP
sed "s|^arm64-vm .*|& cz_zab=/opt/cz/bin/zab cz_ksrc_cache=$T/kcache|" "$T/inventory.ini" >"$T/inventory2.ini"
t2=$(date +%s)
"$ZAB" fleet "$T/p2align6.exp" -i "$T/inventory2.ini" --store "$store" --install none --limit arm64 \
	--results "$T/results2" --campaign p2align6 --timeout 900 >"$T/fleet2.out" 2>&1
rc=$?
t_play2=$(($(date +%s) - t2))
sed 's/^/# /' "$T/fleet2.out"
ok "zab fleet --limit arm64, the .p2align 6 A/B from shipped files: exit $rc (${t_play2} s)" -- \
	sh -c "[ $rc -eq 0 ] && grep -q '^  arm64-vm: ok' '$T/fleet2.out'"
"$ZAB" store ls suts --store "$store" --campaign p2align6 --format json >"$T/suts2.json"
"$ZAB" store export --store "$store" --campaign p2align6 -o "$T/doc2.json" 2>"$T/export2.err"
fsha=$(sha256sum <"$kfile" | cut -c1-64)
psha=$(sha256sum <"$T/p2align6.patch" | cut -c1-64)
# KCIDB's patchset hash: the SHA-256 of each patch's SHA-256 and a newline
pset=$(echo "$psha" | sha256sum | cut -c1-64)
ok "stored under class arm64 on an aarch64 SUT, nowhere else" -- python3 -c "
import json, sys
suts = json.load(open('$T/suts2.json'))
suts = suts['suts'] if isinstance(suts, dict) else suts
m = sorted((s['sut_class'], s['machine']) for s in suts)
print('# suts:', m)
sys.exit(m != [('arm64', 'aarch64')])"
python3 - "$T/doc2.json" "$fsha" "$psha" "$pset" >"$T/check2.out" 2>&1 <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
fsha, psha, pset = sys.argv[2:5]
docs = doc if isinstance(doc, list) else doc.get("runs", [doc])
bad = []
if len(docs) != 1:
    bad.append("%d runs stored, not 1" % len(docs))
d = docs[0]
print("sut:", d.get("sut"), "machine:", d.get("environment", {}).get("machine"))
v = {x["name"]: x for x in d.get("variants", [])}
if sorted(v) != ["base", "p2align6"]:
    bad.append("variants %s" % sorted(v))
def count(name):
    cells = [c for c in d.get("cells", []) if c.get("variant") == name]
    if not cells or any(c.get("failed") for c in cells):
        return 0
    return min(len(c.get("samples", [])) for c in cells)
for name in ("base", "p2align6"):
    n = count(name)
    rs = v.get(name, {}).get("routine_source", {})
    print(name, "samples:", n, "file_sha256:", rs.get("file_sha256"), "patchset_hash:",
          rs.get("patchset_hash"), "patch_sha256:", rs.get("patch_sha256"))
    if n < 2:
        bad.append("%s: %d samples" % (name, n))
    if rs.get("file_sha256") != fsha:
        bad.append("%s: file_sha256 %s" % (name, rs.get("file_sha256")))
rs = v.get("p2align6", {}).get("routine_source", {})
if rs.get("patchset_hash") != pset or rs.get("patch_sha256") not in (psha, pset):
    bad.append("p2align6: patchset_hash %s patch_sha256 %s" % (rs.get("patchset_hash"), rs.get("patch_sha256")))
if [f.get("sha256") for f in rs.get("patchset_files", [])] != [psha]:
    bad.append("p2align6: patchset_files %s" % rs.get("patchset_files"))
if v.get("base", {}).get("routine_source", {}).get("patchset_hash"):
    bad.append("base: a patchset_hash")
sh = [f.get("sha256") for f in d.get("shipped", {}).get("files", [])]
print("shipped:", sh)
if fsha not in sh or psha not in sh:
    bad.append("shipped: %s" % sh)
for b in bad:
    print("BAD:", b)
sys.exit(1 if bad else 0)
PY
rc=$?
sed 's/^/# /' "$T/check2.out"
ok "both variants measured, each with the file's SHA-256 ($fsha), the patched one with the patch's ($psha), all in shipped" -- \
	[ $rc -eq 0 ]
# The VM's file system is the initramfs this test made: it holds no host
# folder, so the kernel tree, the patch and the objects' folder cannot be
# seen there at the controller's paths.  ($T itself is there: Ansible's
# remote temporary folder, ANSIBLE_REMOTE_TEMP of sshlib.sh, is under it.)
vssh "for p in '$kroot' '$T/p2align6.patch' '$T/kcache'; do [ -e \"\$p\" ] && echo \"seen \$p\"; done; echo checked" \
	>"$T/seen2" 2>"$T/seen2.err"
ok "the VM never had the controller's paths ($kroot, the patch, the objects): $(tr '\n' ' ' <"$T/seen2")$(tail -n 1 "$T/seen2.err")" -- \
	sh -c "[ \"\$(cat '$T/seen2')\" = checked ]"
diag "times: boot ${t_boot} s, play ${t_play} s, p2align6 play ${t_play2} s, total $(($(date +%s) - t0)) s"
done_testing
