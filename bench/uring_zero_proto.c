/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * uring_zero_proto: a minimal FUSE file system with one file, MOUNTPOINT/zero
 * (direct_io), whose reads return zeros cleared by a zeroing routine in
 * PAGE_SIZE chunks, served either over /dev/fuse or over FUSE-over-io_uring
 * (cuse/fuse_uring.c).  The prototype that measures the transports for issue
 * #7 before the daemon adopts one; not installed.
 *
 *   uring_zero_proto serve MOUNTPOINT [--transport auto|uring|dev] [--entries N]
 *                    [--poll-us US] [--follow-cpu] [--pin-daemon CPU] [--no-pin]
 *                    [--enable-param] [--routine NAME] [--ring-copy] [--no-clear]
 *                    [--splice]
 *       foreground; SIGINT/SIGTERM unmounts.  Prints one line on stderr once
 *       the transport is settled, and the request counts at exit.
 *       --ring-copy: the ring READ path fills a per-thread buffer and copies
 *       it into the ring payload (what a read path with its own buffer costs).
 *       --no-clear: READ runs no routine at all -- /dev/fuse replies come from
 *       read-only zero pages, ring replies from the payload buffer, cleared
 *       only after a WRITE put data there -- to measure the transport's own
 *       floor (what no daemon can go below).  Measurement only.
 *       --splice: /dev/fuse replies by vmsplice + splice instead of writev.
 *   uring_zero_proto bench FILE [--size SIZE] [--seconds S] [--pin CPU]
 *       pread SIZE at offset 0 in a loop, check the first call's bytes are
 *       zero, print "SIZE us_per_call GB/s calls".
 *
 * Example (root):  uring_zero_proto serve /tmp/m --enable-param &
 *                  uring_zero_proto bench /tmp/m/zero --size 100KB
 */
#define FUSE_USE_VERSION 34

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fuse_lowlevel.h>
#include <linux/fuse.h>

#include "util.h"
#include "zeroing.h"
#include "cuse/fuse_uring.h"

#define ZERO_INO 2
#define ZERO_SIZE (1ULL << 40)
#define CHUNK 4096
#define MAX_READ (1U << 20)

static struct {
	zero_fn clear;
	int follow_cpu;
	int pin_daemon;
	bool ring_copy;
	bool no_clear;		/* floor measurement: no routine on READ */
	const char *zeros;	/* --no-clear, /dev/fuse: read-only zero pages */
	struct cz_uring *uring;
} g = { .pin_daemon = -1 };

static __thread char *tl_buf;
/* --no-clear on a ring thread: a WRITE's data went into the payload buffer */
static __thread bool tl_payload_dirty;

