/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Statistics as text or JSON (the stats files and zeroctl print the same). */
#ifndef DEVCLIENT_STATSFMT_H
#define DEVCLIENT_STATSFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cusezero.h"

struct cz_devlayouts;

/*
 * Bytes written (without NUL) or -ENOSPC.  lay: a rotating device's copies
 * (a table / a "layouts" array after the rest), or NULL.
 */
int sf_format(const struct cusezero_stats *st, const struct cz_devlayouts *lay, bool json,
	      char *buf, size_t len);
const char *sf_point_name(uint32_t point);

#endif
