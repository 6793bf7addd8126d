/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vmcheck: functional checks of cusezero as a real CUSE device, run inside the
 * VM booted by cuse-vm.sh (statically linked, PID 1 is busybox sh).
 *
 *     vmcheck DAEMON
 *     vmcheck --in-run STATUS   (COMMAND of `cusezero run`, see check_run())
 *
 * Starts DAEMON (a static cusezero) with several option sets and checks, on
 * /dev/NAME: the node's name and mode, zeros for read/pread/readv at 1 B ..
 * 1 MiB into buffers pre-filled with 0xA5 (no byte beyond the returned count
 * touched), writes, every ioctl of include/cusezero.h (valid and invalid, a bad
 * user pointer, an unprivileged caller), a
 * second daemon with the same name failing cleanly, the routines usable on
 * this CPU, and SIGTERM removing the node.  Prints TAP on stdout.
 *
 * Every wait is bounded (STEP_MS); a daemon that does not come up or go away
 * in time is a failure naming the step, never a hang.  The checker is a child
 * subreaper, so daemons that background themselves are reaped here and their
 * exit status is checked.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cusezero.h"
#include "tests/tap.h"
#include "tests/common/devcheck.h"
#include "zeroing.h"

#define STEP_MS		30000	/* bound of every wait (TCG is slow: generous) */
#define FILL		0xA5
#define GUARD		64	/* bytes after the requested count that must stay FILL */
#define KiB		1024
#define MiB		(1024 * 1024)
#define MAX_RT		32	/* routines checked: all usable ones, in practice */

static const char *daemon_path;

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* ---- processes ------------------------------------------------------------ */

/* fork+exec argv with stdout/stderr into files; returns the pid or -1. */
static pid_t spawn(char *const argv[], const char *out, const char *err)
{
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int n = open("/dev/null", O_RDONLY);

		if (o < 0 || e < 0 || n < 0)
			_exit(126);
		dup2(n, 0);
		dup2(o, 1);
		dup2(e, 2);
		execv(argv[0], argv);
		dprintf(2, "exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	return pid;
}

/* Wait up to ms for pid; 0 with *status, or -1 after killing it (timeout). */
static int wait_bounded(pid_t pid, long ms, int *status)
{
	long long end = now_ms() + ms;

	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);

		if (r == pid)
			return 0;
		if (r < 0 && errno != EINTR)
			return -1;
		if (now_ms() > end) {
			kill(pid, SIGKILL);
			waitpid(pid, status, 0);
			return -1;
		}
		sleep_ms(10);
	}
}

/* Reap whatever orphans reached us (we are a subreaper). */
static void reap_orphans(void)
{
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
}

