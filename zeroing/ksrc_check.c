/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A loaded routine is checked before its first use, so a patch that breaks
 * clearing is reported as incorrect with its first failing case and never
 * timed.  A fast version of the exhaustive routine tests: every size 0..256
 * at every misalignment mod 64, then page-sized and odd sizes at a few;
 * each destination ends at (or within 63 bytes of) a PROT_NONE guard page,
 * with canary bytes around it, so an overrun, an underrun, a byte not
 * cleared and a wrong return are each caught.  For a fault-safe routine,
 * stores running into the guard must come back as the bytes not cleared
 * (at least the guarded ones, at most all, everything before them zero).
 * About 18,000 calls: 0.2 s of CPU under qemu-aarch64 (TCG), so the same
 * cases run everywhere.
 *
 * The checks run in a child process: a wild jump or an illegal instruction
 * is reported, not suffered.  The parent keeps the time limit itself (the
 * child is SIGKILLed at LIMIT_S, whatever it inherited: an ignored or
 * blocked SIGALRM would defeat an alarm() in the child) and, past
 * PROGRESS_S, says on stderr every PROGRESS_S how far the check is.  The
 * child comes from _Fork() (glibc >= 2.34), not fork(): it runs no atfork
 * handler and none of fork()'s child-side bookkeeping, only the cases and
 * _exit().  That bookkeeping is where an arm64 program spins forever under
 * qemu-aarch64 -L /usr/aarch64-linux-gnu (or QEMU_LD_PREFIX) beside
 * Debian's libc6:arm64: the cross sysroot's ld-linux-aarch64.so.1 with the
 * multiarch libc.so.6 of another glibc build, whose fork() walks ld.so's
 * list of thread stacks (reclaim_stacks, glibc posix/fork.c) at the wrong
 * offset.  A child that never reaches its first case is named as such.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ksrc_int.h"

#define CANARY 0xa5
#define PAGE 4096u
#define SPAN (80u * 1024)       /* largest size checked + slack */
#define GUARD_PAGES 3u
#define MSG 400
#define LIMIT_S 20
#define PROGRESS_S 2

/* The page shared with the parent: how far the child is, and what it does. */
struct chk_shared {
	volatile unsigned long started, done;   /* started: set by the child first */
	char msg[MSG];          /* the case, then the verdict */
};

struct chk {
	unsigned char *map, *guard;
	char *msg;              /* = sh->msg */
	struct chk_shared *sh;
};

static long first_not(const unsigned char *p, size_t n, unsigned char v)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != v)
			return (long)i;
	return -1;
}

/* One call: n bytes at misalignment mis, ending as near the guard as allowed. */
static int one(const struct chk *c, zero_fn fn, size_t n, unsigned mis)
{
	uintptr_t end = (uintptr_t)c->guard - n, slack = (end - mis) & 63;
	unsigned char *dst = (unsigned char *)(end - slack);
	size_t r;
	long i;

	c->sh->done++;
	snprintf(c->msg, MSG, "size %zu at misalignment %u", n, mis);
	memset(dst - 64, CANARY, (size_t)(c->guard - (dst - 64)));
	r = fn(dst, n);
	if (r) {
		snprintf(c->msg, MSG, "size %zu at misalignment %u: returned %zu bytes not cleared "
			 "(no fault: 0 expected)", n, mis, r);
		return -1;
	}
	if ((i = first_not(dst, n, 0)) >= 0) {
		snprintf(c->msg, MSG, "size %zu at misalignment %u: byte %ld = %#x (not cleared)",
			 n, mis, i, dst[i]);
		return -1;
	}
	if ((i = first_not(dst - 64, 64, CANARY)) >= 0 ||
	    (i = first_not(dst + n, slack, CANARY)) >= 0) {
		snprintf(c->msg, MSG, "size %zu at misalignment %u: wrote outside the buffer", n, mis);
		return -1;
	}
	return 0;
}

/* k writable bytes before the guard, d more into it. */
static int one_fault(const struct chk *c, zero_fn fn, size_t k, size_t d, bool exact)
{
	unsigned char *dst = c->guard - k;
	size_t n = k + d, r;
	long i;

	c->sh->done++;
	snprintf(c->msg, MSG, "a fault after %zu of %zu bytes", k, n);
	memset(dst - 64, CANARY, k + 64);
	r = fn(dst, n);
	if (r < d || r > n || (exact && r != d)) {
		snprintf(c->msg, MSG, "a fault after %zu of %zu bytes: returned %zu bytes not cleared "
			 "(%s %zu)", k, n, r, exact ? "exactly" : "from", d);
		return -1;
	}
	if ((i = first_not(dst, n - r, 0)) >= 0 || first_not(dst - 64, 64, CANARY) >= 0) {
		snprintf(c->msg, MSG, "a fault after %zu of %zu bytes: claims %zu cleared, byte %ld is not",
			 k, n, n - r, i);
		return -1;
	}
	return 0;
}

static const size_t sizes[] = { 511, 512, 513, 1000, 1024, 4095, 4096, 4097, 8191, 8192,
				12288 + 17, 65535, 65536, 65536 + 63 };
static const unsigned mis[] = { 0, 1, 7, 8, 15, 16, 33, 63 };
static const size_t dd[] = { 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 63, 64, 65, 100, 4097 };
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
#define SMALL_MAX 256u
#define FAULT_K_MAX 72u
#define FAULT_PAGE_LO 4088u
#define FAULT_PAGE_HI 4104u

/* The number of calls run_checks() makes when every case passes. */
static unsigned long n_cases(bool fault_safe)
{
	unsigned long n = (SMALL_MAX + 1) * 64ul + NELEM(sizes) * NELEM(mis);

	if (fault_safe)
		n += (FAULT_K_MAX + 1) * NELEM(dd) + (FAULT_PAGE_HI - FAULT_PAGE_LO + 1);
	return n;
}

