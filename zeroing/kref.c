/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The running kernel as a reference (kref.h): /dev/zero's pread() slope, the
 * routines timed the same way, 2 MiB transparent-huge-page faults.
 *
 * Every round visits every subject (the kernel, the --device file, each
 * routine) at every size, back to back, starting at a different subject
 * each round and alternating the order of the sizes, so a machine whose
 * speed drifts moves all of them alike; each round gives each subject one
 * slope (least squares over the sizes).  The figure is the median of those
 * slopes, its interval the distribution-free 95% interval of a median from
 * order statistics (the k-th smallest and largest, k from the binomial
 * distribution with p = 1/2): a round hit by a neighbour's burst moves
 * neither.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "kref.h"
#include "util.h"

#define KREF_DEV_ZERO     "/dev/zero"
#define KREF_SAMPLE_BYTES (1u << 20)
#define KREF_HUGE         (2u << 20)
#define KREF_HUGE_PAGES   (KREF_HUGE / ZERO_KREF_CHUNK)   /* 512 pages cleared per fault */
#define KREF_THP_ENABLED  "/sys/kernel/mm/transparent_hugepage/enabled"
/* include/uapi/linux/prctl.h (Linux 6.18): PR_GET_THP_DISABLE answers 1 when THP is off for
 * the process, 1 | PR_THP_DISABLE_EXCEPT_ADVISED (3) when only unadvised ranges lose it. */
#ifndef PR_GET_THP_DISABLE
#define PR_GET_THP_DISABLE 42
#endif
#define KREF_THP_DISABLE_EXCEPT_ADVISED (1 << 1)
/*
 * Faults not kept before the timed ones: in a VM here the first few took
 * 1.5 to 40 times as long as the steady state they decayed to, as do the
 * few after a fault that got another page than the one just freed.
 */
#define KREF_THP_WARMUP   16

/* One thing timed: a zero device read by pread(), or a routine called per 4 KiB chunk. */
struct kref_subject {
	int fd;                    /* >= 0: a device */
	zero_fn fn;                /* else this routine */
	const char *name;
	double *t;                 /* ns per call, [round * nsizes + size] */
	struct zero_kref_est *est; /* where its figure goes */
};

/* ---- statistics ------------------------------------------------------------------ */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * Median of x[0..n) (sorted in place) and its 95% interval [x(k), x(n-k+1)]
 * (1-based), k the largest with P(Binomial(n, 1/2) <= k - 1) <= 0.025; with
 * fewer than 6 values no such k exists and the interval is [min, max].
 */
static void median_ci(double *x, size_t n, struct zero_kref_est *e)
{
	double p = pow(0.5, (double)n), cdf = 0;
	size_t k = 0;

	qsort(x, n, sizeof(*x), cmp_double);
	e->n = n;
	e->ns = n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
	/* cdf = P(B <= k); p = P(B = k), updated by p(k+1) = p(k) (n - k) / (k + 1) */
	while (k < n / 2) {
		cdf += p;
		if (cdf > 0.025)
			break;
		p = p * (double)(n - k) / (double)(k + 1);
		k++;
	}
	e->lo = x[k ? k - 1 : 0];
	e->hi = x[k ? n - k : n - 1];
}

/* Least squares of t (ns per call) on the number of 4 KiB chunks: slope and intercept. */
static void fit(const double *t, const size_t *sizes, size_t n, double *slope, double *icpt)
{
	double mx = 0, mt = 0, sxx = 0, sxt = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		mx += (double)(sizes[i] / ZERO_KREF_CHUNK) / (double)n;
		mt += t[i] / (double)n;
	}
	for (i = 0; i < n; i++) {
		double dx = (double)(sizes[i] / ZERO_KREF_CHUNK) - mx;

		sxx += dx * dx;
		sxt += dx * (t[i] - mt);
	}
	*slope = sxt / sxx;
	*icpt = mt - *slope * mx;
}

/* ---- the options ------------------------------------------------------------------- */