static const char *status_str(int st)
{
	static char buf[64];

	if (WIFEXITED(st))
		snprintf(buf, sizeof(buf), "exit %d", WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		snprintf(buf, sizeof(buf), "signal %d", WTERMSIG(st));
	else
		snprintf(buf, sizeof(buf), "status 0x%x", st);
	return buf;
}

/*
 * Up to 4 KiB of a file, from its start or (tail) its end -- a -d daemon's
 * stderr ends with its exit summary.  One static buffer, NUL-terminated;
 * "" if missing.
 */
static const char *slurp_part(const char *path, bool tail)
{
	static char buf[4096];
	ssize_t n = 0;
	int fd = open(path, O_RDONLY);

	if (fd >= 0) {
		off_t end = tail ? lseek(fd, 0, SEEK_END) : 0;

		if (end > (off_t)sizeof(buf) - 1)
			lseek(fd, end - (off_t)(sizeof(buf) - 1), SEEK_SET);
		else
			lseek(fd, 0, SEEK_SET);
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
	}
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

static const char *slurp(const char *path)
{
	return slurp_part(path, false);
}

static const char *slurp_tail(const char *path)
{
	return slurp_part(path, true);
}

static unsigned count_lines(const char *s)
{
	unsigned n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* Print a captured output file as TAP diagnostics (at most 10 lines). */
static void diag_file(const char *what, const char *path)
{
	char copy[4096];
	char *line, *save = NULL;
	unsigned n = 0;

	snprintf(copy, sizeof(copy), "%s", slurp(path));
	for (line = strtok_r(copy, "\n", &save); line && n < 10;
	     line = strtok_r(NULL, "\n", &save), n++)
		tap_diag("%s: %s", what, line);
}

static bool node_is(const char *path, bool present)
{
	struct stat st;

	return (stat(path, &st) == 0 && S_ISCHR(st.st_mode)) == present;
}

static bool alive(pid_t pid);

/* Wait up to ms for the node to (dis)appear; give up early if child dies. */
static bool wait_node(const char *path, bool present, long ms, pid_t child)
{
	long long end = now_ms() + ms;

	while (!node_is(path, present)) {
		if (now_ms() > end || (child > 0 && !alive(child)))
			return node_is(path, present);
		sleep_ms(10);
	}
	return true;
}

static bool alive(pid_t pid)
{
	int st;

	/* A zombie child of ours still answers kill(0): reap it first. */
	if (waitpid(pid, &st, WNOHANG) == pid)
		return false;
	return kill(pid, 0) == 0;
}

/*
 * The kernel (6.1 cuse.c, cuse_process_init_reply) creates the devtmpfs node
 * in device_add() BEFORE cdev_add() and before the connection is findable:
 * an observer polling for the node can open it too early and get ENXIO or
 * ENODEV.  The daemon itself is past that point when its CUSE_INIT reply
 * write() returns, so a background start (which returns after that) is
 * race-free; a -f observer must retry.  Returns 0 once an open succeeds, else
 * the last errno; *retries counts the early opens.
 */
static int wait_openable(const char *path, long ms, unsigned *retries)
{
	long long end = now_ms() + ms;
	int fd;

	*retries = 0;
	while ((fd = open(path, O_RDONLY)) < 0) {
		if ((errno != ENXIO && errno != ENODEV) || now_ms() > end)
			return errno;
		++*retries;
		sleep_ms(1);
	}
	close(fd);
	return 0;
}

/* ---- a daemon under test --------------------------------------------------- */

struct dev {
	char name[64];
	char path[96];
	char pidfile[96];
	char out[96], err[96];
	pid_t pid;		/* the serving process */
	bool foreground;	/* -f: pid is our child, no pidfile */
};

/*
 * Start DAEMON --name NAME [extra...]: without -f it must return 0 once the
 * node is ready and write its pid to --pidfile; with -f the node appearing is
 * the readiness signal.  Returns true when serving.
 */
static bool dev_start(struct dev *d, const char *name, bool fg, const char *const *extra)
{
	char *argv[32];
	int argc = 0, st;
	long long t0 = now_ms();

	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	snprintf(d->path, sizeof(d->path), "/dev/%s", name);
	snprintf(d->pidfile, sizeof(d->pidfile), "/run/%s.pid", name);
	snprintf(d->out, sizeof(d->out), "/tmp/%s.out", name);
	snprintf(d->err, sizeof(d->err), "/tmp/%s.err", name);
	d->foreground = fg;

	argv[argc++] = (char *)daemon_path;
	argv[argc++] = (char *)"--name";
	argv[argc++] = d->name;
	if (fg) {
		argv[argc++] = (char *)"-f";
	} else {
		argv[argc++] = (char *)"--pidfile";
		argv[argc++] = d->pidfile;
	}
	while (extra && *extra && argc < 30)
		argv[argc++] = (char *)*extra++;
	argv[argc] = NULL;

	d->pid = spawn(argv, d->out, d->err);
	if (d->pid < 0) {
		tap_ok(0, "start %s: fork: %s", name, strerror(errno));
		return false;
	}
	if (fg) {
		bool up = wait_node(d->path, true, STEP_MS, d->pid);

		if (!tap_ok(up && alive(d->pid), "start %s -f: %s appears (%lld ms)",
			    name, d->path, now_ms() - t0)) {
			diag_file("stderr", d->err);
			if (alive(d->pid)) {
				kill(d->pid, SIGKILL);
				wait_bounded(d->pid, STEP_MS, &st);
			}
			return false;
		}
		tap_ok(slurp(d->out)[0] == '\0', "start %s -f: nothing on stdout", name);
		{
			unsigned early;
			int e = wait_openable(d->path, STEP_MS, &early);

			if (early)
				tap_diag("%s: node present before the kernel's cdev_add: %u early open(s) got ENXIO/ENODEV",
					 d->path, early);
			return tap_ok(!e, "start %s -f: %s opens%s%s", name, d->path, e ? ": " : "",
				      e ? strerror(e) : "");
		}
	}
	if (wait_bounded(d->pid, STEP_MS, &st) < 0) {
		tap_ok(0, "start %s: still not returned after %d ms (killed)", name, STEP_MS);
		diag_file("stderr", d->err);
		return false;
	}
	if (!tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
		    "start %s: returns when ready: %s (%lld ms)", name, status_str(st),
		    now_ms() - t0)) {
		diag_file("stderr", d->err);
		return false;
	}
	d->pid = (pid_t)atol(slurp(d->pidfile));
	if (!tap_ok(d->pid > 1 && alive(d->pid), "start %s: --pidfile %s names a live daemon (%d)",
		    name, d->pidfile, (int)d->pid))
		return false;
	/* Ready means the node is there already: no waiting here. */
	return tap_ok(node_is(d->path, true), "start %s: %s is a character device on return",
		      name, d->path);
}

/* SIGTERM: the node goes away and the daemon exits 0. */
static void dev_stop(struct dev *d)
{
	long long t0 = now_ms();
	int st = 0, r;
	bool gone;

	if (d->pid <= 1)
		return;
	tap_ok(kill(d->pid, SIGTERM) == 0, "stop %s: SIGTERM pid %d", d->name, (int)d->pid);
	gone = wait_node(d->path, false, STEP_MS, 0);
	tap_ok(gone, "stop %s: %s removed (%lld ms)", d->name, d->path, now_ms() - t0);
	/* Our child (-f) or an orphan reparented to us (subreaper). */
	r = wait_bounded(d->pid, STEP_MS, &st);
	if (r < 0 && errno == ECHILD) {
		tap_ok(!alive(d->pid), "stop %s: daemon gone (not our child)", d->name);
	} else {
		tap_ok(r == 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0,
		       "stop %s: daemon exits 0 on SIGTERM (%s)", d->name,
		       r == 0 ? status_str(st) : "killed after timeout");
	}
	d->pid = 0;
	reap_orphans();
}

/* ---- data checks ------------------------------------------------------------- */

static unsigned char *buf_fill(size_t n)
{
	unsigned char *b = malloc(n + GUARD);

	if (!b) {
		perror("malloc");
		exit(2);
	}
	memset(b, FILL, n + GUARD);
	return b;
}

/* First non-zero in [0,got) or byte != FILL in [got, n+GUARD); -1 if fine. */
static long long bad_byte(const unsigned char *b, size_t got, size_t n)
{
	return dc_bad_byte(b, 0, got, n + GUARD - got, FILL);
}

/*
 * One read of n bytes (pread when off >= 0): a request up to 128 KiB must
 * return n; a larger one is split by the kernel into requests of at most 128
 * KiB (32 pages of the user buffer: fewer bytes when the buffer is not page
 * aligned) and may return a partial count > 0 (reported, not an error).
 * Returns NULL or a static failure text.
 */
static const char *read_once(int fd, size_t n, off_t off)
{
	static char why[160];
	unsigned char *b = buf_fill(n);
	ssize_t r = off >= 0 ? pread(fd, b, n, off) : read(fd, b, n);
	long long bad;

	why[0] = '\0';
	if (r < 0)
		snprintf(why, sizeof(why), "returned -1: %s", strerror(errno));
	else if ((size_t)r > n || r == 0 || (n <= 128 * KiB && (size_t)r != n))
		snprintf(why, sizeof(why), "returned %zd of %zu", r, n);
	else if ((bad = bad_byte(b, (size_t)r, n)) >= 0)
		snprintf(why, sizeof(why), "byte %lld is 0x%02x (returned %zd of %zu)",
			 bad, b[bad], r, n);
	else if ((size_t)r != n)
		tap_diag("read of %zu returned %zd (split by the kernel)", n, r);
	free(b);
	return why[0] ? why : NULL;
}

static const size_t read_sizes[] = {
	1, 2, 511, 4095, 4096, 4097, 65536, 128 * KiB - 1, 128 * KiB,
	128 * KiB + 1, 256 * KiB + 17, 1 * MiB,
};
#define NSIZES (sizeof(read_sizes) / sizeof(read_sizes[0]))

/* The full data checks (one TAP line per size) or a compact pass (one line). */
static void check_data(const struct dev *d, const char *label, bool verbose)
{
	static const off_t offs[] = { 0, 1, 4095, 1LL << 30, 1LL << 40 };
	const char *why = NULL;
	char what[96] = "";
	int fd = open(d->path, O_RDWR);
	size_t i, j;

	if (!tap_ok(fd >= 0, "%s: open %s O_RDWR%s%s", label, d->path,
		    fd < 0 ? ": " : "", fd < 0 ? strerror(errno) : ""))
		return;
	for (i = 0; i < NSIZES; i++) {
		const char *w = read_once(fd, read_sizes[i], -1);

		if (verbose)
			tap_ok(!w, "%s: read %zu B into 0xA5 buffer -> zeros%s%s", label,
			       read_sizes[i], w ? ": " : "", w ? w : "");
		else if (w && !why) {
			why = w;
			snprintf(what, sizeof(what), "read %zu", read_sizes[i]);
		}
	}
	for (i = 0; i < sizeof(offs) / sizeof(offs[0]); i++) {
		static const size_t psz[] = { 1, 4097, 128 * KiB };

		for (j = 0; j < 3; j++) {
			const char *w = read_once(fd, psz[j], offs[i]);

			if (w && !why) {
				why = w;
				snprintf(what, sizeof(what), "pread %zu at %lld", psz[j],
					 (long long)offs[i]);
			}
		}
	}
	if (verbose) {
		tap_ok(!why, "%s: pread 1 B/4097 B/128 KiB at offsets 0..2^40 -> zeros%s%s%s",
		       label, why ? ": " : "", what, why ? why : "");
		why = NULL;
	}
	{	/* readv over three buffers */
		unsigned char *a = buf_fill(100), *b = buf_fill(4096), *c = buf_fill(7000);
		struct iovec iov[3] = { { a, 100 }, { b, 4096 }, { c, 7000 } };
		ssize_t r = readv(fd, iov, 3);
		long long bad = -1;

		if (r == 11196) {
			bad = bad_byte(a, 100, 100);
			if (bad < 0)
				bad = bad_byte(b, 4096, 4096);
			if (bad < 0)
				bad = bad_byte(c, 7000, 7000);
		}
		if ((r != 11196 || bad >= 0) && !why) {
			static char w[96];

			snprintf(w, sizeof(w), "returned %zd of 11196, bad byte %lld", r, bad);
			why = w;
			snprintf(what, sizeof(what), "readv 100+4096+7000");
		}
		free(a);
		free(b);
		free(c);
		if (verbose) {
			tap_ok(!why, "%s: readv 100+4096+7000 B -> zeros%s%s", label,
			       why ? ": " : "", why ? why : "");
			why = NULL;
		}
	}
	{	/* writes are accepted and discarded */
		static const size_t wsz[] = { 1, 4096, 128 * KiB, 300000 };
		unsigned char *w = buf_fill(300000);
		static char wb[96];

		for (i = 0; i < 4; i++) {
			ssize_t r = write(fd, w, wsz[i]);

			if (r <= 0 || (size_t)r > wsz[i] || (wsz[i] <= 128 * KiB && (size_t)r != wsz[i])) {
				snprintf(wb, sizeof(wb), "returned %zd%s%s", r,
					 r < 0 ? ": " : "", r < 0 ? strerror(errno) : "");
				if (!why) {
					why = wb;
					snprintf(what, sizeof(what), "write %zu", wsz[i]);
				}
				break;
			}
		}
		free(w);
		if (verbose) {
			tap_ok(!why, "%s: write 1 B/4 KiB/128 KiB/300000 B accepted%s%s%s", label,
			       why ? ": " : "", what, why ? why : "");
			why = NULL;
		}
	}
	if (!verbose)
		tap_ok(!why, "%s: read/pread/readv 1 B..1 MiB -> zeros, writes accepted%s%s%s%s",
		       label, why ? ": " : "", what, why ? " " : "", why ? why : "");
	close(fd);
}

/* ---- ioctls ------------------------------------------------------------------- */

#define get_routine dc_get_routine

/* SET_ROUTINE; the result is not needed where this is used. */
static void set_routine(int fd, const char *name)
{
	dc_set_routine(fd, name);
}

static const struct zero_routine *relocatable(const struct zero_routine **rt, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (rt[i]->code_start)
			return rt[i];
	return NULL;
}

/* The shared ioctl checks, each setting followed by this checker's compact data pass. */
static void ioctl_data(const struct dc_dev *dd, const char *what)
{
	char label[128];

	snprintf(label, sizeof(label), "%s %s", dd->label, what);
	check_data(dd->priv, label, false);
}

static void check_ioctls(struct dev *d, const struct zero_routine *def)
{
	struct dc_dev dd = { .path = d->path, .label = d->name, .expect_routine = def->name,
			     .data = ioctl_data, .priv = d };

	dc_check_ioctl(&dd);
}

/* ---- scenarios ----------------------------------------------------------------- */

static void check_mode(const struct dev *d, mode_t mode)
{
	struct stat st;
	int r = stat(d->path, &st);

	tap_ok(r == 0 && (st.st_mode & 07777) == mode, "%s: node mode %04o (want %04o)",
	       d->name, r == 0 ? (unsigned)(st.st_mode & 07777) : 0u, (unsigned)mode);
}

/* errno of open(path, flags) as uid:gid 65534 (0 if it opened). */
static int open_as_nobody(const char *path, int flags)
{
	int p[2], e = -1, st;
	pid_t pid;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		int r = 255;

		if (setgid(65534) == 0 && setuid(65534) == 0)
			r = open(path, flags) >= 0 ? 0 : errno;
		if (write(p[1], &r, sizeof(r)) < 0)
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	if (pid > 0) {
		if (read(p[0], &e, sizeof(e)) != sizeof(e))
			e = -1;
		wait_bounded(pid, STEP_MS, &st);
	}
	close(p[0]);
	return e;
}

/*
 * Readers killed by SIGKILL in the middle of 1 MiB reads (requests in flight
 * in the daemon): the daemon keeps serving.
 */
static void check_killed_reader(const struct dev *d)
{
	int i, st;
	const char *w = NULL;

	for (i = 0; i < 3; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			int fd = open(d->path, O_RDONLY);
			char *b = malloc(MiB);

			for (;;)
				if (fd < 0 || !b || read(fd, b, MiB) < 0)
					_exit(1);
		}
		if (pid < 0)
			break;
		sleep_ms(20 + 30 * i);
		kill(pid, SIGKILL);
		wait_bounded(pid, STEP_MS, &st);
	}
	{
		int fd = open(d->path, O_RDONLY);

		if (fd >= 0) {
			w = read_once(fd, 128 * KiB, -1);
			close(fd);
		}
		tap_ok(fd >= 0 && !w && alive(d->pid),
		       "%s: 3 readers SIGKILLed mid-read, daemon alive and serving zeros%s%s",
		       d->name, w ? ": " : "", w ? w : "");
	}
}

/*
 * Two readers, at least 200 reads of 128 KiB + 1 each, verify every byte
 * while this process switches routine, alignment and chunk as fast as it
 * can: no read may see a non-zero byte or a short count.  The readers go on
 * until the switcher has made MIN_SWITCHES switches too (the count is in
 * shared memory): on a one-CPU guest the scheduler may otherwise let both
 * finish before the switcher ran at all.  Bounded by 2 x STEP_MS.
 */
static void check_switching(const struct dev *d, const struct zero_routine **rt, size_t nrt)
{
	enum { READERS = 2, READS = 200, MIN_SWITCHES = 20 };
	pid_t pid[READERS];
	int i, st, bad = 0, running, fd = open(d->path, O_RDONLY);
	unsigned switches = 0;
	volatile unsigned *shared;
	long long end = now_ms() + 2 * STEP_MS;

	if (!tap_ok(fd >= 0, "%s: open for switching", d->name))
		return;
	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED) {
		tap_ok(false, "%s: switching: mmap of the shared counter: %s", d->name, strerror(errno));
		close(fd);
		return;
	}
	*shared = 0;
	for (i = 0; i < READERS; i++) {
		pid[i] = fork();
		if (pid[i] == 0) {
			int rfd = open(d->path, O_RDONLY), k;

			for (k = 0; k < READS || *shared < MIN_SWITCHES; k++) {
				const char *w = rfd < 0 ? "open failed" : read_once(rfd, 128 * KiB + 1, -1);

				if (w) {
					fprintf(stderr, "reader %d, read %d: %s\n", i, k, w);
					_exit(1);
				}
			}
			_exit(0);
		}
	}
	do {
		struct cusezero_align al = { (int)(switches * 64 % 4096), switches & 1 };
		uint64_t c = switches % 3 ? 4096 : 65536 + 512 * (switches % 7);
		const struct zero_routine *r = rt[switches % nrt];

		set_routine(fd, r->name);
		if (r->code_start)
			ioctl(fd, CUSEZERO_IOC_SET_ALIGN, &al);
		ioctl(fd, CUSEZERO_IOC_SET_CHUNK, &c);
		*shared = ++switches;
		for (running = 0, i = 0; i < READERS; i++) {
			if (pid[i] > 0 && waitpid(pid[i], &st, WNOHANG) == pid[i]) {
				bad += !WIFEXITED(st) || WEXITSTATUS(st);
				pid[i] = 0;
			}
			running += pid[i] > 0;
		}
	} while (running && now_ms() < end);
	for (i = 0; i < READERS; i++)
		if (pid[i] > 0) {
			bad++;
			kill(pid[i], SIGKILL);
			waitpid(pid[i], &st, 0);
		}
	{
		struct cusezero_align none = { CUSEZERO_ALIGN_NONE, CUSEZERO_POINT_LOOP };
		uint64_t c = 4096;

		set_routine(fd, rt[0]->name);
		ioctl(fd, CUSEZERO_IOC_SET_ALIGN, &none);
		ioctl(fd, CUSEZERO_IOC_SET_CHUNK, &c);
	}
	close(fd);
	munmap((void *)shared, sizeof(*shared));
	tap_ok(!bad && switches >= MIN_SWITCHES,
	       "%s: %d readers x >= %d reads of 128 KiB+1 while switching routine/align/chunk %u times: all zeros (%d readers failed)",
	       d->name, READERS, READS, switches, bad);
}

