/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fio's value syntaxes (fio's HOWTO, "Job file parameters"): rw with its
 * ":N" modifier, bs and rate as read,write pairs, bssplit, random_distribution,
 * ioengine; and fio's options that a zero device makes moot (accepted with a
 * note) or that zload cannot give fio's meaning (refused, naming why).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <errno.h>
#include <inttypes.h>
#include <strings.h>

#include "opts.h"
#include "util.h"

#define ZL_MAX_BS	(64ULL << 20)

/* Seconds, or a number with us / ms / s / m / h / d as fio's time options take. */
double zl_parse_time(const char *opt, const char *arg)
{
	static const struct { const char *suffix; double mul; } units[] = {
		{ "", 1 }, { "s", 1 }, { "us", 1e-6 }, { "ms", 1e-3 }, { "m", 60 },
		{ "h", 3600 }, { "d", 86400 },
	};
	char *end;
	double v;
	size_t i;

	errno = 0;
	v = strtod(arg, &end);
	for (i = 0; !errno && end != arg && i < CZ_ARRAY_SIZE(units); i++) {
		if (strcasecmp(end, units[i].suffix))
			continue;
		v *= units[i].mul;
		if (v > 0 && v <= 1e6)
			return v;
		break;
	}
	cz_usage_die("%s: invalid duration '%s' (seconds > 0, or with us ms s m h d)", opt, arg);
}

void zl_note(const char *fmt, ...)
{
	static char seen[32][160];
	static unsigned nseen;
	char msg[160];
	unsigned i;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	for (i = 0; i < nseen; i++)
		if (!strcmp(seen[i], msg))
			return;
	if (nseen < CZ_ARRAY_SIZE(seen))
		memcpy(seen[nseen++], msg, sizeof(msg));
	fprintf(stderr, "zload: note: %s\n", msg);
}

static uint32_t zl_size_or_die(const char *opt, const char *s, size_t len, uint64_t max)
{
	char buf[64];
	uint64_t v;

	if (len < sizeof(buf)) {
		memcpy(buf, s, len);
		buf[len] = '\0';
		if (!cz_parse_size(buf, &v) && v > 0 && v <= max)
			return (uint32_t)v;
	}
	cz_usage_die("%s: invalid size '%.*s' (1B..64MB, units B K M G)", opt, (int)len, s);
}

/* read, write, randread, randwrite, rw|readwrite, randrw; ":N" as fio's. */
void zl_fio_rw(struct zl_opts *o, const char *opt, const char *arg)
{
	static const struct { const char *name; bool random; unsigned mix; } modes[] = {
		{ "read", false, 100 }, { "write", false, 0 }, { "randread", true, 100 },
		{ "randwrite", true, 0 }, { "rw", false, 50 }, { "readwrite", false, 50 },
		{ "randrw", true, 50 },
	};
	const char *colon = strchr(arg, ':');
	size_t len = colon ? (size_t)(colon - arg) : strlen(arg), i;
	uint64_t v;

	for (i = 0; i < CZ_ARRAY_SIZE(modes); i++)
		if (strlen(modes[i].name) == len && !strncmp(arg, modes[i].name, len))
			break;
	if (i == CZ_ARRAY_SIZE(modes)) {
		if (!strncmp(arg, "trim", 4) || !strncmp(arg, "randtrim", 8))
			cz_usage_die("%s=%s: zload sends no trims (read, write, rw, randread, "
				     "randwrite, randrw)", opt, arg);
		cz_usage_die("%s: invalid value '%s' (read, write, rw, readwrite, randread, "
			     "randwrite, randrw, with an optional :N)", opt, arg);
	}
	o->random = modes[i].random;
	o->rw_dirs = modes[i].mix == 100 ? 1 : modes[i].mix == 0 ? 2 : 3;
	o->seq_add = 0;
	o->rand_nr = 1;
	if (!colon)
		return;
	if (o->random) {
		if (cz_parse_u64(colon + 1, 1, UINT32_MAX, &v))
			cz_usage_die("%s=%s: the number of I/Os per random offset must be 1..%u",
				     opt, arg, UINT32_MAX);
		o->rand_nr = (unsigned)v;
		return;
	}
	/* Sequential: a size added to the offset after each I/O, negative backwards. */
	if (cz_parse_size(colon + 1 + (colon[1] == '-'), &v) || v > INT64_MAX)
		cz_usage_die("%s=%s: invalid offset modifier (a size, e.g. 8k or -8k)", opt, arg);
	o->seq_add = colon[1] == '-' ? -(int64_t)v : (int64_t)v;
}