static int fill_opts(const struct zero_kref_opts *o, struct zero_kref_opts *u, char *err, size_t len)
{
	size_t i, j;

	*u = *o;
	if (!u->nsizes) {
		u->sizes[0] = 16u << 10;
		u->sizes[1] = 256u << 10;
		u->nsizes = 2;
	}
	if (u->nsizes < 2 || u->nsizes > ZERO_KREF_MAX_SIZES) {
		snprintf(err, len, "%zu sizes: give 2 to %d", u->nsizes, ZERO_KREF_MAX_SIZES);
		return -EINVAL;
	}
	for (i = 0; i < u->nsizes; i++) {
		if (!u->sizes[i] || u->sizes[i] % ZERO_KREF_CHUNK || u->sizes[i] > ZERO_KREF_MAX_SIZE) {
			snprintf(err, len, "size %zu: a multiple of 4 KiB up to 16 MiB (read_zero clears "
				 "4 KiB chunks)", u->sizes[i]);
			return -EINVAL;
		}
		for (j = 0; j < i; j++)
			if (u->sizes[j] == u->sizes[i]) {
				snprintf(err, len, "size %zu given twice: a slope needs two different sizes",
					 u->sizes[i]);
				return -EINVAL;
			}
	}
	if (!u->rounds)
		u->rounds = ZERO_KREF_ROUNDS;
	if (u->rounds < 3 || u->rounds > ZERO_KREF_MAX_ROUNDS) {
		snprintf(err, len, "%u rounds: give 3 to %d", u->rounds, ZERO_KREF_MAX_ROUNDS);
		return -EINVAL;
	}
	if (!u->sample_bytes)
		u->sample_bytes = KREF_SAMPLE_BYTES;
	if (!u->thp_rounds)
		u->thp_rounds = ZERO_KREF_THP_ROUNDS;
	return 0;
}

/* ---- timing -------------------------------------------------------------------------- */

/*
 * pread(2) as the system call itself: a sanitizer's pread interceptor checks
 * the buffer byte range first, which would add to the slope.
 */
static ssize_t sys_pread(int fd, char *buf, size_t size)
{
	return (ssize_t)syscall(SYS_pread64, fd, buf, size, (off_t)0);
}

/* One pass at size bytes: a pread, or the routine over 4 KiB chunks (read_zero's loop). */
static int pass(const struct kref_subject *s, char *buf, size_t size)
{
	size_t off, left = 0;

	if (s->fd >= 0)
		return sys_pread(s->fd, buf, size) == (ssize_t)size ? 0 : -1;
	for (off = 0; off < size; off += ZERO_KREF_CHUNK)
		left |= s->fn(buf + off, ZERO_KREF_CHUNK);
	return left ? -1 : 0;
}

/* Untimed: warm the subject and check that it zeroes a dirty buffer.  0, or -1 with why. */
static int check(struct kref_subject *s, char *buf, size_t size)
{
	size_t bad;
	ssize_t got;

	memset(buf, 0xa5, size);
	if (s->fd >= 0 && (got = sys_pread(s->fd, buf, size)) != (ssize_t)size) {
		snprintf(s->est->why, sizeof(s->est->why), "pread of %zu bytes from %s: %s", size,
			 s->name, got < 0 ? strerror(errno) : "short read");
		return -1;
	}
	if (s->fd < 0 && pass(s, buf, size)) {
		snprintf(s->est->why, sizeof(s->est->why), "left bytes not cleared in 4 KiB calls");
		return -1;
	}
	bad = cz_first_nonzero(buf, size);
	if (bad < size) {
		snprintf(s->est->why, sizeof(s->est->why), "%s%sbyte %zu = %#x after clearing %zu "
			 "bytes: not zeroes", s->fd >= 0 ? s->name : "", s->fd >= 0 ? ": " : "", bad,
			 (unsigned char)buf[bad], size);
		return -1;
	}
	return 0;
}

/* ns per call of calls passes, or -1 when one failed. */
static double sample(const struct kref_subject *s, char *buf, size_t size, size_t calls)
{
	uint64_t t0 = cz_now_ns_raw(), t1;
	size_t c;
	int bad = 0;

	for (c = 0; c < calls; c++)
		bad |= pass(s, buf, size);
	t1 = cz_now_ns_raw();
	return bad ? -1 : (double)(t1 - t0) / (double)calls;
}