static int tl_buf_map(void)
{
	if (tl_buf)
		return 0;
	tl_buf = mmap(NULL, MAX_READ, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (tl_buf == MAP_FAILED) {
		tl_buf = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* The read path: every PAGE_SIZE chunk cleared by the routine, as read_zero(). */
static ssize_t zero_fill(void *dst, size_t size)
{
	char *p = dst;
	size_t off;

	for (off = 0; off < size; off += CHUNK) {
		size_t n = size - off < CHUNK ? size - off : CHUNK;

		if (g.clear(p + off, n))
			return off ? (ssize_t)off : -EFAULT;
	}
	return (ssize_t)size;
}

static bool ring_read(void *ctx, const struct fuse_in_header *in,
		      const struct fuse_read_in *arg, void *dst, size_t size, ssize_t *res)
{
	(void)ctx;
	(void)arg;
	if (in->nodeid != ZERO_INO)
		return false;
	if (g.no_clear && !tl_payload_dirty) {
		*res = (ssize_t)size;	/* the buffer holds zeros: measure the rest */
		return true;
	}
	tl_payload_dirty = false;
	if (!g.ring_copy) {
		*res = zero_fill(dst, size);
		return true;
	}
	/* Measure what a read path with its own buffer costs: fill, then copy. */
	if (tl_buf_map() < 0) {
		*res = -ENOMEM;
		return true;
	}
	*res = zero_fill(tl_buf, size);
	if (*res > 0)
		memcpy(dst, tl_buf, (size_t)*res);
	return true;
}

static void fill_attr(fuse_ino_t ino, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_ino = ino;
	if (ino == FUSE_ROOT_ID) {
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
	} else {
		st->st_mode = S_IFREG | 0666;
		st->st_nlink = 1;
		st->st_size = ZERO_SIZE;
	}
}

static void op_init(void *ud, struct fuse_conn_info *conn)
{
	(void)ud;
	conn->max_write = MAX_READ;
	conn->max_read = MAX_READ;
	if (g.pin_daemon >= 0)
		cz_pin_cpu(g.pin_daemon);
}

static void op_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct fuse_entry_param e;

	tl_payload_dirty = true;	/* ring: its reply lands in the payload buffer */
	if (parent != FUSE_ROOT_ID || strcmp(name, "zero")) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	memset(&e, 0, sizeof(e));
	e.ino = ZERO_INO;
	e.attr_timeout = 3600;
	e.entry_timeout = 3600;
	fill_attr(ZERO_INO, &e.attr);
	fuse_reply_entry(req, &e);
}

static void op_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct stat st;

	tl_payload_dirty = true;	/* ring: its reply lands in the payload buffer */
	(void)fi;
	if (ino != FUSE_ROOT_ID && ino != ZERO_INO) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	fill_attr(ino, &st);
	fuse_reply_attr(req, &st, 3600);
}

static void op_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	tl_payload_dirty = true;	/* ring: its reply lands in the payload buffer */
	if (ino != ZERO_INO) {
		fuse_reply_err(req, EISDIR);
		return;
	}
	fi->direct_io = 1;
	fuse_reply_open(req, fi);
}

/* Follow the requester: pin ourselves to the CPU it last ran on (sampled). */
static void follow(fuse_req_t req)
{
	static unsigned n;
	char path[64], buf[1024], *p;
	int fd, cpu, field;
	ssize_t len;

	if (n++ % 64)
		return;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)fuse_req_ctx(req)->pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return;
	buf[len] = '\0';
	p = strrchr(buf, ')');	/* comm may hold spaces */
	if (!p)
		return;
	for (field = 2; p && field < 39; field++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p + 1, "%d", &cpu) != 1)
		return;
	if (cpu != sched_getcpu())
		cz_pin_cpu(cpu);
}

static void op_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	ssize_t res;

	(void)off;
	(void)fi;
	if (ino != ZERO_INO) {
		fuse_reply_err(req, EISDIR);
		return;
	}
	if (g.follow_cpu)
		follow(req);
	if (tl_buf_map() < 0) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	if (size > MAX_READ)
		size = MAX_READ;
	if (g.no_clear) {
		fuse_reply_buf(req, g.zeros, size);
		return;
	}
	res = zero_fill(tl_buf, size);
	if (res < 0)
		fuse_reply_err(req, (int)-res);
	else
		fuse_reply_buf(req, tl_buf, (size_t)res);
}

static void op_write(fuse_req_t req, fuse_ino_t ino, const char *buf, size_t size,
		     off_t off, struct fuse_file_info *fi)
{
	(void)ino;
	(void)buf;
	(void)off;
	(void)fi;
	tl_payload_dirty = true;
	fuse_reply_write(req, size);	/* like /dev/zero: accept and discard */
}

static const struct fuse_lowlevel_ops proto_ops = {
	.init = op_init,
	.lookup = op_lookup,
	.getattr = op_getattr,
	.open = op_open,
	.read = op_read,
	.write = op_write,
};

static void *report_thread(void *arg)
{
	int ret = cz_uring_wait_ready(arg, 10000);

	fprintf(stderr, "uring_zero_proto: %s%s\n", cz_uring_describe(arg),
		ret == -ETIMEDOUT ? " (not settled after 10 s)" : "");
	return NULL;
}

struct serve_opts {
	struct cz_uring_params p;
	const struct zero_routine *routine;
	const char *mnt;
	bool enable;
};

