/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <nettle/sha2.h>

#include "util.h"

/*
 * The one number rule of every option: decimal digits, or 0x / 0X and hex
 * digits.  No sign, no space, no octal (strtoull's base 0 reads "010" as 8:
 * here it is ten), no wrap (a value over UINT64_MAX is -ERANGE, where
 * strtoull would also accept "-1" as UINT64_MAX).  *end: the first byte
 * after the digits.  0, -EINVAL (no digits) or -ERANGE.
 */
static int cz_parse_digits(const char *s, uint64_t *out, const char **end)
{
	unsigned base = 10, d;
	uint64_t v = 0;
	const char *p = s;

	if (!s)
		return -EINVAL;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && isxdigit((unsigned char)p[2])) {
		base = 16;
		p += 2;
	}
	if (!isxdigit((unsigned char)*p) || (base == 10 && !isdigit((unsigned char)*p)))
		return -EINVAL;
	for (; *p; p++) {
		if (isdigit((unsigned char)*p))
			d = (unsigned)(*p - '0');
		else if (base == 16 && isxdigit((unsigned char)*p))
			d = (unsigned)(tolower((unsigned char)*p) - 'a' + 10);
		else
			break;
		if (v > (UINT64_MAX - d) / base)
			return -ERANGE;
		v = v * base + d;
	}
	*out = v;
	*end = p;
	return 0;
}

int cz_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	const char *end;
	uint64_t v;
	int ret = cz_parse_digits(s, &v, &end);

	if (ret)
		return ret;
	if (*end)
		return -EINVAL;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int cz_parse_size(const char *s, uint64_t *out)
{
	static const struct { const char *suffix; unsigned shift; } units[] = {
		{ "", 0 }, { "b", 0 },
		{ "k", 10 }, { "kb", 10 }, { "kib", 10 },
		{ "m", 20 }, { "mb", 20 }, { "mib", 20 },
		{ "g", 30 }, { "gb", 30 }, { "gib", 30 },
		{ "t", 40 }, { "tb", 40 }, { "tib", 40 },
	};
	const char *end;
	uint64_t v;
	size_t i;
	int ret = cz_parse_digits(s, &v, &end);

	if (ret)
		return ret;
	/* hex is a byte count: "0x1000", never "0x1KB" (is B a digit?) */
	if (s[1] == 'x' || s[1] == 'X') {
		if (*end)
			return -EINVAL;
		*out = v;
		return 0;
	}
	for (i = 0; i < CZ_ARRAY_SIZE(units); i++) {
		if (strcasecmp(end, units[i].suffix))
			continue;
		if (units[i].shift && v > (UINT64_MAX >> units[i].shift))
			return -ERANGE;
		*out = v << units[i].shift;
		return 0;
	}
	return -EINVAL;
}

int cz_parse_mode(const char *s, unsigned *out)
{
	unsigned v = 0;
	const char *p = s;

	if (!s || !*s)
		return -EINVAL;
	for (; *p; p++) {
		if (*p < '0' || *p > '7')
			return -EINVAL;
		v = v * 8 + (unsigned)(*p - '0');
		if (v > 07777)
			return -ERANGE;
	}
	*out = v;
	return 0;
}

const char *cz_format_size(uint64_t bytes, char *buf, size_t len)
{
	static const char *const names[] = { "B", "KB", "MB", "GB", "TB" };
	unsigned i = 0;

	while (i < 4 && bytes && !(bytes & 1023)) {
		bytes >>= 10;
		i++;
	}
	snprintf(buf, len, "%" PRIu64 "%s", bytes, names[i]);
	return buf;
}

/* A CPU number at *p: decimal (the number rule without 0x), below CZ_CPU_MAX. */
static int cpulist_num(const char **p, unsigned long *v)
{
	const char *end;
	uint64_t x;

	if (!isdigit((unsigned char)**p) || ((*p)[0] == '0' && ((*p)[1] == 'x' || (*p)[1] == 'X')))
		return -EINVAL;
	if (cz_parse_digits(*p, &x, &end) || x >= CZ_CPU_MAX)
		return -ERANGE;
	*v = (unsigned long)x;
	*p = end;
	return 0;
}

/* One "A" or "A-B" item of a CPU list at *p; *p moves past it. */
static int cpulist_item(const char **p, unsigned long *a, unsigned long *b)
{
	int ret = cpulist_num(p, a);

	if (ret)
		return ret;
	*b = *a;
	if (**p == '-') {
		(*p)++;
		ret = cpulist_num(p, b);
		if (ret)
			return ret;
	}
	if (*a > *b)
		return -ERANGE;
	if (**p == ',' && (*p)[1])
		(*p)++;
	else if (**p)
		return -EINVAL;
	return 0;
}

