/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zbench align --device: the in-situ twin of the in-process sweep.  ONE
 * daemon serves the whole sweep; before every sample its routine's
 * placement is switched through CUSEZERO_IOC_SET_ALIGN and read back with
 * GET_ALIGN (a sample at the wrong placement is an error, not a data
 * point), one untimed read warms the new code and proves the reply is all
 * zero, then the sample: the reads (zbench's own preads, or --reader CMD)
 * timed end to end, and the daemon's counters read just before and just
 * after -- their difference is exactly this sample's routine work, the
 * in-device figure.
 *
 * --device new starts a private daemon (FUSE front end in a temporary
 * directory) co-located with zbench on one CPU (`--cpu N`, zbench pinned
 * to N: no cross-CPU wake-up per read), and stops it at the
 * end or on any error; a daemon that dies is reported in one line and its
 * mount removed.  An existing device gets its settings back at the end.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "align.h"
#include "devspawn.h"
#include "devstats.h"
#include "util.h"

struct align_dev {
	bool own;                       /* --device new: our daemon */
	struct cz_dev dev;              /* ours */
	char tmpdir[PATH_MAX - 16];
	char *path;                     /* the device file */
	int fd;
	int cpu;                        /* co-location CPU (ours), or the reader's --cpu; -1 */
	char *buf;                      /* one read */
	struct cusezero_routine old_routine;   /* an existing device's settings, restored */
	struct cusezero_align old_align;
	uint64_t old_chunk;
	bool restore;
};

/* Set by SIGINT/SIGTERM: a sweep (in process or in a device) ends early. */
volatile sig_atomic_t zb_align_stop;

static void on_stop(int sig)
{
	(void)sig;
	zb_align_stop = 1;
}

static void stop_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;        /* no SA_RESTART: a blocked read returns */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* The device stopped answering: say what we know in one line. */
static int gone(struct align_dev *d, const char *what, int err, unsigned offset)
{
	bool dead = d->own && !cz_dev_alive(&d->dev);
	int i;

	/*
	 * A lost connection is seen while the killed daemon is still exiting
	 * (the kernel closes its /dev/fuse before the process is a zombie):
	 * give it up to two seconds to be gone.
	 */
	for (i = 0; d->own && !dead && (err == ECONNABORTED || err == ENOTCONN) && i < 200; i++) {
		usleep(10000);
		dead = !cz_dev_alive(&d->dev);
	}

	fprintf(stderr, "zbench align: device %s stopped answering at offset %u (%s: %s)%s\n",
		d->path, offset, what, strerror(err),
		dead ? "; its daemon is gone" : "");
	return -1;
}

static int dev_ioctl(struct align_dev *d, unsigned long cmd, void *arg, const char *what,
		     unsigned offset)
{
	if (!ioctl(d->fd, cmd, arg))
		return 0;
	return gone(d, what, errno, offset);
}

/* A private daemon on one CPU with zbench: mount in a temporary directory. */
static int start_own(struct align_dev *d, const struct align_params *ap)
{
	char *cz = cz_find_cusezero(ap->cusezero), cpu[16], chunk[32], mnt[PATH_MAX], err[1024];
	char pidfile[PATH_MAX];
	const char *td = getenv("TMPDIR");
	char *args[] = { cz, (char *)"--routine", (char *)ap->r->name, (char *)"--chunk", chunk,
			 (char *)"--cpu", cpu };
	cpu_set_t set;
	int ret;

	if (geteuid() != 0) {
		fprintf(stderr, "zbench align: --device new mounts a FUSE device: needs root "
			"(or give the path of a running cusezero device)\n");
		free(cz);
		return -1;
	}
	d->cpu = ap->cpu >= 0 ? ap->cpu : sched_getcpu();
	if (sched_getaffinity(0, sizeof(set), &set) || d->cpu < 0 || !CPU_ISSET(d->cpu, &set)) {
		fprintf(stderr, "zbench align: --cpu %d: not a CPU zbench may run on\n", d->cpu);
		free(cz);
		return -1;
	}
	snprintf(cpu, sizeof(cpu), "%d", d->cpu);
	snprintf(chunk, sizeof(chunk), "%" PRIu64, ap->chunk);
	snprintf(d->tmpdir, sizeof(d->tmpdir), "%s/zbench-align.XXXXXX", td && *td ? td : "/tmp");
	if (!mkdtemp(d->tmpdir)) {
		fprintf(stderr, "zbench align: mkdtemp %s: %s\n", d->tmpdir, strerror(errno));
		free(cz);
		return -1;
	}
	snprintf(mnt, sizeof(mnt), "%s/mnt", d->tmpdir);
	snprintf(pidfile, sizeof(pidfile), "%s/pid", d->tmpdir);
	/* own before the start: a failed start still leaves a mount point to clean up */
	d->own = true;
	ret = cz_dev_start(&d->dev, args, CZ_ARRAY_SIZE(args), mnt, NULL, pidfile, 60, err, sizeof(err));
	free(cz);
	if (ret) {
		fprintf(stderr, "zbench align: %s\n", err);
		return -1;
	}
	d->path = strdup(d->dev.path);
	ret = cz_pin_cpu(d->cpu);
	if (ret) {
		fprintf(stderr, "zbench align: pinning to CPU %d: %s\n", d->cpu, strerror(-ret));
		return -1;
	}
	return 0;
}

/* An existing device: remember its settings to give them back. */
static int open_existing(struct align_dev *d, const struct align_params *ap)
{
	struct cusezero_stats *st = malloc(sizeof(*st));
	int ret;

	d->path = strdup(ap->device);
	d->cpu = ap->cpu;
	ret = st ? cz_devstats_get(d->fd, st) : -ENOMEM;
	if (ret) {
		fprintf(stderr, "zbench align: --device %s: not a cusezero device (GET_STATS: %s)\n",
			ap->device, strerror(-ret));
		free(st);
		return -1;
	}
	snprintf(d->old_routine.name, sizeof(d->old_routine.name), "%s", st->routine);
	d->old_align.offset = st->align;
	d->old_align.point = st->point;
	d->old_chunk = st->chunk;
	d->restore = true;
	free(st);
	if (ap->cpu >= 0 && (ret = cz_pin_cpu(ap->cpu))) {
		fprintf(stderr, "zbench align: --cpu %d: %s\n", ap->cpu, strerror(-ret));
		return -1;
	}
	return 0;
}

int zb_aligndev_open(const struct align_params *ap, struct align_dev **out)
{
	struct align_dev *d = calloc(1, sizeof(*d));
	struct cusezero_routine r = { { 0 } };
	struct cusezero_align none = { .offset = CUSEZERO_ALIGN_NONE, .point = CUSEZERO_POINT_LOOP };
	uint64_t chunk = ap->chunk;

	if (!d)
		return -1;
	*out = d;
	d->fd = -1;
	stop_signals();
	if (!strcmp(ap->device, "new") && start_own(d, ap))
		return -1;
	d->fd = open(d->own ? d->path : ap->device, O_RDONLY | O_CLOEXEC);
	if (d->fd < 0) {
		fprintf(stderr, "zbench align: --device %s: %s\n", d->own ? d->path : ap->device,
			strerror(errno));
		return -1;
	}
	if (!d->own && open_existing(d, ap))
		return -1;
	if (posix_memalign((void **)&d->buf, 4096, ap->size)) {
		fprintf(stderr, "zbench align: out of memory\n");
		return -1;
	}
	snprintf(r.name, sizeof(r.name), "%s", ap->r->name);
	/* unplaced first: the device's current offset may not suit the new routine */
	if (ioctl(d->fd, CUSEZERO_IOC_SET_ALIGN, &none) || ioctl(d->fd, CUSEZERO_IOC_SET_ROUTINE, &r) ||
	    ioctl(d->fd, CUSEZERO_IOC_SET_CHUNK, &chunk)) {
		fprintf(stderr, "zbench align: --device %s: selecting %s with %" PRIu64 "-byte chunks: %s%s\n",
			d->path, ap->r->name, chunk, strerror(errno),
			errno == EPERM ? " (only root or the daemon's owner may change settings)" : "");
		return -1;
	}
	return 0;
}

int zb_aligndev_select(struct align_dev *d, const struct zero_routine *r)
{
	struct cusezero_align none = { .offset = CUSEZERO_ALIGN_NONE, .point = CUSEZERO_POINT_LOOP };
	struct cusezero_routine name = { { 0 } };

	snprintf(name.name, sizeof(name.name), "%s", r->name);
	if (ioctl(d->fd, CUSEZERO_IOC_SET_ALIGN, &none) || ioctl(d->fd, CUSEZERO_IOC_SET_ROUTINE, &name)) {
		fprintf(stderr, "zbench align: --device %s: selecting %s: %s\n", d->path, r->name,
			strerror(errno));
		return -1;
	}
	return 0;
}

/* ---- one sample -------------------------------------------------------------------------- */

/* Switch the placement and read it back: the sample is only valid at the requested one. */
static int place(struct align_dev *d, const struct align_params *ap, struct align_point *pt)
{
	struct cusezero_align a = { .offset = (int32_t)pt->offset,
				    .point = ap->point == ZERO_POINT_LOOP ? CUSEZERO_POINT_LOOP :
									    CUSEZERO_POINT_ENTRY };
	struct cusezero_align got;

	if (ioctl(d->fd, CUSEZERO_IOC_SET_ALIGN, &a)) {
		if (errno == EINVAL) {
			fprintf(stderr, "zbench align: the daemon of %s cannot place %s at offset %u (EINVAL)\n",
				d->path, ap->r->name, pt->offset);
			return -1;
		}
		return gone(d, "SET_ALIGN", errno, pt->offset);
	}
	if (dev_ioctl(d, CUSEZERO_IOC_GET_ALIGN, &got, "GET_ALIGN", pt->offset))
		return -1;
	pt->reported = got.offset;
	if (got.offset != a.offset || got.point != a.point) {
		fprintf(stderr, "zbench align: placement check: %s reports offset %d (%s), wanted %u (%s)\n",
			d->path, (int)got.offset, got.point == CUSEZERO_POINT_LOOP ? "loop" : "entry",
			pt->offset, a.point == CUSEZERO_POINT_LOOP ? "loop" : "entry");
		return -1;
	}
	return 0;
}

static int read_once(struct align_dev *d, const struct align_params *ap, unsigned offset)
{
	ssize_t r = pread(d->fd, d->buf, ap->size, 0);

	if (r == (ssize_t)ap->size)
		return 0;
	if (r < 0 && errno == EINTR && zb_align_stop)
		return -1;
	if (r >= 0) {
		fprintf(stderr, "zbench align: device %s: short read at offset %u: %zd of %" PRIu64 " bytes\n",
			d->path, offset, r, ap->size);
		return -1;
	}
	return gone(d, "pread", errno, offset);
}

/* zbench's own reader: loops preads of size; end-to-end GB/s. */
static int own_reader(struct align_dev *d, const struct align_params *ap, unsigned offset, double *gbps)
{
	uint64_t t0, dt;
	unsigned i;

	t0 = cz_now_ns_raw();
	for (i = 0; i < ap->loops; i++)
		if (zb_align_stop || read_once(d, ap, offset))
			return -1;
	dt = cz_now_ns_raw() - t0;
	*gbps = (double)ap->size * ap->loops / ((double)(dt ? dt : 1) / 1e9) / ZB_GB;
	return 0;
}

/* The one number a reader prints ("#" lines skipped, as zab's benchmarks). */
static bool one_number(const char *s, double *x)
{
	char *end;

	while (isspace((unsigned char)*s) || *s == '#') {
		if (*s == '#')
			s += strcspn(s, "\n");
		else
			s++;
	}
	errno = 0;
	*x = strtod(s, &end);
	if (end == s || errno || !isfinite(*x) || *x <= 0)
		return false;
	while (isspace((unsigned char)*end))
		end++;
	return !*end;
}

/* {dev} -> the device path, everywhere in the command. */
static char *reader_cmd(const char *tmpl, const char *dev)
{
	size_t n = strlen(tmpl) + 1, k = 0;
	const char *p;
	char *out;

	for (p = tmpl; (p = strstr(p, "{dev}")); p += 5)
		n += strlen(dev);
	out = malloc(n);
	if (!out)
		return NULL;
	for (p = tmpl; *p;) {
		if (!strncmp(p, "{dev}", 5)) {
			k += (size_t)sprintf(out + k, "%s", dev);
			p += 5;
		} else {
			out[k++] = *p++;
		}
	}
	out[k] = 0;
	return out;
}

/* The first line of a file (the reader's stderr or stdout), for a one-line error. */
static void first_line(int fd, char *buf, size_t len)
{
	ssize_t n;

	lseek(fd, 0, SEEK_SET);
	n = read(fd, buf, len - 1);
	buf[n > 0 ? n : 0] = 0;
	buf[strcspn(buf, "\n")] = 0;
}

static int run_cmd(const char *cmd, const char *dev, int ofd, int efd)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return -1;
	if (!pid) {
		dup2(ofd, 1);
		dup2(efd, 2);
		setenv("CUSEZERO_DEVICE", dev, 1);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR)
			return -1;
		if (zb_align_stop)
			kill(pid, SIGTERM);
	}
	return st;
}

