/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Description: functional checks of a running cusezero device, CUSE node or
 * FUSE file alike (the host tests run it; the VM checker shares its ioctl
 * checks through tests/common/devcheck.c):
 *
 *     zdev-check io|ioctl|uring|stress|killed|ctlrace DEVICE [SECONDS]
 *
 * Prints TAP lines, "ok N - what" or "not ok N - what: step value" (the first
 * failure inside a check is the detail), and its plan last; tests/cuse/lib.sh
 * renumbers them into the calling test.  Exit status: 0 all passed, 1 a check
 * failed.
 *
 * Every read goes into a buffer pre-filled with 0xA5 at an odd offset, with
 * 0xA5 guard bytes on both sides: a byte left uncleared or a byte written
 * outside the request fails the check with its position.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef HAVE_LIBURING
#include <liburing.h>
#endif

#include "cusezero.h"
#include "tests/tap.h"
#include "tests/common/devcheck.h"
#include "zeroing.h"

#define GUARD 64
#define POISON 0xa5

static const char *device;
static int failures;
static char first_fail[512];

__attribute__((format(printf, 1, 2)))
static void fail_once(const char *fmt, ...)
{
	va_list ap;

	if (failures++)
		return;
	va_start(ap, fmt);
	vsnprintf(first_fail, sizeof(first_fail), fmt, ap);
	va_end(ap);
}

/* One TAP line per check; the first failure inside it is the detail. */
static void check_end(const char *what)
{
	if (failures)
		tap_ok(0, "%s: %s (%d failures)", what, first_fail, failures);
	else
		tap_ok(1, "%s", what);
	failures = 0;
	first_fail[0] = 0;
}

static int open_dev(int flags)
{
	int fd = open(device, flags | O_CLOEXEC);

	if (fd < 0) {
		fprintf(stderr, "zdev-check: open %s: %s\n", device, strerror(errno));
		exit(1);
	}
	return fd;
}

/* buf[0..GUARD+off) and [GUARD+off+n, +GUARD) must be POISON, the middle zero. */
static bool verify(const unsigned char *buf, size_t off, size_t n, const char *step)
{
	long long b = dc_bad_byte(buf, GUARD + off, n, GUARD, POISON);
	long long lead = (long long)(GUARD + off);

	if (b < 0)
		return true;
	if (b < lead)
		fail_once("%s: guard byte %lld before the data = %#x", step, b - lead, buf[b]);
	else if (b < lead + (long long)n)
		fail_once("%s: byte %lld of %zu = %#x", step, b - lead, n, buf[b]);
	else
		fail_once("%s: guard byte %lld after the data = %#x", step,
			  b - lead - (long long)n, buf[b]);
	return false;
}

static unsigned char *big_buffer(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("zdev-check: mmap");
		exit(1);
	}
	return p;
}

static const size_t sizes[] = {
	1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 63, 64, 65, 100, 127, 511, 512, 513, 1000, 4095, 4096,
	4097, 8191, 8192, 12345, 65536, 102400, 131071, 131072, 131073, 262144, 1048575,
	1048576, 1048577, 2097155, 4194304,
};
static const size_t offsets[] = { 0, 1, 7, 63, 4095 };
#define MAX_LEN (4194304 + 4096 + 2 * GUARD)

