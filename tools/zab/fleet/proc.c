/* SPDX-License-Identifier: GPL-2.0-or-later */
/* zab fleet: running a program with no shell between (fleet.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

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

/* All of fd into a NUL-terminated buffer. */
static char *slurp(int fd)
{
	size_t len = 0, cap = 65536;
	char *buf = cz_xmalloc(cap);
	ssize_t n;

	for (;;) {
		if (len + 1 >= cap)
			buf = realloc(buf, cap *= 2);
		if (!buf)
			abort();
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	buf[len] = 0;
	return buf;
}

/* The last non-empty line of text, into err. */
static void last_line(const char *text, char *err, size_t errlen)
{
	const char *end = text + strlen(text), *start;

	while (end > text && (end[-1] == '\n' || end[-1] == ' ' || end[-1] == '\r'))
		end--;
	for (start = end; start > text && start[-1] != '\n'; start--)
		;
	snprintf(err, errlen, "%.*s", (int)(end - start), start);
}

int fleet_run(const char *const argv[], char **out, char *err, size_t errlen)
{
	int po[2] = { -1, -1 }, efd = -1, status = 0;
	char errname[] = "/tmp/zab-fleet-err.XXXXXX", *etext;
	pid_t pid;

	if (err) {
		err[0] = 0;
		efd = mkstemp(errname);
		if (efd >= 0)
			unlink(errname);
	}
	if (out && pipe2(po, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid == 0) {
		if (out)
			dup2(po[1], 1);
		if (efd >= 0)
			dup2(efd, 2);
		execvp(argv[0], (char *const *)argv);
		fprintf(stderr, "%s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (out) {
		close(po[1]);
		*out = pid > 0 ? slurp(po[0]) : NULL;
		close(po[0]);
	}
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (efd >= 0) {
		lseek(efd, 0, SEEK_SET);
		etext = slurp(efd);
		last_line(etext, err, errlen);
		free(etext);
		close(efd);
	}
	if (pid < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
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
