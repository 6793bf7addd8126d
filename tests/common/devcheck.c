/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dc_check_ioctl(): every command of include/cusezero.h on a running cusezero,
 * shared by tests/cuse/zdev-check.c (FUSE on the host) and tests/vm/vmcheck.c
 * (CUSE in the x86-64 and arm64 VMs).  One TAP line per assertion; a failure
 * names the command, the value sent and what came back.
 *
 * Placement offsets are multiples of ZERO_PLACE_ALIGN (4 on arm64: placed
 * points are instructions), and the routines tried are the ones the checker's
 * own registry (same build, same CPU as the daemon) calls usable, so a
 * routine the daemon wrongly refuses -- or wrongly accepts -- fails here.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cusezero.h"
#include "tests/tap.h"
#include "tests/common/devcheck.h"
#include "util.h"
#include "zeroing.h"

#define KiB		1024u
#define FILL		0xA5
#define GUARD		64
#define NOBODY		65534

/* errno text of an ioctl result, for messages. */
static const char *res(int r, int e)
{
	static char buf[64];

	if (r == 0)
		return "0";
	snprintf(buf, sizeof(buf), "-1 errno %d (%s)", e, strerror(e));
	return buf;
}

/* ioctl() returning 0 or the errno. */
static int xioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) ? errno : 0;
}

bool dc_get_routine(int fd, char *name)
{
	struct cusezero_routine r;

	memset(&r, 0, sizeof(r));
	if (ioctl(fd, CUSEZERO_IOC_GET_ROUTINE, &r))
		return false;
	r.name[sizeof(r.name) - 1] = '\0';
	strcpy(name, r.name);
	return true;
}

int dc_set_routine(int fd, const char *name)
{
	struct cusezero_routine r;

	memset(&r, 0, sizeof(r));
	snprintf(r.name, sizeof(r.name), "%s", name);
	return xioctl(fd, CUSEZERO_IOC_SET_ROUTINE, &r);
}

#define get_routine dc_get_routine
#define set_routine dc_set_routine

/* Expect errno want from an ioctl (e = its xioctl() result). */
static void expect_errno(const struct dc_dev *d, const char *what, int e, int want)
{
	tap_ok(e == want, "%s: ioctl %s -> %s (got %s)", d->label, what, strerror(want),
	       res(e ? -1 : 0, e));
}

size_t dc_max_request(const char *path)
{
	struct stat st;

	/*
	 * CUSE does not negotiate max_pages: FUSE_DEFAULT_MAX_PAGES_PER_REQ = 32
	 * pages (fs/fuse/fuse_i.h).  The FUSE front end asks for max_pages 256.
	 */
	if (stat(path, &st) == 0 && S_ISCHR(st.st_mode))
		return 32 * 4096;
	return 256 * 4096;
}

long long dc_bad_byte(const unsigned char *buf, size_t lead, size_t n, size_t tail,
		      unsigned char fill)
{
	size_t i, z;

	for (i = 0; i < lead; i++)
		if (buf[i] != fill)
			return (long long)i;
	z = cz_first_nonzero(buf + lead, n);
	if (z != n)
		return (long long)(lead + z);
	for (i = lead + n; i < lead + n + tail; i++)
		if (buf[i] != fill)
			return (long long)i;
	return -1;
}

const char *dc_zeros(int fd)
{
	static const size_t sizes[] = { 1, 63, 4095, 4097, 8192, 10001, 65536 + 13, 128 * KiB };
	static const size_t boffs[] = { 0, 3 };
	static char why[160];
	size_t si, oi;
	unsigned char *b = malloc(128 * KiB + 3 + 2 * GUARD);

	if (!b)
		return "malloc failed";
	why[0] = '\0';
	for (si = 0; !why[0] && si < sizeof(sizes) / sizeof(sizes[0]); si++)
		for (oi = 0; !why[0] && oi < 2; oi++) {
			size_t n = sizes[si], off = GUARD + boffs[oi];
			ssize_t r;
			long long i;

			memset(b, FILL, 128 * KiB + 3 + 2 * GUARD);
			r = read(fd, b + off, n);
			if (r != (ssize_t)n) {
				snprintf(why, sizeof(why), "read %zu at buffer offset %zu returned %zd%s%s",
					 n, boffs[oi], r, r < 0 ? ": " : "", r < 0 ? strerror(errno) : "");
				break;
			}
			i = dc_bad_byte(b, off, n, GUARD, FILL);
			if (i >= 0)
				snprintf(why, sizeof(why), "read %zu at buffer offset %zu: byte %lld is %#x",
					 n, boffs[oi], i - (long long)off, b[i]);
		}
	free(b);
	return why[0] ? why : NULL;
}

