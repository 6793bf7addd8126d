/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Description: the number rule every option of cusezero and zeroctl goes
 * through (lib/util.c): decimal or 0x hex, never octal, no sign or space,
 * range-checked, no wrap; sizes with perf units or plain hex; modes octal.
 * Each row: the text, the parser, the result wanted (value or -errno).
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "tests/tap.h"
#include "util.h"

struct num_case {
	const char *text;
	int want;		/* 0, -EINVAL, -ERANGE */
	uint64_t value;
};

static const struct num_case u32_cases[] = {	/* cz_parse_u64(s, 0, UINT32_MAX - 1) */
	{ "0", 0, 0 }, { "10", 0, 10 }, { "010", 0, 10 }, { "0x10", 0, 16 },
	{ "0XfF", 0, 255 }, { "4294967294", 0, 4294967294u },
	{ "4294967295", -ERANGE, 0 }, { "4295032830", -ERANGE, 0 },
	{ "18446744073709551615", -ERANGE, 0 }, { "18446744073709551616", -ERANGE, 0 },
	{ "99999999999999999999999", -ERANGE, 0 }, { "0x10000000000000000", -ERANGE, 0 },
	{ "-1", -EINVAL, 0 }, { "+1", -EINVAL, 0 }, { " 1", -EINVAL, 0 }, { "1 ", -EINVAL, 0 },
	{ "", -EINVAL, 0 }, { "0x", -EINVAL, 0 }, { "x10", -EINVAL, 0 }, { "1e3", -EINVAL, 0 },
	{ "0b101", -EINVAL, 0 }, { "12abc", -EINVAL, 0 }, { "0x1g", -EINVAL, 0 },
};

static const struct num_case size_cases[] = {
	{ "4096", 0, 4096 }, { "4KB", 0, 4096 }, { "4k", 0, 4096 }, { "1MiB", 0, 1 << 20 },
	{ "0x1000", 0, 4096 }, { "010", 0, 10 }, { "12B", 0, 12 }, { "16TB", 0, 16ULL << 40 },
	{ "0x1KB", -EINVAL, 0 }, { "-4KB", -EINVAL, 0 }, { "+4KB", -EINVAL, 0 },
	{ " 4KB", -EINVAL, 0 }, { "4 KB", -EINVAL, 0 }, { "4XB", -EINVAL, 0 }, { "KB", -EINVAL, 0 },
	{ "16777216TB", -ERANGE, 0 }, { "18446744073709551616", -ERANGE, 0 },
};

static const struct num_case mode_cases[] = {
	{ "0666", 0, 0666 }, { "644", 0, 0644 }, { "07777", 0, 07777 }, { "0", 0, 0 },
	{ "8", -EINVAL, 0 }, { "0x1ff", -EINVAL, 0 }, { "-1", -EINVAL, 0 }, { "", -EINVAL, 0 },
	{ "17777", -ERANGE, 0 }, { "777777777777777777777", -ERANGE, 0 },
};

static const struct num_case cpulist_cases[] = {	/* value: the mask of CPUs 0..63 */
	{ "0", 0, 1 }, { "0-3", 0, 15 }, { "1,3", 0, 10 }, { "010", 0, 1u << 10 },
	{ "8191", 0, 0 }, { "8192", -ERANGE, 0 }, { "99999999999999999999", -ERANGE, 0 },
	{ "18446744073709551617", -ERANGE, 0 }, { "3-1", -ERANGE, 0 },
	{ "0x1", -EINVAL, 0 }, { "-1", -EINVAL, 0 }, { "1,", -EINVAL, 0 }, { "+1", -EINVAL, 0 },
};

enum { P_U32, P_SIZE, P_MODE, P_CPULIST };

static int parse_cpulist(const char *s, uint64_t *mask)
{
	struct cz_cpulist l;
	unsigned i;
	int ret = cz_parse_cpulist(s, &l);

	*mask = 0;
	if (ret)
		return ret;
	for (i = 0; i < l.n; i++)
		if (l.cpu[i] < 64)
			*mask |= 1ULL << l.cpu[i];
	cz_cpulist_free(&l);
	return 0;
}

static int parse(int which, const char *s, uint64_t *v)
{
	unsigned m;
	int ret;

	switch (which) {
	case P_U32:
		return cz_parse_u64(s, 0, UINT32_MAX - 1, v);
	case P_SIZE:
		return cz_parse_size(s, v);
	case P_MODE:
		ret = cz_parse_mode(s, &m);
		*v = m;
		return ret;
	default:
		return parse_cpulist(s, v);
	}
}

static void run(int which, const char *name, const struct num_case *c, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t v = 0;
		int ret = parse(which, c[i].text, &v);
		int good = ret == c[i].want && (ret || v == c[i].value);

		tap_ok(good, "%s(\"%s\") = %s%s, %llu (want %s, %llu)", name, c[i].text,
		       ret ? "-" : "", ret ? strerrorname_np(-ret) : "0", (unsigned long long)v,
		       c[i].want ? strerrorname_np(-c[i].want) : "0",
		       (unsigned long long)c[i].value);
	}
}

int main(void)
{
	run(P_U32, "cz_parse_u64", u32_cases, CZ_ARRAY_SIZE(u32_cases));
	run(P_SIZE, "cz_parse_size", size_cases, CZ_ARRAY_SIZE(size_cases));
	run(P_MODE, "cz_parse_mode", mode_cases, CZ_ARRAY_SIZE(mode_cases));
	run(P_CPULIST, "cz_parse_cpulist", cpulist_cases, CZ_ARRAY_SIZE(cpulist_cases));
	return tap_done();
}