/* serve's options into o and g: 0, or the exit status of a usage error. */
static int serve_parse(int argc, char **argv, struct serve_opts *o)
{
	static const struct option opts[] = {
		{ "transport", required_argument, NULL, 't' },
		{ "entries", required_argument, NULL, 'e' },
		{ "poll-us", required_argument, NULL, 'p' },
		{ "follow-cpu", no_argument, NULL, 'F' },
		{ "pin-daemon", required_argument, NULL, 'P' },
		{ "no-pin", no_argument, NULL, 'N' },
		{ "enable-param", no_argument, NULL, 'E' },
		{ "routine", required_argument, NULL, 'r' },
		{ "ring-copy", no_argument, NULL, 'C' },
		{ "no-clear", no_argument, NULL, 'Z' },
		{ "splice", no_argument, NULL, 'S' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t v;
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			if (cz_transport_parse(optarg, &o->p.transport) < 0) {
				fprintf(stderr, "uring_zero_proto: bad --transport '%s' (auto|uring|dev)\n", optarg);
				return 2;
			}
			break;
		case 'e':
			if (cz_parse_u64(optarg, 1, 64, &v) < 0) {
				fprintf(stderr, "uring_zero_proto: bad --entries '%s' (1..64)\n", optarg);
				return 2;
			}
			o->p.entries = (unsigned)v;
			break;
		case 'p':
			if (cz_parse_u64(optarg, 0, 1000000, &v) < 0) {
				fprintf(stderr, "uring_zero_proto: bad --poll-us '%s'\n", optarg);
				return 2;
			}
			o->p.poll_us = (unsigned)v;
			break;
		case 'F':
			g.follow_cpu = 1;
			break;
		case 'P':
			if (cz_parse_u64(optarg, 0, 63, &v) < 0) {
				fprintf(stderr, "uring_zero_proto: bad --pin-daemon '%s'\n", optarg);
				return 2;
			}
			g.pin_daemon = (int)v;
			break;
		case 'N':
			o->p.no_pin = true;
			break;
		case 'E':
			o->enable = true;
			break;
		case 'S':
			o->p.splice_reply = true;
			break;
		case 'Z':
			g.no_clear = true;
			break;
		case 'C':
			g.ring_copy = true;
			break;
		case 'r':
			o->routine = zero_lookup(optarg);
			if (!o->routine || !zero_usable(o->routine, NULL)) {
				fprintf(stderr, "uring_zero_proto: bad --routine '%s'\n", optarg);
				return 2;
			}
			break;
		default:
			return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: uring_zero_proto serve MOUNTPOINT [options]\n");
		return 2;
	}
	o->mnt = argv[optind];
	return 0;
}

/* --no-clear: real pages (not the shared zero page, which gup treats apart), then read-only. */
static int serve_zero_pages(void)
{
	char *z = mmap(NULL, MAX_READ, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	if (z == MAP_FAILED || (memset(z, 0, MAX_READ), mprotect(z, MAX_READ, PROT_READ))) {
		perror("uring_zero_proto: zero pages");
		return -1;
	}
	g.zeros = z;
	return 0;
}

/* Mount, attach the transport, serve until unmounted or signalled: exit status. */
static int serve_mounted(const char *argv0, const struct serve_opts *o)
{
	static char opt_o[] = "-o";
	static char opt_val[] = "allow_other,fsname=uring_zero_proto,max_read=1048576";
	char *fargv[] = { (char *)argv0, opt_o, opt_val, NULL };
	struct fuse_args fargs = FUSE_ARGS_INIT(3, fargv);
	struct fuse_session *se;
	uint64_t nring, ndev, nspliced;
	pthread_t rep;
	int ret = 1;

	se = fuse_session_new(&fargs, &proto_ops, sizeof(proto_ops), NULL);
	if (!se)
		goto out_args;
	if (fuse_set_signal_handlers(se) != 0)
		goto out_session;
	if (fuse_session_mount(se, o->mnt) != 0)
		goto out_signals;
	ret = cz_uring_attach(se, &o->p, &g.uring);
	if (ret < 0) {
		fprintf(stderr, "uring_zero_proto: attach: %s\n", strerror(-ret));
		ret = 1;
		goto out_unmount;
	}
	pthread_create(&rep, NULL, report_thread, g.uring);
	ret = fuse_session_loop(se) ? 1 : 0;
	pthread_join(rep, NULL);
	cz_uring_counts(g.uring, &nring, &ndev, &nspliced);
	fprintf(stderr, "uring_zero_proto: requests by ring %llu, by /dev/fuse %llu, replies by splice %llu\n",
		(unsigned long long)nring, (unsigned long long)ndev, (unsigned long long)nspliced);
out_unmount:
	fuse_session_unmount(se);
	cz_uring_detach(g.uring);
out_signals:
	fuse_remove_signal_handlers(se);
out_session:
	fuse_session_destroy(se);
out_args:
	fuse_opt_free_args(&fargs);
	return ret;
}

static int serve(int argc, char **argv)
{
	struct serve_opts o = { .p = { .transport = CZ_TRANSPORT_AUTO }, .routine = zero_default() };
	const char *why;
	int ret;

	ret = serve_parse(argc, argv, &o);
	if (ret)
		return ret;
	g.clear = o.routine->fn;
	if (g.no_clear && serve_zero_pages() < 0)
		return 1;
	if (o.enable && cz_uring_probe(&why) == -EPERM && cz_uring_enable_param() < 0)
		fprintf(stderr, "uring_zero_proto: cannot set enable_uring: %s\n", strerror(errno));
	if (o.p.transport != CZ_TRANSPORT_DEV && cz_uring_probe(&why) < 0) {
		if (o.p.transport == CZ_TRANSPORT_URING) {
			fprintf(stderr, "uring_zero_proto: --transport uring: %s\n", why);
			return 1;
		}
		fprintf(stderr, "uring_zero_proto: io_uring unavailable (%s), using /dev/fuse\n", why);
	}
	o.p.read = ring_read;
	return serve_mounted(argv[0], &o);
}

static int bench(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "size", required_argument, NULL, 's' },
		{ "seconds", required_argument, NULL, 'S' },
		{ "pin", required_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t size = 100 * 1024, secs = 2, v, calls = 0, t0, t1, deadline;
	char *buf;
	size_t i;
	int c, fd;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (cz_parse_size(optarg, &size) < 0 || !size || size > MAX_READ) {
				fprintf(stderr, "uring_zero_proto: bad --size '%s'\n", optarg);
				return 2;
			}
			break;
		case 'S':
			if (cz_parse_u64(optarg, 1, 3600, &secs) < 0) {
				fprintf(stderr, "uring_zero_proto: bad --seconds '%s'\n", optarg);
				return 2;
			}
			break;
		case 'p':
			if (cz_parse_u64(optarg, 0, 63, &v) < 0 || cz_pin_cpu((int)v) < 0) {
				fprintf(stderr, "uring_zero_proto: bad --pin '%s'\n", optarg);
				return 2;
			}
			break;
		default:
			return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: uring_zero_proto bench FILE [options]\n");
		return 2;
	}
	fd = open(argv[optind], O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "uring_zero_proto: open %s: %s\n", argv[optind], strerror(errno));
		return 1;
	}
	buf = malloc(size);
	if (!buf)
		return 1;
	memset(buf, 0xa5, size);
	if (pread(fd, buf, size, 0) != (ssize_t)size) {
		fprintf(stderr, "uring_zero_proto: short first read\n");
		return 1;
	}
	for (i = 0; i < size; i++) {
		if (buf[i]) {
			fprintf(stderr, "uring_zero_proto: byte %zu = %#x, not zero\n", i, buf[i] & 0xff);
			return 1;
		}
	}
	t0 = cz_now_ns();
	deadline = t0 + secs * 1000000000ULL;
	do {
		for (i = 0; i < 64; i++) {
			if (pread(fd, buf, size, 0) != (ssize_t)size) {
				fprintf(stderr, "uring_zero_proto: short read\n");
				return 1;
			}
		}
		calls += 64;
		t1 = cz_now_ns();
	} while (t1 < deadline);
	printf("%llu %.2f %.2f %llu\n", (unsigned long long)size,
	       (double)(t1 - t0) / 1e3 / (double)calls,
	       (double)size * (double)calls / (double)(t1 - t0), (unsigned long long)calls);
	close(fd);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "serve"))
		return serve(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "bench"))
		return bench(argc - 1, argv + 1);
	fprintf(stderr, "usage: uring_zero_proto serve MOUNTPOINT [options] | bench FILE [options]\n");
	return 2;
}