/* Why a reader's run is no sample: one line. */
static void reader_failed(const char *cmd, unsigned offset, int st, int ofd, int efd)
{
	char line[300];

	first_line(st == 0 ? ofd : efd, line, sizeof(line));
	if (st == 0)
		fprintf(stderr, "zbench align: reader `%s` at offset %u printed '%s' (expected one number: bytes/sec)\n",
			cmd, offset, line);
	else if (st > 0 && WIFEXITED(st))
		fprintf(stderr, "zbench align: reader `%s` at offset %u exited with status %d: %s\n",
			cmd, offset, WEXITSTATUS(st), *line ? line : "(no output)");
	else if (st > 0 && WIFSIGNALED(st))
		fprintf(stderr, "zbench align: reader `%s` at offset %u was killed by signal %d (%s)\n",
			cmd, offset, WTERMSIG(st), strsignal(WTERMSIG(st)));
	else
		fprintf(stderr, "zbench align: reader `%s` at offset %u could not run: %s\n", cmd, offset,
			strerror(errno));
}

/* --reader CMD: run it, take the bytes/sec it prints. */
static int cmd_reader(struct align_dev *d, const struct align_params *ap, unsigned offset, double *gbps)
{
	char tmpl[] = "/tmp/zbench-reader.XXXXXX", tmpl2[] = "/tmp/zbench-reader.XXXXXX";
	char out[4096], *cmd = reader_cmd(ap->reader, d->path);
	int ofd = mkstemp(tmpl), efd = mkstemp(tmpl2), st = -1, ret = -1;
	ssize_t n;
	double x;

	if (ofd >= 0)
		unlink(tmpl);
	if (efd >= 0)
		unlink(tmpl2);
	if (cmd && ofd >= 0 && efd >= 0)
		st = run_cmd(cmd, d->path, ofd, efd);
	if (zb_align_stop)
		goto out;
	if (st == 0) {
		lseek(ofd, 0, SEEK_SET);
		n = read(ofd, out, sizeof(out) - 1);
		out[n > 0 ? n : 0] = 0;
		if (one_number(out, &x)) {
			*gbps = x / ZB_GB;
			ret = 0;
			goto out;
		}
	}
	reader_failed(cmd ? cmd : ap->reader, offset, st, ofd, efd);
out:
	free(cmd);
	if (ofd >= 0)
		close(ofd);
	if (efd >= 0)
		close(efd);
	return ret;
}