static void check_io(void)
{
	unsigned char *buf = big_buffer(MAX_LEN);
	char step[128];
	struct iovec iov[3];
	struct pollfd pfd;
	size_t si, oi;
	ssize_t r;
	int fd = open_dev(O_RDWR);

	for (si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++)
		for (oi = 0; oi < sizeof(offsets) / sizeof(offsets[0]); oi++) {
			size_t n = sizes[si], off = offsets[oi];

			memset(buf, POISON, n + off + 2 * GUARD);
			r = read(fd, buf + GUARD + off, n);
			snprintf(step, sizeof(step), "read size %zu at buffer offset %zu", n, off);
			if (r != (ssize_t)n)
				fail_once("%s: returned %zd (%s)", step, r, r < 0 ? strerror(errno) : "short");
			else
				verify(buf, off, n, step);
		}
	check_end("read() 1 B .. 4 MiB at 5 buffer offsets: all zero, guards intact");

	for (si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si += 3) {
		static const off_t foffs[] = { 0, 1, 4096, 12345, (off_t)1 << 40, (off_t)1 << 60,
					       (off_t)1 << 62, INT64_MAX - (8 << 20) };
		size_t fo;

		for (fo = 0; fo < sizeof(foffs) / sizeof(foffs[0]); fo++) {
			size_t n = sizes[si];

			memset(buf, POISON, n + 3 + 2 * GUARD);
			r = pread(fd, buf + GUARD + 3, n, foffs[fo]);
			snprintf(step, sizeof(step), "pread size %zu at file offset %lld", n,
				 (long long)foffs[fo]);
			if (r != (ssize_t)n)
				fail_once("%s: returned %zd (%s)", step, r, r < 0 ? strerror(errno) : "short");
			else
				verify(buf, 3, n, step);
		}
	}
	check_end("pread() at file offsets 0 .. 2^63 - 8 MiB: all zero");

	for (si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si += 2) {
		size_t n = sizes[si], a = n / 3, b = n / 5 + 1, c = n > a + b ? n - a - b : 0;

		memset(buf, POISON, a + b + c + 2 * GUARD);
		iov[0] = (struct iovec){ buf + GUARD, a };
		iov[1] = (struct iovec){ buf + GUARD + a, b };
		iov[2] = (struct iovec){ buf + GUARD + a + b, c };
		r = readv(fd, iov, 3);
		snprintf(step, sizeof(step), "readv %zu+%zu+%zu", a, b, c);
		if (r != (ssize_t)(a + b + c))
			fail_once("%s: returned %zd", step, r);
		else
			verify(buf, 0, a + b + c, step);
	}
	check_end("readv() with 3 segments: all zero");

	memset(buf, 0x5a, 1 << 20);
	r = write(fd, buf, 65536);
	if (r != 65536)
		fail_once("write 64 KiB: returned %zd (%s)", r, r < 0 ? strerror(errno) : "short");
	r = pwrite(fd, buf, 1 << 20, 4096);
	if (r != 1 << 20)
		fail_once("pwrite 1 MiB: returned %zd", r);
	r = write(fd, buf, 1);
	if (r != 1)
		fail_once("write 1 B: returned %zd", r);
	memset(buf, POISON, 4096 + 2 * GUARD);
	r = read(fd, buf + GUARD, 4096);
	if (r != 4096)
		fail_once("read after write: returned %zd", r);
	else
		verify(buf, 0, 4096, "read after write");
	check_end("write()/pwrite() accepted and discarded");

	pfd = (struct pollfd){ .fd = fd, .events = POLLIN | POLLOUT };
	r = poll(&pfd, 1, 5000);
	if (r != 1 || (pfd.revents & (POLLIN | POLLOUT)) != (POLLIN | POLLOUT))
		fail_once("poll: returned %zd revents %#x", r, (unsigned)pfd.revents);
	if (lseek(fd, 12345, SEEK_SET) < 0)
		fail_once("lseek SEEK_SET 12345: %s", strerror(errno));
	if (lseek(fd, 0, SEEK_CUR) < 0)
		fail_once("lseek SEEK_CUR: %s", strerror(errno));
	check_end("poll() readable+writable, lseek() accepted");
	close(fd);
	munmap(buf, MAX_LEN);
}

static int xioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) ? errno : 0;
}

static void get_stats(int fd, struct cusezero_stats *st)
{
	int e = xioctl(fd, CUSEZERO_IOC_GET_STATS, st);

	if (e)
		fail_once("GET_STATS: %s", strerror(e));
}

