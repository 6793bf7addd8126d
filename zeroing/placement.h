/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internal: placed copies, shared by placement.c and the fault handler. */
#ifndef ZEROING_PLACEMENT_H
#define ZEROING_PLACEMENT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define ZR_MAX_PLACED 1024

struct placed_region {
	_Atomic uintptr_t claim;  /* slot owner flag */
	_Atomic uintptr_t start;  /* placed copy; 0 = free */
	size_t len;
	uintptr_t orig;           /* original code_start */
};

extern struct placed_region placed_regions[ZR_MAX_PLACED];

#endif
