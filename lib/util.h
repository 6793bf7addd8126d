/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Small helpers shared by every program: size and number parsing with
 * perf-style units, monotonic clocks, CPU pinning.  Parsers return -errno
 * (liburing style) and never print; callers print one line at the edge.
 */
#ifndef LIB_UTIL_H
#define LIB_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Numbers in options, one rule for every program: decimal digits ("010" is
 * ten, never octal), or 0x / 0X and hex digits; no sign, no space, nothing
 * after the number; a value that does not fit is -ERANGE, never wrapped.
 * Parsers return 0, -EINVAL (not a number) or -ERANGE and never print.
 */
/* An integer in [min, max]. */
int cz_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/*
 * A size: a number as above, then an optional unit B, K/KB/KiB, M/MB/MiB,
 * G/GB/GiB or T/TB/TiB (binary, as in perf bench; case-insensitive).  A hex
 * size takes no unit ("0x1000" bytes).
 */
int cz_parse_size(const char *s, uint64_t *out);

/* A file mode: octal digits, as chmod(1) takes them ("0666", "644"), up to 07777. */
int cz_parse_mode(const char *s, unsigned *out);

/* Format a byte count like perf: "4KB", "1MB", "100KB", else "12345B". buf >= 32. */
const char *cz_format_size(uint64_t bytes, char *buf, size_t len);

/*
 * A CPU list ("0", "0-3", "0,2,5-7", decimal, as in /sys/devices/system/cpu/online):
 * its CPUs in the order written, each once.  Any CPU number up to
 * CZ_CPU_MAX - 1, not only the first 64: sets are sized with CPU_ALLOC.
 */
struct cz_cpulist {
	int *cpu;
	unsigned n;
	int highest;		/* -1 when empty */
};
/* Linux's largest NR_CPUS (x86-64 CONFIG_MAXSMP, arch/x86/Kconfig). */
#define CZ_CPU_MAX 8192

/* 0, -EINVAL (syntax), -ERANGE (a > b or a CPU >= CZ_CPU_MAX), -ENOMEM. */
int cz_parse_cpulist(const char *s, struct cz_cpulist *out);
void cz_cpulist_free(struct cz_cpulist *l);
/* Is cpu in this thread's affinity mask (sched_getaffinity, e.g. taskset)? */
bool cz_cpu_allowed(int cpu);

/* s without its leading and trailing white space (cut in place; the first non-blank). */
char *cz_trim(char *s);
/* Index of the first non-zero byte of buf[0..len), or len if all are zero. */
size_t cz_first_nonzero(const void *buf, size_t len);
/* The SHA-256 of a file's content in hex (65 bytes with the NUL): 0 or -errno. */
int cz_file_sha256(const char *path, char hex[65]);
/* The SHA-256 of len bytes at buf, in hex (65 bytes with the NUL). */
void cz_sha256_hex(const void *buf, size_t len, char hex[65]);

/* Nanoseconds from CLOCK_MONOTONIC_RAW / CLOCK_MONOTONIC. */
uint64_t cz_now_ns_raw(void);
uint64_t cz_now_ns(void);

/* Pin the calling thread to one CPU (0..CZ_CPU_MAX-1): 0 or -errno. */
int cz_pin_cpu(int cpu);

#define CZ_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif
