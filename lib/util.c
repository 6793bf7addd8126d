/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "util.h"

int cz_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-' || isspace((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno == ERANGE)
		return -ERANGE;
	if (end == s || *end)
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
	char *end;
	unsigned long long v;
	size_t i;

	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	for (i = 0; i < CZ_ARRAY_SIZE(units); i++) {
		if (strcasecmp(end, units[i].suffix))
			continue;
		if (units[i].shift && v > (UINT64_MAX >> units[i].shift))
			return -ERANGE;
		*out = (uint64_t)v << units[i].shift;
		return 0;
	}
	return -EINVAL;
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

int cz_parse_cpulist(const char *s, uint64_t *mask)
{
	uint64_t m = 0;
	const char *p = s;

	if (!s || !*s)
		return -EINVAL;
	while (*p) {
		char *end;
		unsigned long a, b;

		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		a = strtoul(p, &end, 10);
		b = a;
		if (*end == '-') {
			p = end + 1;
			if (!isdigit((unsigned char)*p))
				return -EINVAL;
			b = strtoul(p, &end, 10);
		}
		if (a > b || b >= 64)
			return -ERANGE;
		for (; a <= b; a++)
			m |= 1ULL << a;
		p = end;
		if (*p == ',')
			p++;
		else if (*p)
			return -EINVAL;
	}
	*mask = m;
	return 0;
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

void cz_json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c == '\t')
			fputs("\\t", out);
		else if (c == '\r')
			fputs("\\r", out);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
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
	cpu_set_t set;

	if (cpu < 0 || cpu >= CPU_SETSIZE)
		return -EINVAL;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return -errno;
	return 0;
}
