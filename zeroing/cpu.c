/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * CPU feature detection for the registry's usable() predicates:
 * x86-64 CPUID (ERMS, FSRM, FSRS, AVX2, AVX-512F/BW, CLZERO);
 * arm64 HWCAP2_MOPS (bit 43 of AT_HWCAP2) and DCZID_EL0 (readable at EL0).
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>

#include "zeroing.h"

#if defined(__x86_64__)
#include <cpuid.h>

static bool os_saves_zmm(void)
{
	unsigned lo, hi;

	/* XCR0: bits 1,2 (SSE, AVX) and 5,6,7 (opmask, ZMM_Hi256, Hi16_ZMM). */
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return (lo & 0xe6) == 0xe6;
}

static bool os_saves_ymm(void)
{
	unsigned lo, hi;

	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return (lo & 0x6) == 0x6;
}

static void cpu_probe(struct zero_cpu *c)
{
	unsigned a, b, cx, d, max, i;
	bool osxsave;

	max = __get_cpuid_max(0, NULL);
	__cpuid(1, a, b, cx, d);
	osxsave = cx & (1u << 27);
	if (max >= 7) {
		__cpuid_count(7, 0, a, b, cx, d);
		c->erms = b & (1u << 9);
		c->fsrm = d & (1u << 4);
		c->avx2 = (b & (1u << 5)) && osxsave && os_saves_ymm();
		c->avx512f = (b & (1u << 16)) && osxsave && os_saves_zmm();
		c->avx512bw = c->avx512f && (b & (1u << 30));
		__cpuid_count(7, 1, a, b, cx, d);
		c->fsrs = a & (1u << 11);
	}
	if (__get_cpuid_max(0x80000000, NULL) >= 0x80000008) {
		__cpuid(0x80000008, a, b, cx, d);
		c->clzero = b & 1u;
	}
	if (__get_cpuid_max(0x80000000, NULL) >= 0x80000004) {
		unsigned *w = (unsigned *)c->model;

		for (i = 0; i < 3; i++)
			__cpuid(0x80000002 + i, w[4 * i], w[4 * i + 1], w[4 * i + 2], w[4 * i + 3]);
		c->model[48] = 0;
	}
}

#elif defined(__aarch64__)

#ifndef HWCAP2_MOPS
#define HWCAP2_MOPS (1UL << 43)
#endif

#ifndef HWCAP_CPUID
#define HWCAP_CPUID (1UL << 11)
#endif

static void cpu_probe(struct zero_cpu *c)
{
	unsigned long dczid, midr;

	c->mops = getauxval(AT_HWCAP2) & HWCAP2_MOPS;
	__asm__ volatile("mrs %0, dczid_el0" : "=r"(dczid));
	c->dczva = !(dczid & (1u << 4));
	c->dczva_block = c->dczva ? 4u << (dczid & 0xf) : 0;
	/*
	 * MIDR_EL1 rather than /proc/cpuinfo: under qemu-user the latter is the
	 * host's ("Intel Xeon").  EL0 reads trap and are emulated by the kernel
	 * (and by qemu-user) when HWCAP_CPUID is set.
	 */
	if (getauxval(AT_HWCAP) & HWCAP_CPUID) {
		__asm__ volatile("mrs %0, midr_el1" : "=r"(midr));
		snprintf(c->model, sizeof(c->model),
			 "arm64 MIDR_EL1 %#lx (implementer %#lx part %#lx r%lup%lu)", midr,
			 (midr >> 24) & 0xff, (midr >> 4) & 0xfff, (midr >> 20) & 0xf, midr & 0xf);
	}
}

#else

static void cpu_probe(struct zero_cpu *c)
{
	(void)c;
}

#endif

static struct zero_cpu cpu;
static pthread_once_t cpu_once = PTHREAD_ONCE_INIT;

static void cpu_init(void)
{
	char line[256];
	FILE *f;

	cpu_probe(&cpu);
	if (cpu.model[0])
		return;
	/* arm64 and others: the model comes from /proc/cpuinfo where present. */
	f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!colon || (strncmp(line, "model name", 10) && strncmp(line, "CPU part", 8)))
			continue;
		colon += 1 + (colon[1] == ' ');
		colon[strcspn(colon, "\n")] = 0;
		snprintf(cpu.model, sizeof(cpu.model), "%s", colon);
		break;
	}
	fclose(f);
}

const struct zero_cpu *zero_cpu(void)
{
	pthread_once(&cpu_once, cpu_init);
	return &cpu;
}
