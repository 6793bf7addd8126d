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
 *
 * The checks run in a child process with a time limit: a wild jump, an
 * illegal instruction or a fixup that loops is reported, not suffered.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ksrc_int.h"

#define CANARY 0xa5
#define PAGE 4096u
#define SPAN (80u * 1024)       /* largest size checked + slack */
#define GUARD_PAGES 3u
#define MSG 400

struct chk {
	unsigned char *map, *guard;
	char *msg;              /* shared with the parent: the case, then the verdict */
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

static int run_checks(const struct chk *c, zero_fn fn, bool fault_safe, bool exact)
{
	static const size_t sizes[] = { 511, 512, 513, 1000, 1024, 4095, 4096, 4097, 8191, 8192,
					12288 + 17, 65535, 65536, 65536 + 63 };
	static const unsigned mis[] = { 0, 1, 7, 8, 15, 16, 33, 63 };
	static const size_t dd[] = { 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 63, 64, 65, 100, 4097 };
	size_t n, i, j;

	for (n = 0; n <= 256; n++)
		for (j = 0; j < 64; j++)
			if (one(c, fn, n, (unsigned)j))
				return -1;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		for (j = 0; j < sizeof(mis) / sizeof(mis[0]); j++)
			if (one(c, fn, sizes[i], mis[j]))
				return -1;
	if (!fault_safe)
		return 0;
	for (n = 0; n <= 72; n++)
		for (j = 0; j < sizeof(dd) / sizeof(dd[0]); j++)
			if (one_fault(c, fn, n, dd[j], exact))
				return -1;
	for (n = 4088; n <= 4104; n++)
		if (one_fault(c, fn, n, 9, exact))
			return -1;
	return 0;
}

int ksrc_check(zero_fn fn, bool fault_safe, bool exact_fault, char *err, size_t errlen)
{
	size_t data = SPAN + PAGE, len = data + GUARD_PAGES * PAGE;
	struct chk c;
	pid_t pid;
	int st;

	c.map = mmap(NULL, len + PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (c.map == MAP_FAILED)
		return -errno;
	c.guard = c.map + data;
	c.msg = (char *)(c.map + len);
	/* the message page is shared so the parent sees the last case of a crashed child */
	if (mprotect(c.guard, GUARD_PAGES * PAGE, PROT_NONE) ||
	    mmap(c.msg, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_FIXED, -1, 0) ==
	    MAP_FAILED) {
		munmap(c.map, len + PAGE);
		return -errno;
	}
	c.msg[0] = 0;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		alarm(20);
		if (fault_safe)
			zero_fault_install();
		_exit(run_checks(&c, fn, fault_safe, exact_fault) ? 1 : 0);
	}
	st = -1;
	if (pid > 0)
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
	if (pid < 0 || st == -1)
		snprintf(err, errlen, "cannot run the check: %s", strerror(errno));
	else if (WIFSIGNALED(st))
		snprintf(err, errlen, "killed by %s (%s) during the check of %s",
			 WTERMSIG(st) == SIGALRM ? "the 20 s limit" : "a signal",
			 strsignal(WTERMSIG(st)), c.msg);
	else if (WEXITSTATUS(st))
		snprintf(err, errlen, "%s", c.msg);
	munmap(c.map, len + PAGE);
	return pid > 0 && st == 0 ? 0 : -EINVAL;
}
