/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The running kernel as reference (zeroing/kref.h, zbench kernel) in zab:
 * measured once per run into environment.kernel_ref, and shown per SUT
 * class under report --by sut-class's table -- how far an emulated
 * routine's figure carries to the kernel on that CPU:
 *
 *   kernel reference (environment.kernel_ref; routine/kernel in parentheses):
 *     Zen 4  kernel clear_user 35.1 ns/4 KiB [34.9, 35.6], like rep_stosb (1.00x); THP fault 61.2 ns/page
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "emul.h"
#include "kref.h"
#include "stats.h"
#include "util.h"
#include "run.h"

/*
 * zab's measurement: 21 rounds of samples of 256 KiB (a 256 KiB pread, 16 of
 * 16 KiB) keep the interval narrow (a few tenths of a ns here) at about 40
 * ms natively -- and a second, not ten, where zab runs under qemu-user.
 */
#define ZAB_KREF_ROUNDS       21
#define ZAB_KREF_SAMPLE_BYTES (256u << 10)

json_t *zab_kernel_ref(void)
{
	struct zero_kref_opts o = { .rounds = ZAB_KREF_ROUNDS, .sample_bytes = ZAB_KREF_SAMPLE_BYTES };
	struct zero_kref k;
	char err[512], line[512];
	const char *why;
	json_t *j;

	if (cz_emulated(&why)) {
		/* the kernel runs on the host's hardware, the routines in the emulator */
		snprintf(err, sizeof(err), "not taken on emulated hardware (%s)", why);
		cz_err("kernel reference %s", err);
		j = cz_jobj();
		cz_jset(j, "error", cz_jstr(err));
		cz_jset(j, "emulated", json_true());
		return j;
	}
	if (zero_kref_measure(&o, &k, err, sizeof(err))) {
		cz_err("kernel reference not measured: %s", err);
		j = cz_jobj();
		cz_jset(j, "error", cz_jstr(err));
	} else {
		j = zero_kref_json(&k);
		zab_kref_text(line, sizeof(line), j);
		cz_err("kernel reference: %s", line);
	}
	zero_kref_free(&k);
	return j;
}

static double num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

void zab_kref_text(char *buf, size_t len, const json_t *kref)
{
	const json_t *k = json_object_get(kref, "kernel"), *thp = json_object_get(kref, "thp");
	const char *closest = json_string_value(json_object_get(kref, "closest"));
	const char *err = json_string_value(json_object_get(kref, "error"));
	size_t n;

	if (err || !json_is_number(json_object_get(k, "ns_per_chunk"))) {
		snprintf(buf, len, "kernel clear_user not measured: %s", err ? err :
			 json_string_value(json_object_get(k, "failed")) ?
			 json_string_value(json_object_get(k, "failed")) : "no figure");
		return;
	}
	snprintf(buf, len, "kernel clear_user %.1f ns/4 KiB [%.1f, %.1f]", num(k, "ns_per_chunk"),
		 num(k, "ci_lo"), num(k, "ci_hi"));
	n = strlen(buf);
	if (closest)
		snprintf(buf + n, len - n, ", like %s (%.2fx)", closest, num(kref, "ratio"));
	n = strlen(buf);
	if (json_is_number(json_object_get(thp, "ns_per_page")))
		snprintf(buf + n, len - n, "; THP fault %.1f ns/page", num(thp, "ns_per_page"));
}

static const char *str(const json_t *o, const char *key)
{
	const char *v = json_string_value(json_object_get(o, key));

	return v ? v : "";
}

/* The reference of several runs of one class into o: medians, the range, the routine most found. */
static void class_summary(json_t *o, const json_t **refs, size_t n)
{
	double *ns = calloc(3 * n, sizeof(*ns)), *ratio = ns + n, *thp = ratio + n;
	const char *best = NULL;
	size_t i, j, m = 0, nt = 0, nb = 0, c;
	struct cz_summary s;

	if (!ns)
		abort();
	for (i = 0; i < n; i++) {
		const char *ci = json_string_value(json_object_get(refs[i], "closest"));

		ns[i] = num(json_object_get(refs[i], "kernel"), "ns_per_chunk");
		if (json_is_number(json_object_get(json_object_get(refs[i], "thp"), "ns_per_page")))
			thp[nt++] = num(json_object_get(refs[i], "thp"), "ns_per_page");
		for (j = c = 0; ci && j < n; j++)
			c += !strcmp(ci, str(refs[j], "closest"));
		if (ci && c > nb) {
			nb = c;
			best = ci;
		}
	}
	for (i = 0; best && i < n; i++)
		if (!strcmp(best, str(refs[i], "closest")))
			ratio[m++] = num(refs[i], "ratio");
	cz_summarize(ns, n, &s);
	cz_jset(o, "kernel_ns_per_chunk", cz_jnum(s.median));
	cz_jset(o, "kernel_ns_min", cz_jnum(s.min));
	cz_jset(o, "kernel_ns_max", cz_jnum(s.max));
	if (best) {
		cz_jset(o, "kernel_like", cz_jstr(best));
		cz_jset(o, "kernel_like_runs", json_integer((json_int_t)nb));
		cz_jset(o, "kernel_ratio", cz_jnum(cz_median(ratio, m)));
	}
	if (nt)
		cz_jset(o, "kernel_thp_ns_per_page", cz_jnum(cz_median(thp, nt)));
	free(ns);
}

