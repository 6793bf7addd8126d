/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Private cusezero daemons: start, liveness, stop with cleanup (lib/devspawn.h). */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "devspawn.h"

__attribute__((format(printf, 1, 2)))
static char *ds_asprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		abort();
	va_end(ap);
	return s;
}

static void ds_sleep_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

bool cz_is_mounted(const char *mnt)
{
	char *line = NULL;
	size_t cap = 0, n = strlen(mnt);
	bool found = false;
	FILE *f = fopen("/proc/self/mounts", "r");

	if (!f)
		return false;
	while (!found && getline(&line, &cap, f) > 0) {
		char *p = strchr(line, ' '), *q;

		if (!p)
			continue;
		q = strchr(++p, ' ');
		if (q && (size_t)(q - p) == n && !strncmp(p, mnt, n))
			found = true;
	}
	free(line);
	fclose(f);
	return found;
}

char *cz_self_dir(void)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	char *slash;

	if (n <= 0)
		return NULL;
	buf[n] = 0;
	slash = strrchr(buf, '/');
	if (slash)
		*slash = 0;
	return strdup(buf);
}

char *cz_find_cusezero(const char *given)
{
	const char *env = getenv("CUSEZERO");
	char *dir, *p;

	if (given && *given)
		return strdup(given);
	if (env && *env)
		return strdup(env);
	dir = cz_self_dir();
	if (dir) {
		p = ds_asprintf("%s/cusezero", dir);
		free(dir);
		if (!access(p, X_OK))
			return p;
		free(p);
	}
	return strdup("cusezero");
}