/* bs=R[,W[,T]]: an empty field keeps its default; one value is both. */
void zl_fio_bs(struct zl_opts *o, const char *opt, const char *arg)
{
	const char *c = strchr(arg, ',');
	size_t len = c ? (size_t)(c - arg) : strlen(arg);
	const char *w = c ? c + 1 : arg;
	const char *c2 = strchr(w, ',');
	size_t wlen = c2 ? (size_t)(c2 - w) : strlen(w);

	if (len)
		o->bs = zl_size_or_die(opt, arg, len, ZL_MAX_BS);
	if (wlen)
		o->bs_w = zl_size_or_die(opt, w, wlen, ZL_MAX_BS);
	else if (!c)
		o->bs_w = o->bs;
}

/* One LO-HI of bsrange. */
static void zl_bsr_one(const char *opt, const char *s, size_t len, uint32_t *lo, uint32_t *hi)
{
	const char *dash = memchr(s, '-', len);

	if (!dash)
		cz_usage_die("%s: invalid range '%.*s' (LOW-HIGH, e.g. 4k-64k)", opt, (int)len, s);
	*lo = zl_size_or_die(opt, s, (size_t)(dash - s), ZL_MAX_BS);
	*hi = zl_size_or_die(opt, dash + 1, len - (size_t)(dash + 1 - s), ZL_MAX_BS);
	if (*hi < *lo)
		cz_usage_die("%s: range '%.*s' ends below its start", opt, (int)len, s);
}

/* bsrange=LO-HI[,LO-HI]: sizes drawn uniformly among the multiples of LO up to HI. */
void zl_fio_bsrange(struct zl_opts *o, const char *opt, const char *arg)
{
	const char *c = strchr(arg, ',');
	size_t len = c ? (size_t)(c - arg) : strlen(arg);
	const char *w = c ? c + 1 : arg;
	size_t wlen = c ? strcspn(w, ",") : len;

	if (len)
		zl_bsr_one(opt, arg, len, &o->bsr_lo[0], &o->bsr_hi[0]);
	if (wlen)
		zl_bsr_one(opt, w, wlen, &o->bsr_lo[1], &o->bsr_hi[1]);
	if (o->bsr_hi[0] > o->bs_max)
		o->bs_max = o->bsr_hi[0];
	if (o->bsr_hi[1] > o->bs_max)
		o->bs_max = o->bsr_hi[1];
}