static void data(const struct dc_dev *d, int fd, const char *what)
{
	const char *w;

	if (d->data) {
		d->data(d, what);
		return;
	}
	w = dc_zeros(fd);
	tap_ok(!w, "%s: %s: reads 1 B .. 128 KiB -> zeros, guards intact%s%s", d->label, what,
	       w ? ": " : "", w ? w : "");
}

/* The first relocatable routine usable here, the current one if it is. */
static const struct zero_routine *relocatable(const char *current)
{
	const struct zero_routine *r = zero_lookup(current);
	size_t i;

	if (r && r->code_start && zero_usable(r, NULL))
		return r;
	for (i = 0; i < zero_nroutines; i++)
		if (zero_routines[i].code_start && zero_usable(&zero_routines[i], NULL))
			return &zero_routines[i];
	return NULL;
}

/* GET_ROUTINE/GET_STATS agree; invalid names are refused with nothing changed. */
static void ioctl_routine(const struct dc_dev *d, int fd, char *orig)
{
	struct cusezero_stats *st = calloc(1, sizeof(*st));
	struct cusezero_routine un;
	char name[CUSEZERO_NAME_MAX] = "";
	bool good;	/* computed before tap_ok(): its other arguments show what was read */
	int e;

	if (!st)
		abort();
	good = get_routine(fd, orig) && orig[0];
	tap_ok(good, "%s: ioctl GET_ROUTINE -> \"%s\"", d->label, orig);
	if (d->expect_routine)
		tap_ok(!strcmp(orig, d->expect_routine), "%s: GET_ROUTINE is the default \"%s\" (got \"%s\")",
		       d->label, d->expect_routine, orig);
	e = xioctl(fd, CUSEZERO_IOC_GET_STATS, st);
	tap_ok(!e && st->version == CUSEZERO_STATS_VERSION && st->nroutines &&
	       !strncmp(st->routine, orig, CUSEZERO_NAME_MAX),
	       "%s: ioctl GET_STATS -> %s: version %u, %u routines, routine \"%.*s\"", d->label,
	       res(e ? -1 : 0, e), (unsigned)st->version, (unsigned)st->nroutines,
	       CUSEZERO_NAME_MAX, st->routine);
	tap_ok(st->nroutines == zero_nroutines, "%s: GET_STATS lists %u routines, the registry %zu",
	       d->label, (unsigned)st->nroutines, zero_nroutines);
	free(st);

	expect_errno(d, "SET_ROUTINE \"no_such_routine\"", set_routine(fd, "no_such_routine"), EINVAL);
	expect_errno(d, "SET_ROUTINE \"\"", set_routine(fd, ""), EINVAL);
	memset(un.name, 'a', sizeof(un.name));	/* no NUL */
	expect_errno(d, "SET_ROUTINE unterminated name", xioctl(fd, CUSEZERO_IOC_SET_ROUTINE, &un),
		     EINVAL);
	good = get_routine(fd, name) && !strcmp(name, orig);
	tap_ok(good,
	       "%s: routine unchanged after invalid SET_ROUTINE (\"%s\")", d->label, name);
}

