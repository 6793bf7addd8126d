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

int ctl_ioctl(uid_t uid, unsigned int cmd, const void *in, size_t in_size,
	      void *out, size_t out_size, size_t *out_len)
{
	struct cusezero_stats st;
	bool ok;

	*out_len = 0;
	switch (cmd) {
	case CUSEZERO_IOC_GET_ROUTINE: {
		struct cusezero_routine r = { { 0 } };

		if (out_size < sizeof(r))
			return -EINVAL;
		rp_get_stats(&st);
		memcpy(r.name, st.routine, sizeof(r.name));
		memcpy(out, &r, sizeof(r));
		*out_len = sizeof(r);
		return 0;
	}
	case CUSEZERO_IOC_SET_ROUTINE: {
		struct cusezero_routine r;

		if (in_size < sizeof(r))
			return -EINVAL;
		if (!ctl_may_change(uid))
			return -EPERM;
		memcpy(&r, in, sizeof(r));
		if (!memchr(r.name, 0, sizeof(r.name)))
			return -EINVAL;
		return rp_set_routine(r.name);
	}
	case CUSEZERO_IOC_GET_ALIGN: {
		struct cusezero_align a;

		if (out_size < sizeof(a))
			return -EINVAL;
		rp_get_stats(&st);
		a.offset = st.align;
		a.point = st.point;
		memcpy(out, &a, sizeof(a));
		*out_len = sizeof(a);
		return 0;
	}
	case CUSEZERO_IOC_SET_ALIGN: {
		struct cusezero_align a;
		enum zero_point p;

		if (in_size < sizeof(a))
			return -EINVAL;
		if (!ctl_may_change(uid))
			return -EPERM;
		memcpy(&a, in, sizeof(a));
		p = ctl_point(a.point, &ok);
		if (!ok)
			return -EINVAL;
		return rp_set_align(a.offset, p);
	}
	case CUSEZERO_IOC_GET_CHUNK: {
		uint64_t c;

		if (out_size < sizeof(c))
			return -EINVAL;
		rp_get_stats(&st);
		c = st.chunk;
		memcpy(out, &c, sizeof(c));
		*out_len = sizeof(c);
		return 0;
	}
	case CUSEZERO_IOC_SET_CHUNK: {
		uint64_t c;

		if (in_size < sizeof(c))
			return -EINVAL;
		if (!ctl_may_change(uid))
			return -EPERM;
		memcpy(&c, in, sizeof(c));
		return rp_set_chunk(c);
	}
	case CUSEZERO_IOC_GET_STATS:
		if (out_size < sizeof(st))
			return -EINVAL;
		rp_get_stats(&st);
		memcpy(out, &st, sizeof(st));
		*out_len = sizeof(st);
		return 0;
	case CUSEZERO_IOC_RESET_STATS:
		if (!ctl_may_change(uid))
			return -EPERM;
		rp_reset_stats();
		return 0;
	}
	return -ENOTTY;
}

static int ctl_one(const char *cmd)
{
	const char *val = strchr(cmd, '=');
	uint64_t v;
	int ret;

	if (!strcmp(cmd, "reset")) {
		rp_reset_stats();
		return 0;
	}
	if (!val)
		return -EINVAL;
	val++;
	if (!strncmp(cmd, "routine=", 8))
		return rp_set_routine(val);
	if (!strncmp(cmd, "align=", 6)) {
		struct cusezero_stats st;

		rp_get_stats(&st);
		if (!strcmp(val, "none") || !strcmp(val, "-1"))
			return rp_set_align(CUSEZERO_ALIGN_NONE, ZERO_POINT_LOOP);
		ret = cz_parse_u64(val, 0, ZERO_PLACE_MAX_OFFSET, &v);
		if (ret)
			return -EINVAL;
		return rp_set_align((int)v, st.point == CUSEZERO_POINT_ENTRY ?
				    ZERO_POINT_ENTRY : ZERO_POINT_LOOP);
	}
	if (!strncmp(cmd, "align_point=", 12) || !strncmp(cmd, "align-point=", 12)) {
		struct cusezero_stats st;
		enum zero_point p;

		if (!strcmp(val, "entry"))
			p = ZERO_POINT_ENTRY;
		else if (!strcmp(val, "loop"))
			p = ZERO_POINT_LOOP;
		else
			return -EINVAL;
		rp_get_stats(&st);
		if (st.align == CUSEZERO_ALIGN_NONE)
			return -EINVAL;  /* a point without an offset means nothing */
		return rp_set_align(st.align, p);
	}
	if (!strncmp(cmd, "chunk=", 6)) {
		if (cz_parse_size(val, &v))
			return -EINVAL;
		return rp_set_chunk(v);
	}
	return -EINVAL;
}

int ctl_command(uid_t uid, const char *text, size_t len)
{
	char line[256];
	size_t i = 0, n;
	int ret;

	if (!ctl_may_change(uid))
		return -EPERM;
	while (i < len) {
		while (i < len && (text[i] == ' ' || text[i] == '\n' || text[i] == '\t' ||
				   text[i] == '\r' || text[i] == ';' || text[i] == 0))
			i++;
		n = 0;
		while (i < len && text[i] != ' ' && text[i] != '\n' && text[i] != '\t' &&
		       text[i] != '\r' && text[i] != ';' && text[i] != 0) {
			if (n + 1 >= sizeof(line))
				return -EINVAL;
			line[n++] = text[i++];
		}
		if (!n)
			continue;
		line[n] = 0;
		ret = ctl_one(line);
		if (ret) {
			cz_debug("control: \"%s\": %s", line, strerror(-ret));
			return ret;
		}
	}
	return 0;
}

int ctl_format_settings(char *buf, size_t len)
{
	struct cusezero_stats st;
	int n;

	rp_get_stats(&st);
	if (st.align == CUSEZERO_ALIGN_NONE)
		n = snprintf(buf, len, "routine=%s\nalign=none\nchunk=%llu\n", st.routine,
			     (unsigned long long)st.chunk);
	else
		n = snprintf(buf, len, "routine=%s\nalign=%d\nalign_point=%s\nchunk=%llu\n",
			     st.routine, (int)st.align, sf_point_name(st.point),
			     (unsigned long long)st.chunk);
	return n < 0 || (size_t)n >= len ? -ENOSPC : n;
}
