/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Helpers shared by the zeroing tests: a buffer whose usable part ends
 * exactly at a PROT_NONE guard, filled with a canary byte, and checks that
 * name the first wrong byte.  Arch-neutral (runs under qemu-aarch64 too).
 */
#ifndef TESTS_ZEROING_ZT_H
#define TESTS_ZEROING_ZT_H

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ksrc.h"
#include "zeroing.h"

#define ZT_CANARY 0xA5
#define ZT_PAGE 4096u
#define ZT_REDZONE 64u   /* canary bytes checked before dst */

struct zt_buf {
	unsigned char *map;
	size_t map_len;
	unsigned char *guard;   /* first PROT_NONE byte */
	size_t guard_len;
};

/*
 * Room for max_len bytes + ZT_REDZONE before + up to 63 bytes of slack
 * after, then guard_pages PROT_NONE pages.  0 or -errno.
 */
static inline int zt_buf_init(struct zt_buf *b, size_t max_len, unsigned guard_pages)
{
	size_t data = (max_len + ZT_REDZONE + 64 + ZT_PAGE - 1) / ZT_PAGE * ZT_PAGE + ZT_PAGE;

	b->guard_len = (size_t)guard_pages * ZT_PAGE;
	b->map_len = data + b->guard_len;
	b->map = mmap(NULL, b->map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (b->map == MAP_FAILED)
		return -errno;
	b->guard = b->map + data;
	if (mprotect(b->guard, b->guard_len, PROT_NONE))
		return -errno;
	return 0;
}

static inline void zt_buf_free(struct zt_buf *b)
{
	munmap(b->map, b->map_len);
}

/*
 * The destination for n bytes at misalignment mis (dst % 64 == mis) placed
 * as close to the guard as possible: dst + n + slack == guard with slack in
 * 0..63, so for one misalignment per size the range ends exactly at the
 * guard (an overrun faults), and for the others the slack bytes are canary.
 */
static inline unsigned char *zt_dst(const struct zt_buf *b, size_t n, unsigned mis)
{
	uintptr_t end = (uintptr_t)b->guard - n;
	uintptr_t slack = (end - mis) & 63;

	return (unsigned char *)(end - slack);
}

/* Index of the first byte of p[0..len) != val, or -1. */
static inline long zt_first_not(const unsigned char *p, size_t len, unsigned char val)
{
	static unsigned char ref[2][ZT_PAGE];
	static int ready;
	const unsigned char *r;
	size_t off = 0, i;

	if (!ready) {
		memset(ref[1], ZT_CANARY, ZT_PAGE);
		ready = 1;
	}
	if (val != 0 && val != ZT_CANARY) {
		for (i = 0; i < len; i++)
			if (p[i] != val)
				return (long)i;
		return -1;
	}
	r = ref[val == ZT_CANARY];
	while (off < len) {
		size_t chunk = len - off < ZT_PAGE ? len - off : ZT_PAGE;

		if (memcmp(p + off, r, chunk))
			for (i = 0; i < chunk; i++)
				if (p[off + i] != val)
					return (long)(off + i);
		off += chunk;
	}
	return -1;
}

/* Canary from dst - ZT_REDZONE up to the guard. */
static inline void zt_fill(const struct zt_buf *b, unsigned char *dst)
{
	memset(dst - ZT_REDZONE, ZT_CANARY, (size_t)(b->guard - (dst - ZT_REDZONE)));
}

/*
 * After fn(dst, n) returned having cleared `cleared` bytes: [dst, dst +
 * cleared) must be zero, the red zone before dst untouched and, if
 * check_after, [dst + n, guard) untouched.  Writes a one-line description
 * of the first wrong byte into msg and returns false on failure.
 */
static inline int zt_check(const struct zt_buf *b, const unsigned char *dst, size_t n,
			   size_t cleared, int check_after, char *msg, size_t msglen)
{
	long i;

	i = zt_first_not(dst - ZT_REDZONE, ZT_REDZONE, ZT_CANARY);
	if (i >= 0) {
		snprintf(msg, msglen, "canary byte dst-%ld = %#x (written before dst)",
			 (long)ZT_REDZONE - i, dst[i - (long)ZT_REDZONE]);
		return 0;
	}
	i = zt_first_not(dst, cleared, 0);
	if (i >= 0) {
		snprintf(msg, msglen, "byte dst+%ld = %#x (not cleared)", i, dst[i]);
		return 0;
	}
	if (check_after) {
		i = zt_first_not(dst + n, (size_t)(b->guard - (dst + n)), ZT_CANARY);
		if (i >= 0) {
			snprintf(msg, msglen, "byte dst+n+%ld = %#x (written past the end)",
				 i, dst[n + (size_t)i]);
			return 0;
		}
	}
	return 1;
}

/*
 * A crash (an overrun into the guard, say) kills the test; name the step
 * that was running so the log says which routine and size did it.
 */
static char zt_step[256];

static inline void zt_crash_handler(int sig)
{
	static const char pre[] = "Bail out! fatal signal during: ";
	ssize_t r;

	r = write(STDOUT_FILENO, pre, sizeof(pre) - 1);
	r = write(STDOUT_FILENO, zt_step, strnlen(zt_step, sizeof(zt_step)));
	r = write(STDOUT_FILENO, "\n", 1);
	(void)r;
	signal(sig, SIG_DFL);
	raise(sig);
}

static inline void zt_crash_install(void)
{
	signal(SIGSEGV, zt_crash_handler);
	signal(SIGBUS, zt_crash_handler);
	signal(SIGILL, zt_crash_handler);
}

/*
 * The routines a test walks, [*first, return): the built-in registry, or,
 * when the test is given --source (and --patch, --alt, --kconfig: kernel
 * source files loaded as routines, zeroing/ksrc.h), only the loaded ones --
 * the same checks on the kernel's own files.  Exits on a bad option or a
 * file that does not load.
 */
static inline size_t zt_routines(int argc, char **argv, size_t *first)
{
	static const struct option opts[] = { ZERO_KSRC_LONGOPTS(1000), { NULL, 0, NULL, 0 } };
	static struct zero_ksrc_set set;
	const struct zero_routine *loaded[ZERO_KSRC_MAX_SOURCES];
	char err[1024];
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c < 1000 || zero_ksrc_option(&set, c - 1000, optarg, err, sizeof(err))) {
			printf("Bail out! bad option (--source PATH[:SYMBOL] --patch F --alt F=on|off)\n");
			exit(1);
		}
	}
	*first = 0;
	if (!set.n)
		return zero_nroutines;
	if (zero_ksrc_load_all(&set, loaded, err, sizeof(err))) {
		printf("Bail out! %s\n", err);
		exit(1);
	}
	*first = zero_nroutines;
	return zero_count();
}