/* Real uid of a process from /proc/PID/status, or -1. */
static long proc_uid(pid_t pid)
{
	char path[64];
	const char *t, *u;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	t = slurp(path);
	u = strstr(t, "\nUid:");
	return u ? strtol(u + 5, NULL, 10) : -1;
}

/* Settings given on the command line are what the ioctls report. */
static void check_settings(const struct dev *d, const char *routine, int align, uint64_t chunk)
{
	char name[CUSEZERO_NAME_MAX] = "";
	struct cusezero_align al = { -5, 9 };
	uint64_t c = 0;
	int fd = open(d->path, O_RDONLY);

	/* Evaluated first: the values printed below are the ones read here. */
	bool good = fd >= 0 && get_routine(fd, name) && !strcmp(name, routine) &&
		    !ioctl(fd, CUSEZERO_IOC_GET_ALIGN, &al) && al.offset == align &&
		    !ioctl(fd, CUSEZERO_IOC_GET_CHUNK, &c) && c == chunk;

	tap_ok(good, "%s: options -> routine \"%s\" align %d chunk %llu (want \"%s\" %d %llu)", d->name,
	       name, (int)al.offset, (unsigned long long)c, routine, align,
	       (unsigned long long)chunk);
	if (fd >= 0)
		close(fd);
}

