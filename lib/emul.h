/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Is this program running on emulated hardware?  Timings taken under an
 * instruction-set emulator (qemu-user, QEMU's TCG system emulation) measure
 * the emulator, not the routine: they swing by several times between runs
 * and say nothing about a kernel's choice.  Every figure a tool prints says
 * so, and no kernel reference is taken there.
 *
 * The signals, each named in the reason:
 * - the real /proc/cpuinfo of another architecture: qemu-user (QEMU 10,
 *   linux-user/syscall.c) answers open("/proc/cpuinfo") with a file of its
 *   own, but not openat() of "cpuinfo" relative to an open /proc, which is
 *   the host's: an aarch64 program reading "vendor_id" there runs on an
 *   x86 host (and an x86-64 one reading "CPU implementer", on an arm64 one);
 * - arm64: MIDR_EL1's implementer 0, which no silicon vendor has (the Arm
 *   ARM, "MIDR_EL1, Main ID Register": implementer codes are assigned by
 *   Arm) and QEMU's "max" CPU reports (target/arm/cpu64.c
 *   aarch64_max_initfn); read from sysfs
 *   (/sys/devices/system/cpu/cpu0/regs/identification/midr_el1) or, with
 *   HWCAP_CPUID, by the mrs the kernel emulates
 *   (Documentation/arch/arm64/cpu-feature-registers.rst);
 * - x86-64: the CPUID hypervisor leaf 0x40000000 signature "TCGTCGTCGTCG"
 *   of QEMU's TCG (target/i386/cpu.c); "KVMKVMKVM" and the like are
 *   hardware virtualisation, not emulation.
 *
 * CUSEZERO_EMULATED set and not "0" in the environment forces the answer
 * "emulated" with its value as the reason ("0": not emulated), so the
 * tools' wording can be tested on real hardware.
 */
#ifndef LIB_EMUL_H
#define LIB_EMUL_H

#include <stdbool.h>
#include <stddef.h>

#define CZ_EMUL_ENV "CUSEZERO_EMULATED"

/* Detect now: true and one line in why when emulated, else false and why "". */
bool cz_emul_detect(char *why, size_t len);
/* The same, detected once per process; *why (if non-NULL) the reason or "". */
bool cz_emulated(const char **why);

#endif