/* One direction of bssplit: size/pct:size/pct...; sizes without pct share the rest. */
static void zl_bss_one(struct zl_bss *b, const char *opt, char *s)
{
	unsigned sum = 0, nopct = 0, i;
	bool given[ZL_MAX_BSS];
	char *tok, *save = NULL;
	uint64_t v;

	memset(b, 0, sizeof(*b));
	for (tok = strtok_r(s, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		char *slash = strchr(tok, '/');

		if (b->n == ZL_MAX_BSS)
			cz_usage_die("%s: more than %d sizes", opt, ZL_MAX_BSS);
		b->bs[b->n] = zl_size_or_die(opt, tok, slash ? (size_t)(slash - tok) : strlen(tok),
					     ZL_MAX_BS);
		given[b->n] = slash && slash[1];
		if (given[b->n]) {
			if (cz_parse_u64(slash + 1, 0, 100, &v))
				cz_usage_die("%s: invalid percentage '%s' (0..100)", opt, slash + 1);
			b->pct[b->n] = (unsigned)v;
			sum += (unsigned)v;
		} else {
			nopct++;
		}
		b->n++;
	}
	if (sum > 100 || (!nopct && sum != 100))
		cz_usage_die("%s: the percentages add up to %u, not 100", opt, sum);
	for (i = 0; i < b->n; i++)
		if (!given[i])
			b->pct[i] = (100 - sum) / nopct + (i == 0 ? (100 - sum) % nopct : 0);
}

/* bssplit=READ[,WRITE[,TRIM]]; one list is both directions. */
void zl_fio_bssplit(struct zl_opts *o, const char *opt, const char *arg)
{
	char buf[1024], *c, *w;
	unsigned i, d;

	if (strlen(arg) >= sizeof(buf))
		cz_usage_die("%s: value too long", opt);
	strcpy(buf, arg);
	c = strchr(buf, ',');
	if (c)
		*c = '\0';
	w = c ? c + 1 : NULL;
	if (w && (c = strchr(w, ',')))
		*c = '\0';
	if (*buf)
		zl_bss_one(&o->bss[ZL_DIR_READ], opt, buf);
	if (w && *w)
		zl_bss_one(&o->bss[ZL_DIR_WRITE], opt, w);
	else if (!w)
		o->bss[ZL_DIR_WRITE] = o->bss[ZL_DIR_READ];
	for (d = 0; d < 2; d++)
		for (i = 0; i < o->bss[d].n; i++)
			if (o->bss[d].pct[i] && o->bss[d].bs[i] > o->bs_max)
				o->bs_max = o->bss[d].bs[i];
}

/* random (uniform) or zoned:pct/size%:...; fio's others are refused by name. */
void zl_fio_randdist(struct zl_opts *o, const char *opt, const char *arg)
{
	char buf[512], *tok, *save = NULL;
	unsigned sum = 0, size = 0;
	struct zl_zones *z = &o->zones;
	uint64_t v;

	memset(z, 0, sizeof(*z));
	if (!strcmp(arg, "random"))
		return;
	if (strncmp(arg, "zoned:", 6) || strchr(arg, ',') || strlen(arg) >= sizeof(buf))
		cz_usage_die("%s=%s: zload draws offsets uniformly (random) or by zones of the "
			     "region (zoned:P/S:...), not zipf, pareto, normal or zoned_abs",
			     opt, arg);
	strcpy(buf, arg + 6);
	for (tok = strtok_r(buf, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		char *slash = strchr(tok, '/');

		if (!slash || z->n == ZL_MAX_ZONES)
			cz_usage_die("%s=%s: a zone is ACCESS%%/SIZE%% (at most %d zones)", opt, arg,
				     ZL_MAX_ZONES);
		*slash = '\0';
		if (cz_parse_u64(tok, 0, 100, &v))
			cz_usage_die("%s=%s: invalid percentage '%s'", opt, arg, tok);
		z->pct[z->n] = (unsigned)v;
		v = 100 - size;		/* an empty size: the rest */
		if (slash[1] && cz_parse_u64(slash + 1, 0, 100, &v))
			cz_usage_die("%s=%s: invalid percentage '%s'", opt, arg, slash + 1);
		z->size_pct[z->n++] = (unsigned)v;
		sum += z->pct[z->n - 1];
		size += (unsigned)v;
	}
	if (sum != 100 || size > 100)
		cz_usage_die("%s=%s: the access percentages must add up to 100 (%u) and the sizes "
			     "to at most 100 (%u)", opt, arg, sum, size);
}

/* ss=iops|bw|iops_slope|bw_slope:LIMIT[%] */
void zl_fio_ss(struct zl_opts *o, const char *opt, const char *arg)
{
	static const struct { const char *name; unsigned kind; } kinds[] = {
		{ "iops", ZL_SS_IOPS }, { "bw", ZL_SS_BW },
		{ "iops_slope", ZL_SS_IOPS | ZL_SS_SLOPE }, { "bw_slope", ZL_SS_BW | ZL_SS_SLOPE },
	};
	const char *colon = strchr(arg, ':');
	size_t len = colon ? (size_t)(colon - arg) : 0, i;
	char *end;

	for (i = 0; colon && i < CZ_ARRAY_SIZE(kinds); i++) {
		if (strlen(kinds[i].name) != len || strncmp(arg, kinds[i].name, len))
			continue;
		o->ss_limit = strtod(colon + 1, &end);
		o->ss_pct = *end == '%';
		if (end == colon + 1 || o->ss_limit < 0 || end[o->ss_pct])
			break;
		o->ss_kind = kinds[i].kind;
		return;
	}
	cz_usage_die("%s=%s: iops, bw, iops_slope or bw_slope, then :LIMIT or :LIMIT%%", opt, arg);
}

/* rate / rate_iops: R[,W[,T]], one value for both directions. */
void zl_fio_rate(uint64_t out[2], const char *opt, const char *arg)
{
	char buf[128], *c, *w;
	uint64_t v;

	if (strlen(arg) >= sizeof(buf))
		cz_usage_die("%s: value too long", opt);
	strcpy(buf, arg);
	c = strchr(buf, ',');
	if (c)
		*c = '\0';
	w = c ? c + 1 : buf;
	if (c && (c = strchr(w, ',')))
		*c = '\0';
	if (*buf) {
		if (cz_parse_size(buf, &v))
			cz_usage_die("%s: invalid rate '%s' (a number, units K M G)", opt, buf);
		out[0] = v;
	}
	if (*w) {
		if (cz_parse_size(w, &v))
			cz_usage_die("%s: invalid rate '%s' (a number, units K M G)", opt, w);
		out[1] = v;
	}
}

void zl_fio_engine(struct zl_opts *o, const char *opt, const char *arg)
{
	static const enum zl_engine all[] = { ZL_ENG_URING, ZL_ENG_LIBAIO, ZL_ENG_SYNC,
					      ZL_ENG_PSYNC, ZL_ENG_PVSYNC, ZL_ENG_PVSYNC2 };
	size_t i;

	for (i = 0; i < CZ_ARRAY_SIZE(all); i++) {
		if (strcmp(arg, zl_engine_name(all[i])))
			continue;
		o->engine = all[i];
		if (all[i] == ZL_ENG_LIBAIO)
			zl_note("ioengine=libaio runs on io_uring (the same depth, submissions and "
				"completions as fio's libaio, through io_uring_enter)");
		return;
	}
	cz_usage_die("%s=%s: zload's engines are io_uring, libaio, sync, psync, pvsync, pvsync2",
		     opt, arg);
}

/* Options a zero device makes moot: accepted, with the reason in a note. */
static const struct { const char *name, *why; } zl_moot[] = {
	{ "allow_file_create", "the device exists, nothing is created" },
	{ "create_serialize", "the device exists, nothing is created" },
	{ "create_on_open", "the device exists, nothing is created" },
	{ "fallocate", "the device exists, nothing is allocated" },
	{ "invalidate", "a zero device has no page cache to drop" },
	{ "buffer_compress_percentage", "written contents: the device discards them" },
	{ "buffer_compress_chunk", "written contents: the device discards them" },
	{ "refill_buffers", "written contents: the device discards them" },
	{ "scramble_buffers", "written contents: the device discards them" },
	{ "dedupe_percentage", "written contents: the device discards them" },
	{ "dedupe_mode", "written contents: the device discards them" },
	{ "dedupe_working_set_percentage", "written contents: the device discards them" },
	{ "dedupe_global", "written contents: the device discards them" },
	{ "gtod_reduce", "zload measures every I/O's times anyway" },
	{ "io_submit_mode", "offload submits from the job's thread here (inline)" },
	{ "numa_cpu_nodes", "jobs are not bound to NUMA nodes (use cpus_allowed)" },
	{ "numa_mem_policy", "buffers use the default NUMA policy" },
	{ "new_group", "zload reports every job in group 0" },
	{ "eta", "zload draws its progress line on a terminal only" },
	{ "eta-newline", "zload draws its progress line on a terminal only" },
};

/* fio options zload cannot give fio's meaning: refused with the reason. */
static const struct { const char *name, *why; } zl_refused[] = {
	{ "verify_backlog", "what was written is discarded: there is nothing to verify but zeros" },
	{ "verify_pattern", "what was written is discarded: there is nothing to verify but zeros" },
	{ "verify_interval", "what was written is discarded: there is nothing to verify but zeros" },
	{ "verify_fatal", "what was written is discarded: there is nothing to verify but zeros" },
	{ "verify_async", "what was written is discarded: there is nothing to verify but zeros" },
	{ "verify_dump", "what was written is discarded: there is nothing to verify but zeros" },
	{ "do_verify", "what was written is discarded: there is nothing to verify but zeros" },
	{ "rate_process", "zload paces I/O linearly (rate_process=linear only)" },
	{ "ratemin", "zload does not fail a job for a low rate" },
	{ "continue_on_error", "zload stops at the first failed I/O" },
	{ "ignore_error", "zload stops at the first failed I/O" },
	{ "error_dump", "zload stops at the first failed I/O" },
	{ "fill_device", "a zero device is never full" },
};

bool zl_fio_moot(const char *key, const char *arg, const char *label)
{
	size_t i;

	for (i = 0; i < CZ_ARRAY_SIZE(zl_refused); i++)
		if (!strcmp(key, zl_refused[i].name))
			cz_usage_die("%s: %s", label, zl_refused[i].why);
	for (i = 0; i < CZ_ARRAY_SIZE(zl_moot); i++) {
		if (strcmp(key, zl_moot[i].name))
			continue;
		if (!strcmp(key, "io_submit_mode") && arg && !strcmp(arg, "inline"))
			return true;
		if (!strcmp(key, "gtod_reduce") && arg && !strcmp(arg, "0"))
			return true;
		zl_note("%s%s%s: %s", key, arg ? "=" : "", arg ? arg : "", zl_moot[i].why);
		return true;
	}
	return false;
}

/*
 * fio's verify: zload checks zeros (verify, verify=1); verify=0 / none: off;
 * fio's header verifies (verify.c) by name.
 */
void zl_fio_verify(struct zl_opts *o, const char *opt, const char *arg)
{
	static const char *const hdr[] = {
		"md5", "crc64", "crc32c", "crc32c-intel", "crc32", "crc16", "crc7", "xxhash",
		"sha512", "sha256", "sha1", "sha3-224", "sha3-256", "sha3-384", "sha3-512", "meta",
	};
	size_t i;

	o->verify_hdr = NULL;
	for (i = 0; arg && i < CZ_ARRAY_SIZE(hdr); i++)
		if (!strcmp(arg, hdr[i])) {
			o->verify_hdr = hdr[i];
			o->verify = false;
			return;
		}
	if (!arg || !strcmp(arg, "1") || !strcmp(arg, "zero"))
		o->verify = true;
	else if (!strcmp(arg, "0") || !strcmp(arg, "none"))
		o->verify = false;
	else
		cz_usage_die("%s=%s: zload checks zeros (verify, verify=0) or fio's verify "
			     "headers (md5, crc*, sha*, xxhash, meta); not pattern, pattern_hdr, null",
			     opt, arg);
}

/* percentile_list=P:P:... (0 < P <= 100). */
void zl_fio_pct(struct zl_opts *o, const char *opt, const char *arg)
{
	const char *s = arg;
	char *end;
	double v;

	o->npct = 0;
	while (*s) {
		v = strtod(s, &end);
		if (end == s || v <= 0 || v > 100 || (*end && *end != ':') ||
		    o->npct == CZ_ARRAY_SIZE(o->pct))
			cz_usage_die("%s: invalid list '%s' (up to %zu percentiles in (0, 100] "
				     "separated by ':')", opt, arg, CZ_ARRAY_SIZE(o->pct));
		o->pct[o->npct++] = v;
		s = *end ? end + 1 : end;
	}
}

/* A fio option of the moot/refused tables on the command line: --name[=value]. */
bool zl_fio_moot_arg(const char *a)
{
	char key[128], label[160];
	const char *eq = strchr(a, '=');
	size_t len = eq ? (size_t)(eq - a) : strlen(a);

	if (len >= sizeof(key))
		return false;
	memcpy(key, a, len);
	key[len] = '\0';
	snprintf(label, sizeof(label), "--%s", key);
	return zl_fio_moot(key, eq ? eq + 1 : NULL, label);
}

/* fio's value options that have no zload name (opts.c keeps zload's own). */
/*
 * latency_target, latency_window (fio's: microseconds unless a unit says
 * otherwise), latency_percentile.
 */
static bool zl_fio_latency(struct zl_opts *o, int id, const char *opt, const char *arg)
{
	uint64_t v;
	char *end;

	if (id == ZO_LAT_PCT) {
		o->lat_pct = strtod(arg, &end);
		if (end == arg || *end || !(o->lat_pct > 0 && o->lat_pct <= 100))
			cz_usage_die("%s: invalid percentage '%s' (0 < P <= 100)", opt, arg);
		return true;
	}
	if (id != ZO_LAT_TARGET && id != ZO_LAT_WINDOW)
		return false;
	v = strspn(arg, "0123456789") == strlen(arg) ? cz_opt_uint(opt, arg, 0, UINT32_MAX) :
	    (uint64_t)(zl_parse_time(opt, arg) * 1e6 + 0.5);
	if (id == ZO_LAT_TARGET)
		o->lat_target_ns = v * 1000;
	else
		o->lat_window_us = v;
	return true;
}

bool zl_fio_set_value(struct zl_opts *o, int id, const char *opt, const char *arg)
{
	uint64_t v;

	if (zl_fio_latency(o, id, opt, arg))
		return true;
	switch (id) {
	case ZO_RWMIXREAD:
	case ZO_RWMIXWRITE:
		v = cz_opt_uint(opt, arg, 0, 100);
		o->mix_pct = id == ZO_RWMIXREAD ? (unsigned)v : 100 - (unsigned)v;
		return true;
	case ZO_BSSPLIT:
		zl_fio_bssplit(o, opt, arg);
		return true;
	case ZO_RANDDIST:
		zl_fio_randdist(o, opt, arg);
		return true;
	case ZO_RATE:
		zl_fio_rate(o->rate, opt, arg);
		return true;
	case ZO_RATE_IOPS:
		zl_fio_rate(o->rate_iops, opt, arg);
		return true;
	case ZO_BLOCKALIGN:
		if (cz_parse_size(arg, &v) || !v || v > ZL_MAX_BS)
			cz_usage_die("%s: invalid alignment '%s' (1B..64MB)", opt, arg);
		o->blockalign = (uint32_t)v;
		return true;
	case ZO_SS:
		zl_fio_ss(o, opt, arg);
		return true;
	case ZO_SS_DUR:
		o->ss_dur = zl_parse_time(opt, arg);
		return true;
	case ZO_SS_RAMP:
		o->ss_ramp = zl_parse_time(opt, arg);
		return true;
	case ZO_BSRANGE:
		zl_fio_bsrange(o, opt, arg);
		return true;
	case ZO_FLOW:
		o->flow = cz_opt_uint(opt, arg, 0, 1000000);
		return true;
	case ZO_FLOW_ID:
		o->flow_id = cz_opt_uint(opt, arg, 0, UINT32_MAX);
		return true;
	case ZO_FLOW_SLEEP:
		o->flow_sleep_us = cz_opt_uint(opt, arg, 0, UINT32_MAX);
		return true;
	case ZO_LOOPS:
		o->loops = cz_opt_uint(opt, arg, 1, UINT32_MAX);
		return true;
	case ZO_NUMBER_IOS:
		if (cz_parse_size(arg, &o->number_ios))
			cz_usage_die("%s: invalid count '%s'", opt, arg);
		return true;
	case ZO_STARTDELAY:
		o->startdelay = zl_parse_time(opt, arg);
		return true;
	case ZO_THINKTIME:
		/* fio's thinktime is in microseconds unless a unit says otherwise. */
		o->thinktime_us = strspn(arg, "0123456789") == strlen(arg) ?
				  cz_opt_uint(opt, arg, 0, UINT32_MAX) :
				  (uint64_t)(zl_parse_time(opt, arg) * 1e6);
		return true;
	case ZO_PRIO:
		o->prio_level = (int)cz_opt_uint(opt, arg, 0, 7);
		return true;
	case ZO_PRIOCLASS:
		o->prio_class = (int)cz_opt_uint(opt, arg, 0, 3);
		return true;
	case ZO_RANDSEED:
		if (cz_parse_u64(arg, 0, UINT64_MAX, &o->randseed))
			cz_usage_die("%s: invalid seed '%s'", opt, arg);
		o->have_seed = true;
		return true;
	case ZO_PERCENTILES:
		zl_fio_pct(o, opt, arg);
		return true;
	case ZO_OFFSET:
	case ZO_OFFSET_INC:
	case ZO_FILESIZE:
	case ZO_IO_SIZE:
		if (cz_parse_size(arg, &v) || v > INT64_MAX)
			cz_usage_die("%s: invalid size '%s' (units B K M G T)", opt, arg);
		*(id == ZO_OFFSET ? &o->offset : id == ZO_OFFSET_INC ? &o->offset_inc :
		  id == ZO_FILESIZE ? &o->filesize : &o->io_size) = v;
		return true;
	}
	return false;
}
