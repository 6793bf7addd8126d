/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Description: zbench kernel's comparisons on figures given here, not
 * measured: per cent and direction against the kernel, inside its 95%
 * interval or not, and the resolved routine's verdict -- agrees inside the
 * interval; agrees outside it when no routine told apart from it lies
 * between it and the kernel (one whose interval overlaps it, or one beyond
 * the kernel, does not count; neither does a routine without
 * ZERO_F_CLEAR_USER when clear_user ones were measured); disagrees, naming
 * the routine, when one does (the forced case: a rep stosb figure against a
 * kernel running the movq loop); unknown without a figure.  And
 * zero_kpath_version / zero_kpath_pick on trees made here: the running
 * release's own tree first, else the newest below it, never one above.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kpath.h"
#include "kref.h"
#include "../tap.h"

static struct zero_routine cu[3] = {
	{ .name = "fast", .flags = ZERO_F_CLEAR_USER },
	{ .name = "mid", .flags = ZERO_F_CLEAR_USER },
	{ .name = "other", .flags = 0 },
};
static struct zero_routine res_r = { .name = "resolved" };

static struct zero_kref_est est(double ns, double lo, double hi)
{
	struct zero_kref_est e = { .ok = true, .ns = ns, .lo = lo, .hi = hi, .n = 7 };

	return e;
}

static const char *verdict(struct zero_kref *k, const char **nearer)
{
	const struct zero_kref_routine *n;
	enum zero_kref_verdict v = zero_kref_verdict(k, &n);

	*nearer = n ? n->r->name : "";
	return v == ZERO_KREF_AGREES_INSIDE ? "inside" : v == ZERO_KREF_AGREES_NEAREST ? "nearest" :
	       v == ZERO_KREF_DISAGREES ? "disagrees" : "unknown";
}

static void verdicts(void)
{
	struct zero_kref_routine rs[3] = { { .r = &cu[0] }, { .r = &cu[1] }, { .r = &cu[2] } };
	struct zero_kref k = { .routines = rs, .nroutines = 3 };
	struct zero_kref_cmp c;
	const char *n, *v;
	char buf[200];

	k.kernel = est(100, 98, 103);
	rs[0].est = est(50, 49, 51);
	rs[1].est = est(80, 79, 81);
	rs[2].est = est(95, 94, 96);

	zero_kref_compare(&k.kernel, &rs[1].est, &c);
	zero_kref_cmp_text(&c, buf, sizeof(buf));
	tap_ok(c.ok && fabs(c.pct + 20) < 1e-9 && !c.inside &&
	       !strcmp(buf, "20.0% faster than the kernel; outside the kernel's 95% interval"),
	       "80 vs 100: '%s'", buf);
	zero_kref_compare(&k.kernel, &(struct zero_kref_est){ .ok = true, .ns = 101, .lo = 100, .hi = 102 }, &c);
	zero_kref_cmp_text(&c, buf, sizeof(buf));
	tap_ok(c.inside && !strcmp(buf, "1.0% slower than the kernel; inside the kernel's 95% interval"),
	       "101 vs 100 [98, 103]: '%s'", buf);

	tap_ok(!strcmp(verdict(&k, &n), "unknown"), "nothing resolved: unknown");
	k.resolved.r = &res_r;
	k.resolved.est = est(99, 97, 100);
	tap_ok(!strcmp(verdict(&k, &n), "inside"), "resolved 99 in [98, 103]: agrees, inside");
	k.resolved.est = est(82, 78, 84);
	tap_ok(!strcmp(verdict(&k, &n), "nearest"),
	       "resolved 82 [78, 84]: mid (80) overlaps it, 'other' is no clear_user routine: agrees");
	k.resolved.est = est(75, 74, 76);
	v = verdict(&k, &n);
	tap_ok(!strcmp(v, "disagrees") && !strcmp(n, "mid"),
	       "resolved 75 [74, 76]: mid (80), told apart, between: disagrees, names '%s'", n);
	/* forced: the rep stosb figure against a kernel that runs the loop */
	k.resolved.est = est(50.5, 49.5, 51.5);
	v = verdict(&k, &n);
	tap_ok(!strcmp(v, "disagrees") && !strcmp(n, "mid"),
	       "forced what-if 50.5: disagrees, the nearest between named ('%s')", n);
	k.resolved.est = est(130, 128, 132);
	tap_ok(!strcmp(verdict(&k, &n), "nearest"), "resolved 130 above: nothing between: agrees");
	rs[1].est.ok = rs[0].est.ok = false;
	k.resolved.est = est(75, 74, 76);
	v = verdict(&k, &n);
	tap_ok(!strcmp(v, "disagrees") && !strcmp(n, "other"),
	       "no clear_user routine measured: any counts ('%s')", n);
	k.kernel.ok = false;
	tap_ok(!strcmp(verdict(&k, &n), "unknown"), "no kernel figure: unknown");
}

static void tree(const char *dir, const char *name, unsigned a, unsigned b, unsigned c)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	mkdir(p, 0700);
	snprintf(p, sizeof(p), "%s/%s/linux-source", dir, name);
	mkdir(p, 0700);
	snprintf(p, sizeof(p), "%s/%s/linux-source/Makefile", dir, name);
	if (!(f = fopen(p, "w")))
		abort();
	fprintf(f, "VERSION = %u\nPATCHLEVEL = %u\nSUBLEVEL = %u\nEXTRAVERSION =\n", a, b, c);
	fclose(f);
}

static void picks(void)
{
	char dir[] = "/tmp/kref-verdict.XXXXXX", err[512], cmd[600];
	struct zero_kpath_pick p;
	unsigned v[3];
	int ret;

	tap_ok(zero_kpath_version("6.18.44-fc-v1300", v) && v[0] == 6 && v[1] == 18 && v[2] == 44,
	       "version of 6.18.44-fc-v1300");
	tap_ok(!zero_kpath_version("x", v), "no version in 'x'");
	if (!mkdtemp(dir))
		abort();
	tree(dir, "6.1", 6, 1, 192);
	tree(dir, "6.12", 6, 12, 118);
	tree(dir, "7.2", 7, 2, 11);
	ret = zero_kpath_pick(dir, "6.18.44-fc", &p, err, sizeof(err));
	tap_ok(!ret && !strcmp(p.release, "6.12.118") && !p.own && strstr(p.how, "nearest release at or below"),
	       "6.18.44: 6.12.118, the nearest below (%s)", ret ? err : p.how);
	ret = zero_kpath_pick(dir, "6.12.5", &p, err, sizeof(err));
	tap_ok(!ret && !strcmp(p.release, "6.12.118") && p.own, "6.12.5: its own 6.12 tree (%s)",
	       ret ? err : p.how);
	ret = zero_kpath_pick(dir, "5.10.0", &p, err, sizeof(err));
	tap_ok(ret == -ENOENT && strstr(err, "no kernel tree of release 5.10 or below"),
	       "5.10.0: none, one line (%s)", err);
	ret = zero_kpath_pick(dir, "nonsense", &p, err, sizeof(err));
	tap_ok(ret == -EINVAL, "release 'nonsense': refused (%s)", err);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		tap_diag("could not remove %s", dir);
}

int main(void)
{
	verdicts();
	picks();
	return tap_done();
}