/* Placement round trips through a relocatable routine, invalid values refused. */
static void ioctl_align(const struct dc_dev *d, int fd, const char *orig)
{
	const struct zero_routine *rel = relocatable(orig);
	const int32_t far = (int32_t)(4096 - ZERO_PLACE_ALIGN), near = (int32_t)(7 * ZERO_PLACE_ALIGN);
	struct cusezero_align al, cur, bad;
	char what[128];
	bool good;
	int e;

	memset(&al, 0xff, sizeof(al));
	e = xioctl(fd, CUSEZERO_IOC_GET_ALIGN, &al);
	tap_ok(!e && (al.offset == CUSEZERO_ALIGN_NONE || (al.offset >= 0 && al.offset <= 4095)) &&
	       al.point <= CUSEZERO_POINT_LOOP, "%s: ioctl GET_ALIGN -> %s, offset %d point %u",
	       d->label, res(e ? -1 : 0, e), (int)al.offset, (unsigned)al.point);
	if (!rel) {
		tap_skip("%s: SET_ALIGN round trips: no relocatable routine usable here", d->label);
	} else {
		static const int loop[] = { 1, 1, 0 };	/* far: loop, near: entry */
		const int32_t offs[] = { 192, far, near };
		size_t i;

		e = set_routine(fd, rel->name);
		tap_ok(!e, "%s: ioctl SET_ROUTINE \"%s\" (relocatable) -> %s", d->label, rel->name,
		       res(e ? -1 : 0, e));
		for (i = 0; i < 3; i++) {
			struct cusezero_align want = { offs[i], loop[i] ? CUSEZERO_POINT_LOOP
									    : CUSEZERO_POINT_ENTRY };

			e = xioctl(fd, CUSEZERO_IOC_SET_ALIGN, &want);
			memset(&al, 0xff, sizeof(al));
			good = !e && !xioctl(fd, CUSEZERO_IOC_GET_ALIGN, &al) && al.offset == want.offset &&
			       al.point == want.point;
			tap_ok(good, "%s: ioctl SET_ALIGN %d %s -> %s, GET -> %d %u",
			       d->label, (int)want.offset, loop[i] ? "loop" : "entry",
			       res(e ? -1 : 0, e), (int)al.offset, (unsigned)al.point);
			snprintf(what, sizeof(what), "%s %s placed at %d", rel->name,
				 loop[i] ? "loop" : "entry", (int)want.offset);
			data(d, fd, what);
		}
	}
	memset(&cur, 0, sizeof(cur));
	xioctl(fd, CUSEZERO_IOC_GET_ALIGN, &cur);
	bad = (struct cusezero_align){ 4096, CUSEZERO_POINT_LOOP };
	expect_errno(d, "SET_ALIGN 4096", xioctl(fd, CUSEZERO_IOC_SET_ALIGN, &bad), EINVAL);
	bad.offset = -2;
	expect_errno(d, "SET_ALIGN -2", xioctl(fd, CUSEZERO_IOC_SET_ALIGN, &bad), EINVAL);
	bad = (struct cusezero_align){ 100000, CUSEZERO_POINT_ENTRY };
	expect_errno(d, "SET_ALIGN 100000 entry", xioctl(fd, CUSEZERO_IOC_SET_ALIGN, &bad), EINVAL);
	bad = (struct cusezero_align){ 0, 7 };
	expect_errno(d, "SET_ALIGN point 7", xioctl(fd, CUSEZERO_IOC_SET_ALIGN, &bad), EINVAL);
	if (ZERO_PLACE_ALIGN > 1 && rel) {
		bad = (struct cusezero_align){ (int32_t)ZERO_PLACE_ALIGN / 2, CUSEZERO_POINT_LOOP };
		snprintf(what, sizeof(what), "SET_ALIGN %d (not a multiple of %u)", (int)bad.offset,
			 ZERO_PLACE_ALIGN);
		expect_errno(d, what, xioctl(fd, CUSEZERO_IOC_SET_ALIGN, &bad), EINVAL);
	}
	memset(&al, 0xff, sizeof(al));
	good = !xioctl(fd, CUSEZERO_IOC_GET_ALIGN, &al) && al.offset == cur.offset &&
	       al.point == cur.point;
	tap_ok(good, "%s: align unchanged after invalid SET_ALIGN (%d %u)", d->label,
	       (int)al.offset, (unsigned)al.point);
	cur = (struct cusezero_align){ CUSEZERO_ALIGN_NONE, CUSEZERO_POINT_LOOP };
	e = xioctl(fd, CUSEZERO_IOC_SET_ALIGN, &cur);
	tap_ok(!e, "%s: ioctl SET_ALIGN none (original code) -> %s", d->label, res(e ? -1 : 0, e));
	set_routine(fd, orig);
}

static bool read_n(int fd, size_t n, size_t req);

/* GET_ROTATE equals want (count, point, period, seed, offsets). */
static bool rotate_is(int fd, const struct cusezero_rotate *want, struct cusezero_rotate *got)
{
	memset(got, 0xff, sizeof(*got));
	return !xioctl(fd, CUSEZERO_IOC_GET_ROTATE, got) && got->count == want->count &&
	       (!want->count || (got->point == want->point && got->period == want->period &&
				 got->seed == want->seed &&
				 !memcmp(got->offsets, want->offsets,
					 want->count * sizeof(want->offsets[0]))));
}

/*
 * 64 reads of 4 KiB while rotating over rot: every copy's counters (GET_LAYOUT)
 * add up to the reads, each copy served some, its histogram holds its requests.
 */
