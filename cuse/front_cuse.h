/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The CUSE front end (front_cuse.c): /dev/NAME served by this process. */
#ifndef CUSE_FRONT_CUSE_H
#define CUSE_FRONT_CUSE_H

#include <stdbool.h>

/* Can /dev/cuse be used here?  If not, *why says why in a few words. */
bool fc_available(const char **why);
int fc_serve(void);
const char *fc_node_path(void);

#endif