/* One run's reference into o, as class_summary() gives several. */
static void run_summary(json_t *o, const json_t *kref)
{
	const json_t *k = json_object_get(kref, "kernel"), *thp = json_object_get(kref, "thp");
	const char *closest = json_string_value(json_object_get(kref, "closest"));

	cz_jset(o, "kernel_ns_per_chunk", cz_jnum(num(k, "ns_per_chunk")));
	cz_jset(o, "kernel_ci_lo", cz_jnum(num(k, "ci_lo")));
	cz_jset(o, "kernel_ci_hi", cz_jnum(num(k, "ci_hi")));
	if (closest) {
		cz_jset(o, "kernel_like", cz_jstr(closest));
		cz_jset(o, "kernel_like_runs", json_integer(1));
		cz_jset(o, "kernel_ratio", cz_jnum(num(kref, "ratio")));
	}
	if (json_is_number(json_object_get(thp, "ns_per_page")))
		cz_jset(o, "kernel_thp_ns_per_page", cz_jnum(num(thp, "ns_per_page")));
}

/* The line of several runs (o from class_summary()). */
static void class_text(char *buf, size_t len, const json_t *o, size_t n)
{
	snprintf(buf, len, "kernel clear_user %.1f ns/4 KiB (median of %zu runs, %.1f to %.1f)",
		 num(o, "kernel_ns_per_chunk"), n, num(o, "kernel_ns_min"), num(o, "kernel_ns_max"));
	if (json_object_get(o, "kernel_like"))
		snprintf(buf + strlen(buf), len - strlen(buf), ", like %s (%.2fx, %lld of %zu runs)",
			 str(o, "kernel_like"), num(o, "kernel_ratio"),
			 (long long)json_integer_value(json_object_get(o, "kernel_like_runs")), n);
	if (json_object_get(o, "kernel_thp_ns_per_page"))
		snprintf(buf + strlen(buf), len - strlen(buf), "; THP fault %.1f ns/page",
			 num(o, "kernel_thp_ns_per_page"));
}

/*
 * One class's reference: sut_class, kernel_runs (the runs with a figure),
 * the figures (kernel_*) and kernel_ref, the line shown under the table;
 * *recorded false when none of its runs recorded one.
 */
static json_t *class_ref(const char *cls, const json_t *docs, const json_t **refs, bool *recorded)
{
	const json_t *doc, *kref, *err = NULL;
	json_t *o = cz_jobj();
	char line[640];
	size_t k, m = 0;

	for (k = 0; k < json_array_size(docs); k++) {
		doc = json_array_get(docs, k);
		kref = json_object_get(json_object_get(doc, "environment"), "kernel_ref");
		if (!kref || strcmp(str(doc, "sut"), cls))
			continue;
		if (json_is_number(json_object_get(json_object_get(kref, "kernel"), "ns_per_chunk")))
			refs[m++] = kref;
		else
			err = kref;
	}
	cz_jset(o, "sut_class", cz_jstr(cls));
	cz_jset(o, "kernel_runs", json_integer((json_int_t)m));
	if (m == 1) {
		run_summary(o, refs[0]);
		zab_kref_text(line, sizeof(line), refs[0]);
	} else if (m) {
		class_summary(o, refs, m);
		class_text(line, sizeof(line), o, m);
	} else if (err) {
		zab_kref_text(line, sizeof(line), err);
	} else {
		snprintf(line, sizeof(line), "not recorded (runs with kernel-ref = no, or older ones)");
	}
	cz_jset(o, "kernel_ref", cz_jstr(line));
	*recorded = m || err;
	return o;
}

json_t *zab_kref_classes(struct czres_result *const *r, size_t n, const json_t *docs)
{
	const json_t **refs = calloc(json_array_size(docs) + 1, sizeof(*refs));
	json_t *arr = cz_jarr();
	size_t i, shown = 0;
	bool rec;

	if (!refs)
		abort();
	for (i = 0; i < n; i++) {
		cz_jpush(arr, class_ref(r[i]->sut, docs, refs, &rec));
		shown += rec;
	}
	free(refs);
	/* nothing when no run recorded one: reports of older stores stay as they were */
	if (!shown) {
		json_decref(arr);
		return NULL;
	}
	return arr;
}

void zab_kref_by_class(FILE *f, const json_t *classes)
{
	const json_t *o;
	size_t i;

	if (!classes)
		return;
	fprintf(f, "\nkernel reference (environment.kernel_ref; routine/kernel in parentheses):\n");
	json_array_foreach(classes, i, o)
		fprintf(f, "  %s: %s\n", str(o, "sut_class"), str(o, "kernel_ref"));
}

/* Each row of a view's doc gets the figures of its class's reference (CSV columns too). */
void zab_kref_rows(json_t *doc, const json_t *classes)
{
	static const char *const keys[] = { "kernel_ref", "kernel_runs", "kernel_ns_per_chunk",
					    "kernel_like", "kernel_ratio", "kernel_thp_ns_per_page" };
	json_t *row, *v;
	const json_t *o;
	size_t i, j, k;

	if (!classes)
		return;
	cz_jset(doc, "kernel_ref", json_deep_copy(classes));
	json_array_foreach(json_object_get(doc, "rows"), i, row)
		json_array_foreach(classes, j, o) {
			if (strcmp(str(o, "sut_class"), str(row, "sut_class")))
				continue;
			for (k = 0; k < CZ_ARRAY_SIZE(keys); k++)
				if ((v = json_object_get(o, keys[k])))
					cz_jset(row, keys[k], json_incref(v));
		}
}