/*
 * A second daemon with the same name: non-zero exit, one line, first unharmed.
 * hidden: the first daemon's node is renamed away meanwhile, so a check for
 * an existing /dev/NAME cannot catch it and the kernel's CUSE_INIT must
 * refuse the name (cuse.c: "duplicate device name"): the daemon has to notice
 * that its session ended before the device appeared.
 */
static void check_duplicate(const struct dev *first, bool hidden)
{
	char *argv[] = { (char *)daemon_path, (char *)"--name", (char *)first->name, NULL };
	const char *err, *how = hidden ? "duplicate (node renamed away)" : "duplicate";
	char moved[128];
	int st, r;
	pid_t pid;

	snprintf(moved, sizeof(moved), "%s.moved", first->path);
	if (hidden && !tap_ok(rename(first->path, moved) == 0, "%s %s: rename to %s", how,
			      first->name, moved))
		return;
	pid = spawn(argv, "/tmp/dup.out", "/tmp/dup.err");
	r = pid < 0 ? -1 : wait_bounded(pid, STEP_MS, &st);
	if (hidden) {
		tap_ok(!node_is(first->path, true), "%s %s: second daemon created no %s", how,
		       first->name, first->path);
		if (rename(moved, first->path))
			tap_diag("rename back %s: %s", moved, strerror(errno));
	}
	if (r < 0) {
		tap_ok(0, "%s %s: second daemon did not exit within %d ms", how, first->name,
		       STEP_MS);
		diag_file("stderr", "/tmp/dup.err");
		reap_orphans();
		return;
	}
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) != 0, "%s %s: second daemon fails (%s)",
	       how, first->name, status_str(st));
	err = slurp("/tmp/dup.err");
	if (!tap_ok(count_lines(err) == 1 && strlen(err) > 1,
		    "%s %s: exactly one line of error (%u lines)", how, first->name,
		    count_lines(err)))
		diag_file("stderr", "/tmp/dup.err");
	else
		tap_diag("%s error: %.*s", how, (int)strcspn(err, "\n"), err);
	reap_orphans();
	tap_ok(alive(first->pid) && node_is(first->path, true),
	       "%s %s: first daemon still alive and %s present", how, first->name,
	       first->path);
	{
		const char *w = NULL;
		int fd = open(first->path, O_RDONLY);

		if (fd >= 0) {
			w = read_once(fd, 128 * KiB, -1);
			close(fd);
		}
		tap_ok(fd >= 0 && !w, "%s %s: first daemon still serves zeros%s%s",
		       how, first->name, w ? ": " : "", w ? w : "");
	}
}