/* The counters' difference over one sample -> the in-device figures. */
static int device_figures(struct align_dev *d, const struct align_params *ap, struct align_point *pt,
			  const struct cusezero_stats *before, const struct cusezero_stats *after)
{
	uint64_t want = (uint64_t)ap->size * ap->loops;
	struct cz_devdelta dd;

	if (cz_devstats_delta(before, after, &dd)) {
		fprintf(stderr, "zbench align: %s: its counters were reset during the sample at offset %u\n",
			d->path, pt->offset);
		return -1;
	}
	if (!ap->reader && dd.bytes != want) {
		fprintf(stderr, "zbench align: %s counted %" PRIu64 " bytes during the sample at offset %u, "
			"zbench read %" PRIu64 ": another reader uses the device (in-device figures need it alone)\n",
			d->path, dd.bytes, pt->offset, want);
		return -1;
	}
	if (!dd.requests || !dd.routine_ns) {
		fprintf(stderr, "zbench align: reader at offset %u read nothing from %s\n", pt->offset, d->path);
		return -1;
	}
	if (dd.errors) {
		fprintf(stderr, "zbench align: %s at offset %u left bytes not cleared %" PRIu64 " times\n",
			ap->r->name, pt->offset, dd.errors);
		return -1;
	}
	/* the median request: one preempted request would inflate the totals (doc/measurement.md) */
	pt->dev_gbps[pt->n] = cz_devdelta_median_rate(&dd) / ZB_GB;
	pt->dev_ns[pt->n] = cz_devdelta_median_ns_per_chunk(&dd);
	return 0;
}

