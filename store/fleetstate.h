/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zab fleet's outcome per SUT and campaign in the store (fleetstate.c;
 * table fleet_states, schema version 3): unreachable, install failed,
 * preflight failed, run failed, timed out or complete.  A failure is a
 * state, never a run.
 */
#ifndef STORE_FLEETSTATE_H
#define STORE_FLEETSTATE_H

#include <stddef.h>

#include <jansson.h>

struct czs;

/* Whether state is one of the states above. */
int czs_fleet_state_valid(const char *state);

/* Record (replace) one SUT's state in a campaign: 0, or -errno with one line in err. */
int czs_fleet_state_put(struct czs *s, const char *campaign, const char *experiment,
			const char *sut_name, const char *sut_class, const char *state,
			const char *detail, char *err, size_t errlen);

/* The campaign's states: an array of {sut_name, sut_class, experiment, state, detail, updated}. */
int czs_fleet_state_list(struct czs *s, const char *campaign, json_t **rows, char *err, size_t errlen);

#endif
