/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fio's zonemode options (fio's HOWTO: zonemode, zonerange, zonesize,
 * zoneskip, read_beyond_wp, max_open_zones); io.c moves the zones.
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
#include "cli.h"
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
		o->read_beyond_wp = cz_opt_uint(opt, arg, 0, 1);
		return true;
	case ZO_MAX_OPEN_ZONES:
		cz_opt_uint(opt, arg, 0, UINT32_MAX);	/* zbd writes only: refused below */
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
