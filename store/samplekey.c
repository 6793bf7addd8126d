/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The run document's per-sample arrays, in the order of the samples
 * table's columns.  A leaf of its own: runs.c (documents in) and query.c
 * (documents out) both read it, and runs.c calls query.c's export to
 * compare a re-imported run with the stored one.
 */
#include "store_int.h"

const char *const czs_sample_key[CZS_K_COUNT] = { "samples", "sample_sessions", "sample_preempted",
						  "sample_offsets", "sample_layouts" };