/*
 * A bound on the faults of one routine call.  The fault handler resumes at
 * a fixup that returns; a fixup resuming at the wrong address -- the
 * faulting store itself -- faults again forever, and the test would spin
 * until make's timeout instead of failing.  zt_fault_bound() chains a
 * counter in front of the installed handler; zt_fault_call() starts a call.
 * A correct call faults once or twice (a fixup's byte loop may fault again).
 */
#define ZT_FAULTS_PER_CALL 64

static struct sigaction zt_prev_segv __attribute__((unused));
static struct sigaction zt_prev_bus __attribute__((unused));
static volatile sig_atomic_t zt_faults __attribute__((unused));

static inline void zt_fault_count(int sig, siginfo_t *si, void *uc)
{
	static const char msg[] = "Bail out! more than 64 faults in one routine call: "
				  "a fixup resumes where it faulted?\n";
	const struct sigaction *prev = sig == SIGBUS ? &zt_prev_bus : &zt_prev_segv;

	if (++zt_faults > ZT_FAULTS_PER_CALL) {
		if (write(STDOUT_FILENO, msg, sizeof(msg) - 1) < 0)
			_exit(2);
		_exit(1);
	}
	if (prev->sa_flags & SA_SIGINFO) {
		prev->sa_sigaction(sig, si, uc);
		return;
	}
	/* no handler before ours: the default action, on the re-executed store */
	signal(sig, SIG_DFL);
}

/* After zero_fault_install(): 0 or -errno. */
static inline int zt_fault_bound(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = zt_fault_count;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, &sa, &zt_prev_segv) || sigaction(SIGBUS, &sa, &zt_prev_bus))
		return -errno;
	return 0;
}

static inline void zt_fault_call(void)
{
	zt_faults = 0;
}

#endif