/* The rounds (one warm-up first, not kept); a subject that fails drops out with its reason. */
static void rounds(const struct zero_kref_opts *o, struct kref_subject *s, size_t ns, char *buf)
{
	size_t r, j, zi;

	for (r = 0; r <= o->rounds; r++)
		for (j = 0; j < ns; j++) {
			struct kref_subject *x = &s[(j + r) % ns];

			for (zi = 0; zi < o->nsizes && !x->est->why[0]; zi++) {
				/* sizes up on even rounds, down on odd ones */
				size_t z = r % 2 ? o->nsizes - 1 - zi : zi, size = o->sizes[z];
				size_t calls = o->sample_bytes / size ? o->sample_bytes / size : 1;
				double t = sample(x, buf, size, calls);

				if (t < 0)
					snprintf(x->est->why, sizeof(x->est->why), "failed while timing at %zu bytes",
						 size);
				else if (r)
					x->t[(r - 1) * o->nsizes + z] = t;
			}
		}
}

/* A subject's slope per round -> its figure. */
static void estimate(const struct zero_kref_opts *o, struct kref_subject *s)
{
	double *slope = calloc(o->rounds, sizeof(*slope)), *icpt = calloc(o->rounds, sizeof(*icpt));
	struct zero_kref_est fixed = { 0 };
	unsigned r;

	if (!slope || !icpt) {
		snprintf(s->est->why, sizeof(s->est->why), "out of memory");
	} else if (!s->est->why[0]) {
		for (r = 0; r < o->rounds; r++)
			fit(&s->t[r * o->nsizes], o->sizes, o->nsizes, &slope[r], &icpt[r]);
		median_ci(slope, o->rounds, s->est);
		median_ci(icpt, o->rounds, &fixed);
		s->est->fixed_ns = fixed.ns;
		s->est->ok = true;
	}
	free(slope);
	free(icpt);
}

/* ---- the subjects ---------------------------------------------------------------------- */

