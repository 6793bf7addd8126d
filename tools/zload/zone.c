/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fio's zonemode (fio's HOWTO: zonemode, zonerange, zonesize, zoneskip,
 * read_beyond_wp, max_open_zones).
 *
 * strided: I/O stays in one zone of zonerange bytes (zonerange defaults to
 * zonesize) until zonesize bytes went to it, then the zone moves on by
 * zonerange + zoneskip bytes, back to the region's start past its end.
 * zonesize without zonemode means strided; zonemode=none with zonesize is
 * an error, as in fio.
 *
 * zbd on a file that is not a zoned block device (a regular file, the zero
 * device): fio emulates zones of zonesize bytes, every one empty (write
 * pointer at its start).  With read_beyond_wp=0 (fio's default) a read
 * stays below a write pointer, so a job that only reads has nothing to read
 * and ends at once, as fio's does on a regular file.  Writes at the
 * emulated write pointers are not done here: such a job is refused.
 */
#include <stdio.h>
#include <string.h>

#include "util.h"
#include "opts.h"
#include "zload.h"

bool zl_zone_set_value(struct zl_opts *o, int id, const char *opt, const char *arg)
{
	uint64_t v;

	switch (id) {
	case ZO_ZONEMODE:
		if (!strcmp(arg, "none"))
			o->zonemode = ZL_ZONE_NONE;
		else if (!strcmp(arg, "strided"))
			o->zonemode = ZL_ZONE_STRIDED;
		else if (!strcmp(arg, "zbd"))
			o->zonemode = ZL_ZONE_ZBD;
		else
			cz_usage_die("%s: invalid value '%s' (none, strided, zbd)", opt, arg);
		return true;
	case ZO_ZONESIZE:
	case ZO_ZONERANGE:
	case ZO_ZONESKIP:
		if (cz_parse_size(arg, &v) || v > INT64_MAX)
			cz_usage_die("%s: invalid size '%s' (units B K M G T)", opt, arg);
		*(id == ZO_ZONESIZE ? &o->zone_size : id == ZO_ZONERANGE ? &o->zone_range :
		  &o->zone_skip) = v;
		return true;
	case ZO_READ_BEYOND_WP:
		o->read_beyond_wp = zl_parse_uint(opt, arg, 0, 1);
		return true;
	case ZO_MAX_OPEN_ZONES:
		zl_parse_uint(opt, arg, 0, UINT32_MAX);	/* zbd writes only: refused below */
		return true;
	}
	return false;
}

/* fio's rules between the zone options, once the job's are all known. */
void zl_zone_validate(struct zl_opts *o, const char *n)
{
	if (o->zonemode == ZL_ZONE_UNSET)
		o->zonemode = o->zone_size ? ZL_ZONE_STRIDED : ZL_ZONE_NONE;
	if (o->zonemode == ZL_ZONE_NONE && o->zone_size)
		cz_usage_die("%szonemode=none and zonesize=%llu are not compatible (as in fio)", n,
			     (unsigned long long)o->zone_size);
	if (o->zonemode != ZL_ZONE_NONE && !o->zone_size)
		cz_usage_die("%szonemode=%s needs zonesize", n,
			     o->zonemode == ZL_ZONE_ZBD ? "zbd" : "strided");
	if (!o->zone_range)
		o->zone_range = o->zone_size;
	if (o->zonemode != ZL_ZONE_ZBD)
		return;
	if (o->zone_size < 512)
		cz_usage_die("%szonesize=%llu: a zone is at least 512 bytes with zonemode=zbd", n,
			     (unsigned long long)o->zone_size);
	if (o->rwmix_read < 100)
		cz_usage_die("%szonemode=zbd: writes at emulated write pointers are not "
			     "implemented (reads only)", n);
	if (!o->read_beyond_wp) {
		o->zbd_empty = true;
		zl_note("%szonemode=zbd: the emulated zones are empty (nothing written), so "
			"read_beyond_wp=0 leaves nothing to read, as in fio on a regular file", n);
	}
}

/*
 * Where the next I/O of job j goes with zonemode=strided: *off (from the
 * job's base) is kept in the current zone.  The zone moves on once
 * zonesize bytes went to it.  Returns the zone's usable length.
 */
uint64_t zl_zone_strided(struct zl_job *j, struct zl_seq *q, uint64_t *off, uint32_t len)
{
	const struct zl_opts *o = j->o;
	uint64_t range;

	if (j->zone_bytes >= o->zone_size) {
		j->zone_bytes = 0;
		j->zone_start += o->zone_range + o->zone_skip;
		if (j->zone_start >= j->wrap)
			j->zone_start = 0;
		q->next_off[0] = q->next_off[1] = j->zone_start;
		*off = j->zone_start;
	}
	range = j->wrap - j->zone_start < o->zone_range ? j->wrap - j->zone_start : o->zone_range;
	if (*off < j->zone_start || *off + len > j->zone_start + range)
		*off = j->zone_start;
	j->zone_bytes += len;
	return range;
}
