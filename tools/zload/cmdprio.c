/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fio's per-command priorities (fio's HOWTO: cmdprio_percentage,
 * cmdprio_class, cmdprio, cmdprio_bssplit; io_uring and libaio only): each
 * I/O gets a priority of its own, IOPRIO_PRIO_VALUE(class, level) as
 * include/uapi/linux/ioprio.h defines it, in the io_uring SQE's ioprio
 * field.  cmdprio_percentage=P[,P]: P% of the reads (writes) get
 * cmdprio_class (default 1, real time) and cmdprio (default 0);
 * cmdprio_bssplit=BS/P[/CLASS/LEVEL]:...[,...]: P% of the I/Os of size BS
 * get CLASS/LEVEL (or cmdprio_class/cmdprio).  The other I/Os get the job's
 * prio/prioclass (0: none).  The logs' last column is that value
 * (log_prio=1, "0x%04x") or 1 for a real-time one and 0 else, as fio's.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "opts.h"
#include "util.h"
#include "zload.h"

#define ZL_IOPRIO(cls, lvl)	((uint16_t)(((unsigned)(cls) << 13) | (unsigned)(lvl)))

/* arg copied to buf (len bytes) and cut at its first comma: what follows it, or NULL. */
static char *zl_cmdprio_split(const char *opt, const char *arg, char *buf, size_t len)
{
	char *comma;

	if (strlen(arg) >= len)
		cz_usage_die("%s: invalid value '%.40s%s' (too long)", opt, arg,
			     strlen(arg) > 40 ? "..." : "");
	strcpy(buf, arg);
	comma = strchr(buf, ',');
	if (comma)
		*comma++ = '\0';
	return comma;
}

/* "A[,B]": two values in [lo, hi], B = A when absent. */
static void zl_cmdprio_pair(const char *opt, const char *arg, unsigned lo, unsigned hi, int out[2])
{
	char buf[64], *comma = zl_cmdprio_split(opt, arg, buf, sizeof(buf));

	out[0] = (int)cz_opt_uint(opt, buf, lo, hi);
	out[1] = comma && *comma ? (int)cz_opt_uint(opt, comma, lo, hi) : out[0];
}

/* One direction's "BS/P[/CLASS/LEVEL]:..." */
static void zl_cmdprio_bss_dir(struct zl_cmdprio *c, int d, const char *opt, char *s)
{
	char *tok, *save = NULL;

	c->nbss[d] = 0;
	for (tok = strtok_r(s, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		struct zl_cmdprio_bs *e = &c->bss[d][c->nbss[d]];
		char *f[4] = { 0 }, *p = tok;
		unsigned n = 0;
		uint64_t bs;

		if (c->nbss[d] == ZL_MAX_BSS)
			cz_usage_die("%s: at most %d entries per direction", opt, ZL_MAX_BSS);
		while (n < 4 && (f[n] = strsep(&p, "/")))
			n++;
		if (p || (n != 2 && n != 4) || cz_parse_size(f[0], &bs) || !bs || bs > UINT32_MAX)
			cz_usage_die("%s: invalid entry '%s' (BS/PERCENT[/CLASS/LEVEL])", opt, tok);
		e->bs = (uint32_t)bs;
		e->pct = cz_opt_uint(opt, f[1], 0, 100);
		e->cls = n == 4 ? (int)cz_opt_uint(opt, f[2], 0, 3) : -1;
		e->lvl = n == 4 ? (int)cz_opt_uint(opt, f[3], 0, 7) : -1;
		c->nbss[d]++;
	}
	if (!c->nbss[d])
		cz_usage_die("%s: no entry", opt);
}

static void zl_cmdprio_bssplit(struct zl_cmdprio *c, const char *opt, const char *arg)
{
	char dup[512], *comma = zl_cmdprio_split(opt, arg, dup, sizeof(dup));

	zl_cmdprio_bss_dir(c, 0, opt, dup);
	if (comma && *comma) {
		zl_cmdprio_bss_dir(c, 1, opt, comma);
	} else {
		c->nbss[1] = c->nbss[0];
		memcpy(c->bss[1], c->bss[0], sizeof(c->bss[0]));
	}
}

bool zl_cmdprio_set_value(struct zl_opts *o, int id, const char *opt, const char *arg)
{
	struct zl_cmdprio *c = &o->cmdprio;
	int v[2];

	switch (id) {
	case ZO_CMDPRIO_PCT:
		zl_cmdprio_pair(opt, arg, 0, 100, v);
		c->pct[0] = (unsigned)v[0];
		c->pct[1] = (unsigned)v[1];
		c->have_pct = true;
		return true;
	case ZO_CMDPRIO_CLASS:
		zl_cmdprio_pair(opt, arg, 1, 3, c->cls);
		return true;
	case ZO_CMDPRIO:
		zl_cmdprio_pair(opt, arg, 0, 7, c->lvl);
		return true;
	case ZO_CMDPRIO_BSSPLIT:
		zl_cmdprio_bssplit(c, opt, arg);
		c->have_bss = true;
		return true;
	}
	return false;
}

/* fio's rules: io_uring and libaio only, percentage or bssplit, not both. */
void zl_cmdprio_validate(struct zl_opts *o, const char *n)
{
	struct zl_cmdprio *c = &o->cmdprio;

	o->prio_default = o->ioprio >= 0 ? (uint16_t)o->ioprio : 0;
	if (!c->have_pct && !c->have_bss)
		return;
	if (c->have_pct && c->have_bss)
		cz_usage_die("%scmdprio_percentage and cmdprio_bssplit are exclusive (as in fio)", n);
	if (o->engine != ZL_ENG_URING && o->engine != ZL_ENG_LIBAIO)
		cz_usage_die("%scmdprio_percentage, cmdprio_bssplit: io_uring and libaio options "
			     "(per-I/O priorities), not the synchronous engines'", n);
}

/* The priority of an I/O: direction d, size len, r drawn in [0, 100). */
uint16_t zl_cmdprio_pick(const struct zl_opts *o, int d, uint32_t len, unsigned r)
{
	const struct zl_cmdprio *c = &o->cmdprio;
	unsigned acc = 0, i;

	if (c->have_pct)
		return r < c->pct[d] ? ZL_IOPRIO(c->cls[d], c->lvl[d]) : o->prio_default;
	for (i = 0; i < c->nbss[d]; i++) {
		const struct zl_cmdprio_bs *e = &c->bss[d][i];

		if (e->bs != len)
			continue;
		acc += e->pct;
		if (r < acc)
			return e->cls >= 0 ? ZL_IOPRIO(e->cls, e->lvl) : ZL_IOPRIO(c->cls[d], c->lvl[d]);
	}
	return o->prio_default;
}
