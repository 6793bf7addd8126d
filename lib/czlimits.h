/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Limits shared by several modules, in one place (as SQLite keeps its
 * limits in sqliteLimit.h): a module that needs one of these numbers
 * includes this header, not the header of the module whose behaviour it
 * bounds.  Named czlimits.h, not limits.h: with -I lib a "limits.h" here
 * would hide the C library's <limits.h>.
 */
#ifndef LIB_CZLIMITS_H
#define LIB_CZLIMITS_H

/*
 * The largest code offset of a placement (zeroing/placement.c): a point
 * lands at 0 .. 4095 mod 4096, within one page.  Result files record
 * offsets in that range (results/), layouts are counted over it (stats/).
 */
#define ZERO_PLACE_MAX_OFFSET 4095u

/*
 * A request is counted preempted when its time is above this many times
 * the median (devclient/devstats.c, cz_hist_preempted(); the reasoning is
 * in devstats.h); report/ prints the factor under its tables.
 */
#define CZ_PREEMPT_FACTOR 2.0

#endif