static void rotate_counts(const struct dc_dev *d, int fd, const struct cusezero_rotate *rot)
{
	struct cusezero_layout *l = calloc(1, sizeof(*l));
	uint64_t sum = 0, h, b;
	unsigned i, idle = 0, badhist = 0, badoff = 0;
	bool rd;
	int e;

	if (!l)
		abort();
	e = xioctl(fd, CUSEZERO_IOC_RESET_STATS, NULL);
	rd = read_n(fd, 64 * 4096, 4096);
	tap_ok(!e && rd, "%s: rotating: RESET_STATS, 64 reads of 4 KiB all zeros", d->label);
	for (i = 0; i < rot->count; i++) {
		memset(l, 0xff, sizeof(*l));
		l->index = i;
		e = xioctl(fd, CUSEZERO_IOC_GET_LAYOUT, l);
		if (e || l->count != rot->count || l->offset != rot->offsets[i] ||
		    l->point != rot->point || l->index != i) {
			tap_ok(0, "%s: GET_LAYOUT %u -> %s, count %u offset %d point %u (want %u %u %u)",
			       d->label, i, res(e ? -1 : 0, e), (unsigned)l->count, (int)l->offset,
			       (unsigned)l->point, (unsigned)rot->count, (unsigned)rot->offsets[i],
			       (unsigned)rot->point);
			badoff++;
			continue;
		}
		for (h = 0, b = 0; b < CUSEZERO_HIST_BUCKETS; b++)
			h += l->hist[b];
		badhist += h != l->c.requests || l->c.bytes != 4096 * l->c.requests;
		idle += !l->c.requests;
		sum += l->c.requests;
	}
	tap_ok(!badoff, "%s: GET_LAYOUT 0..%u: count, offset and point of each copy", d->label,
	       (unsigned)rot->count - 1);
	tap_ok(sum == 64 && !idle && !badhist,
	       "%s: rotating: the copies served %llu requests (want 64), %u none, %u with a histogram or byte count not their requests",
	       d->label, (unsigned long long)sum, idle, badhist);
	memset(l, 0, sizeof(*l));
	l->index = rot->count;
	expect_errno(d, "GET_LAYOUT past the last copy", xioctl(fd, CUSEZERO_IOC_GET_LAYOUT, l),
		     EINVAL);
	free(l);
}

/* SET_ROTATE values the device must refuse, the rotation in place unchanged. */
static void rotate_bad(const struct dc_dev *d, int fd, const struct cusezero_rotate *cur)
{
	struct cusezero_rotate bad, got;
	const struct zero_routine *c = zero_lookup("c_store_loop");
	unsigned i;

	bad = *cur;
	bad.count = CUSEZERO_ROTATE_MAX + 1;
	expect_errno(d, "SET_ROTATE 65 offsets", xioctl(fd, CUSEZERO_IOC_SET_ROTATE, &bad), EINVAL);
	bad = *cur;
	bad.offsets[1] = bad.offsets[0];
	expect_errno(d, "SET_ROTATE an offset twice", xioctl(fd, CUSEZERO_IOC_SET_ROTATE, &bad), EINVAL);
	bad = *cur;
	bad.offsets[2] = 4096;
	expect_errno(d, "SET_ROTATE offset 4096", xioctl(fd, CUSEZERO_IOC_SET_ROTATE, &bad), EINVAL);
	bad = *cur;
	bad.point = 7;
	expect_errno(d, "SET_ROTATE point 7", xioctl(fd, CUSEZERO_IOC_SET_ROTATE, &bad), EINVAL);
	bad = *cur;
	bad.period = CUSEZERO_ROTATE_PERIOD_MAX + 1;
	expect_errno(d, "SET_ROTATE period 1000001", xioctl(fd, CUSEZERO_IOC_SET_ROTATE, &bad), EINVAL);
	if (ZERO_PLACE_ALIGN > 1) {
		bad = *cur;
		bad.offsets[3] = ZERO_PLACE_ALIGN / 2;
		expect_errno(d, "SET_ROTATE an offset no instruction starts at",
			     xioctl(fd, CUSEZERO_IOC_SET_ROTATE, &bad), EINVAL);
	}
	i = rotate_is(fd, cur, &got);
	tap_ok(i, "%s: rotation unchanged after invalid SET_ROTATE (%u copies)", d->label,
	       (unsigned)got.count);
	/* a routine without a loop head, while rotating at loop heads: the switch is refused */
	if (c && zero_usable(c, NULL) && cur->point == CUSEZERO_POINT_LOOP) {
		char name[CUSEZERO_NAME_MAX] = "";

		expect_errno(d, "SET_ROUTINE c_store_loop while rotating at loop heads",
			     set_routine(fd, "c_store_loop"), EINVAL);
		get_routine(fd, name);
		i = rotate_is(fd, cur, &got);
		tap_ok(i && strcmp(name, "c_store_loop"), "%s: routine (%s) and rotation kept", d->label,
		       name);
	}
}

/*
 * Rotation (SET_ROTATE / GET_ROTATE / GET_LAYOUT): round trip, the copies
 * serve and count, invalid values refused, a new chunk keeps it, SET_ALIGN
 * and count 0 end it.
 */