int cz_parse_cpulist(const char *s, struct cz_cpulist *out)
{
	size_t setsize = CPU_ALLOC_SIZE(CZ_CPU_MAX);
	cpu_set_t *seen;
	unsigned long a, b;
	const char *p = s;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	out->highest = -1;
	if (!s || !*s)
		return -EINVAL;
	seen = CPU_ALLOC(CZ_CPU_MAX);
	if (!seen)
		return -ENOMEM;
	CPU_ZERO_S(setsize, seen);
	while (*p && !ret) {
		ret = cpulist_item(&p, &a, &b);
		for (; !ret && a <= b; a++) {
			int *grown;

			if (CPU_ISSET_S(a, setsize, seen))
				continue;
			CPU_SET_S(a, setsize, seen);
			grown = realloc(out->cpu, (out->n + 1) * sizeof(*out->cpu));
			if (!grown) {
				ret = -ENOMEM;
				break;
			}
			out->cpu = grown;
			out->cpu[out->n++] = (int)a;
			if ((int)a > out->highest)
				out->highest = (int)a;
		}
	}
	CPU_FREE(seen);
	if (ret)
		cz_cpulist_free(out);
	return ret;
}

void cz_cpulist_free(struct cz_cpulist *l)
{
	free(l->cpu);
	l->cpu = NULL;
	l->n = 0;
	l->highest = -1;
}

bool cz_cpu_allowed(int cpu)
{
	size_t setsize = CPU_ALLOC_SIZE(CZ_CPU_MAX);
	cpu_set_t *set;
	bool ok;

	if (cpu < 0 || cpu >= CZ_CPU_MAX || !(set = CPU_ALLOC(CZ_CPU_MAX)))
		return false;
	ok = !sched_getaffinity(0, setsize, set) && CPU_ISSET_S((size_t)cpu, setsize, set);
	CPU_FREE(set);
	return ok;
}

char *cz_trim(char *s)
{
	char *e = s + strlen(s);

	while (isspace((unsigned char)*s))
		s++;
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

size_t cz_first_nonzero(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	size_t i = 0;

	for (; i + 8 <= len; i += 8) {
		uint64_t w;

		memcpy(&w, p + i, 8);
		if (w)
			break;
	}
	for (; i < len; i++)
		if (p[i])
			break;
	return i;
}

static uint64_t now_clock(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

uint64_t cz_now_ns_raw(void)
{
	return now_clock(CLOCK_MONOTONIC_RAW);
}

uint64_t cz_now_ns(void)
{
	return now_clock(CLOCK_MONOTONIC);
}

int cz_pin_cpu(int cpu)
{
	size_t setsize;
	cpu_set_t *set;
	int ret = 0;

	if (cpu < 0 || cpu >= CZ_CPU_MAX)
		return -EINVAL;
	/* CPU_ALLOC: a fixed cpu_set_t stops at CPU_SETSIZE (1024). */
	set = CPU_ALLOC(cpu + 1);
	if (!set)
		return -ENOMEM;
	setsize = CPU_ALLOC_SIZE(cpu + 1);
	CPU_ZERO_S(setsize, set);
	CPU_SET_S((size_t)cpu, setsize, set);
	if (sched_setaffinity(0, setsize, set))
		ret = -errno;
	CPU_FREE(set);
	return ret;
}

/* The digest in c as 64 hex digits and a NUL. */
static void sha256_hex_of(struct sha256_ctx *c, char hex[65])
{
	unsigned char d[SHA256_DIGEST_SIZE];
	int i;

	sha256_digest(c, sizeof(d), d);
	for (i = 0; i < SHA256_DIGEST_SIZE; i++)
		snprintf(hex + 2 * i, 3, "%02x", d[i]);
}

void cz_sha256_hex(const void *buf, size_t len, char hex[65])
{
	struct sha256_ctx c;

	sha256_init(&c);
	sha256_update(&c, len, buf);
	sha256_hex_of(&c, hex);
}

int cz_file_sha256(const char *path, char hex[65])
{
	unsigned char buf[65536];
	struct sha256_ctx c;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC), i;

	if (fd < 0)
		return -errno;
	sha256_init(&c);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		sha256_update(&c, (size_t)n, buf);
	i = n < 0 ? -errno : 0;
	close(fd);
	if (i)
		return i;
	sha256_hex_of(&c, hex);
	return 0;
}
