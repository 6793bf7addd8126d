/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zbench align --compare A,B with two routines: "is B faster than A as code,
 * or only at this alignment?"  Both routines are placed at every offset of
 * the sweep, in process or inside one daemon (--device), A and B measured
 * back to back at the same offset in every repeat (which goes first
 * alternates), so a repeat's drift hits both.
 *
 * Per offset: the ratio B/A of each repeat's pair, its mean and 95% t
 * interval.  Over layouts: the per-offset ratios are the sample (one
 * value per layout, doc/layouts.md): their mean change and t interval give
 * the verdict "B vs A over layouts"; an offset counts as better or worse
 * when its own interval excludes 1.  In a device the figures are in device
 * (the median request's routine time) and end to end.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "align.h"
#include "czrender.h"

/* One figure compared: in process, in device or end to end. */
struct cmp_class {
	const char *label;
	double *(*get)(const struct align_point *p);
};

static double *get_gbps(const struct align_point *p)
{
	return p->gbps;
}

static double *get_dev(const struct align_point *p)
{
	return p->dev_gbps;
}

struct cmp_offset {
	double a_med, b_med;
	struct cz_summary ratio;   /* of the per-repeat B/A */
};

struct cmp_over {
	struct cz_summary d;       /* per-offset mean change, per cent */
	size_t better, worse, n;
};

static void cmp_offsets(const struct align_params *ap, const struct align_point *pa,
			const struct align_point *pb, const struct cmp_class *c,
			struct cmp_offset *out, struct cmp_over *ov)
{
	double *r = calloc(ap->repeats, sizeof(*r)), *d = calloc(ap->noffsets, sizeof(*d));
	size_t i, k, n;

	if (!r || !d)
		abort();
	memset(ov, 0, sizeof(*ov));
	for (i = 0; i < ap->noffsets; i++) {
		const double *xa = c->get(&pa[i]), *xb = c->get(&pb[i]);

		n = pa[i].n < pb[i].n ? pa[i].n : pb[i].n;
		for (k = 0; k < n; k++)
			r[k] = xa[k] > 0 ? xb[k] / xa[k] : NAN;
		out[i].a_med = cz_median(xa, pa[i].n);
		out[i].b_med = cz_median(xb, pb[i].n);
		cz_summarize(r, n, &out[i].ratio);
		if (!n)
			continue;
		d[ov->n++] = (out[i].ratio.mean - 1) * 100;
		ov->better += n >= 2 && out[i].ratio.ci_lo > 1;
		ov->worse += n >= 2 && out[i].ratio.ci_hi < 1;
	}
	cz_summarize(d, ov->n, &ov->d);
	free(r);
	free(d);
}

static const char *over_verdict(const struct cmp_over *ov)
{
	if (ov->n < 2)
		return "one layout: no verdict over layouts";
	if (ov->d.ci_lo > 0)
		return "B faster over layouts";
	if (ov->d.ci_hi < 0)
		return "B slower over layouts";
	return "no difference over layouts";
}

static void print_over(FILE *f, const struct align_params *ap, const struct cmp_class *c,
		       const struct cmp_over *ov)
{
	fprintf(f, "# B vs A over %zu layouts%s%s: %+.2f%% (95%% CI %+.2f..%+.2f): %s; B faster at %zu/%zu "
		"layouts, slower at %zu/%zu (B = %s, A = %s)\n", ov->n, *c->label ? ", " : "", c->label,
		ov->d.mean, ov->d.ci_lo, ov->d.ci_hi, over_verdict(ov), ov->better, ov->n, ov->worse,
		ov->n, ap->cmp_r[1]->name, ap->cmp_r[0]->name);
}

static void print_rows(const struct align_params *ap, const struct align_point *pa,
		       const struct cmp_offset *o, const struct cmp_class *c, bool csv)
{
	size_t i;

	if (!csv)
		printf("# %s%sGB/s, medians; B/A: mean of the per-repeat ratios, 95%% CI\n"
		       "%8s %10s %10s %8s %17s\n", c->label, *c->label ? " " : "", "offset", "A GB/s",
		       "B GB/s", "B/A", "95% CI");
	for (i = 0; i < ap->noffsets; i++) {
		if (csv)
			printf("%s,%u,%.6f,%.6f,%.6f,%.6f,%.6f\n", *c->label ? c->label : "process",
			       pa[i].offset, o[i].a_med, o[i].b_med, o[i].ratio.mean, o[i].ratio.ci_lo,
			       o[i].ratio.ci_hi);
		else
			printf("%8u %10.3f %10.3f %8.4f %8.4f..%-8.4f\n", pa[i].offset, o[i].a_med,
			       o[i].b_med, o[i].ratio.mean, o[i].ratio.ci_lo, o[i].ratio.ci_hi);
	}
}

/* Both curves (medians) on the left axis, the ratio with its interval on the right. */
static int cmp_plot(const struct align_params *ap, const struct align_point *pa,
		    const struct cmp_offset *o, const struct cmp_class *c)
{
	char title[512];
	FILE *gp;
	size_t i;
	int err;

	snprintf(title, sizeof(title), "%s (A) vs %s (B)%s%s, %s in %s calls", ap->cmp_r[0]->name,
		 ap->cmp_r[1]->name, *c->label ? ", " : "", c->label, ap->size_str, ap->chunk_str);
	gp = czr_plot_open(ap->plot, title, 960, 540, &err);
	if (!gp)
		return err;
	fprintf(gp, "set xlabel 'code offset (address mod 4096), bytes'\n"
		"set ylabel 'GB/s (2^{30} bytes/s), median'\nset y2label 'B/A (95%% CI)'\n"
		"set y2tics\nset ytics nomirror\nset key outside bottom center horizontal\n"
		"set grid ytics\n$d << EOD\n");
	for (i = 0; i < ap->noffsets; i++)
		fprintf(gp, "%u %.6f %.6f %.6f %.6f %.6f\n", pa[i].offset, o[i].a_med, o[i].b_med,
			o[i].ratio.mean, o[i].ratio.ci_lo, o[i].ratio.ci_hi);
	fprintf(gp, "EOD\nplot $d using 1:2 with linespoints pt 7 ps 0.5 lc rgb '#1f4e9c' title 'A', \\\n"
		"     $d using 1:3 with linespoints pt 5 ps 0.5 lc rgb '#c0392b' title 'B', \\\n"
		"     $d using 1:4:5:6 axes x1y2 with yerrorbars pt 1 lc rgb '#555555' title 'B/A', \\\n"
		"     1 axes x1y2 with lines dt 2 lc rgb '#999999' notitle\nset output\n");
	return czr_plot_close(gp, ap->plot);
}

/* Both routines at each point, back to back; which goes first alternates. */
static int cmp_point(const struct align_params *ap, struct align_dev *dev, unsigned rep,
		     size_t i, size_t idx, char *buf, void *ctx)
{
	struct align_point **pts = ctx;
	struct align_params one = *ap;
	size_t k;

	for (k = 0; k < 2; k++) {
		/* neither routine always runs warm */
		size_t w = k ^ ((rep + i) & 1);

		if (k && zb_align_stop)
			return -1;
		one.r = ap->cmp_r[w];
		if (dev ? zb_aligndev_select(dev, one.r) || zb_aligndev_measure(dev, &one, &pts[w][idx]) :
			  zb_align_measure(&one, &pts[w][idx], buf))
			return -1;
	}
	return 0;
}

static int cmp_sweep(const struct align_params *ap, struct align_point *pts[2], struct align_dev *dev)
{
	return zb_align_sweep(ap, dev, cmp_point, pts);
}

int zb_aligncmp_run(const struct align_params *ap, struct align_dev *dev)
{
	static const struct cmp_class proc = { "", get_gbps }, indev = { "in device", get_dev },
				      e2e = { "end to end", get_gbps };
	const struct cmp_class *cls[2] = { dev ? &indev : &proc, dev ? &e2e : NULL };
	struct align_point *pts[2] = { zb_align_points_new(ap), zb_align_points_new(ap) };
	struct cmp_offset *o = calloc(ap->noffsets, sizeof(*o));
	struct cmp_over ov;
	int ret = 0, c;
	size_t k;

	if (!o)
		abort();
	if (cmp_sweep(ap, pts, dev)) {
		ret = 1;
		goto out;
	}
	zb_emul_note(ap->csv ? CZ_FORMAT_SIMPLE : CZ_FORMAT_DEFAULT);
	if (ap->csv)
		printf("class,offset,a_median_gbps,b_median_gbps,ratio,ratio_ci_lo,ratio_ci_hi\n");
	else
		printf("# zbench align --compare: A = %s, B = %s, %s at each offset, %s in %s calls, %u "
		       "samples per offset and routine, A and B back to back%s\n", ap->cmp_r[0]->name,
		       ap->cmp_r[1]->name, ap->point == ZERO_POINT_LOOP ? "loop head" : "entry",
		       ap->size_str, ap->chunk_str, ap->repeats, dev ? " in one daemon" : "");
	for (k = 0; k < 2 && cls[k]; k++) {
		cmp_offsets(ap, pts[0], pts[1], cls[k], o, &ov);
		print_rows(ap, pts[0], o, cls[k], ap->csv);
		print_over(ap->csv ? stderr : stdout, ap, cls[k], &ov);
		if (k == 0 && ap->plot && (c = cmp_plot(ap, pts[0], o, cls[k]))) {
			fprintf(stderr, "zbench align: --plot %s: gnuplot failed (%s)\n", ap->plot,
				strerror(-c));
			ret = 1;
		}
	}
out:
	zb_align_points_free(pts[0], ap->noffsets);
	zb_align_points_free(pts[1], ap->noffsets);
	free(o);
	return ret;
}
