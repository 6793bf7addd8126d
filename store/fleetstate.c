/* SPDX-License-Identifier: GPL-2.0-or-later */
/* zab fleet's per-SUT states in the store (fleetstate.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "fleetstate.h"
#include "store_int.h"

static const char *const states[] = {
	"unreachable", "install failed", "preflight failed", "run failed", "timed out", "complete",
};

int czs_fleet_state_valid(const char *state)
{
	size_t i;

	for (i = 0; i < sizeof(states) / sizeof(states[0]); i++)
		if (!strcmp(state, states[i]))
			return 1;
	return 0;
}

int czs_fleet_state_put(struct czs *s, const char *campaign, const char *experiment,
			const char *sut_name, const char *sut_class, const char *state,
			const char *detail, char *err, size_t errlen)
{
	const char *p[7] = { campaign, sut_name, sut_class, experiment, state, detail, NULL };
	char now[32];
	time_t t = time(NULL);
	struct tm tm;

	if (!czs_fleet_state_valid(state)) {
		snprintf(err, errlen, "fleet state '%s': not one of unreachable, install failed, preflight failed, run failed, timed out, complete", state);
		return -EINVAL;
	}
	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t, &tm));
	p[6] = now;
	return s->be->query(s,
		"INSERT INTO fleet_states (campaign, sut_name, sut_class, experiment, state, detail, updated) "
		"VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (campaign, sut_name) DO UPDATE SET "
		"sut_class = excluded.sut_class, experiment = excluded.experiment, state = excluded.state, "
		"detail = excluded.detail, updated = excluded.updated",
		7, p, NULL, NULL, err, errlen);
}

static int state_row(void *ctx, const struct czs_row *r)
{
	static const char *const cols[] = { "sut_name", "sut_class", "experiment", "state", "detail",
					     "updated" };
	json_t *row = json_object();
	int i;

	for (i = 0; i < 6; i++)
		json_object_set_new(row, cols[i], json_string(czs_col_text(r, i) ? czs_col_text(r, i) : ""));
	json_array_append_new(ctx, row);
	return 0;
}

int czs_fleet_state_list(struct czs *s, const char *campaign, json_t **rows, char *err, size_t errlen)
{
	const char *p[1] = { campaign };
	int ret;

	*rows = json_array();
	ret = s->be->query(s, "SELECT sut_name, sut_class, experiment, state, detail, updated "
			   "FROM fleet_states WHERE campaign = ? ORDER BY sut_class, sut_name",
			   1, p, state_row, *rows, err, errlen);
	if (ret) {
		json_decref(*rows);
		*rows = NULL;
	}
	return ret;
}
