/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Description: clear_user partial-fault semantics.  After
 * zero_fault_install(), every usable ZERO_F_CLEAR_USER routine is called on
 * a destination with k writable bytes before a PROT_NONE region and n = k + d
 * (d > 0 bytes in the guard).  The returned count r of bytes NOT cleared
 * must satisfy:
 *   - [dst, dst + n - r) is all zero            (what it claims is cleared is)
 *   - r >= d                                    (it cannot have cleared the guard)
 *   - r - d <= overcount(routine)               (it reports close to exact)
 *   - the 64 canary bytes before dst are intact
 * overcount is 0 ("exact") for rep_stosb (the CPU stops on the faulting
 * byte) and rep_stos_alternative (a faulting quadword is retried byte by
 * byte), else 7: the other routines resume from the start of the faulting
 * store, at most 8 bytes wide (8-byte stores of rep_stosq and the
 * clear_user_arm64 ports; on arm64 the sttr stores of __arch_clear_user).
 * k covers 0..136 (every misalignment, twice) and runs ending near 4 KiB and
 * 64 KiB (loop exits after many iterations); d covers 1..72 and longer runs.
 *
 * Also: a routine WITHOUT the flag faulting into the guard, and a store to
 * page zero, and a raise(SIGSEGV), still kill the process with SIGSEGV after
 * zero_fault_install() (checked in forked children): recovery is only for
 * the exception tables, never a silent catch-all.
 */
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "util.h"
#include "zeroing.h"
#include "../tap.h"
#include "zt.h"

#define GUARD_PAGES 4u      /* > the largest d: no store can skip past it */

static const size_t d_extra[] = { 100, 127, 128, 129, 4096, 4097, 9000 };
static const size_t k_extra[] = {
	4088, 4089, 4090, 4091, 4092, 4093, 4094, 4095, 4096, 4097, 4100, 4104,
	65530, 65533, 65536, 65537, 65540,
};

static size_t overcount(const struct zero_routine *r)
{
	/* the kernel's own file too ("clear_page_64.S:rep_stos_alternative") */
	if (!strcmp(r->name, "rep_stosb") || strstr(r->name, "rep_stos_alternative"))
		return 0;
	return 7;
}

static int fault_case(const struct zero_routine *r, const struct zt_buf *b, size_t k, size_t d,
		      char *msg, size_t msglen)
{
	unsigned char *dst = b->guard - k;
	size_t n = k + d, ret, max_over = overcount(r);
	char why[160];

	zt_fill(b, dst);
	zt_fault_call();
	ret = r->fn(dst, n);
	if (ret > n || ret < d) {
		snprintf(msg, msglen, "k=%zu n=%zu: returned %zu, bytes in the guard %zu", k, n, ret, d);
		return 0;
	}
	if (ret - d > max_over) {
		snprintf(msg, msglen, "k=%zu n=%zu: returned %zu, exact %zu, over by %zu > %zu",
			 k, n, ret, d, ret - d, max_over);
		return 0;
	}
	if (!zt_check(b, dst, n, n - ret, 0, why, sizeof(why))) {
		snprintf(msg, msglen, "k=%zu n=%zu returned %zu: %s", k, n, ret, why);
		return 0;
	}
	return 1;
}

static int fault_sweep(const struct zero_routine *r, const struct zt_buf *b, char *msg, size_t msglen)
{
	size_t k, d, i, j;

	for (k = 0; k <= 136; k++) {
		for (d = 1; d <= 72; d++)
			if (!fault_case(r, b, k, d, msg, msglen))
				return 0;
		for (j = 0; j < CZ_ARRAY_SIZE(d_extra); j++)
			if (!fault_case(r, b, k, d_extra[j], msg, msglen))
				return 0;
	}
	for (i = 0; i < CZ_ARRAY_SIZE(k_extra); i++)
		for (d = 1; d <= 72; d += 7)
			if (!fault_case(r, b, k_extra[i], d, msg, msglen))
				return 0;
	return 1;
}

/* Run fn in a child; return its wait status. */
static int in_child(void (*fn)(const void *), const void *arg)
{
	struct rlimit no_core = { 0, 0 };
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		setrlimit(RLIMIT_CORE, &no_core);
		fn(arg);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return status;
}

static struct zt_buf buf;

static void child_overrun(const void *arg)
{
	const struct zero_routine *r = arg;

	if (zero_fault_install())
		_exit(2);
	r->fn(buf.guard - 8, 64);
}

static void child_page_zero(const void *arg)
{
	/* Page zero but not NULL itself, which UBSan would report first. */
	volatile int *volatile p = (volatile int *)(uintptr_t)64;

	(void)arg;
	if (zero_fault_install())
		_exit(2);
	*p = 1;
}

static void child_raise(const void *arg)
{
	(void)arg;
	if (zero_fault_install())
		_exit(2);
	raise(SIGSEGV);
}

static int died_segv(int status)
{
	return status != -1 && WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV;
}

static void describe_status(int status, char *out, size_t len)
{
	if (status == -1)
		snprintf(out, len, "fork/wait failed");
	else if (WIFSIGNALED(status))
		snprintf(out, len, "killed by signal %d", WTERMSIG(status));
	else
		snprintf(out, len, "exited with %d", WEXITSTATUS(status));
}

int main(int argc, char **argv)
{
	size_t first, count = zt_routines(argc, argv, &first);
	char how[64];
	size_t i;
	int ret, status;

	ret = zt_buf_init(&buf, 65540 + ZT_PAGE, GUARD_PAGES);
	if (ret) {
		printf("Bail out! mmap/mprotect of the test buffer: %s\n", strerror(-ret));
		return 1;
	}

	/* A child installs the handler, then stores to page zero: not ours, must die. */
	status = in_child(child_page_zero, NULL);
	describe_status(status, how, sizeof(how));
	tap_ok(died_segv(status), "store to page zero after zero_fault_install() kills with SIGSEGV (%s)", how);

	/* A SIGSEGV sent by raise()/kill() is not a fault: it must not be swallowed. */
	status = in_child(child_raise, NULL);
	describe_status(status, how, sizeof(how));
	tap_ok(died_segv(status), "raise(SIGSEGV) after zero_fault_install() kills (%s)", how);

	ret = zero_fault_install();
	tap_ok(ret == 0, "zero_fault_install() = %d", ret);
	tap_ok(zero_fault_install() == 0, "zero_fault_install() is idempotent");
	if (ret)
		return tap_done();
	ret = zt_fault_bound();
	tap_ok(ret == 0, "a bound of %d faults per call in front of it: %d", ZT_FAULTS_PER_CALL, ret);

	for (i = first; i < count; i++) {
		const struct zero_routine *r = zero_at(i);
		const char *why = NULL;
		char msg[256] = "";

		if (!zero_usable(r, &why)) {
			tap_skip("%s: %s", r->name, why);
			continue;
		}
		if (r->flags & ZERO_F_CLEAR_USER) {
			int ok = fault_sweep(r, &buf, msg, sizeof(msg));

			tap_ok(ok, "%s: partial fault returns bytes not cleared (over by <= %zu)%s%s",
			       r->name, overcount(r), ok ? "" : ": ", msg);
		} else {
			status = in_child(child_overrun, r);
			describe_status(status, how, sizeof(how));
			tap_ok(died_segv(status),
			       "%s: not fault-safe, a fault in it still kills with SIGSEGV (%s)",
			       r->name, how);
		}
	}
	zt_buf_free(&buf);
	return tap_done();
}
