/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Run-time control shared by both front ends: the cusezero.h ioctls and the
 * FUSE control-file commands map onto the same rp_set_* calls, with the
 * same permission rule and the same errors.
 *
 * Who may change settings: uid 0, the daemon's own uid (after --user: that
 * user) and --owner.  Everyone may read settings and statistics: the uid
 * comes with each request (fuse_req_ctx), so the rule holds even when the
 * node or file is world-writable.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "control.h"
#include "log.h"
#include "params.h"
#include "readpath.h"
#include "statsfmt.h"
#include "util.h"

bool ctl_may_change(uid_t uid)
{
	if (uid == 0 || uid == geteuid())
		return true;
	return cz_params.owner_set && uid == cz_params.owner;
}

static enum zero_point ctl_point(uint32_t p, bool *ok)
{
	*ok = p == CUSEZERO_POINT_ENTRY || p == CUSEZERO_POINT_LOOP;
	return p == CUSEZERO_POINT_ENTRY ? ZERO_POINT_ENTRY : ZERO_POINT_LOOP;
}

/* GET_ROTATE and GET_LAYOUT (in: the index): open to everyone. */
static int ctl_get_rotation(unsigned int cmd, const void *in, size_t in_size, void *out,
			    size_t out_size, size_t *out_len)
{
	static __thread struct cusezero_layout l;	/* 8 KiB: not on the stack */
	struct cusezero_rotate r;
	int ret;

	if (cmd == CUSEZERO_IOC_GET_ROTATE) {
		if (out_size < sizeof(r))
			return -EINVAL;
		rp_get_rotate(&r);
		memcpy(out, &r, sizeof(r));
		*out_len = sizeof(r);
		return 0;
	}
	if (in_size < sizeof(l.index) || out_size < sizeof(l))
		return -EINVAL;
	memcpy(&l.index, in, sizeof(l.index));
	ret = rp_get_layout(&l);
	if (ret)
		return ret;
	memcpy(out, &l, sizeof(l));
	*out_len = sizeof(l);
	return 0;
}

/* CUSEZERO_IOC_SET_ROTATE: validated here as far as the struct goes, the rest by rp_apply. */
static int ctl_set_rotate(const struct cusezero_rotate *r)
{
	struct rp_change c = { .rot_set = true };
	bool ok = true;
	unsigned i;

	if (r->count > CUSEZERO_ROTATE_MAX || r->period > CUSEZERO_ROTATE_PERIOD_MAX)
		return -EINVAL;
	c.rot.n = r->count;
	c.rot.period = r->period;
	c.rot.seed = r->seed;
	for (i = 0; i < r->count; i++)
		c.rot.off[i] = r->offsets[i];
	if (r->count) {
		c.point_set = true;
		c.point = ctl_point(r->point, &ok);
	}
	return ok ? rp_apply(&c) : -EINVAL;
}

/* The GET_* commands and statistics: open to everyone. */
static int ctl_get(unsigned int cmd, void *out, size_t out_size, size_t *out_len)
{
	struct cusezero_stats st;
	union {
		struct cusezero_routine r;
		struct cusezero_align a;
		uint64_t chunk;
	} u;
	size_t n;

	memset(&u, 0, sizeof(u));
	rp_get_stats(&st);
	switch (cmd) {
	case CUSEZERO_IOC_GET_ROUTINE:
		memcpy(u.r.name, st.routine, sizeof(u.r.name));
		n = sizeof(u.r);
		break;
	case CUSEZERO_IOC_GET_ALIGN:
		u.a.offset = st.align;
		u.a.point = st.point;
		n = sizeof(u.a);
		break;
	case CUSEZERO_IOC_GET_CHUNK:
		u.chunk = st.chunk;
		n = sizeof(u.chunk);
		break;
	default:	/* CUSEZERO_IOC_GET_STATS */
		if (out_size < sizeof(st))
			return -EINVAL;
		memcpy(out, &st, sizeof(st));
		*out_len = sizeof(st);
		return 0;
	}
	if (out_size < n)
		return -EINVAL;
	memcpy(out, &u, n);
	*out_len = n;
	return 0;
}

/* CUSEZERO_IOC_SET_CONFIG: the fields named in set, as one change. */
static int ctl_set_config(const struct cusezero_config *cfg)
{
	struct rp_change c = { 0 };
	bool ok = true;

	if ((cfg->set & ~(uint32_t)(CUSEZERO_SET_ROUTINE | CUSEZERO_SET_OFFSET | CUSEZERO_SET_POINT |
				    CUSEZERO_SET_CHUNK)) || cfg->reserved)
		return -EINVAL;
	if (cfg->set & CUSEZERO_SET_ROUTINE) {
		if (!memchr(cfg->routine, 0, sizeof(cfg->routine)))
			return -EINVAL;
		c.routine = cfg->routine;
	}
	c.align_set = cfg->set & CUSEZERO_SET_OFFSET;
	c.align = cfg->offset;
	c.point_set = cfg->set & CUSEZERO_SET_POINT;
	if (c.point_set)
		c.point = ctl_point(cfg->point, &ok);
	c.chunk_set = cfg->set & CUSEZERO_SET_CHUNK;
	c.chunk = cfg->chunk;
	return ok ? rp_apply(&c) : -EINVAL;
}