/* Open a zero device for pread; the kernel's must be char 1:5 (drivers/char/mem.c). */
static int open_zero(const char *path, bool kernel, char *why, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;

	if (fd < 0) {
		snprintf(why, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (kernel && (fstat(fd, &st) || !S_ISCHR(st.st_mode) || major(st.st_rdev) != 1 ||
		       minor(st.st_rdev) != 5)) {
		char here[48] = "not a character device";

		if (S_ISCHR(st.st_mode))
			snprintf(here, sizeof(here), "%u:%u", major(st.st_rdev), minor(st.st_rdev));
		snprintf(why, len, "%s is not the kernel's zero device (character device 1:5; "
			 "here %s): run outside a namespace that replaces it", path, here);
		close(fd);
		return -1;
	}
	return fd;
}

/* The routines to time: the ones asked for, else every usable built-in one. */
static int pick_routines(struct zero_kref *k)
{
	const struct zero_kref_opts *o = &k->opts;
	size_t n = o->routines ? o->nroutines : zero_nroutines, i;
	const char *why;

	k->routines = calloc(n ? n : 1, sizeof(*k->routines));
	if (!k->routines)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		const struct zero_routine *r = o->routines ? o->routines[i] : &zero_routines[i];

		if (!o->routines && !zero_usable(r, &why))
			continue;
		k->routines[k->nroutines].r = r;
		k->routines[k->nroutines].ratio = NAN;
		if (!zero_usable(r, &why))
			snprintf(k->routines[k->nroutines].est.why, sizeof(k->routines->est.why),
				 "not usable on this CPU: %s", why);
		k->nroutines++;
	}
	return 0;
}

/* The checks (opts.checks), measured as the resolved routine is. */
static int pick_checks(struct zero_kref *k)
{
	size_t i;

	if (!k->opts.nchecks)
		return 0;
	k->checks = calloc(k->opts.nchecks, sizeof(*k->checks));
	if (!k->checks)
		return -ENOMEM;
	for (i = 0; i < k->opts.nchecks; i++) {
		k->checks[i].r = k->opts.checks[i];
		k->checks[i].ratio = NAN;
	}
	k->nchecks = k->opts.nchecks;
	return 0;
}

/*
 * The routine whose figure is nearest ns (|log ratio| smallest), its ratio
 * routine / ns: among the clear_user routines (ZERO_F_CLEAR_USER, what the
 * kernel's clear_user can be), or among all when none was measured.
 */
static const struct zero_routine *nearest(struct zero_kref *k, double ns, double *ratio)
{
	const struct zero_routine *best = NULL;
	double bd = INFINITY;
	unsigned pass;
	size_t i;

	*ratio = NAN;
	for (pass = 0; pass < 2 && !best; pass++)
		for (i = 0; ns > 0 && i < k->nroutines; i++) {
			const struct zero_kref_est *e = &k->routines[i].est;

			if (!pass && !(k->routines[i].r->flags & ZERO_F_CLEAR_USER))
				continue;
			if (e->ok && e->ns > 0 && fabs(log(e->ns / ns)) < bd) {
				bd = fabs(log(e->ns / ns));
				best = k->routines[i].r;
				*ratio = e->ns / ns;
			}
		}
	return best;
}

static void finish(struct zero_kref *k)
{
	size_t i;

	for (i = 0; i < k->nroutines; i++)
		if (k->routines[i].est.ok && k->kernel.ok && k->kernel.ns > 0)
			k->routines[i].ratio = k->routines[i].est.ns / k->kernel.ns;
	if (k->resolved.r && k->resolved.est.ok && k->kernel.ok && k->kernel.ns > 0)
		k->resolved.ratio = k->resolved.est.ns / k->kernel.ns;
	for (i = 0; i < k->nchecks; i++)
		if (k->checks[i].est.ok && k->kernel.ok && k->kernel.ns > 0)
			k->checks[i].ratio = k->checks[i].est.ns / k->kernel.ns;
	if (k->kernel.ok)
		k->closest = nearest(k, k->kernel.ns, &k->closest_ratio);
	if (k->device.ok && k->kernel.ok && k->kernel.ns > 0)
		k->device_ratio = k->device.ns / k->kernel.ns;
}

/* ---- transparent huge pages --------------------------------------------------------------- */

void zero_kref_thp_mode(char *buf, size_t len)
{
	FILE *f = fopen(KREF_THP_ENABLED, "r");
	char line[128], *a, *b;

	snprintf(buf, len, "unavailable");
	if (!f)
		return;
	if (fgets(line, sizeof(line), f) && (a = strchr(line, '[')) && (b = strchr(a, ']'))) {
		*b = '\0';
		snprintf(buf, len, "%s", a + 1);
	}
	fclose(f);
}

bool zero_kref_thp_disabled(void)
{
	int r = prctl(PR_GET_THP_DISABLE, 0, 0, 0, 0);

	return r > 0 && !(r & KREF_THP_DISABLE_EXCEPT_ADVISED);
}

long zero_kref_anon_huge_kb(const void *addr)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[256];
	bool in_vma = false;
	long kb = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;

		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' ')) {
			in_vma = (uintptr_t)addr >= lo && (uintptr_t)addr < hi;
			continue;
		}
		if (in_vma && sscanf(line, "AnonHugePages: %ld kB", &kb) == 1)
			break;
	}
	fclose(f);
	return kb;
}

/*
 * A 2 MiB-aligned madvise(MADV_HUGEPAGE) range, faulted by one write (the
 * kernel allocates and clears a huge page), checked in smaps, then emptied
 * by MADV_DONTNEED and faulted again, rounds times after KREF_THP_WARMUP
 * faults that are not kept.  The allocator hands the freed huge page back, so
 * the time is the clearing of a cache-warm page: a VM's first touch of a
 * page of guest memory costs tens of times more (the host's own fault).
 * x[] gets ns per 4 KiB page of the faults that got a huge page; their
 * number, or -errno with why.
 */
