/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Description: the daemon's read path (cuse/readpath.c) without FUSE, so it
 * runs anywhere (no root, no /dev/fuse, cross builds under qemu-user):
 * every usable routine x placements x chunk sizes returns all-zero replies
 * from a poisoned buffer; statistics count exactly; invalid settings are
 * refused with EINVAL and change nothing, several at once included (all or
 * nothing); and settings swapped while four
 * threads read never hand out a non-zero byte (the hazard-slot scheme).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "cuse/readpath.h"
#include "tests/tap.h"
#include "util.h"

static const size_t sizes[] = { 1, 7, 64, 4095, 4096, 4097, 12345, 131072, 1048576 };

/* One routine, one setting: every size zero. Returns 0 or the failing size. */
static size_t read_all_sizes(void)
{
	size_t i, n, bad;

	for (i = 0; i < CZ_ARRAY_SIZE(sizes); i++) {
		const unsigned char *p = rp_read(sizes[i]);

		n = sizes[i];
		bad = cz_first_nonzero(p, n);
		if (bad != n) {
			tap_diag("size %zu: byte %zu = %#x", n, bad, p[bad]);
			return n;
		}
	}
	return 0;
}

/* Several settings in one rp_apply: one bad value refuses all of them. */
static void check_apply_whole(void)
{
	struct rp_change c1 = { .routine = "c_store_loop", .chunk_set = true, .chunk = 0 };
	struct rp_change c2 = { .routine = "memset", .align_set = true, .align = 100 };
	struct rp_change c3 = { .point_set = true, .point = ZERO_POINT_ENTRY };
	struct rp_change c4 = { .chunk_set = true, .chunk = 8192, .align_set = true,
				.align = CUSEZERO_ALIGN_NONE, .point_set = true,
				.point = ZERO_POINT_ENTRY };

	tap_ok(rp_apply(&c1) == -EINVAL, "routine c_store_loop + chunk 0 -> EINVAL");
	tap_ok(rp_apply(&c2) == -EINVAL, "routine memset (not relocatable) + align 100 -> EINVAL");
	tap_ok(rp_apply(&c3) == -EINVAL, "point entry without an offset -> EINVAL");
	tap_ok(rp_apply(&c4) == -EINVAL, "chunk 8192 + align none + point entry -> EINVAL");
}

static atomic_bool stop;
static atomic_ulong bad_bytes, reads;
static unsigned next_idx = 1;

static void *reader(void *arg)
{
	unsigned idx = (unsigned)(uintptr_t)arg, k = 0;

	if (rp_thread_attach(idx))
		return NULL;
	while (!atomic_load(&stop)) {
		size_t n = sizes[k++ % CZ_ARRAY_SIZE(sizes)];
		const unsigned char *p = rp_read(n);

		if (cz_first_nonzero(p, n) != n)
			atomic_fetch_add(&bad_bytes, 1);
		atomic_fetch_add(&reads, 1);
	}
	return NULL;
}

/*
 * A routine that faults inside the reply buffer (a daemon bug): the first
 * fault goes to the exception-table handler (the routine returns "bytes not
 * cleared"), the second one -- the read path's memset fallback -- is let
 * through by making the page writable again.
 */
static struct sigaction fault_prev;
static unsigned char *fault_page;
static volatile int fault_count;

static void fault_chain(int sig, siginfo_t *si, void *uc)
{
	if (++fault_count == 1) {
		fault_prev.sa_sigaction(sig, si, uc);
		return;
	}
	mprotect(fault_page, 4096, PROT_READ | PROT_WRITE);
}

static void check_routine_fault(void)
{
	const struct zero_routine *zr = NULL;
	struct cusezero_stats st;
	struct sigaction sa;
	unsigned char *buf;
	size_t r, bad;

	for (r = 0; r < zero_nroutines; r++)
		if ((zero_routines[r].flags & ZERO_F_CLEAR_USER) && zero_usable(&zero_routines[r], NULL)) {
			zr = &zero_routines[r];
			break;
		}
	if (!zr) {
		tap_skip("routine fault: no usable fault-safe (CLEAR_USER) routine");
		return;
	}
	rp_set_align(CUSEZERO_ALIGN_NONE, ZERO_POINT_LOOP);
	rp_set_routine(zr->name);
	rp_set_chunk(4096);
	rp_set_poison(false);
	rp_reset_stats();
	buf = (unsigned char *)rp_read(1);      /* the thread's reply buffer */
	memset(buf, 0xa5, 3 * 4096);
	fault_page = buf + 4096;
	mprotect(fault_page, 4096, PROT_READ);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fault_chain;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigaction(SIGSEGV, &sa, &fault_prev);
	rp_read(3 * 4096);
	sigaction(SIGSEGV, &fault_prev, NULL);
	bad = cz_first_nonzero(buf, 3 * 4096);
	rp_get_stats(&st);
	tap_ok(fault_count == 2 && bad == 3 * 4096 && st.total.errors == 1,
	       "%s faulting in the reply buffer: faults %d, reply all zero (first non-zero %zu of %d), "
	       "routine errors %llu (want 1)", zr->name, fault_count, bad, 3 * 4096,
	       (unsigned long long)st.total.errors);
	rp_set_poison(true);
	rp_set_routine(zero_default()->name);
	rp_reset_stats();
}