/*
 * `vmcheck --in-run STATUS`, run by `cusezero run -- ...`: /dev/zero must be
 * the emulated device (same rdev as $CUSEZERO_DEVICE, not the kernel's 1:5),
 * read as zeros and answer cusezero's ioctls.  Exit STATUS when all holds
 * (so the caller also sees COMMAND's status come back), else 1 with one line
 * on stderr.
 */
static int in_run(const char *status)
{
	const char *dev = getenv("CUSEZERO_DEVICE");
	char name[CUSEZERO_NAME_MAX];
	struct stat z, d;
	const char *w;
	int fd;

	if (!dev || stat(dev, &d) || stat("/dev/zero", &z)) {
		fprintf(stderr, "in-run: CUSEZERO_DEVICE=%s or /dev/zero: %s\n", dev ? dev : "(unset)",
			strerror(errno));
		return 1;
	}
	if (z.st_rdev != d.st_rdev || major(z.st_rdev) == 1) {
		fprintf(stderr, "in-run: /dev/zero is %u:%u, %s is %u:%u\n", major(z.st_rdev),
			minor(z.st_rdev), dev, major(d.st_rdev), minor(d.st_rdev));
		return 1;
	}
	fd = open("/dev/zero", O_RDONLY);
	if (fd < 0 || (w = read_once(fd, 128 * KiB + 3, -1)) != NULL) {
		fprintf(stderr, "in-run: read /dev/zero: %s\n", fd < 0 ? strerror(errno) : w);
		return 1;
	}
	if (!get_routine(fd, name)) {
		fprintf(stderr, "in-run: GET_ROUTINE on /dev/zero: %s\n", strerror(errno));
		return 1;
	}
	close(fd);
	return atoi(status);
}

