#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: lib/emul.h tells emulated hardware from real: the probe says
# "native" when its ELF machine is the host's (unless QEMU's TCG is named),
# "emulated" when it is another's (the arm64 suite under qemu-user); built
# for arm64 and run by qemu-aarch64 -L SYSROOT it says emulated, with the
# default CPU (MIDR implementer 0) and a named one (cortex-a72, whose MIDR
# is Arm's: the host's /proc/cpuinfo gives it away).  Forced emulated
# (CUSEZERO_EMULATED), every zbench output says so: a first "# emulated:"
# line, "emulated": true and its reason in JSON, the line on stderr beside
# --format simple and --csv; nothing of it when not emulated.
# Needs: none
. "$top_srcdir/tests/zbench/lib.sh"

PROBE=$top_builddir/tests/zbench/emul-probe
[ -x "$PROBE" ] || skip_all "emul-probe not built: $PROBE"

# e_machine (ELF header offset 18, little-endian) against the shell's own machine
machine_of() { od -An -tu2 -j18 -N2 "$1" | tr -d ' '; }
case $(uname -m) in
x86_64) host_em=62 ;; aarch64) host_em=183 ;; *) host_em=unknown ;;
esac
probe_em=$(machine_of "$PROBE")
# has TEXT ERE: TEXT holds a line matching ERE
has() { printf '%s\n' "$1" | grep -Eq "$2"; }

out=$(CUSEZERO_EMULATED= "$PROBE")
if [ "$host_em" = unknown ]; then
	skip "probe natively: no ELF machine known for $(uname -m) ($out)"
elif [ "$probe_em" = "$host_em" ]; then
	ok "probe on this machine's architecture: native, or QEMU's TCG named ($out)" -- \
		has "$out" '^(native|emulated: CPUID 0x40000000 says TCGTCGTCGTCG: .*)$'
else
	ok "probe of ELF machine $probe_em on a $(uname -m) host: emulated ($out)" -- \
		has "$out" '^emulated: .*user-mode emulation$'
fi
out=$(CUSEZERO_EMULATED=0 "$PROBE")
ok "CUSEZERO_EMULATED=0: native ($out)" -- test "$out" = native
out=$(CUSEZERO_EMULATED='a test' "$PROBE")
ok "CUSEZERO_EMULATED='a test': emulated, the reason its value ($out)" -- \
	test "$out" = "emulated: a test (CUSEZERO_EMULATED)"

# ---- built for arm64, run by qemu-aarch64 ---------------------------------------
sysroot=/usr/aarch64-linux-gnu
if [ "$(uname -m)" = aarch64 ]; then
	skip "arm64 probe under qemu-aarch64: this host is arm64"
elif ! command -v aarch64-linux-gnu-gcc >/dev/null || ! command -v qemu-aarch64 >/dev/null ||
     [ ! -e "$sysroot/lib/ld-linux-aarch64.so.1" ]; then
	skip "arm64 probe under qemu-aarch64: needs gcc-aarch64-linux-gnu, libc6-dev-arm64-cross, qemu-user"
elif ! aarch64-linux-gnu-gcc -O2 -Wall -Werror -I"$top_srcdir/lib" -o "$CZ_TMP/probe-arm64" \
	"$top_srcdir/tests/zbench/emul-probe.c" "$top_srcdir/lib/emul.c" 2>"$CZ_TMP/cc"; then
	fail "arm64 probe: cross build failed: $(head -n 3 "$CZ_TMP/cc" | tr '\n' ' ')"
else
	for cpu in max cortex-a72; do
		out=$(CUSEZERO_EMULATED= qemu-aarch64 -cpu $cpu -L "$sysroot" "$CZ_TMP/probe-arm64" 2>&1)
		ok "arm64 probe under qemu-aarch64 -cpu $cpu: emulated ($out)" -- \
			has "$out" '^emulated: an arm64 program on an x86 host .*user-mode emulation$'
	done
fi

# ---- zbench's outputs, forced emulated ---------------------------------------------
EM='^# emulated: a test \(CUSEZERO_EMULATED\); the figures time the emulator, not this machine.s hardware$'
export CUSEZERO_EMULATED='a test'
"$ZBENCH" mem memset -s 64KB -l 2 -f rep_stosb >"$CZ_TMP/m" 2>"$CZ_TMP/me" ||
	"$ZBENCH" mem memset -s 64KB -l 2 -f default >"$CZ_TMP/m" 2>"$CZ_TMP/me"
ok "memset: the first line says emulated, then perf's block ($(head -n 2 "$CZ_TMP/m" | tr '\n' '|'))" -- \
	sh -c "head -n 1 '$CZ_TMP/m' | grep -Eq \"\$1\" && sed -n 2p '$CZ_TMP/m' | grep -Eq \"\$2\"" \
	sh "$EM" "$RE_RUNNING_MEMSET"
"$ZBENCH" --format simple mem memset -s 64KB -l 2 -f default >"$CZ_TMP/s" 2>"$CZ_TMP/se"
ok "memset --format simple: its number on stdout, the note on stderr" -- sh -c "
	grep -Eq '$RE_SIMPLE' '$CZ_TMP/s' && ! grep -q emulated '$CZ_TMP/s' &&
	grep -q '^zbench: emulated: a test' '$CZ_TMP/se'"
"$ZBENCH" --format json mem memset -s 64KB -l 2 -f default >"$CZ_TMP/j" 2>&1
ok "memset JSON: \"emulated\": true and its reason" -- sh -c "
	grep -q '\"emulated\": true' '$CZ_TMP/j' &&
	grep -q '\"emulated_why\": \"a test (CUSEZERO_EMULATED)\"' '$CZ_TMP/j'"
"$ZBENCH" kernel -r 3 --no-thp -f default >"$CZ_TMP/k" 2>&1
ok "kernel: the first line says emulated" -- sh -c "head -n 1 '$CZ_TMP/k' | grep -Eq \"\$1\"" sh "$EM"
"$ZBENCH" kernel -r 3 --no-thp -f default --json >"$CZ_TMP/kj" 2>&1
ok "kernel JSON: \"emulated\": true" -- grep -q '"emulated": true' "$CZ_TMP/kj"
ar=$("$ZBENCH" align -f help 2>&1 | sed -n 's/^	\([a-z0-9_]*\) \.\.\. .*/\1/p' | head -n 1)
"$ZBENCH" align -f "$ar" -s 64KB --offsets 0,64 -r 2 >"$CZ_TMP/a" 2>&1
ok "align: the first line says emulated ($(head -n 1 "$CZ_TMP/a"))" -- \
	sh -c "head -n 1 '$CZ_TMP/a' | grep -Eq \"\$1\"" sh "$EM"

export CUSEZERO_EMULATED=0
"$ZBENCH" mem memset -s 64KB -l 2 -f default >"$CZ_TMP/m" 2>&1
"$ZBENCH" kernel -r 3 --no-thp -f default --json >"$CZ_TMP/kj" 2>&1
ok "not emulated: no note, no JSON field" -- sh -c "
	! grep -q emulated '$CZ_TMP/m' && ! grep -q emulated '$CZ_TMP/kj'"
done_testing