#ifdef HAVE_LIBURING
static void check_uring_offsets(struct io_uring *ring, int fd, unsigned char *buf,
				const char *what);

static void check_uring(void)
{
	static const size_t usz[] = { 1, 4096, 102400, 131072, 1048576, 12345, 65537, 3 };
	struct io_uring ring;
	struct io_uring_cqe *cqe;
	unsigned char *buf = big_buffer(8 * (1048576 + 4096 + 2 * GUARD));
	size_t stride = 1048576 + 4096 + 2 * GUARD, i;
	int fd = open_dev(O_RDONLY), e, round;

	e = io_uring_queue_init(16, &ring, 0);
	if (e) {
		tap_skip("io_uring reads: io_uring_queue_init: %s", strerror(-e));
		close(fd);
		return;
	}
	for (round = 0; round < 4; round++) {
		memset(buf, POISON, 8 * stride);
		for (i = 0; i < 8; i++) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

			if (!sqe) {
				fail_once("io_uring_get_sqe: ring full");
				break;
			}
			io_uring_prep_read(sqe, fd, buf + i * stride + GUARD + 1, (unsigned)usz[i],
					   (off_t)i * 4096);
			sqe->user_data = i;
		}
		e = io_uring_submit(&ring);
		if (e != 8)
			fail_once("io_uring_submit: %d", e);
		for (i = 0; i < 8; i++) {
			char step[64];
			size_t k;

			e = io_uring_wait_cqe(&ring, &cqe);
			if (e) {
				fail_once("io_uring_wait_cqe: %s", strerror(-e));
				break;
			}
			k = (size_t)cqe->user_data;
			snprintf(step, sizeof(step), "io_uring read of %zu", usz[k]);
			if (cqe->res != (int)usz[k])
				fail_once("%s: res %d", step, cqe->res);
			else
				verify(buf + k * stride, 1, usz[k], step);
			io_uring_cqe_seen(&ring, cqe);
		}
	}
	check_end("io_uring reads (8 in flight, 1 B .. 1 MiB): all zero");

	/* Close the file and the ring with reads still in flight: the daemon must keep serving. */
	for (i = 0; i < 8; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

		if (!sqe)
			break;
		io_uring_prep_read(sqe, fd, buf + i * stride, 1048576, 0);
	}
	io_uring_submit(&ring);
	close(fd);
	io_uring_queue_exit(&ring);
	fd = open_dev(O_RDONLY);
	memset(buf, POISON, stride);
	if (read(fd, buf + GUARD, 1048576) != 1048576)
		fail_once("read after closing with requests in flight: %s", strerror(errno));
	else
		verify(buf, 0, 1048576, "read after closing with requests in flight");
	check_end("closing fd and ring with 8 reads in flight; device still serves");
	close(fd);

	/*
	 * O_DIRECT + io_uring: the kernel's fuse_direct_IO() path, which stops at
	 * i_size -- why the FUSE zero file reports a huge size instead of 0.
	 */
	fd = open(device, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0) {
		tap_skip("O_DIRECT io_uring reads: open O_DIRECT: %s", strerror(errno));
		return;
	}
	check_uring_offsets(&ring, fd, buf, "O_DIRECT io_uring read");
	close(fd);
	check_end("O_DIRECT io_uring reads at offsets 0 .. 2^63 - 8 MiB: full and zero");
	/* Without O_DIRECT too: /dev/zero has no end, so no offset is past it. */
	fd = open_dev(O_RDONLY);
	check_uring_offsets(&ring, fd, buf, "io_uring read");
	close(fd);
	check_end("io_uring reads at offsets 0 .. 2^63 - 8 MiB: full and zero");
}

