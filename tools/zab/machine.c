/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The machine a result was measured on: the JSON environment and the default SUT name. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "cli.h"
#include "zab.h"
#include "util.h"
#include "zeroing.h"

json_t *zab_environment(void)
{
	json_t *env = cz_jobj();
	const struct zero_cpu *cpu = zero_cpu();
	struct utsname u;
	char *model = zab_xasprintf("%.*s", (int)zab_trimmed_len(cpu->model), cpu->model);

	/* CPUID brand strings are padded with blanks (AMD's to 48 bytes): not part of the name */
	cz_jset(env, "cpu", cz_jstr(model[0] ? model : "unknown"));
	free(model);
	if (!uname(&u)) {
		cz_jset(env, "kernel", cz_jstr(u.release));
		cz_jset(env, "kernel_version", cz_jstr(u.version));
		cz_jset(env, "machine", cz_jstr(u.machine));
		cz_jset(env, "hostname", cz_jstr(u.nodename));
	}
	cz_jset(env, "default_routine", cz_jstr(zero_default()->name));
	return env;
}

char *zab_default_sut(void)
{
	const struct zero_cpu *cpu = zero_cpu();
	const char *m = cpu->model[0] ? cpu->model : "unknown";
	char *s = zab_xmalloc(strlen(m) + 1), *d = s;

	/*
	 * Drop trademark marks, which would read like the tables' (R) regression
	 * mark, and collapse runs of blanks: "Intel(R) Xeon(R)  CPU" -> "Intel Xeon CPU".
	 * The raw model stays in the JSON environment.
	 */
	for (; *m; m++) {
		if (!strncmp(m, "(R)", 3) || !strncmp(m, "(r)", 3)) {
			m += 2;
			continue;
		}
		if (!strncmp(m, "(TM)", 4) || !strncmp(m, "(tm)", 4)) {
			m += 3;
			continue;
		}
		if (!(isspace((unsigned char)*m) && (d == s || d[-1] == ' ')))
			*d++ = isspace((unsigned char)*m) ? ' ' : *m;
	}
	while (d > s && d[-1] == ' ')
		d--;
	*d = 0;
	return s;
}
