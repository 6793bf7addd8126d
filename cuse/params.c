/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The daemon's settings and their defaults (params.h). */
#include "cusezero.h"
#include "params.h"

struct cz_params cz_params = {
	.name = "cusezero",
	.align = CUSEZERO_ALIGN_NONE,
	.point = ZERO_POINT_LOOP,
	.chunk = 4096,
	.threads = 1,
	.mode = 0666,
	.cpu = -1,
};