static void ioctl_rotate(const struct dc_dev *d, int fd, const char *orig)
{
	const struct zero_routine *rel = relocatable(orig);
	struct cusezero_rotate rot = { 0 }, got;
	struct cusezero_align al = { 0, 0 };
	struct cusezero_layout *l;
	uint64_t chunk = 8192;
	char what[128];
	bool good;
	int e;

	good = rotate_is(fd, &rot, &got);
	tap_ok(good, "%s: GET_ROTATE: not rotating at start (count %u)", d->label, (unsigned)got.count);
	if (!rel) {
		tap_skip("%s: rotation: no relocatable routine usable here", d->label);
		return;
	}
	set_routine(fd, rel->name);
	rot = (struct cusezero_rotate){ .count = 4, .point = CUSEZERO_POINT_LOOP, .period = 2,
					.seed = 7,
					.offsets = { 0, 8 * ZERO_PLACE_ALIGN, 16 * ZERO_PLACE_ALIGN,
						     40 * ZERO_PLACE_ALIGN } };
	e = xioctl(fd, CUSEZERO_IOC_SET_ROTATE, &rot);
	good = !e && rotate_is(fd, &rot, &got);
	tap_ok(good, "%s: SET_ROTATE %s loop at 4 offsets -> %s, GET_ROTATE count %u period %u",
	       d->label, rel->name, res(e ? -1 : 0, e), (unsigned)got.count, (unsigned)got.period);
	e = xioctl(fd, CUSEZERO_IOC_GET_ALIGN, &al);
	tap_ok(!e && al.offset == CUSEZERO_ALIGN_ROTATE, "%s: GET_ALIGN while rotating -> %d (want %d)",
	       d->label, (int)al.offset, CUSEZERO_ALIGN_ROTATE);
	snprintf(what, sizeof(what), "%s rotating over 4 loop placements", rel->name);
	data(d, fd, what);
	rotate_counts(d, fd, &rot);
	rotate_bad(d, fd, &rot);
	e = xioctl(fd, CUSEZERO_IOC_SET_CHUNK, &chunk);
	good = !e && rotate_is(fd, &rot, &got);
	tap_ok(good, "%s: SET_CHUNK 8 KiB keeps the rotation -> %s, count %u",
	       d->label, res(e ? -1 : 0, e), (unsigned)got.count);
	chunk = 4096;
	xioctl(fd, CUSEZERO_IOC_SET_CHUNK, &chunk);
	al = (struct cusezero_align){ 8 * ZERO_PLACE_ALIGN, CUSEZERO_POINT_LOOP };
	e = xioctl(fd, CUSEZERO_IOC_SET_ALIGN, &al);
	memset(&rot, 0, sizeof(rot));
	good = !e && rotate_is(fd, &rot, &got);
	tap_ok(good, "%s: SET_ALIGN %d ends the rotation -> %s, count %u",
	       d->label, (int)al.offset, res(e ? -1 : 0, e), (unsigned)got.count);
	l = calloc(1, sizeof(*l));
	if (!l)
		abort();
	expect_errno(d, "GET_LAYOUT 0, not rotating", xioctl(fd, CUSEZERO_IOC_GET_LAYOUT, l), EINVAL);
	free(l);
	rot = (struct cusezero_rotate){ .count = 2, .point = CUSEZERO_POINT_ENTRY,
					.offsets = { 4 * ZERO_PLACE_ALIGN, 12 * ZERO_PLACE_ALIGN } };
	e = xioctl(fd, CUSEZERO_IOC_SET_ROTATE, &rot);
	rot.period = CUSEZERO_ROTATE_PERIOD;	/* 0 asks for the default */
	good = !e && rotate_is(fd, &rot, &got);
	tap_ok(good, "%s: SET_ROTATE entry, period 0 -> %s, GET_ROTATE period %u (want %u)",
	       d->label, res(e ? -1 : 0, e), (unsigned)got.period, CUSEZERO_ROTATE_PERIOD);
	memset(&rot, 0, sizeof(rot));
	e = xioctl(fd, CUSEZERO_IOC_SET_ROTATE, &rot);
	al.offset = 0;
	good = !e && rotate_is(fd, &rot, &got) && !xioctl(fd, CUSEZERO_IOC_GET_ALIGN, &al) &&
	       al.offset == CUSEZERO_ALIGN_NONE;
	tap_ok(good, "%s: SET_ROTATE count 0 ends it -> %s, GET_ALIGN %d", d->label, res(e ? -1 : 0, e),
	       (int)al.offset);
	set_routine(fd, orig);
}