static int thp_faults(unsigned rounds, double *x, char *why, size_t len)
{
	char *m = mmap(NULL, 2 * KREF_HUGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0), *p;
	unsigned r, kept = 0;

	if (m == MAP_FAILED) {
		snprintf(why, len, "mmap of %u bytes: %s", 2 * KREF_HUGE, strerror(errno));
		return -ENOMEM;
	}
	p = (char *)(((uintptr_t)m + KREF_HUGE - 1) & ~(uintptr_t)(KREF_HUGE - 1));
	if (madvise(p, KREF_HUGE, MADV_HUGEPAGE)) {
		snprintf(why, len, "madvise(MADV_HUGEPAGE): %s", strerror(errno));
		munmap(m, 2 * KREF_HUGE);
		return -EINVAL;
	}
	for (r = 0; r < KREF_THP_WARMUP + rounds; r++) {
		uint64_t t0 = cz_now_ns_raw(), t;

		*(volatile char *)p = 1;
		t = cz_now_ns_raw() - t0;
		if (r >= KREF_THP_WARMUP && zero_kref_anon_huge_kb(p) >= (long)(KREF_HUGE / 1024))
			x[kept++] = (double)t / KREF_HUGE_PAGES;
		if (madvise(p, KREF_HUGE, MADV_DONTNEED)) {
			snprintf(why, len, "madvise(MADV_DONTNEED): %s", strerror(errno));
			break;
		}
	}
	munmap(m, 2 * KREF_HUGE);
	return why[0] ? -EINVAL : (int)kept;
}

static void thp_measure(struct zero_kref *k)
{
	double *x = calloc(k->opts.thp_rounds, sizeof(*x));
	int kept = 0;

	zero_kref_thp_mode(k->thp_mode, sizeof(k->thp_mode));
	if (k->opts.no_thp)
		snprintf(k->thp.why, sizeof(k->thp.why), "not asked for");
	else if (!strcmp(k->thp_mode, "unavailable"))
		snprintf(k->thp.why, sizeof(k->thp.why), "no transparent huge pages in this kernel (no %s)",
			 KREF_THP_ENABLED);
	else if (!strcmp(k->thp_mode, "never"))
		snprintf(k->thp.why, sizeof(k->thp.why), "transparent huge pages are off (%s: never)",
			 KREF_THP_ENABLED);
	else if (zero_kref_thp_disabled())
		snprintf(k->thp.why, sizeof(k->thp.why), "%s", ZERO_KREF_THP_DISABLED_WHY);
	else if (!x)
		snprintf(k->thp.why, sizeof(k->thp.why), "out of memory");
	else
		kept = thp_faults(k->opts.thp_rounds, x, k->thp.why, sizeof(k->thp.why));
	if (!k->thp.why[0] && !kept)
		snprintf(k->thp.why, sizeof(k->thp.why), "no fault got a 2 MiB page (AnonHugePages in "
			 "/proc/self/smaps; memory fragmented? /sys/kernel/mm/transparent_hugepage/defrag)");
	if (!k->thp.why[0]) {
		median_ci(x, (size_t)kept, &k->thp);
		k->thp.fixed_ns = NAN;
		k->thp.ok = true;
	}
	free(x);
}

/* ---- the measurement ----------------------------------------------------------------------- */

/* The subjects: the kernel, the device, the routines; their sample arrays.  0 or -ENOMEM. */
static int subjects(struct zero_kref *k, int kfd, int dfd, struct kref_subject **out, size_t *n)
{
	struct kref_subject *s = calloc(k->nroutines + k->nchecks + 3, sizeof(*s));
	size_t i, m = 0;

	if (!s)
		return -ENOMEM;
	s[m++] = (struct kref_subject){ .fd = kfd, .name = KREF_DEV_ZERO, .est = &k->kernel };
	if (dfd >= 0)
		s[m++] = (struct kref_subject){ .fd = dfd, .name = k->opts.device, .est = &k->device };
	for (i = 0; i < k->nroutines; i++)
		if (!k->routines[i].est.why[0])
			s[m++] = (struct kref_subject){ .fd = -1, .fn = k->routines[i].r->fn,
							.name = k->routines[i].r->name,
							.est = &k->routines[i].est };
	if (k->resolved.r)
		s[m++] = (struct kref_subject){ .fd = -1, .fn = k->resolved.r->fn,
						.name = k->resolved.r->name, .est = &k->resolved.est };
	for (i = 0; i < k->nchecks; i++)
		s[m++] = (struct kref_subject){ .fd = -1, .fn = k->checks[i].r->fn,
						.name = k->checks[i].r->name, .est = &k->checks[i].est };
	*out = s;
	*n = m;
	for (i = 0; i < m; i++)
		if (!(s[i].t = calloc((size_t)k->opts.rounds * k->opts.nsizes, sizeof(double))))
			return -ENOMEM;
	return 0;
}