int zb_aligndev_measure(struct align_dev *d, const struct align_params *ap, struct align_point *pt)
{
	static struct cusezero_stats before, after;
	double e2e = 0;
	size_t bad;

	if (place(d, ap, pt))
		return -1;
	/* the untimed read warms the new copy and proves the reply is all zero */
	memset(d->buf, 0xa5, ap->size);
	if (read_once(d, ap, pt->offset))
		return -1;
	bad = cz_first_nonzero(d->buf, ap->size);
	if (bad < ap->size) {
		fprintf(stderr, "zbench align: %s at offset %u: byte %zu of a read = %#x, not zero\n",
			ap->r->name, pt->offset, bad, (unsigned char)d->buf[bad]);
		return -1;
	}
	if (dev_ioctl(d, CUSEZERO_IOC_GET_STATS, &before, "GET_STATS", pt->offset))
		return -1;
	if (ap->reader ? cmd_reader(d, ap, pt->offset, &e2e) : own_reader(d, ap, pt->offset, &e2e))
		return -1;
	if (dev_ioctl(d, CUSEZERO_IOC_GET_STATS, &after, "GET_STATS", pt->offset))
		return -1;
	if (device_figures(d, ap, pt, &before, &after))
		return -1;
	pt->gbps[pt->n++] = e2e;
	return 0;
}