/*
 * `cusezero run` with the CUSE front end: COMMAND sees the device as
 * /dev/zero, its exit status comes back, and afterwards the system's
 * /dev/zero is untouched and the device is gone.
 */
static void check_run(const char *self)
{
	char *argv[] = { (char *)daemon_path, (char *)"run", (char *)"--name", (char *)"czvm_r",
			 (char *)"--", (char *)self, (char *)"--in-run", (char *)"7", NULL };
	struct stat z;
	int st, r;
	pid_t pid = spawn(argv, "/tmp/run.out", "/tmp/run.err");

	r = pid < 0 ? -1 : wait_bounded(pid, 2 * STEP_MS, &st);
	if (!tap_ok(r == 0 && WIFEXITED(st) && WEXITSTATUS(st) == 7,
		    "run -- vmcheck --in-run 7: COMMAND saw the device as /dev/zero, exit 7 came back (%s)",
		    r == 0 ? status_str(st) : "timeout, killed"))
		diag_file("stderr", "/tmp/run.err");
	reap_orphans();
	r = stat("/dev/zero", &z);
	tap_ok(r == 0 && major(z.st_rdev) == 1 && minor(z.st_rdev) == 5,
	       "run: the system's /dev/zero is still 1:5 (%u:%u)", r ? 0 : major(z.st_rdev),
	       r ? 0 : minor(z.st_rdev));
	tap_ok(wait_node("/dev/czvm_r", false, STEP_MS, 0), "run: /dev/czvm_r removed after COMMAND");
}

