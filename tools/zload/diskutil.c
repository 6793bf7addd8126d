/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fio's "disk_util" (fio's HOWTO, "Interpreting the output", disk stats):
 * for each block device under the jobs' files (a regular file's device, a
 * partition's whole disk, a block device itself), the differences of
 * /sys/block/NAME/stat over the run (Documentation/block/stat.rst: read
 * and write I/Os, merges, ticks in ms, time in queue) and util, the share
 * of the run the device was busy (io_ticks).  Files on no block device (a
 * character device, the FUSE zero file) have none, and the key is absent,
 * as in fio's output.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "jsonout.h"
#include "zload.h"

/* /sys/block/NAME/stat's 11 first fields into v; false when unreadable. */
static bool zl_du_read(const char *dir, uint64_t v[11])
{
	char path[PATH_MAX + 8];
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "%s/stat", dir);
	f = fopen(path, "r");
	if (!f)
		return false;
	n = fscanf(f, "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
		   " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64, &v[0], &v[1], &v[2],
		   &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &v[10]);
	fclose(f);
	return n == 11;
}

/* The whole disk of device dev into du (once per disk). */
static void zl_du_add(struct zl_du *du, dev_t dev)
{
	char link[64], real[PATH_MAX], part[PATH_MAX + 16];
	struct zl_du_dev *d;
	unsigned i;

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	if (!realpath(link, real))
		return;
	snprintf(part, sizeof(part), "%s/partition", real);
	if (!access(part, F_OK))
		*strrchr(real, '/') = '\0';
	for (i = 0; i < du->n; i++)
		if (!strcmp(du->d[i].dir, real))
			return;
	if (du->n == ZL_DU_MAX || strlen(real) >= sizeof(du->d[0].dir))
		return;
	d = &du->d[du->n];
	strcpy(d->dir, real);
	snprintf(d->name, sizeof(d->name), "%s", strrchr(real, '/') + 1);
	if (zl_du_read(d->dir, d->s0))
		du->n++;
}

void zl_du_start(struct zl_du *du, const struct zl_run *run)
{
	struct stat st;
	unsigned s;

	memset(du, 0, sizeof(*du));
	for (s = 0; s < run->nsect; s++) {
		if (stat(run->sect[s].path, &st))
			continue;
		if (S_ISREG(st.st_mode))
			zl_du_add(du, st.st_dev);
		else if (S_ISBLK(st.st_mode))
			zl_du_add(du, st.st_rdev);
	}
	du->t0 = cz_now_ns();
}

void zl_du_stop(struct zl_du *du)
{
	unsigned i;

	du->t1 = cz_now_ns();
	for (i = 0; i < du->n; i++)
		if (!zl_du_read(du->d[i].dir, du->d[i].s1))
			memcpy(du->d[i].s1, du->d[i].s0, sizeof(du->d[i].s1));
}

/* fio's "disk_util" array; NULL when no job's file is on a block device. */
void *zl_du_json(const struct zl_du *du)
{
	static const struct { const char *key; unsigned field; } keys[] = {
		{ "read_ios", 0 }, { "write_ios", 4 }, { "read_merges", 1 }, { "write_merges", 5 },
		{ "read_ticks", 3 }, { "write_ticks", 7 }, { "in_queue", 10 },
	};
	double ms = (double)(du->t1 - du->t0) / 1e6, util;
	json_t *arr;
	unsigned i, k;

	if (!du->n)
		return NULL;
	arr = cz_jarr();
	for (i = 0; i < du->n; i++) {
		const struct zl_du_dev *d = &du->d[i];
		json_t *o = cz_jobj();

		cz_jset(o, "name", cz_jstr(d->name));
		for (k = 0; k < CZ_ARRAY_SIZE(keys); k++)
			cz_jset(o, keys[k].key, cz_juint(d->s1[keys[k].field] - d->s0[keys[k].field]));
		util = ms > 0 ? (double)(d->s1[9] - d->s0[9]) * 100.0 / ms : 0.0;
		cz_jset(o, "util", cz_jfixed(util > 100.0 ? 100.0 : util, 6));
		cz_jpush(arr, o);
	}
	return arr;
}