static int run_checks(const struct chk *c, zero_fn fn, bool fault_safe, bool exact)
{
	size_t n, i, j;

	for (n = 0; n <= SMALL_MAX; n++)
		for (j = 0; j < 64; j++)
			if (one(c, fn, n, (unsigned)j))
				return -1;
	for (i = 0; i < NELEM(sizes); i++)
		for (j = 0; j < NELEM(mis); j++)
			if (one(c, fn, sizes[i], mis[j]))
				return -1;
	if (!fault_safe)
		return 0;
	for (n = 0; n <= FAULT_K_MAX; n++)
		for (j = 0; j < NELEM(dd); j++)
			if (one_fault(c, fn, n, dd[j], exact))
				return -1;
	for (n = FAULT_PAGE_LO; n <= FAULT_PAGE_HI; n++)
		if (one_fault(c, fn, n, 9, exact))
			return -1;
	return 0;
}

/*
 * A child without fork()'s child-side work (see the top of this file):
 * _Fork() where glibc has it, else fork().
 */
static pid_t check_fork(void)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
	return _Fork();
#else
	return fork();
#endif
}

static double since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

/* One progress line on stderr: what is checked, how far, the case running. */
static void progress(const char *what, const struct chk_shared *sh, unsigned long total, double s)
{
	char now[MSG];

	memcpy(now, sh->msg, MSG);
	now[MSG - 1] = 0;
	if (!sh->started)
		fprintf(stderr, "%s: checking %s before use: %.0f s, its process has not started yet\n",
			program_invocation_short_name, what, s);
	else
		fprintf(stderr, "%s: checking %s before use: %.0f s, case %lu of %lu (%s)\n",
			program_invocation_short_name, what, s, sh->done, total, now);
}

/*
 * Wait for the child; kill it at LIMIT_S.  0 with *st, or -errno.  *timed_out
 * says the limit was hit; *shown, that progress lines were printed.
 */
static int wait_check(pid_t pid, const char *what, const struct chk_shared *sh,
		      unsigned long total, int *st, bool *timed_out, bool *shown)
{
	struct timespec t0, nap = { 0, 1000000 };
	double next = PROGRESS_S, s;
	pid_t r;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	*timed_out = *shown = false;
	for (;;) {
		r = waitpid(pid, st, WNOHANG);
		if (r == pid)
			return 0;
		if (r < 0 && errno != EINTR)
			return -errno;
		s = since(&t0);
		if (s >= LIMIT_S && !*timed_out) {
			*timed_out = true;
			kill(pid, SIGKILL);
		}
		if (s >= next && !*timed_out) {
			progress(what, sh, total, s);
			*shown = true;
			next += PROGRESS_S;
		}
		nanosleep(&nap, NULL);
		if (nap.tv_nsec < 20000000)
			nap.tv_nsec *= 2;
	}
}

/* The verdict of a finished check in err (nothing when it passed). */
static void verdict(int st, bool timed_out, const struct chk_shared *sh, char *err, size_t errlen)
{
	if (timed_out && !sh->started)
		snprintf(err, errlen, "killed by the %d s limit: the check's child process never "
			 "reached its first case (stuck in fork()?)", LIMIT_S);
	else if (timed_out)
		snprintf(err, errlen, "killed by the %d s limit during the check of %s "
			 "(case %lu)", LIMIT_S, sh->msg, sh->done);
	else if (WIFSIGNALED(st))
		snprintf(err, errlen, "killed by a signal (%s) during the check of %s",
			 strsignal(WTERMSIG(st)), sh->msg);
	else if (WEXITSTATUS(st))
		snprintf(err, errlen, "%s", sh->msg);
}

int ksrc_check(zero_fn fn, const char *what, bool fault_safe, bool exact_fault, char *err,
	       size_t errlen)
{
	size_t data = SPAN + PAGE, len = data + GUARD_PAGES * PAGE;
	unsigned long total = n_cases(fault_safe);
	bool timed_out = false, shown = false;
	struct timespec t0;
	struct chk c;
	pid_t pid;
	int st = -1, ret;

	c.map = mmap(NULL, len + PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (c.map == MAP_FAILED)
		return -errno;
	c.guard = c.map + data;
	c.sh = (struct chk_shared *)(c.map + len);
	/* the shared page lets the parent see the last case of a crashed or killed child */
	if (mprotect(c.guard, GUARD_PAGES * PAGE, PROT_NONE) ||
	    mmap(c.sh, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_FIXED, -1, 0) ==
	    MAP_FAILED) {
		ret = -errno;
		munmap(c.map, len + PAGE);
		return ret;
	}
	c.msg = c.sh->msg;
	fflush(NULL);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = check_fork();
	if (pid == 0) {
		c.sh->started = 1;
		if (fault_safe)
			zero_fault_install();
		_exit(run_checks(&c, fn, fault_safe, exact_fault) ? 1 : 0);
	}
	ret = pid < 0 ? -errno : wait_check(pid, what, c.sh, total, &st, &timed_out, &shown);
	if (ret)
		snprintf(err, errlen, "cannot run the check: %s", strerror(-ret));
	else
		verdict(st, timed_out, c.sh, err, errlen);
	if (!ret && shown)
		fprintf(stderr, "%s: checking %s before use: %s after %.1f s, %lu of %lu cases\n",
			program_invocation_short_name, what, timed_out || st ? "stopped" : "passed",
			since(&t0), c.sh->done, total);
	munmap(c.map, len + PAGE);
	return !ret && !timed_out && st == 0 ? 0 : -EINVAL;
}
