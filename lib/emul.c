/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Emulated hardware or not (emul.h): the signals, in order, the first that answers. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__aarch64__)
#include <sys/auxv.h>
#endif
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "emul.h"

/*
 * The host's /proc/cpuinfo, past qemu-user's own: openat() of "cpuinfo" in
 * an open /proc.  True when its first 64 KiB hold a line starting with key.
 */
static bool host_cpuinfo_has(const char *key)
{
	static char buf[65536];
	int dir = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC), fd;
	size_t n = 0, klen = strlen(key);
	ssize_t got;
	char *p;

	if (dir < 0)
		return false;
	fd = openat(dir, "cpuinfo", O_RDONLY | O_CLOEXEC);
	close(dir);
	if (fd < 0)
		return false;
	while (n < sizeof(buf) - 1 && (got = read(fd, buf + n, sizeof(buf) - 1 - n)) > 0)
		n += (size_t)got;
	close(fd);
	buf[n] = '\0';
	for (p = buf; p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, key, klen))
			return true;
	return false;
}

#if defined(__aarch64__)
#ifndef HWCAP_CPUID
#define HWCAP_CPUID (1UL << 11)
#endif
/* MIDR_EL1 from sysfs, else by mrs when the kernel emulates it; false when neither. */
static bool midr(uint64_t *v, const char **how)
{
	FILE *f = fopen("/sys/devices/system/cpu/cpu0/regs/identification/midr_el1", "re");
	unsigned long long x;
	bool ok = false;

	if (f) {
		ok = fscanf(f, "%llx", &x) == 1;
		fclose(f);
		if (ok) {
			*v = x;
			*how = "sysfs midr_el1";
			return true;
		}
	}
	if (getauxval(AT_HWCAP) & HWCAP_CPUID) {
		__asm__ volatile("mrs %0, midr_el1" : "=r"(*v));
		*how = "mrs MIDR_EL1";
		return true;
	}
	return false;
}
#endif

static bool arch_signal(char *why, size_t len)
{
#if defined(__aarch64__)
	const char *how;
	uint64_t v;

	if (host_cpuinfo_has("vendor_id")) {
		snprintf(why, len, "an arm64 program on an x86 host (/proc/cpuinfo behind qemu-user's "
			 "has vendor_id): user-mode emulation");
		return true;
	}
	if (midr(&v, &how) && !((v >> 24) & 0xff)) {
		snprintf(why, len, "MIDR_EL1 %#llx (%s) has implementer 0: QEMU's emulated CPU",
			 (unsigned long long)v, how);
		return true;
	}
#elif defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d;
	char sig[13];

	if (host_cpuinfo_has("CPU implementer")) {
		snprintf(why, len, "an x86 program on an arm64 host (/proc/cpuinfo has CPU implementer): "
			 "user-mode emulation");
		return true;
	}
	__cpuid(0x40000000, a, b, c, d);
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &c, 4);
	memcpy(sig + 8, &d, 4);
	sig[12] = '\0';
	if (!strcmp(sig, "TCGTCGTCGTCG")) {
		snprintf(why, len, "CPUID 0x40000000 says %s: QEMU's TCG emulation", sig);
		return true;
	}
#else
	(void)host_cpuinfo_has;
#endif
	(void)why;
	(void)len;
	return false;
}

bool cz_emul_detect(char *why, size_t len)
{
	const char *env = getenv(CZ_EMUL_ENV);

	if (len)
		why[0] = '\0';
	if (env && *env) {
		if (!strcmp(env, "0"))
			return false;
		snprintf(why, len, "%s (%s)", env, CZ_EMUL_ENV);
		return true;
	}
	return arch_signal(why, len);
}

bool cz_emulated(const char **why)
{
	static char reason[256];
	static int state = -1;

	if (state < 0)
		state = cz_emul_detect(reason, sizeof(reason));
	if (why)
		*why = reason;
	return state;
}