/* ---- description, cleanup ---------------------------------------------------------------- */

void zb_aligndev_describe(const struct align_dev *d, const struct align_params *ap, FILE *f)
{
	fprintf(f, "# device %s: %s", d->path, d->own ? "a private daemon " : "a running daemon");
	if (d->own)
		fprintf(f, "(pid %d), serving on CPU %d with the reader (co-located)\n", (int)d->dev.pid,
			d->cpu);
	else if (d->cpu >= 0)
		fprintf(f, "; reader on CPU %d (the daemon's placement is its own)\n", d->cpu);
	else
		fprintf(f, "; reader and daemon placed by the scheduler\n");
	fprintf(f, "# %s placed by the daemon at each offset (SET_ALIGN, read back by GET_ALIGN: "
		"'placed'); %s chunks; %u samples per offset, order %s\n",
		ap->point == ZERO_POINT_LOOP ? "loop head" : "entry",
		ap->chunk_str, ap->repeats, ap->round_robin ? "round-robin" : "random");
	if (ap->reader)
		fprintf(f, "# sample: `%s` (end to end: the bytes/sec it prints)\n", ap->reader);
	else
		fprintf(f, "# sample: %u preads of %s (end to end: bytes read per second of wall time)\n",
			ap->loops, ap->size_str);
	fprintf(f, "# in device: bytes cleared per second of time inside the routine and its ns per "
		"chunk, from the daemon's counters over exactly that sample; GB/s = 2^30 bytes/s\n");
}

json_t *zb_aligndev_json(const struct align_dev *d)
{
	json_t *o = cz_jobj();

	cz_jset(o, "path", cz_jstr(d->path));
	cz_jset(o, "own_daemon", json_boolean(d->own));
	if (d->own)
		cz_jset(o, "pid", json_integer(d->dev.pid));
	if (d->cpu >= 0) {
		cz_jset(o, "cpu", json_integer(d->cpu));
		cz_jset(o, "colocated", json_boolean(d->own));
	}
	return o;
}

void zb_aligndev_close(struct align_dev *d)
{
	if (!d)
		return;
	if (d->restore && d->fd >= 0) {
		struct cusezero_align none = { .offset = CUSEZERO_ALIGN_NONE, .point = d->old_align.point };

		/* unplaced, the old routine, then its placement: each step valid on its own */
		if (ioctl(d->fd, CUSEZERO_IOC_SET_ALIGN, &none) ||
		    ioctl(d->fd, CUSEZERO_IOC_SET_ROUTINE, &d->old_routine) ||
		    (d->old_align.offset != CUSEZERO_ALIGN_NONE &&
		     ioctl(d->fd, CUSEZERO_IOC_SET_ALIGN, &d->old_align)) ||
		    ioctl(d->fd, CUSEZERO_IOC_SET_CHUNK, &d->old_chunk))
			fprintf(stderr, "zbench align: %s: could not restore its settings (%s)\n", d->path,
				strerror(errno));
	}
	if (d->fd >= 0)
		close(d->fd);
	if (d->own)
		cz_dev_stop(&d->dev, "zbench align");
	if (d->tmpdir[0])
		rmdir(d->tmpdir);
	free(d->path);
	free(d->buf);
	free(d);
}