/* Chunk sizes 1 B .. CHUNK_MAX round trip and keep reads zero; 0 and MAX+1 refused. */
static void ioctl_chunk(const struct dc_dev *d, int fd)
{
	static const uint64_t csz[] = { 1, 7, 64, 1000, 4097, 65536, CUSEZERO_CHUNK_MAX };
	uint64_t orig = 0, c, got;
	char what[64];
	bool good;
	size_t i;
	int e;

	e = xioctl(fd, CUSEZERO_IOC_GET_CHUNK, &orig);
	tap_ok(!e && orig >= 1 && orig <= CUSEZERO_CHUNK_MAX, "%s: ioctl GET_CHUNK -> %s, %llu",
	       d->label, res(e ? -1 : 0, e), (unsigned long long)orig);
	if (d->expect_routine)	/* a daemon with default settings */
		tap_ok(orig == 4096, "%s: GET_CHUNK is the default 4096 (got %llu)", d->label,
		       (unsigned long long)orig);
	for (i = 0; i < sizeof(csz) / sizeof(csz[0]); i++) {
		c = csz[i];
		got = 0;
		e = xioctl(fd, CUSEZERO_IOC_SET_CHUNK, &c);
		good = !e && !xioctl(fd, CUSEZERO_IOC_GET_CHUNK, &got) && got == c;
		tap_ok(good,
		       "%s: ioctl SET_CHUNK %llu -> %s, GET -> %llu", d->label, (unsigned long long)c,
		       res(e ? -1 : 0, e), (unsigned long long)got);
		snprintf(what, sizeof(what), "chunk %llu", (unsigned long long)c);
		data(d, fd, what);
	}
	c = 0;
	expect_errno(d, "SET_CHUNK 0", xioctl(fd, CUSEZERO_IOC_SET_CHUNK, &c), EINVAL);
	c = (uint64_t)CUSEZERO_CHUNK_MAX + 1;
	expect_errno(d, "SET_CHUNK CHUNK_MAX+1", xioctl(fd, CUSEZERO_IOC_SET_CHUNK, &c), EINVAL);
	got = 0;
	good = !xioctl(fd, CUSEZERO_IOC_GET_CHUNK, &got) && got == CUSEZERO_CHUNK_MAX;
	tap_ok(good,
	       "%s: chunk unchanged after invalid SET_CHUNK (%llu)", d->label, (unsigned long long)got);
	xioctl(fd, CUSEZERO_IOC_SET_CHUNK, &orig);
}

/* Read n bytes in page-aligned reads of req bytes: false on a short or non-zero read. */
static bool read_n(int fd, size_t n, size_t req)
{
	unsigned char *b = NULL;
	size_t done, i;
	bool good = true;

	if (posix_memalign((void **)&b, 4096, req))
		return false;
	for (done = 0; good && done < n; done += req) {
		memset(b, FILL, req);
		good = read(fd, b, req) == (ssize_t)req;
		for (i = 0; good && i < req; i++)
			good = !b[i];
	}
	free(b);
	return good;
}

/*
 * Reset, three 4 KiB reads, one page-aligned 256 KiB read (two requests on
 * CUSE, one on FUSE: dc_max_request()) and two writes: exact counters, in
 * total and for the routine; RESET_STATS clears them.
 */