/* 128 KiB reads through io_uring at offsets from 0 to just below the largest. */
static void check_uring_offsets(struct io_uring *ring, int fd, unsigned char *buf,
				const char *what)
{
	static const off_t doff[] = { 0, 1 << 20, (off_t)1 << 40, (off_t)1 << 60,
				      (off_t)1 << 62, INT64_MAX - (8 << 20) };
	struct io_uring_cqe *cqe;
	unsigned round;
	int e;

	e = io_uring_queue_init(4, ring, 0);
	for (round = 0; !e && round < sizeof(doff) / sizeof(doff[0]); round++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

		if (!sqe)
			break;
		memset(buf, POISON, 131072 + 2 * 4096);
		io_uring_prep_read(sqe, fd, buf + 4096, 131072, doff[round]);
		io_uring_submit(ring);
		if (io_uring_wait_cqe(ring, &cqe)) {
			fail_once("%s: io_uring_wait_cqe", what);
			break;
		}
		if (cqe->res != 131072)
			fail_once("%s 128 KiB at %lld: res %d", what, (long long)doff[round],
				  cqe->res);
		else
			verify(buf + 4096 - GUARD, 0, 131072, what);
		io_uring_cqe_seen(ring, cqe);
	}
	if (!e)
		io_uring_queue_exit(ring);
}
#else
static void check_uring(void)
{
	tap_skip("io_uring reads: built without liburing");
}
#endif

/* Reader processes verify every byte until the deadline; exit 0 or 1. */
static void reader_loop(double seconds, unsigned seed)
{
	unsigned char *buf = big_buffer(1048576 + 2 * GUARD + 64);
	struct timespec t0, t;
	int fd = open_dev(O_RDONLY);
	unsigned long long reads = 0;

	srand(seed);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		size_t n = 1 + (size_t)rand() % 1048576, off = (size_t)rand() % 64;

		if (rand() % 4 == 0)
			n = 4096;
		memset(buf, POISON, n + off + 2 * GUARD);
		if (read(fd, buf + GUARD + off, n) != (ssize_t)n) {
			fprintf(stderr, "reader %u: read %zu: %s\n", seed, n, strerror(errno));
			_exit(1);
		}
		if (!verify(buf, off, n, "concurrent read")) {
			fprintf(stderr, "reader %u: %s\n", seed, first_fail);
			_exit(1);
		}
		reads++;
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) * 1e-9 < seconds);
	_exit(reads ? 0 : 1);
}

static void check_stress(double seconds)
{
	struct cusezero_stats st, st2;
	struct cusezero_routine orig, r;
	struct cusezero_align a;
	pid_t pids[4];
	struct timespec t0, t, ts = { 0, 2 * 1000 * 1000 };
	unsigned i, switches = 0;
	int status, fd = open_dev(O_RDONLY);
	uint64_t chunk;

	xioctl(fd, CUSEZERO_IOC_GET_ROUTINE, &orig);
	get_stats(fd, &st);
	fflush(stdout);
	for (i = 0; i < 4; i++) {
		pids[i] = fork();
		if (pids[i] == 0)
			reader_loop(seconds, i + 1);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		i = switches % st.nroutines;
		memset(&r, 0, sizeof(r));
		snprintf(r.name, sizeof(r.name), "%s", st.per_routine[i].name);
		xioctl(fd, CUSEZERO_IOC_SET_ROUTINE, &r);   /* EINVAL when unusable */
		/* Multiples of ZERO_PLACE_ALIGN: every placement is a valid one. */
		a = (struct cusezero_align){ (int32_t)((switches * 37 * ZERO_PLACE_ALIGN) % 4096),
					      switches & 1 ? CUSEZERO_POINT_ENTRY : CUSEZERO_POINT_LOOP };
		if (switches % 3 == 2)
			a.offset = CUSEZERO_ALIGN_NONE;
		xioctl(fd, CUSEZERO_IOC_SET_ALIGN, &a);     /* EINVAL when not relocatable */
		chunk = switches % 5 == 4 ? 64 : 4096;
		xioctl(fd, CUSEZERO_IOC_SET_CHUNK, &chunk);
		switches++;
		nanosleep(&ts, NULL);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) * 1e-9 < seconds);
	for (i = 0; i < 4; i++) {
		if (waitpid(pids[i], &status, 0) != pids[i] || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			fail_once("reader %u failed (status %#x)", i + 1, (unsigned)status);
	}
	a = (struct cusezero_align){ CUSEZERO_ALIGN_NONE, CUSEZERO_POINT_LOOP };
	xioctl(fd, CUSEZERO_IOC_SET_ALIGN, &a);
	xioctl(fd, CUSEZERO_IOC_SET_ROUTINE, &orig);
	chunk = st.chunk;
	xioctl(fd, CUSEZERO_IOC_SET_CHUNK, &chunk);
	get_stats(fd, &st2);
	if (st2.total.errors != st.total.errors)
		fail_once("routine errors went from %llu to %llu",
			  (unsigned long long)st.total.errors, (unsigned long long)st2.total.errors);
	if (st2.total.requests <= st.total.requests)
		fail_once("no requests counted");
	printf("# %u settings switches, %llu requests during %.1f s\n", switches,
	       (unsigned long long)(st2.total.requests - st.total.requests), seconds);
	check_end("4 concurrent readers, every byte verified, while routine/align/chunk switch");
	close(fd);
}

