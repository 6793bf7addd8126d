/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Description: `zbench memset -f help` lists every routine of the registry
 * (usable here or not) as perf's "\tNAME ... DESC" lines, plus perf's
 * function names for the routines that exist; `-f all` runs every usable
 * routine.  The registry is read here directly, so a routine added by
 * another engineer is checked without touching this test.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zeroing.h"
#include "../tap.h"

#define OUT_MAX (1 << 20)

static char *run(const char *zbench, const char *args, int *status)
{
	char cmd[4096], *out = calloc(1, OUT_MAX);
	size_t len = 0, n;
	FILE *p;

	if (!out)
		return NULL;
	snprintf(cmd, sizeof(cmd), "'%s' %s 2>/dev/null", zbench, args);
	p = popen(cmd, "r");
	if (!p) {
		free(out);
		return NULL;
	}
	while (len < OUT_MAX - 1 && (n = fread(out + len, 1, OUT_MAX - 1 - len, p)) > 0)
		len += n;
	*status = pclose(p);
	return out;
}

static int has_line_prefix(const char *text, const char *prefix)
{
	const char *p = text;
	size_t n = strlen(prefix);

	while (p && *p) {
		if (!strncmp(p, prefix, n))
			return 1;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return 0;
}

int main(void)
{
	const char *zbench = getenv("ZBENCH");
	static const struct {
		const char *name;
		const char *routines[2];
	} perf_names[] = {
		{ "default", { "memset" } },
		{ "x86-64-unrolled", { "clear_page_orig" } },
		{ "x86-64-stosq", { "rep_stosq", "clear_page_rep" } },
		{ "x86-64-stosb", { "rep_stosb", "clear_page_erms" } },
	};
	char *help, *all, want[256];
	int status;
	size_t i;

	if (!zbench)
		tap_skip_all("ZBENCH not set (run through make check)");
	help = run(zbench, "memset -f help", &status);
	if (!help || !tap_ok(status != -1, "zbench memset -f help ran"))
		return tap_done();
	tap_ok(has_line_prefix(help, "Available functions:"), "-f help prints 'Available functions:'");
	for (i = 0; i < zero_nroutines; i++) {
		snprintf(want, sizeof(want), "\t%s ... %s", zero_routines[i].name, zero_routines[i].desc);
		tap_ok(has_line_prefix(help, want), "-f help lists routine %s", zero_routines[i].name);
	}
	/*
	 * perf's names (tools/perf/bench/mem-memset-x86-64-asm-def.h): each maps
	 * to routines of ours; the name must be listed exactly when one of its
	 * routines is in this build's registry -- a missing alias is a failure.
	 */
	for (i = 0; i < sizeof(perf_names) / sizeof(perf_names[0]); i++) {
		bool expected = false;
		size_t j;

		for (j = 0; j < 2 && perf_names[i].routines[j]; j++)
			expected |= zero_lookup(perf_names[i].routines[j]) != NULL;
		snprintf(want, sizeof(want), "\t%s ... ", perf_names[i].name);
		tap_ok(has_line_prefix(help, want) == expected, "-f help %s perf's name %s",
		       expected ? "lists" : "does not list", perf_names[i].name);
	}
	tap_ok(has_line_prefix(help, "\tdefault ... "), "perf's 'default' (glibc memset) always exists");

	all = run(zbench, "memset -s 16KB -f all", &status);
	if (all && tap_ok(status == 0, "zbench memset -f all: exit status %d", status)) {
		for (i = 0; i < zero_nroutines; i++) {
			const struct zero_routine *r = &zero_routines[i];
			const char *why = NULL;

			snprintf(want, sizeof(want), "# function '%s' (%s)", r->name, r->desc);
			if (zero_usable(r, &why))
				tap_ok(has_line_prefix(all, want), "-f all ran %s", r->name);
			else
				tap_skip("%s is not usable here: %s", r->name, why);
		}
	}
	free(help);
	free(all);
	return tap_done();
}