static void ioctl_stats(const struct dc_dev *d, int fd)
{
	struct cusezero_stats *st = calloc(1, sizeof(*st));
	const size_t max = dc_max_request(d->path), big = 256 * KiB;
	const uint64_t nreq = 3 + (big + max - 1) / max, nbytes = 3 * 4096 + big;
	char name[CUSEZERO_NAME_MAX] = "", wb[100] = { 0 };
	uint64_t pr = ~0ull, chunk = 0;
	bool rd, wr, good;
	size_t i;
	int e;

	if (!st)
		abort();
	e = xioctl(fd, CUSEZERO_IOC_RESET_STATS, NULL);
	tap_ok(!e, "%s: ioctl RESET_STATS -> %s", d->label, res(e ? -1 : 0, e));
	rd = read_n(fd, 3 * 4096, 4096) && read_n(fd, big, big);
	wr = write(fd, wb, 100) == 100 && write(fd, wb, 50) == 50;
	e = xioctl(fd, CUSEZERO_IOC_GET_STATS, st);
	get_routine(fd, name);
	xioctl(fd, CUSEZERO_IOC_GET_CHUNK, &chunk);
	tap_ok(rd && wr && !e, "%s: stats: reads 3 x 4 KiB + 256 KiB and 2 writes, GET_STATS -> %s",
	       d->label, res(e ? -1 : 0, e));
	tap_ok(st->version == CUSEZERO_STATS_VERSION && !strcmp(st->routine, name) &&
	       st->chunk == chunk, "%s: stats: version %u, routine \"%.*s\", chunk %llu (GET_CHUNK %llu)",
	       d->label, (unsigned)st->version, CUSEZERO_NAME_MAX, st->routine,
	       (unsigned long long)st->chunk, (unsigned long long)chunk);
	tap_ok(st->total.requests == nreq && st->total.bytes == nbytes && !st->total.errors,
	       "%s: stats: total requests %llu bytes %llu errors %llu (want %llu: 256 KiB in requests of at most %zu KiB, %llu, 0)",
	       d->label, (unsigned long long)st->total.requests, (unsigned long long)st->total.bytes,
	       (unsigned long long)st->total.errors, (unsigned long long)nreq, max / KiB,
	       (unsigned long long)nbytes);
	tap_ok(st->writes == 2 && st->write_bytes == 150, "%s: stats: writes %llu bytes %llu (want 2, 150)",
	       d->label, (unsigned long long)st->writes, (unsigned long long)st->write_bytes);
	for (i = 0; i < st->nroutines && i < CUSEZERO_MAX_ROUTINES; i++)
		if (!strncmp(st->per_routine[i].name, name, CUSEZERO_STATS_NAME))
			pr = st->per_routine[i].c.requests;
	tap_ok(pr == nreq, "%s: stats: per-routine \"%s\" requests %llu (want %llu)", d->label, name,
	       (unsigned long long)pr, (unsigned long long)nreq);
	e = xioctl(fd, CUSEZERO_IOC_RESET_STATS, NULL);
	memset(st, 0xff, sizeof(*st));
	good = !e && !xioctl(fd, CUSEZERO_IOC_GET_STATS, st) && !st->total.requests &&
	       !st->total.bytes && !st->writes;
	tap_ok(good, "%s: stats: after RESET_STATS requests %llu bytes %llu writes %llu",
	       d->label, (unsigned long long)st->total.requests, (unsigned long long)st->total.bytes,
	       (unsigned long long)st->writes);
	free(st);
}

/* Unknown commands ENOTTY, bad user pointers EFAULT; the daemon keeps serving. */
static void ioctl_bad(const struct dc_dev *d, int fd)
{
	int x = 0;
	const char *w;

	expect_errno(d, "_IO('Z', 99) unknown", xioctl(fd, _IO(CUSEZERO_IOC_MAGIC, 99), NULL), ENOTTY);
	expect_errno(d, "_IOR('X', 1, int) foreign", xioctl(fd, _IOR('X', 1, int), &x), ENOTTY);
	expect_errno(d, "_IOR('Q', 1, int) foreign", xioctl(fd, _IOR('Q', 1, int), &x), ENOTTY);
	expect_errno(d, "GET_STATS to address 8", xioctl(fd, CUSEZERO_IOC_GET_STATS, (void *)8), EFAULT);
	expect_errno(d, "SET_ROUTINE from address 8", xioctl(fd, CUSEZERO_IOC_SET_ROUTINE, (void *)8),
		     EFAULT);
	w = dc_zeros(fd);
	tap_ok(!w, "%s: still serves zeros after bad ioctls%s%s", d->label, w ? ": " : "", w ? w : "");
}

/*
 * In a child as uid/gid 65534: on a descriptor opened before dropping root
 * and on one opened after (when the mode lets it), settings are EPERM;
 * statistics, GET_ROUTINE and reads are allowed.  One byte per result.
 */