/* A routine that skips every byte (and says it cleared them all). */
static size_t skip_all(void *dst, size_t n)
{
	(void)dst;
	(void)n;
	return 0;
}

/*
 * The tests below rely on --poison to expose a skipped byte: check that it
 * is on.  After a real read the buffer holds zeros, so without the poison a
 * routine that skips bytes would still leave a zero reply.
 */
static void check_poison(void)
{
	const unsigned char *buf;
	zero_fn old;
	size_t i, n = 0;

	rp_read(8192);
	old = rp_test_swap_fn(skip_all);
	buf = rp_read(8192);
	rp_test_swap_fn(old);
	for (i = 0; i < 8192; i++)
		n += buf[i] == 0xa5;
	tap_ok(n == 8192, "poison on (rp_init): a routine that skips every byte leaves 0xa5 "
	       "in all %zu of 8192 bytes", n);
	rp_reset_stats();
}

/*
 * The routine clears the request and nothing past it: with a chunk that
 * does not divide the size, the last call is shorter (a full chunk there
 * would write past the reply, up to the end of the thread's buffer).
 */
static void check_no_overrun(void)
{
	unsigned char *buf = rp_thread_buffer();
	const size_t size = 10000, chunk = 3000;
	size_t i, bad = 0;

	rp_set_chunk(chunk);
	memset(buf, 0x5a, 2 * size);
	rp_read(size);
	for (i = size; i < 2 * size; i++)
		bad += buf[i] != 0x5a;
	tap_ok(cz_first_nonzero(buf, size) == size && !bad,
	       "read of %zu B in %zu B chunks: reply zero, the %zu bytes after it untouched "
	       "(%zu changed)", size, chunk, size, bad);
	rp_set_chunk(4096);
	rp_reset_stats();
}

static uint64_t hist_total(const struct cusezero_stats *st)
{
	uint64_t n = 0;
	unsigned k;

	for (k = 0; k < CUSEZERO_HIST_BUCKETS; k++)
		n += st->hist[k];
	return n;
}

static size_t zero_sizes(void)
{
	size_t i, n = 0;

	for (i = 0; i < CZ_ARRAY_SIZE(sizes); i++)
		n += !sizes[i];
	return n;
}

