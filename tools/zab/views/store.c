/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The store as zab's commands read and record it (store/czstore.h): the
 * store at a URL (else $CUSEZERO_STORE, else the SQLite file under
 * $XDG_DATA_HOME) opened to write or to read, and a run recorded.
 */
#include <errno.h>
#include <stdbool.h>

#include "cli.h"
#include "czstore.h"
#include "views.h"

static struct czs *store_open(const char *url, enum czs_mode mode)
{
	char buf[4096], err[1024];
	struct czs *s;

	if (!url)
		url = czs_default_url(buf, sizeof(buf));
	if (czs_open_mode(url, mode, &s, err, sizeof(err))) {
		cz_err("%s", err);
		return NULL;
	}
	return s;
}

struct czs *zab_store_open(const char *url)
{
	return store_open(url, CZS_WRITE);
}

struct czs *zab_store_read(const char *url, const char *experiment)
{
	struct czs *s = store_open(url, CZS_READ);
	char err[2048];

	if (s && experiment && czs_experiment_known(s, experiment, err, sizeof(err))) {
		cz_err("%s", err);
		czs_close(s);
		return NULL;
	}
	return s;
}

int zab_store_record(struct czs *s, json_t *doc, const char *what, char uuid[37])
{
	char err[1024];
	bool already;
	int ret = czs_put_run(s, doc, what, uuid, &already, err, sizeof(err));

	if (ret) {
		if (err[0] && ret == -EEXIST)
			cz_err("%s", err);
		else if (err[0])
			cz_err("%s: not stored in %s: %s", what, czs_name(s), err);
		return ret == -EEXIST ? -2 : -1;
	}
	return already ? 1 : 0;
}
