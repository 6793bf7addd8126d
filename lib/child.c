/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One way to run a program (child.h) for the tools' helpers: git and tar
 * for zab's sequences, ansible for zab fleet.  Both pipes are read in one
 * poll loop, so a child filling one while the other is read never blocks.
 * devclient/devspawn.c starts a daemon its own way: it must keep running
 * after its parent returns (a mount to wait for), which this waits out.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "alloc.h"
#include "child.h"

#define EXCERPT 4096

/* stderr's first and last EXCERPT bytes */
struct excerpt {
	char head[EXCERPT], tail[EXCERPT];
	size_t nhead, ntail;
};

static void excerpt_add(struct excerpt *x, const char *p, size_t n)
{
	size_t k = n < EXCERPT - x->nhead ? n : EXCERPT - x->nhead, drop;

	memcpy(x->head + x->nhead, p, k);
	x->nhead += k;
	if (n >= EXCERPT) {
		memcpy(x->tail, p + n - EXCERPT, EXCERPT);
		x->ntail = EXCERPT;
		return;
	}
	if (x->ntail + n > EXCERPT) {
		drop = x->ntail + n - EXCERPT;
		memmove(x->tail, x->tail + drop, x->ntail - drop);
		x->ntail -= drop;
	}
	memcpy(x->tail + x->ntail, p, n);
	x->ntail += n;
}

/* The excerpt's first line, or its last non-empty one, into err. */
static void excerpt_line(const struct excerpt *x, bool last, char *err, size_t errlen)
{
	const char *text = last ? x->tail : x->head, *end, *start;
	size_t n = last ? x->ntail : x->nhead;

	if (!last) {
		end = memchr(text, '\n', n);
		snprintf(err, errlen, "%.*s", (int)(end ? (size_t)(end - text) : n), text);
		return;
	}
	for (end = text + n; end > text && (end[-1] == '\n' || end[-1] == ' ' || end[-1] == '\r');)
		end--;
	for (start = end; start > text && start[-1] != '\n'; start--)
		;
	snprintf(err, errlen, "%.*s", (int)(end - start), start);
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void __attribute__((noreturn)) child_exec(const struct cz_child *c, int ofd, int efd)
{
	int nul = c->flags & (CZ_CHILD_NULL_IN | CZ_CHILD_NULL_OUT) ? open("/dev/null", O_RDWR) : -1;

	if (nul >= 0 && (c->flags & CZ_CHILD_NULL_IN))
		dup2(nul, 0);
	if (ofd >= 0)
		dup2(ofd, 1);
	else if (nul >= 0 && (c->flags & CZ_CHILD_NULL_OUT))
		dup2(nul, 1);
	if (efd >= 0)
		dup2(efd, 2);
	else if (nul >= 0 && (c->flags & CZ_CHILD_NULL_OUT))
		dup2(nul, 2);
	signal(SIGPIPE, SIG_DFL);
	execvp(c->argv[0], (char *const *)c->argv);
	dprintf(2, "%s: %s\n", c->argv[0], strerror(errno));
	_exit(127);
}

/* Kill the child when the deadline (0: none) has passed; the poll wait until it, or -1. */
static int deadline_wait(struct cz_child *c, pid_t pid, uint64_t deadline)
{
	uint64_t now;

	if (!deadline || c->timed_out)
		return -1;
	now = now_ms();
	if (now < deadline)
		return (int)(deadline - now);
	kill(pid, SIGKILL);
	c->timed_out = true;
	return -1;
}

/* Read one ready pipe: false at its end. */
static bool read_out(struct cz_child *c, int fd, size_t *cap)
{
	char junk[4096];
	bool keep = c->len < CZ_CHILD_OUT_MAX;
	ssize_t got;

	if (keep && *cap - c->len < 4096)
		c->out = cz_xrealloc(c->out, *cap *= 2);
	got = read(fd, keep ? c->out + c->len : junk, keep ? *cap - c->len - 1 : sizeof(junk));
	if (got > 0 && keep)
		c->len += (size_t)got;
	return got > 0 || (got < 0 && errno == EINTR);
}

static bool read_err(int fd, struct excerpt *x)
{
	char buf[4096];
	ssize_t got = read(fd, buf, sizeof(buf));

	if (got > 0)
		excerpt_add(x, buf, (size_t)got);
	return got > 0 || (got < 0 && errno == EINTR);
}

static void drain(struct cz_child *c, int ofd, int efd, pid_t pid, uint64_t deadline)
{
	struct pollfd pf[2] = { { ofd, POLLIN, 0 }, { efd, POLLIN, 0 } };
	struct excerpt x;
	int open_fds = (ofd >= 0) + (efd >= 0), r;
	size_t cap = 65536;

	memset(&x, 0, sizeof(x));
	if (ofd >= 0)
		c->out = cz_xmalloc(cap);
	while (open_fds) {
		r = poll(pf, 2, deadline_wait(c, pid, deadline));
		if (r < 0 && errno != EINTR)
			break;
		if (r <= 0)
			continue;
		if (pf[0].revents && !read_out(c, pf[0].fd, &cap)) {
			pf[0].fd = -1;
			open_fds--;
		}
		if (pf[1].revents && !read_err(pf[1].fd, &x)) {
			pf[1].fd = -1;
			open_fds--;
		}
	}
	if (c->out)
		c->out[c->len] = 0;
	if (efd >= 0)
		excerpt_line(&x, c->flags & CZ_CHILD_ERR_LAST, c->err, sizeof(c->err));
}

/* wait4, EINTR retried; with a deadline, the child is killed when it passes. */
static int reap(struct cz_child *c, pid_t pid, uint64_t deadline)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	int st = 0;
	pid_t got;

	for (;;) {
		got = wait4(pid, &st, deadline && !c->timed_out ? WNOHANG : 0, &c->ru);
		if (got == pid) {
			c->wstatus = st;
			break;
		}
		if (got < 0 && errno != EINTR)
			return -errno;
		if (got == 0) {
			deadline_wait(c, pid, deadline);
			nanosleep(&tick, NULL);
		}
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void close_pipe(int p[2])
{
	if (p[0] >= 0)
		close(p[0]);
	if (p[1] >= 0)
		close(p[1]);
	p[0] = p[1] = -1;
}

int cz_child_run(struct cz_child *c)
{
	int po[2] = { -1, -1 }, pe[2] = { -1, -1 }, err;
	uint64_t deadline = c->timeout ? now_ms() + (uint64_t)c->timeout * 1000 : 0;
	pid_t pid;

	c->out = NULL;
	c->len = 0;
	c->err[0] = 0;
	c->timed_out = false;
	memset(&c->ru, 0, sizeof(c->ru));
	if (((c->flags & CZ_CHILD_OUT) && pipe2(po, O_CLOEXEC)) ||
	    ((c->flags & CZ_CHILD_ERR) && pipe2(pe, O_CLOEXEC))) {
		err = -errno;
		close_pipe(po);
		return err;
	}
	pid = fork();
	if (pid == 0)
		child_exec(c, po[1], pe[1]);
	err = pid < 0 ? -errno : 0;
	if (po[1] >= 0)
		close(po[1]);
	if (pe[1] >= 0)
		close(pe[1]);
	po[1] = pe[1] = -1;
	if (pid < 0) {
		close_pipe(po);
		close_pipe(pe);
		return err;
	}
	drain(c, po[0], pe[0], pid, deadline);
	close_pipe(po);
	close_pipe(pe);
	return reap(c, pid, deadline);
}