static int unprivileged_child(const struct dc_dev *d, const char *routine)
{
	static const char *const what[] = { "SET_ROUTINE", "SET_ALIGN", "SET_CHUNK", "RESET_STATS",
					    "SET_ROTATE", "GET_STATS", "GET_ROUTINE", "GET_ROTATE",
					    "read" };
	struct cusezero_stats *st = calloc(1, sizeof(*st));
	int fds[2], k, bad = 0;

	fds[0] = open(d->path, O_RDONLY | O_CLOEXEC);
	if (!st || fds[0] < 0 || setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
	    setresuid(NOBODY, NOBODY, NOBODY))
		return 100;
	fds[1] = open(d->path, O_RDONLY | O_CLOEXEC);	/* -1 under a mode without "other" */
	for (k = 0; k < 2; k++) {
		struct cusezero_align a = { CUSEZERO_ALIGN_NONE, CUSEZERO_POINT_LOOP };
		struct cusezero_rotate rot = { 0 };
		char name[CUSEZERO_NAME_MAX], b[4096];
		uint64_t c = 4096;
		int got[9], i;

		if (fds[k] < 0)
			continue;
		got[0] = set_routine(fds[k], routine);
		got[1] = xioctl(fds[k], CUSEZERO_IOC_SET_ALIGN, &a);
		got[2] = xioctl(fds[k], CUSEZERO_IOC_SET_CHUNK, &c);
		got[3] = xioctl(fds[k], CUSEZERO_IOC_RESET_STATS, NULL);
		got[4] = xioctl(fds[k], CUSEZERO_IOC_SET_ROTATE, &rot);
		got[5] = xioctl(fds[k], CUSEZERO_IOC_GET_STATS, st);
		got[6] = get_routine(fds[k], name) ? 0 : errno;
		got[7] = xioctl(fds[k], CUSEZERO_IOC_GET_ROTATE, &rot);
		got[8] = read(fds[k], b, sizeof(b)) == (ssize_t)sizeof(b) ? 0 : errno ? errno : EIO;
		for (i = 0; i < 9; i++)
			if (got[i] != (i < 5 ? EPERM : 0)) {
				printf("# uid %d, fd opened %s dropping root: %s -> %s, want %s\n", NOBODY,
				       k ? "after" : "before", what[i], strerror(got[i]),
				       i < 5 ? "EPERM" : "success");
				bad |= 1 << k;
			}
	}
	fflush(stdout);
	return bad | (fds[1] < 0 ? 4 : 0);
}

static void ioctl_unprivileged(const struct dc_dev *d, const char *routine)
{
	int status = -1;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(unprivileged_child(d, routine));
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) {
		tap_ok(0, "%s: uid %d child: fork/wait failed (status %#x)", d->label, NOBODY, status);
		return;
	}
	status = WEXITSTATUS(status);
	if (status == 100) {
		tap_ok(0, "%s: uid %d child: open as root or setresuid failed", d->label, NOBODY);
		return;
	}
	tap_ok(!(status & 1), "%s: uid %d on a descriptor opened as root: SET_*/RESET -> EPERM; GET_*, stats, reads allowed",
	       d->label, NOBODY);
	if (status & 4)
		tap_diag("%s: uid %d cannot open %s itself (its mode)", d->label, NOBODY, d->path);
	else
		tap_ok(!(status & 2), "%s: uid %d on its own descriptor: SET_*/RESET -> EPERM; GET_*, stats, reads allowed",
		       d->label, NOBODY);
}

/* Every routine: accepted exactly when the registry calls it usable, then serves zeros. */
static void ioctl_every_routine(const struct dc_dev *d, int fd, const char *orig)
{
	char name[CUSEZERO_NAME_MAX], what[96];
	unsigned usable = 0;
	bool good;
	size_t i;

	for (i = 0; i < zero_nroutines; i++) {
		const struct zero_routine *r = &zero_routines[i];
		const char *why = NULL;
		bool want = zero_usable(r, &why);
		int e = set_routine(fd, r->name);

		if (!want) {
			tap_ok(e == EINVAL, "%s: SET_ROUTINE %s (unusable here: %s) -> EINVAL (got %s)",
			       d->label, r->name, why, res(e ? -1 : 0, e));
			continue;
		}
		usable++;
		name[0] = '\0';
		good = !e && get_routine(fd, name) && !strcmp(name, r->name);
		tap_ok(good,
		       "%s: ioctl SET_ROUTINE %s -> %s, GET -> \"%s\"", d->label, r->name,
		       res(e ? -1 : 0, e), name);
		snprintf(what, sizeof(what), "routine %s", r->name);
		if (!e)
			data(d, fd, what);
	}
	tap_ok(usable > 0, "%s: %u of %zu routines usable and switched to", d->label, usable,
	       zero_nroutines);
	set_routine(fd, orig);
}

void dc_check_ioctl(const struct dc_dev *d)
{
	char orig[CUSEZERO_NAME_MAX] = "";
	int fd = open(d->path, O_RDWR | O_CLOEXEC);

	if (!tap_ok(fd >= 0, "%s: open %s O_RDWR%s%s", d->label, d->path, fd < 0 ? ": " : "",
		    fd < 0 ? strerror(errno) : ""))
		return;
	ioctl_routine(d, fd, orig);
	ioctl_align(d, fd, orig);
	ioctl_rotate(d, fd, orig);
	ioctl_chunk(d, fd);
	ioctl_stats(d, fd);
	ioctl_bad(d, fd);
	ioctl_unprivileged(d, orig);
	ioctl_every_routine(d, fd, orig);
	set_routine(fd, orig);
	close(fd);
}