static void on_alarm(int sig)
{
	(void)sig;
}

static void check_killed(void)
{
	unsigned char *buf = big_buffer(4194304 + 2 * GUARD);
	struct timespec ts;
	struct sigaction sa;
	struct itimerval it = { { 0, 500 }, { 0, 500 } };
	unsigned i, interrupted = 0;
	ssize_t r;
	pid_t pid;
	int fd;

	fflush(stdout);
	for (i = 0; i < 20; i++) {
		pid = fork();
		if (pid == 0) {
			fd = open_dev(O_RDONLY);
			for (;;)
				if (read(fd, buf, 4194304) < 0)
					_exit(1);
		}
		ts = (struct timespec){ 0, (long)(1 + i % 7) * 1000 * 1000 };
		nanosleep(&ts, NULL);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	/* A reader interrupted by signals (no SA_RESTART): EINTR or a full, zero read. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	fd = open_dev(O_RDONLY);
	for (i = 0; i < 200; i++) {
		memset(buf, POISON, 4194304 + 2 * GUARD);
		r = read(fd, buf + GUARD, 4194304);
		if (r < 0 && errno == EINTR) {
			interrupted++;
			continue;
		}
		if (r <= 0) {
			fail_once("interrupted read: %zd (%s)", r, strerror(errno));
			break;
		}
		verify(buf, 0, (size_t)r, "read under SIGALRM");
	}
	it = (struct itimerval){ { 0, 0 }, { 0, 0 } };
	setitimer(ITIMER_REAL, &it, NULL);
	memset(buf, POISON, 1048576 + 2 * GUARD);
	if (read(fd, buf + GUARD, 1048576) != 1048576)
		fail_once("read after the killed readers: %s", strerror(errno));
	else
		verify(buf, 0, 1048576, "read after the killed readers");
	printf("# %u of 200 reads interrupted by SIGALRM\n", interrupted);
	check_end("20 readers SIGKILLed mid-read, 200 reads under SIGALRM; device still serves");
	close(fd);
}

/*
 * One open `control` fd, two threads writing 4..64 KiB texts that end inside
 * a word (the daemon holds such a text until its end comes) and two threads
 * closing dup()s of the fd (each close is a FLUSH that applies the held
 * text).  The kernel sends FLUSH without the inode lock, so with several
 * workers the daemon sees writes and flushes of one open file at once: its
 * held text must survive that (once a heap corruption that killed the root
 * daemon within seconds).  Write errors (EINVAL: the texts are garbled by
 * the interleaving) are expected; the daemon must stay up and serve zeros.
 */
struct ctlrace {
	int fd;
	double seconds;
	unsigned seed;
	unsigned long ops;
};

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void *ctlrace_writer(void *arg)
{
	struct ctlrace *c = arg;
	static const char word[] = "chunk=4096 ";
	size_t cap = 65536, len, i;
	char *text = malloc(cap);
	double end = now_s() + c->seconds;

	if (!text)
		return NULL;
	for (i = 0; i + sizeof(word) - 1 <= cap; i += sizeof(word) - 1)
		memcpy(text + i, word, sizeof(word) - 1);
	while (now_s() < end) {
		/* 4..64 KiB, cut inside "chunk=4096": never on a separator */
		len = 4096 + (size_t)(rand_r(&c->seed) % (cap - 4096 - 16));
		while (text[len - 1] == ' ' || text[len - 1] == '=')
			len--;
		if (write(c->fd, text, len) < 0 && errno != EINVAL && errno != EFBIG)
			fail_once("write of %zu bytes to control: %s", len, strerror(errno));
		c->ops++;
	}
	free(text);
	return NULL;
}

static void *ctlrace_closer(void *arg)
{
	struct ctlrace *c = arg;
	double end = now_s() + c->seconds;
	int d;

	while (now_s() < end) {
		d = dup(c->fd);
		if (d < 0) {
			fail_once("dup of the control fd: %s", strerror(errno));
			break;
		}
		close(d);   /* FLUSH; its error (a garbled text) is expected */
		c->ops++;
	}
	return NULL;
}

static void check_ctlrace(double seconds)
{
	char path[4096], *slash;
	struct ctlrace c[4];
	pthread_t th[4];
	unsigned char *buf = big_buffer(65536 + 2 * GUARD);
	unsigned long ops = 0;
	unsigned i;
	int fd, dev;

	snprintf(path, sizeof(path), "%s", device);
	slash = strrchr(path, '/');
	snprintf(slash ? slash + 1 : path, sizeof(path) - (size_t)(slash ? slash + 1 - path : 0),
		 "control");
	fd = open(path, O_WRONLY);
	if (fd < 0) {
		tap_skip("concurrent write and close on one control fd: %s: %s", path,
			 strerror(errno));
		return;
	}
	for (i = 0; i < 4; i++) {
		c[i] = (struct ctlrace){ .fd = fd, .seconds = seconds, .seed = i + 1 };
		if (pthread_create(&th[i], NULL, i < 2 ? ctlrace_writer : ctlrace_closer, &c[i]))
			fail_once("pthread_create failed");
	}
	for (i = 0; i < 4; i++) {
		pthread_join(th[i], NULL);
		ops += c[i].ops;
	}
	close(fd);
	dev = open_dev(O_RDONLY);
	memset(buf, POISON, 65536 + 2 * GUARD);
	if (read(dev, buf + GUARD, 65536) != 65536)
		fail_once("read after the control race: %s", strerror(errno));
	else
		verify(buf, 0, 65536, "read after the control race");
	close(dev);
	printf("# %lu writes and closes on one control fd in %.1f s\n", ops, seconds);
	check_end("2 writers and 2 closers on one control fd; the daemon still serves zeros");
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: zdev-check io|ioctl|uring|stress|killed|ctlrace DEVICE [SECONDS]\n");
		return 2;
	}
	device = argv[2];
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(argv[1], "io"))
		check_io();
	else if (!strcmp(argv[1], "ioctl"))
		dc_check_ioctl(&(struct dc_dev){ .path = device, .label = "ioctl" });
	else if (!strcmp(argv[1], "uring"))
		check_uring();
	else if (!strcmp(argv[1], "stress"))
		check_stress(argc > 3 ? atof(argv[3]) : 3.0);
	else if (!strcmp(argv[1], "killed"))
		check_killed();
	else if (!strcmp(argv[1], "ctlrace"))
		check_ctlrace(argc > 3 ? atof(argv[3]) : 3.0);
	else {
		fprintf(stderr, "zdev-check: %s: unknown check\n", argv[1]);
		return 2;
	}
	return tap_done();
}