/* The SET_* commands and reset: root, the daemon's uid and --owner only. */
static int ctl_set(unsigned int cmd, const void *in, size_t in_size)
{
	union {
		struct cusezero_routine r;
		struct cusezero_align a;
		uint64_t chunk;
		struct cusezero_config cfg;
		struct cusezero_rotate rot;
	} u;
	enum zero_point p;
	bool ok;

	if (in_size > sizeof(u))
		in_size = sizeof(u);
	memset(&u, 0, sizeof(u));
	if (in_size)	/* RESET_STATS has no argument: in may be NULL */
		memcpy(&u, in, in_size);
	switch (cmd) {
	case CUSEZERO_IOC_SET_ROUTINE:
		if (in_size < sizeof(u.r) || !memchr(u.r.name, 0, sizeof(u.r.name)))
			return -EINVAL;
		return rp_set_routine(u.r.name);
	case CUSEZERO_IOC_SET_ALIGN:
		p = ctl_point(u.a.point, &ok);
		if (in_size < sizeof(u.a) || !ok)
			return -EINVAL;
		return rp_set_align(u.a.offset, p);
	case CUSEZERO_IOC_SET_CHUNK:
		if (in_size < sizeof(u.chunk))
			return -EINVAL;
		return rp_set_chunk(u.chunk);
	case CUSEZERO_IOC_SET_CONFIG:
		if (in_size < sizeof(u.cfg))
			return -EINVAL;
		return ctl_set_config(&u.cfg);
	case CUSEZERO_IOC_SET_ROTATE:
		if (in_size < sizeof(u.rot))
			return -EINVAL;
		return ctl_set_rotate(&u.rot);
	}
	rp_reset_stats();	/* CUSEZERO_IOC_RESET_STATS */
	return 0;
}

int ctl_ioctl(uid_t uid, unsigned int cmd, const void *in, size_t in_size,
	      void *out, size_t out_size, size_t *out_len)
{
	*out_len = 0;
	switch (cmd) {
	case CUSEZERO_IOC_GET_ROUTINE:
	case CUSEZERO_IOC_GET_ALIGN:
	case CUSEZERO_IOC_GET_CHUNK:
	case CUSEZERO_IOC_GET_STATS:
		return ctl_get(cmd, out, out_size, out_len);
	case CUSEZERO_IOC_GET_ROTATE:
	case CUSEZERO_IOC_GET_LAYOUT:
		return ctl_get_rotation(cmd, in, in_size, out, out_size, out_len);
	case CUSEZERO_IOC_SET_ROTATE:
	case CUSEZERO_IOC_SET_ROUTINE:
	case CUSEZERO_IOC_SET_ALIGN:
	case CUSEZERO_IOC_SET_CHUNK:
	case CUSEZERO_IOC_SET_CONFIG:
	case CUSEZERO_IOC_RESET_STATS:
		if (!ctl_may_change(uid))
			return -EPERM;
		return ctl_set(cmd, in, in_size);
	}
	return -ENOTTY;
}

/*
 * Control-file text: whitespace, newline or ';' separated commands
 * "routine=NAME", "align=K|none", "align_point=entry|loop", "chunk=SIZE",
 * "reset".  The whole text is parsed first and applied as one change (then
 * reset): any bad or repeated command is EINVAL and changes nothing.
 */
struct ctl_text {
	struct rp_change c;
	bool reset, period_set;
	unsigned period;
	char routine[CUSEZERO_NAME_MAX];
};

/* "rotate=SET": the offsets of SET (zbench --offsets syntax), at most CUSEZERO_ROTATE_MAX. */
static int ctl_rotate_set(struct rp_rotspec *rot, const char *val)
{
	size_t n;

	if (zero_place_parse_small_set(val, rot->off, CUSEZERO_ROTATE_MAX, &n))
		return -EINVAL;
	rot->n = (unsigned)n;
	return 0;
}

