/* SPDX-License-Identifier: GPL-2.0-or-later */
/* zab fleet: running a program with no shell between (fleet.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "child.h"
#include "fleet.h"
#include "results/result.h"

int fleet_which(const char *prog)
{
	const char *path = getenv("PATH"), *p, *end;
	struct stat st;
	char buf[4096];

	if (strchr(prog, '/'))
		return !stat(prog, &st) && S_ISREG(st.st_mode) && !access(prog, X_OK) ? 0 : -1;
	for (p = path ? path : "/usr/bin:/bin"; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, ':');
		snprintf(buf, sizeof(buf), "%.*s/%s", (int)(end - p), end == p ? "." : p, prog);
		if (!stat(buf, &st) && S_ISREG(st.st_mode) && !access(buf, X_OK))
			return 0;
	}
	return -1;
}

int fleet_run(const char *const argv[], char **out, char *err, size_t errlen)
{
	struct cz_child c = {
		.argv = argv,
		.flags = (out ? CZ_CHILD_OUT : 0) | (err ? CZ_CHILD_ERR | CZ_CHILD_ERR_LAST : 0),
	};
	int ret = cz_child_run(&c);

	if (err)
		snprintf(err, errlen, "%s", c.err);
	if (out)
		*out = c.out;
	return ret < 0 ? -1 : ret;
}

void fleet_print_argv(const char *const argv[])
{
	const char *p;
	int i;

	for (i = 0; argv[i]; i++) {
		p = argv[i];
		if (*p && !p[strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789@%+=:,./_-")]) {
			printf("%s%s", i ? " " : "", p);
			continue;
		}
		printf("%s'", i ? " " : "");
		for (; *p; p++)
			if (*p == '\'')
				fputs("'\\''", stdout);
			else
				putchar(*p);
		putchar('\'');
	}
	putchar('\n');
}