/* The highest character major in 234..254 that /proc/devices does not list, or 0. */
static unsigned free_char_major(void)
{
	char line[128];
	bool used[256] = { false }, chr = false;
	unsigned m;
	FILE *f = fopen("/proc/devices", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "Character", 9))
			chr = true;
		else if (!strncmp(line, "Block", 5))
			chr = false;
		else if (chr && sscanf(line, "%u", &m) == 1 && m < 256)
			used[m] = true;
	}
	fclose(f);
	for (m = 254; m >= 234; m--)
		if (!used[m])
			return m;
	return 0;
}

/* Up to max usable routines on this CPU, default first. */
static size_t usable_routines(const struct zero_routine **out, size_t max)
{
	const struct zero_routine *def = zero_default();
	size_t i, n = 0;

	out[n++] = def;
	for (i = 0; i < zero_nroutines && n < max; i++)
		if (&zero_routines[i] != def && zero_usable(&zero_routines[i], NULL))
			out[n++] = &zero_routines[i];
	return n;
}

int main(int argc, char **argv)
{
	const struct zero_routine *rt[MAX_RT], *rel;
	size_t nrt, i;
	struct dev a, b, f;
	int r;

	if (argc == 3 && !strcmp(argv[1], "--in-run"))
		return in_run(argv[2]);
	if (argc != 2) {
		fprintf(stderr, "usage: %s DAEMON | --in-run STATUS\n", argv[0]);
		return 2;
	}
	daemon_path = argv[1];
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
		tap_diag("PR_SET_CHILD_SUBREAPER: %s (exit status of daemons not checked)",
			 strerror(errno));

	if (!tap_ok(node_is("/dev/cuse", true), "/dev/cuse exists (cuse.ko loaded)")) {
		printf("Bail out! no /dev/cuse: CUSE unavailable in the VM\n");
		return tap_done();
	}
	tap_ok(access(daemon_path, X_OK) == 0, "daemon %s is executable", daemon_path);
	nrt = usable_routines(rt, MAX_RT);
	rel = relocatable(rt, nrt);
	{
		char names[512] = "";

		for (i = 0; i < nrt; i++)
			snprintf(names + strlen(names), sizeof(names) - strlen(names), " %s",
				 rt[i]->name);
		tap_diag("routines usable in the VM (%zu of %zu):%s", nrt, zero_nroutines, names);
	}
#if defined(__aarch64__)
	/* cuse-vm.sh boots -cpu max with a kernel >= 6.5: the MOPS routines must run here. */
	tap_ok(zero_cpu()->mops, "arm64 VM: HWCAP2_MOPS set, the MOPS routines are among those checked");
#endif

	/* A: defaults, mode 0666, full data checks, duplicate name. */
	{
		static const char *const opt[] = { "--mode", "0666", NULL };

		if (dev_start(&a, "czvm_a", false, opt)) {
			check_mode(&a, 0666);
			check_data(&a, "czvm_a", true);
			check_ioctls(&a, rt[0]);
			r = open_as_nobody(a.path, O_RDWR);
			tap_ok(r == 0, "czvm_a: mode 0666 -> uid 65534 may open O_RDWR (%s)",
			       r ? strerror(r) : "opened");
			check_killed_reader(&a);
			check_switching(&a, rt, nrt);
			check_duplicate(&a, false);
			check_duplicate(&a, true);
			dev_stop(&a);
		}
	}
	/* B: mode 0640, owner/group, routine/align/chunk given on the command line. */
	{
		const char *opt[] = { "--mode", "0640", "--owner", "1", "--group", "2",
				      "--chunk", "8KB", "--routine", rel ? rel->name : rt[0]->name,
				      rel ? "--align" : NULL, "320", NULL };

		if (dev_start(&b, "czvm_b", false, opt)) {
			struct stat st;

			r = stat(b.path, &st);
			check_mode(&b, 0640);
			tap_ok(r == 0 && st.st_uid == 1 && st.st_gid == 2,
			       "czvm_b: --owner 1 --group 2 -> %u:%u", r ? 0u : (unsigned)st.st_uid,
			       r ? 0u : (unsigned)st.st_gid);
			r = open_as_nobody(b.path, O_RDONLY);
			tap_ok(r == EACCES, "czvm_b: mode 0640 owner 1:2 -> uid 65534 open: %s (want EACCES)",
			       r > 0 ? strerror(r) : r == 0 ? "opened" : "failed to test");
			check_settings(&b, rel ? rel->name : rt[0]->name, rel ? 320 : CUSEZERO_ALIGN_NONE,
				       8192);
			check_data(&b, "czvm_b --routine --align --chunk", false);
			dev_stop(&b);
		}
	}
	/* T: two worker threads. */
	{
		static const char *const opt[] = { "--threads", "2", "--poison", NULL };

		if (dev_start(&f, "czvm_t", true, opt)) {
			check_data(&f, "czvm_t --threads 2 --poison", false);
			check_switching(&f, rt, nrt);
			dev_stop(&f);
		}
	}
	/*
	 * S/W: /dev/cuse replies of two pages or more go by vmsplice + splice
	 * (--reply splice, the default): the -d exit summary counts them; with
	 * --reply writev there is none.  Both poisoned, both fully read.
	 */
	{
		static const char *const opt_s[] = { "-d", "--poison", NULL };
		static const char *const opt_w[] = { "-d", "--poison", "--reply", "writev", NULL };
		unsigned long long nreq = 0, nspl = 0;
		const char *p;

		if (dev_start(&f, "czvm_s", true, opt_s)) {
			check_data(&f, "czvm_s -d --poison (replies by splice)", false);
			dev_stop(&f);
			p = strstr(slurp_tail(f.err), "/dev/cuse: ");
			if (!p || sscanf(p, "/dev/cuse: %llu requests, %llu replies by splice",
					 &nreq, &nspl) != 2)
				nreq = nspl = 0;
			if (!tap_ok(nspl > 0, "czvm_s: %llu of %llu requests answered by splice",
				    nspl, nreq))
				diag_file("stderr", f.err);
		}
		if (dev_start(&f, "czvm_w", true, opt_w)) {
			check_data(&f, "czvm_w -d --poison --reply writev", false);
			dev_stop(&f);
			tap_ok(!strstr(slurp_tail(f.err), "replies by splice"),
			       "czvm_w: --reply writev: no reply by splice");
		}
	}
	/*
	 * M: fixed --major/--minor, one of 234..254 (Documentation/admin-guide/
	 * devices.txt: local/experimental use, also where dynamic majors come
	 * from) that /proc/devices does not list: on the arm64 virt machine
	 * drivers take some of them.
	 */
	{
		unsigned maj = free_char_major();
		char smaj[16];
		const char *opt[] = { "--major", smaj, "--minor", "7", NULL };

		snprintf(smaj, sizeof(smaj), "%u", maj);
		if (tap_ok(maj, "czvm_m: a free character major in 234..254 (%u)", maj) &&
		    dev_start(&f, "czvm_m", true, opt)) {
			struct stat st;

			r = stat(f.path, &st);
			tap_ok(r == 0 && major(st.st_rdev) == maj && minor(st.st_rdev) == 7,
			       "czvm_m: --major %u --minor 7 -> %u:%u", maj, r ? 0 : major(st.st_rdev),
			       r ? 0 : minor(st.st_rdev));
			dev_stop(&f);
		}
	}
	/* U: --user drops privileges after set-up; still serves, still stops. */
	{
		static const char *const opt[] = { "--user", "65534", NULL };

		if (dev_start(&f, "czvm_u", false, opt)) {
			long uid = proc_uid(f.pid);

			tap_ok(uid == 65534, "czvm_u: --user 65534 -> daemon runs as uid %ld", uid);
			check_mode(&f, 0666);
			check_data(&f, "czvm_u --user 65534", false);
			dev_stop(&f);
		}
	}
	check_run(argv[0]);
	/*
	 * F: foreground, each usable routine from the command line, with the
	 * reply buffer poisoned (0xa5) before every routine call: a routine that
	 * leaves any byte uncleared shows up as a non-zero byte here.
	 */
	for (i = 0; i < nrt; i++) {
		const char *opt[] = { "--routine", rt[i]->name, "--poison", NULL };
		char label[96];

		if (!dev_start(&f, "czvm_f", true, opt))
			continue;
		snprintf(label, sizeof(label), "czvm_f --poison --routine %s", rt[i]->name);
		check_data(&f, label, false);
		dev_stop(&f);
	}
	reap_orphans();
	return tap_done();
}
