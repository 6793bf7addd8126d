/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A benchmark's process (runner.h): its command (through "sh -c" only
 * when it needs a shell), environment and CPU, its output into files (so a
 * daemonising child cannot hold a pipe open), its timeout and the signals
 * that stop a run; what it printed, as one line or as its number.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "run.h"
#include "runner.h"
#include "util.h"

volatile sig_atomic_t zab_stop, zab_timed_out;
static volatile pid_t zab_child;

static void on_signal(int sig)
{
	zab_stop = sig;
	if (zab_child > 0)
		kill(-zab_child, SIGTERM);
}

static void on_alarm(int sig)
{
	(void)sig;
	zab_timed_out = 1;
	if (zab_child > 0)
		kill(-zab_child, SIGKILL);
}

/* ---- processes ---------------------------------------------------------------------- */

char *zab_proc_read(int fd, size_t max)
{
	size_t n = 0, cap = 256;
	char *s = cz_xmalloc(cap);
	ssize_t r;

	lseek(fd, 0, SEEK_SET);
	while (n < max && (r = read(fd, s + n, cap - n - 1)) > 0) {
		n += (size_t)r;
		if (n + 1 == cap)
			s = cz_xrealloc(s, cap *= 2);
	}
	s[n] = 0;
	close(fd);
	return s;
}

static int tmp_fd(void)
{
	char path[] = "/tmp/zab-out.XXXXXX";
	int fd = mkstemp(path);

	if (fd >= 0)
		unlink(path);
	return fd;
}

static bool needs_shell(const char *cmd)
{
	return strpbrk(cmd, "|&;<>()$`\\\"'*?[]#~=%{}\n") != NULL;
}

/* The child: own process group, output into the files, env added, on cpu (>= 0), exec. */
static void __attribute__((noreturn))
child_exec(const char *cmd, char **env, size_t nenv, int ofd, int efd, int cpu)
{
	char *argv[256], *copy;
	int n = 0, fd;
	size_t i;

	setpgid(0, 0);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	dup2(ofd, 1);
	dup2(efd, 2);
	close(ofd);
	close(efd);
	fd = open("/dev/null", O_RDONLY);
	if (fd >= 0) {
		dup2(fd, 0);
		close(fd);
	}
	for (i = 0; i < nenv; i++)
		putenv(env[i]);
	if (cpu >= 0 && (fd = cz_pin_cpu(cpu))) {
		fprintf(stderr, "cannot pin to CPU %d for co-location: %s\n", cpu, strerror(-fd));
		_exit(126);
	}
	if (needs_shell(cmd)) {
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		fprintf(stderr, "cannot run /bin/sh: %s\n", strerror(errno));
		_exit(127);
	}
	copy = strdup(cmd);
	for (char *t = strtok(copy, " \t"); t && n < 255; t = strtok(NULL, " \t"))
		argv[n++] = t;
	argv[n] = NULL;
	if (!n)
		_exit(127);
	execvp(argv[0], argv);
	fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/*
 * Run cmd (through "sh -c" when it needs a shell) with env (NAME=VALUE
 * strings) added, pinned to cpu when >= 0, stdout and stderr into files (so
 * a daemonising child cannot hold a pipe open).
 */
void zab_proc_run(const char *cmd, char **env, size_t nenv, unsigned timeout, int cpu,
		     struct proc_out *po)
{
	int ofd = tmp_fd(), efd = tmp_fd();
	uint64_t t0;
	pid_t pid;

	memset(po, 0, sizeof(*po));
	t0 = cz_now_ns();
	if (ofd < 0 || efd < 0) {
		po->status = -errno;
		goto out;
	}
	pid = fork();
	if (pid < 0) {
		po->status = -errno;
		goto out;
	}
	if (!pid)
		child_exec(cmd, env, nenv, ofd, efd, cpu);
	zab_child = pid;
	zab_timed_out = 0;
	if (timeout)
		alarm(timeout);
	while (waitpid(pid, &po->status, 0) < 0) {
		if (errno != EINTR) {
			po->status = -errno;
			break;
		}
	}
	po->secs = (double)(cz_now_ns() - t0) / 1e9;
	alarm(0);
	zab_child = 0;
out:
	po->out = ofd >= 0 ? zab_proc_read(ofd, 1 << 20) : cz_xstrdup("");
	po->err = efd >= 0 ? zab_proc_read(efd, 1 << 20) : cz_xstrdup("");
}

void zab_proc_free(struct proc_out *po)
{
	free(po->out);
	free(po->err);
}

/* One line: newlines -> " | ", at most max bytes. */
char *zab_one_line(const char *s, size_t max)
{
	size_t n = 0;
	char *o = cz_xmalloc(max + 8);

	while (isspace((unsigned char)*s))
		s++;
	for (; *s && n < max; s++) {
		if (*s == '\n') {
			if (s[1])
				n += (size_t)sprintf(o + n, " | ");
		} else {
			o[n++] = isprint((unsigned char)*s) || (unsigned char)*s >= 0x80 ? *s : '?';
		}
	}
	if (*s)
		n += (size_t)sprintf(o + n, "...");
	o[n] = 0;
	return o;
}

char *zab_status_text(int st)
{
	if (st < 0)
		return cz_xasprintf("could not start (%s)", strerror(-st));
	if (WIFEXITED(st))
		return cz_xasprintf("exited with status %d", WEXITSTATUS(st));
	if (WIFSIGNALED(st))
		return cz_xasprintf("was killed by signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
	return cz_xasprintf("ended with wait status %#x", st);
}

const char *zab_skip_comments(const char *s)
{
	for (;;) {
		while (isspace((unsigned char)*s))
			s++;
		if (*s != '#')
			return s;
		s += strcspn(s, "\n");   /* "# ..." lines (perf style headers) are ignored */
	}
}

/* The one number a benchmark prints (besides "#" lines); false if there is anything else. */
bool zab_parse_output(const char *s, double *x)
{
	char *end;

	s = zab_skip_comments(s);
	if (!*s)
		return false;
	/* a plain decimal: strtod alone took 0x10 as 16, and inf and nan */
	if (!zab_number(s, false, &end, x))
		return false;
	return !*zab_skip_comments(end);
}

void zab_reraise(void)
{
	if (!zab_stop)
		return;
	signal((int)zab_stop, SIG_DFL);
	raise((int)zab_stop);
}

void zab_signals_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
}

/* The CPU of co-location (pinned in the child above) must be one zab may run on. */
int zab_colocate_check(const struct zab_colocate *c)
{
	cpu_set_t set;

	if (c->mode != ZAB_COLOC_CPU)
		return 0;
	if (sched_getaffinity(0, sizeof(set), &set))
		CPU_ZERO(&set);
	if ((int)c->cpu < CPU_SETSIZE && CPU_ISSET((int)c->cpu, &set))
		return 0;
	cz_err("colocate %u: not a CPU zab may run on (%d allowed; see taskset -p %d)",
		c->cpu, CPU_COUNT(&set), (int)getpid());
	return -EINVAL;
}