static int measure(struct zero_kref *k, int kfd, int dfd, char *buf, size_t max, char *err, size_t len)
{
	struct kref_subject *s = NULL;
	size_t n = 0, i;
	int ret = subjects(k, kfd, dfd, &s, &n);

	for (i = 0; !ret && i < n; i++)
		check(&s[i], buf, max);
	if (!ret && (k->kernel.why[0] || k->device.why[0])) {
		snprintf(err, len, "%s", k->kernel.why[0] ? k->kernel.why : k->device.why);
		ret = -EIO;
	}
	if (!ret) {
		rounds(&k->opts, s, n, buf);
		for (i = 0; i < n; i++)
			estimate(&k->opts, &s[i]);
		if (!k->kernel.ok) {
			snprintf(err, len, "%s: %s", KREF_DEV_ZERO, k->kernel.why);
			ret = -EIO;
		}
	}
	if (ret == -ENOMEM)
		snprintf(err, len, "out of memory");
	for (i = 0; s && i < n; i++)
		free(s[i].t);
	free(s);
	return ret;
}

int zero_kref_measure(const struct zero_kref_opts *o, struct zero_kref *k, char *err, size_t len)
{
	size_t max = 0, i;
	int kfd = -1, dfd = -1, ret;
	char *buf = MAP_FAILED;

	memset(k, 0, sizeof(*k));
	k->closest_ratio = k->device_ratio = k->resolved.ratio = NAN;
	k->resolved.r = o->resolved;
	ret = fill_opts(o, &k->opts, err, len);
	if (ret)
		return ret;
	for (i = 0; i < k->opts.nsizes; i++)
		max = k->opts.sizes[i] > max ? k->opts.sizes[i] : max;
	if (pick_routines(k) || pick_checks(k))
		return snprintf(err, len, "out of memory"), -ENOMEM;
	kfd = open_zero(KREF_DEV_ZERO, true, err, len);
	if (kfd < 0)
		return -EIO;
	if (k->opts.device && (dfd = open_zero(k->opts.device, false, err, len)) < 0) {
		close(kfd);
		return -ENOENT;
	}
	buf = mmap(NULL, max, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (buf == MAP_FAILED) {
		snprintf(err, len, "mmap of %zu bytes: %s", max, strerror(errno));
		ret = -ENOMEM;
	} else {
		ret = measure(k, kfd, dfd, buf, max, err, len);
		munmap(buf, max);
	}
	close(kfd);
	if (dfd >= 0)
		close(dfd);
	if (!ret) {
		finish(k);
		thp_measure(k);
	}
	return ret;
}

void zero_kref_free(struct zero_kref *k)
{
	free(k->routines);
	k->routines = NULL;
	k->nroutines = 0;
	free(k->checks);
	k->checks = NULL;
	k->nchecks = 0;
}

/* ---- JSON ------------------------------------------------------------------------------------ */

static void est_json(json_t *o, const char *key, const struct zero_kref_est *e, const char *count)
{
	if (!e->ok) {
		cz_jset(o, "failed", cz_jstr(e->why));
		return;
	}
	cz_jset(o, key, cz_jfixed(e->ns, 3));
	cz_jset(o, "ci_lo", cz_jfixed(e->lo, 3));
	cz_jset(o, "ci_hi", cz_jfixed(e->hi, 3));
	if (!isnan(e->fixed_ns))
		cz_jset(o, "fixed_ns", cz_jfixed(e->fixed_ns, 1));
	cz_jset(o, count, cz_juint(e->n));
}

static void cmp_json(json_t *o, const char *pct, const char *inside, const struct zero_kref_est *kernel,
		     const struct zero_kref_est *x)
{
	struct zero_kref_cmp c;

	zero_kref_compare(kernel, x, &c);
	if (!c.ok)
		return;
	cz_jset(o, pct, cz_jfixed(c.pct, 2));
	cz_jset(o, inside, json_boolean(c.inside));
}

static void closest_json(json_t *o, const struct zero_kref *k)
{
	size_t i;

	if (!k->closest)
		return;
	cz_jset(o, "closest", cz_jstr(k->closest->name));
	cz_jset(o, "ratio", cz_jfixed(k->closest_ratio, 4));
	for (i = 0; i < k->nroutines; i++)
		if (k->routines[i].r == k->closest)
			cmp_json(o, "closest_pct", "closest_inside", &k->kernel, &k->routines[i].est);
}

/* A resolved routine or check: its figure, distance and verdict (kref_cmp.c) into o. */
static void verdict_json(json_t *o, const struct zero_kref *k, const struct zero_kref_routine *x)
{
	const struct zero_kref_routine *nearer;
	enum zero_kref_verdict v;
	char text[1024];

	cz_jset(o, "routine", cz_jstr(x->r->name));
	est_json(o, "ns_per_chunk", &x->est, "rounds");
	if (x->est.ok && !isnan(x->ratio))
		cz_jset(o, "ratio", cz_jfixed(x->ratio, 4));
	cmp_json(o, "pct", "inside", &k->kernel, &x->est);
	v = zero_kref_verdict_of(k, x, &nearer);
	cz_jset(o, "verdict", cz_jstr(zero_kref_verdict_name(v)));
	if (nearer)
		cz_jset(o, "nearer", cz_jstr(nearer->r->name));
	zero_kref_verdict_text(k, x, text, sizeof(text));
	cz_jset(o, "verdict_text", cz_jstr(text));
}

static void resolved_json(json_t *d, const struct zero_kref *k)
{
	json_t *a;
	size_t i;

	if (k->resolved.r)
		verdict_json(cz_jset(d, "resolved", cz_jobj()), k, &k->resolved);
	if (!k->nchecks)
		return;
	a = cz_jset(d, "checks", cz_jarr());
	for (i = 0; i < k->nchecks; i++)
		verdict_json(cz_jpush(a, cz_jobj()), k, &k->checks[i]);
}

json_t *zero_kref_json(const struct zero_kref *k)
{
	json_t *d = cz_jobj(), *a, *o;
	size_t i;

	cz_jset(d, "unit", cz_jstr("ns per 4 KiB chunk"));
	cz_jset(d, "method", cz_jstr("slope of pread() time on /dev/zero over the sizes (read_zero: "
				     "clear_user per 4 KiB); routines in 4 KiB calls on the same buffer"));
	cz_jset(d, "estimator", cz_jstr("median over rounds, 95% CI of the median (order statistics)"));
	a = cz_jset(d, "sizes", cz_jarr());
	for (i = 0; i < k->opts.nsizes; i++)
		cz_jpush(a, cz_juint(k->opts.sizes[i]));
	cz_jset(d, "rounds", cz_juint(k->opts.rounds));
	o = cz_jset(d, "kernel", cz_jobj());
	est_json(o, "ns_per_chunk", &k->kernel, "rounds");
	closest_json(d, k);
	resolved_json(d, k);
	o = cz_jset(d, "thp", cz_jobj());
	cz_jset(o, "mode", cz_jstr(k->thp_mode));
	if (k->thp.ok)
		est_json(o, "ns_per_page", &k->thp, "faults");
	else
		cz_jset(o, "skipped", cz_jstr(k->thp.why));
	a = cz_jset(d, "routines", cz_jarr());
	for (i = 0; i < k->nroutines; i++) {
		o = cz_jpush(a, cz_jobj());
		cz_jset(o, "routine", cz_jstr(k->routines[i].r->name));
		cz_jset(o, "clear_user", json_boolean(k->routines[i].r->flags & ZERO_F_CLEAR_USER));
		est_json(o, "ns_per_chunk", &k->routines[i].est, "rounds");
		if (k->routines[i].est.ok)
			cz_jset(o, "ratio", cz_jfixed(k->routines[i].ratio, 4));
	}
	if (k->opts.device) {
		o = cz_jset(d, "device", cz_jobj());
		cz_jset(o, "path", cz_jstr(k->opts.device));
		est_json(o, "ns_per_chunk", &k->device, "rounds");
		if (k->device.ok)
			cz_jset(o, "ratio", cz_jfixed(k->device_ratio, 4));
	}
	return d;
}