static int ctl_key(struct ctl_text *t, const char *key, const char *val)
{
	uint64_t v;

	if (!strcmp(key, "routine")) {
		if (t->c.routine || strlen(val) >= sizeof(t->routine))
			return -EINVAL;
		strcpy(t->routine, val);
		t->c.routine = t->routine;
	} else if (!strcmp(key, "align")) {
		if (t->c.align_set)
			return -EINVAL;
		t->c.align_set = true;
		if (!strcmp(val, "none") || !strcmp(val, "-1"))
			t->c.align = CUSEZERO_ALIGN_NONE;
		else if (cz_parse_u64(val, 0, ZERO_PLACE_MAX_OFFSET, &v))
			return -EINVAL;
		else
			t->c.align = (int)v;
	} else if (!strcmp(key, "align_point") || !strcmp(key, "align-point")) {
		if (t->c.point_set || (strcmp(val, "entry") && strcmp(val, "loop")))
			return -EINVAL;
		t->c.point_set = true;
		t->c.point = strcmp(val, "entry") ? ZERO_POINT_LOOP : ZERO_POINT_ENTRY;
	} else if (!strcmp(key, "rotate")) {
		if (t->c.rot_set)
			return -EINVAL;
		t->c.rot_set = true;
		if (strcmp(val, "none"))
			return ctl_rotate_set(&t->c.rot, val);
	} else if (!strcmp(key, "rotate_period") || !strcmp(key, "rotate-period")) {
		if (t->period_set || cz_parse_u64(val, 1, CUSEZERO_ROTATE_PERIOD_MAX, &v))
			return -EINVAL;
		t->period_set = true;
		t->period = (unsigned)v;
	} else if (!strcmp(key, "chunk")) {
		if (t->c.chunk_set || cz_parse_size(val, &v))
			return -EINVAL;
		t->c.chunk_set = true;
		t->c.chunk = v;
	} else {
		return -EINVAL;
	}
	return 0;
}

static int ctl_word(struct ctl_text *t, char *word)
{
	char *eq = strchr(word, '=');

	if (!strcmp(word, "reset")) {
		if (t->reset)
			return -EINVAL;
		t->reset = true;
		return 0;
	}
	if (!eq)
		return -EINVAL;
	*eq = '\0';
	return ctl_key(t, word, eq + 1);
}

static bool ctl_sep(char c)
{
	return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == ';' || c == '\0';
}

int ctl_command(uid_t uid, const char *text, size_t len)
{
	struct ctl_text t;
	char word[256];
	size_t i = 0, n;
	int ret;

	if (!ctl_may_change(uid))
		return -EPERM;
	memset(&t, 0, sizeof(t));
	while (i < len) {
		while (i < len && ctl_sep(text[i]))
			i++;
		for (n = 0; i < len && !ctl_sep(text[i]); n++, i++) {
			if (n + 1 >= sizeof(word))
				return -EINVAL;
			word[n] = text[i];
		}
		if (!n)
			continue;
		word[n] = '\0';
		ret = ctl_word(&t, word);
		if (ret) {
			cz_debug("control: \"%s\": %s", word, strerror(-ret));
			return ret;
		}
	}
	if (t.period_set && !(t.c.rot_set && t.c.rot.n))
		return -EINVAL;		/* a period means nothing without offsets */
	t.c.rot.period = t.period;
	if (t.c.rot_set && t.c.rot.n && !t.c.point_set) {
		t.c.point_set = true;	/* as --align-point: loop unless told */
		t.c.point = ZERO_POINT_LOOP;
	}
	if (t.c.rot_set && t.c.align_set)
		return -EINVAL;
	if (t.c.routine || t.c.align_set || t.c.point_set || t.c.chunk_set || t.c.rot_set) {
		ret = rp_apply(&t.c);
		if (ret)
			return ret;
	}
	if (t.reset)
		rp_reset_stats();
	return 0;
}

int ctl_format_settings(char *buf, size_t len)
{
	struct cusezero_stats st;
	int n;

	rp_get_stats(&st);
	if (st.align == CUSEZERO_ALIGN_ROTATE) {
		struct cusezero_rotate r;
		unsigned i;
		int k;

		rp_get_rotate(&r);
		n = snprintf(buf, len, "routine=%s\nalign=rotate\nalign_point=%s\nrotate=", st.routine,
			     sf_point_name(r.point));
		for (i = 0; n >= 0 && (size_t)n < len && i < r.count; i++) {
			k = snprintf(buf + n, len - (size_t)n, "%s%u", i ? "," : "", r.offsets[i]);
			n = k < 0 ? k : n + k;
		}
		if (n >= 0 && (size_t)n < len) {
			k = snprintf(buf + n, len - (size_t)n, "\nrotate_period=%u\nchunk=%llu\n", r.period,
				     (unsigned long long)st.chunk);
			n = k < 0 ? k : n + k;
		}
	} else if (st.align == CUSEZERO_ALIGN_NONE)
		n = snprintf(buf, len, "routine=%s\nalign=none\nchunk=%llu\n", st.routine,
			     (unsigned long long)st.chunk);
	else
		n = snprintf(buf, len, "routine=%s\nalign=%d\nalign_point=%s\nchunk=%llu\n",
			     st.routine, (int)st.align, sf_point_name(st.point),
			     (unsigned long long)st.chunk);
	return n < 0 || (size_t)n >= len ? -ENOSPC : n;
}