/* The start of a file as one line (newlines -> " | "), at most max bytes. */
static void ds_one_line(int fd, char *out, size_t max)
{
	char buf[512];
	ssize_t n;
	size_t i, o = 0;

	lseek(fd, 0, SEEK_SET);
	n = read(fd, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = 0;
	for (i = 0; buf[i] && isspace((unsigned char)buf[i]); i++)
		;
	for (; buf[i] && o + 4 < max; i++) {
		if (buf[i] == '\n') {
			if (buf[i + 1])
				o += (size_t)snprintf(out + o, max - o, " | ");
		} else {
			out[o++] = isprint((unsigned char)buf[i]) ? buf[i] : '?';
		}
	}
	out[o < max ? o : max - 1] = 0;
	if (!o)
		snprintf(out, max, "(no output)");
}

/* Run argv with output into a temporary file; the wait status, or -errno. */
static int ds_run(char *const *argv, unsigned timeout_s, int *outfd)
{
	char tmpl[] = "/tmp/cusezero-start.XXXXXX";
	int fd = mkstemp(tmpl), st = 0;
	unsigned waited = 0;
	pid_t pid;

	*outfd = fd;
	if (fd < 0)
		return -errno;
	unlink(tmpl);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		int null = open("/dev/null", O_RDWR);

		setpgid(0, 0);	/* a ^C to the caller is the caller's to handle */
		dup2(null, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		execvp(argv[0], argv);
		fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	/* cusezero returns once the device is ready (or failed); bounded anyway */
	while (waitpid(pid, &st, WNOHANG) == 0) {
		if (waited >= timeout_s * 1000u) {
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			return -ETIMEDOUT;
		}
		ds_sleep_ms(5);
		waited += 5;
	}
	return st;
}

static char *ds_cmdline(char *const *argv)
{
	size_t len = 1, i;
	char *s;

	for (i = 0; argv[i]; i++)
		len += strlen(argv[i]) + 1;
	s = calloc(1, len);
	if (!s)
		abort();
	for (i = 0; argv[i]; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

static int ds_read_pid(const char *pidfile)
{
	char buf[32] = "";
	int fd = open(pidfile, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = 0;
	return atoi(buf) > 0 ? atoi(buf) : -1;
}

static void ds_failed(const char *cmd, int st, int outfd, char *err, size_t errlen)
{
	char how[96], out[320];

	if (st == -ETIMEDOUT)
		snprintf(how, sizeof(how), "did not return (killed after the time limit)");
	else if (st < 0)
		snprintf(how, sizeof(how), "could not start (%s)", strerror(-st));
	else if (WIFEXITED(st) && WEXITSTATUS(st))
		snprintf(how, sizeof(how), "exited with status %d", WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		snprintf(how, sizeof(how), "was killed by signal %d", WTERMSIG(st));
	else
		snprintf(how, sizeof(how), "wrote no pidfile");
	if (outfd >= 0)
		ds_one_line(outfd, out, sizeof(out));
	else
		snprintf(out, sizeof(out), "(output lost)");
	snprintf(err, errlen, "device daemon `%s` %s: %s", cmd, how, out);
}

/* State letter and start time (clock ticks after boot) of pid; false if it is gone. */
static bool ds_stat(pid_t pid, char *state, unsigned long long *start)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd, i;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = 0;
	p = strrchr(buf, ')');	/* "pid (comm) S ...": comm may hold blanks and parentheses */
	if (!p || p[1] != ' ')
		return false;
	*state = p[2];
	/* field 22 (starttime) is the 20th after the state */
	for (i = 0, p += 2; i < 19 && p; i++)
		p = strchr(p + 1, ' ');
	*start = p ? strtoull(p + 1, NULL, 10) : 0;
	return true;
}

int cz_dev_start(struct cz_dev *d, char *const *args, size_t nargs, const char *fuse_mnt,
		 const char *cuse_name, const char *pidfile, unsigned timeout_s,
		 char *err, size_t errlen)
{
	char **argv = calloc(nargs + 6, sizeof(*argv));
	size_t n = 0, i;
	int st, outfd, pid;
	char state;

	memset(d, 0, sizeof(*d));
	if (!argv)
		abort();
	/* "cusezero --fuse MNT OPTIONS... --pidfile F": the front end first, as people write it */
	argv[n++] = args[0];
	argv[n++] = (char *)(fuse_mnt ? "--fuse" : "--name");
	argv[n++] = (char *)(fuse_mnt ? fuse_mnt : cuse_name);
	for (i = 1; i < nargs; i++)
		argv[n++] = args[i];
	argv[n++] = (char *)"--pidfile";
	argv[n++] = (char *)pidfile;
	d->cmdline = ds_cmdline(argv);
	if (fuse_mnt) {
		d->mnt = strdup(fuse_mnt);
		if (mkdir(fuse_mnt, 0755) == 0)
			d->rmdir_mnt = true;
		else if (errno != EEXIST) {
			snprintf(err, errlen, "mkdir %s: %s", fuse_mnt, strerror(errno));
			free(argv);
			return -1;
		}
	}
	unlink(pidfile);
	st = ds_run(argv, timeout_s, &outfd);
	free(argv);
	pid = st == 0 ? ds_read_pid(pidfile) : -1;
	if (pid <= 0) {
		ds_failed(d->cmdline, st, outfd, err, errlen);
		if (outfd >= 0)
			close(outfd);
		return -1;
	}
	close(outfd);
	unlink(pidfile);
	d->pid = pid;
	if (!ds_stat(pid, &state, &d->start)) {
		snprintf(err, errlen, "device daemon `%s` (pid %d) died right after starting", d->cmdline,
			 pid);
		d->pid = 0;
		return -1;
	}
	if (fuse_mnt) {
		d->path = ds_asprintf("%s/zero", fuse_mnt);
	} else {
		d->path = ds_asprintf("/dev/%s", cuse_name);
		if (access(d->path, F_OK)) {
			/* no CUSE here: cusezero fell back to FUSE at /run/cusezero/NAME */
			free(d->path);
			d->mnt = ds_asprintf("/run/cusezero/%s", cuse_name);
			d->path = ds_asprintf("%s/zero", d->mnt);
		}
	}
	return 0;
}

bool cz_dev_alive(const struct cz_dev *d)
{
	unsigned long long start;
	char state;

	/*
	 * cusezero daemonises, so the daemon is not our child: kill(pid, 0)
	 * would call a zombie alive until init reaps it, and a reused pid
	 * someone else's process.  Its state and start time say.
	 */
	if (d->pid <= 0 || !ds_stat(d->pid, &state, &start))
		return false;
	return state != 'Z' && state != 'X' && start == d->start;
}

void cz_dev_stop(struct cz_dev *d, const char *prog)
{
	int i;

	if (cz_dev_alive(d) && kill(d->pid, SIGTERM) == 0) {
		for (i = 0; i < 500 && cz_dev_alive(d); i++)
			ds_sleep_ms(10);
		if (i == 500) {
			fprintf(stderr, "%s: cusezero pid %d did not stop on SIGTERM in 5 s; killing it\n",
				prog, (int)d->pid);
			kill(d->pid, SIGKILL);
			for (i = 0; i < 500 && cz_dev_alive(d); i++)
				ds_sleep_ms(10);
		}
	}
	/* a daemon that died leaves its mount behind ("Transport endpoint is not connected") */
	if (d->mnt && cz_is_mounted(d->mnt) && umount2(d->mnt, MNT_DETACH))
		fprintf(stderr, "%s: umount %s: %s\n", prog, d->mnt, strerror(errno));
	if (d->mnt && d->rmdir_mnt)
		rmdir(d->mnt);
	free(d->mnt);
	free(d->path);
	free(d->cmdline);
	memset(d, 0, sizeof(*d));
}