int main(void)
{
	static const int aligns[] = { CUSEZERO_ALIGN_NONE, 0, 61, 4095 };
	static const uint64_t chunks[] = { 1, 64, 4096, CUSEZERO_CHUNK_MAX };
	struct cusezero_stats st, st2;
	pthread_t tid[4];
	size_t r, bad, expect_bytes = 0;
	unsigned i, a, c, nusable = 0, switches = 0;
	int ret;

	ret = zero_fault_install();
	tap_ok(ret == 0, "zero_fault_install: %d", ret);
	/* 5 thread slots: this one + 4 readers; poison so a skipped byte shows */
	ret = rp_init(NULL, CUSEZERO_ALIGN_NONE, ZERO_POINT_LOOP, 4096, 5, true);
	tap_ok(ret == 0, "rp_init with the default routine: %d", ret);
	ret = rp_thread_attach(0);
	tap_ok(ret == 0, "rp_thread_attach(0): %d", ret);
	if (ret)
		return tap_done();
	check_poison();
	check_no_overrun();

	for (r = 0; r < zero_nroutines; r++) {
		const struct zero_routine *zr = &zero_routines[r];
		const char *why = NULL;
		unsigned placed = 0;

		if (!zero_usable(zr, &why)) {
			tap_skip("%s: not usable here: %s", zr->name, why);
			continue;
		}
		nusable++;
		bad = 0;
		ret = rp_set_align(CUSEZERO_ALIGN_NONE, ZERO_POINT_LOOP);
		ret = ret ? ret : rp_set_routine(zr->name);
		for (a = 0; !ret && !bad && a < CZ_ARRAY_SIZE(aligns); a++) {
			int e = rp_set_align(aligns[a], ZERO_POINT_LOOP);

			if (e == -EINVAL)
				e = rp_set_align(aligns[a], ZERO_POINT_ENTRY);
			if (e == -EINVAL && aligns[a] != CUSEZERO_ALIGN_NONE)
				continue;       /* not relocatable */
			if (e) {
				ret = e;
				break;
			}
			placed += aligns[a] != CUSEZERO_ALIGN_NONE;
			for (c = 0; !bad && c < CZ_ARRAY_SIZE(chunks); c++) {
				ret = rp_set_chunk(chunks[c]);
				if (ret)
					break;
				bad = read_all_sizes();
				if (bad)
					tap_diag("%s align %d chunk %llu", zr->name, aligns[a],
						 (unsigned long long)chunks[c]);
			}
		}
		tap_ok(!ret && !bad, "%s: %u placements x %zu chunks x %zu sizes all zero (ret %d, bad size %zu)",
		       zr->name, placed, CZ_ARRAY_SIZE(chunks), CZ_ARRAY_SIZE(sizes), ret, bad);
	}
	tap_ok(nusable > 0, "usable routines: %u", nusable);
	rp_set_align(CUSEZERO_ALIGN_NONE, ZERO_POINT_LOOP);
	rp_set_routine(zero_default()->name);
	rp_set_chunk(4096);

	/* statistics */
	rp_reset_stats();
	rp_get_stats(&st);
	tap_ok(st.total.requests == 0 && st.total.bytes == 0, "after reset: requests %llu bytes %llu",
	       (unsigned long long)st.total.requests, (unsigned long long)st.total.bytes);
	for (i = 0; i < CZ_ARRAY_SIZE(sizes); i++) {
		rp_read(sizes[i]);
		expect_bytes += sizes[i];
	}
	rp_count_write(100);
	rp_get_stats(&st);
	tap_ok(st.total.requests == CZ_ARRAY_SIZE(sizes) && st.total.bytes == expect_bytes &&
	       st.total.errors == 0 && st.writes == 1 && st.write_bytes == 100,
	       "counted: requests %llu (want %zu) bytes %llu (want %zu) errors %llu writes %llu",
	       (unsigned long long)st.total.requests, CZ_ARRAY_SIZE(sizes),
	       (unsigned long long)st.total.bytes, expect_bytes,
	       (unsigned long long)st.total.errors, (unsigned long long)st.writes);
	for (i = 0; i < st.nroutines; i++)
		if (!strcmp(st.per_routine[i].name, st.routine))
			break;
	tap_ok(i < st.nroutines && st.per_routine[i].c.requests == CZ_ARRAY_SIZE(sizes),
	       "per-routine counters of %s", st.routine);
	/* every request of a non-zero size lands in the histogram once; reset empties it */
	tap_ok(hist_total(&st) == CZ_ARRAY_SIZE(sizes) - zero_sizes(),
	       "histogram: %llu entries for %zu requests of a non-zero size",
	       (unsigned long long)hist_total(&st), CZ_ARRAY_SIZE(sizes) - zero_sizes());
	rp_reset_stats();
	rp_get_stats(&st2);
	tap_ok(hist_total(&st2) == 0, "histogram after reset: %llu entries",
	       (unsigned long long)hist_total(&st2));
	for (i = 0; i < 100; i++)
		rp_read(4096);
	rp_get_stats(&st2);
	tap_ok(hist_total(&st2) == 100, "100 reads of 4096 B after reset: %llu entries",
	       (unsigned long long)hist_total(&st2));

	/* invalid settings: EINVAL, nothing changed */
	rp_get_stats(&st);
	tap_ok(rp_set_routine("no_such_routine") == -EINVAL, "routine no_such_routine -> EINVAL");
	tap_ok(rp_set_align(4096, ZERO_POINT_LOOP) == -EINVAL, "align 4096 -> EINVAL");
	tap_ok(rp_set_align(-2, ZERO_POINT_LOOP) == -EINVAL, "align -2 -> EINVAL");
	tap_ok(rp_set_chunk(0) == -EINVAL, "chunk 0 -> EINVAL");
	tap_ok(rp_set_chunk(CUSEZERO_CHUNK_MAX + 1) == -EINVAL, "chunk 1MB+1 -> EINVAL");
	check_apply_whole();
	rp_get_stats(&st2);
	tap_ok(!strcmp(st.routine, st2.routine) && st.align == st2.align && st.chunk == st2.chunk,
	       "settings unchanged: %s %d %llu", st2.routine, st2.align,
	       (unsigned long long)st2.chunk);

	check_routine_fault();

	/* settings swapped while 4 threads read */
	for (i = 0; i < 4; i++)
		pthread_create(&tid[i], NULL, reader, (void *)(uintptr_t)next_idx++);
	for (switches = 0; switches < 3000 || atomic_load(&reads) < 200; switches++) {
		const struct zero_routine *zr = &zero_routines[switches % zero_nroutines];

		rp_set_routine(zr->name);       /* EINVAL if unusable */
		rp_set_align(switches % 3 ? (int)(switches * 61 % 4096) : CUSEZERO_ALIGN_NONE,
			     switches & 1 ? ZERO_POINT_ENTRY : ZERO_POINT_LOOP);
		rp_set_chunk(switches % 4 ? 4096 : 64);
		if (switches > 200000)
			break;
	}
	atomic_store(&stop, true);
	for (i = 0; i < 4; i++)
		pthread_join(tid[i], NULL);
	rp_get_stats(&st);
	tap_ok(atomic_load(&bad_bytes) == 0 && st.total.errors == 0,
	       "%u switches under %lu concurrent reads: %lu non-zero replies, %llu routine errors",
	       switches, atomic_load(&reads), atomic_load(&bad_bytes),
	       (unsigned long long)st.total.errors);
	tap_ok(hist_total(&st) == st.total.requests,
	       "per-request histogram merged over 5 threads: %llu entries, %llu requests",
	       (unsigned long long)hist_total(&st), (unsigned long long)st.total.requests);
	return tap_done();
}
