/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zab fleet: the inventory's hosts (ansible-inventory --list, its JSON read
 * with jansson; --limit through ansible --list-hosts, names compared whole)
 * and the play's variables as a YAML file whose every value from a user is
 * tagged !unsafe: Ansible passes it on as data and never renders {{ }}.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "fleet.h"
#include "results/result.h"

static int host_cmp(const void *a, const void *b)
{
	return strcmp(((const struct fleet_host *)a)->name, ((const struct fleet_host *)b)->name);
}

/* The group that lists h among its own hosts, first by name ("ungrouped" last). */
static const char *host_class(json_t *inv, const char *h)
{
	const char *g, *best = NULL;
	json_t *grp, *v;
	size_t i;

	json_object_foreach(inv, g, grp) {
		if (!strcmp(g, "_meta") || !strcmp(g, "all"))
			continue;
		json_array_foreach(json_object_get(grp, "hosts"), i, v)
			if (json_is_string(v) && !strcmp(json_string_value(v), h) &&
			    (!best || !strcmp(best, "ungrouped") || (strcmp(g, "ungrouped") && strcmp(g, best) < 0)))
				best = g;
	}
	return best ? best : "ungrouped";
}

/* The hosts --limit keeps: "ansible all --list-hosts" lines, one name each. */
static int limit_hosts(const struct fleet *f, char **names)
{
	const char *argv[] = { "ansible", "all", "-i", f->inv, "--list-hosts", "--limit",
			 f->limit, NULL };
	char err[512];
	int rc = fleet_run(argv, names, err, sizeof(err));

	if (rc) {
		cz_err("--limit '%s': ansible --list-hosts failed (exit %d): %s", f->limit, rc, err);
		free(*names);
		return -1;
	}
	return 0;
}

/* Whether name is one of the lines of list (leading blanks dropped). */
static bool listed(const char *list, const char *name)
{
	const char *p = list, *nl;
	size_t n = strlen(name);

	for (; p && *p; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		p += strspn(p, " ");
		if ((size_t)((nl ? nl : p + strlen(p)) - p) == n && !memcmp(p, name, n))
			return true;
	}
	return false;
}

static int inventory_json(const struct fleet *f, json_t **inv)
{
	const char *argv[] = { "ansible-inventory", "-i", f->inv, "--list", NULL };
	char err[512], *out = NULL;
	json_error_t je;
	int rc = fleet_run(argv, &out, err, sizeof(err));

	*inv = rc ? NULL : json_loads(out ? out : "", 0, &je);
	free(out);
	if (!*inv || !json_is_object(json_object_get(json_object_get(*inv, "_meta"), "hostvars"))) {
		cz_err("inventory '%s': ansible-inventory cannot read it%s%s", f->inv, err[0] ? ": " : "", err);
		json_decref(*inv);
		return -1;
	}
	return 0;
}

int fleet_inventory(struct fleet *f)
{
	char *keep = NULL;
	const char *h;
	json_t *inv, *v;

	if (inventory_json(f, &inv) || (f->limit && limit_hosts(f, &keep))) {
		json_decref(inv);
		return -1;
	}
	f->hosts = calloc(json_object_size(json_object_get(json_object_get(inv, "_meta"), "hostvars")) + 1,
			  sizeof(*f->hosts));
	json_object_foreach(json_object_get(json_object_get(inv, "_meta"), "hostvars"), h, v) {
		if (keep && !listed(keep, h))
			continue;
		if (!*h || strchr(h, '/') || h[0] == '.') {
			cz_err("inventory '%s': host '%s': a name zab fleet cannot use as a file name", f->inv, h);
			json_decref(inv);
			free(keep);
			return -1;
		}
		f->hosts[f->nhosts].name = cz_xstrdup(h);
		f->hosts[f->nhosts++].cls = cz_xstrdup(host_class(inv, h));
	}
	qsort(f->hosts, f->nhosts, sizeof(*f->hosts), host_cmp);
	json_decref(inv);
	free(keep);
	if (!f->nhosts) {
		cz_err("inventory '%s': no hosts%s%s", f->inv, f->limit ? " within --limit " : "",
		       f->limit ? f->limit : "");
		return -1;
	}
	return 0;
}

/* s as a YAML double-quoted scalar tagged !unsafe. */
static void yaml_unsafe(FILE *o, const char *s)
{
	fputs("!unsafe \"", o);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(o, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(o, "\\x%02x", c);
		else
			putc(c, o);
	}
	putc('"', o);
}

static void yaml_item(FILE *o, const char *key, const char *val)
{
	fprintf(o, "%s: ", key);
	yaml_unsafe(o, val ? val : "");
	putc('\n', o);
}

int fleet_write_vars(const struct fleet *f, const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600), i;
	FILE *o = fd < 0 ? NULL : fdopen(fd, "w");
	size_t h;

	if (!o) {
		cz_err("%s: %s", path, strerror(errno));
		return -1;
	}
	fputs("# zab fleet: the play's variables, every value data (!unsafe: never templated)\n", o);
	yaml_item(o, "cz_bundle", f->bundle);
	yaml_item(o, "cz_sums", f->sums);
	yaml_item(o, "cz_name", f->name);
	yaml_item(o, "cz_campaign", f->campaign);
	yaml_item(o, "cz_results", f->results);
	yaml_item(o, "cz_install", f->install);
	yaml_item(o, "cz_package", f->pkg_abs);
	yaml_item(o, "cz_version", PACKAGE_VERSION);
	yaml_item(o, "cz_device", f->device ? "fuse" : "");
	yaml_item(o, "cz_mode", f->bisect ? "bisect" : "run");
	fprintf(o, "cz_timeout: %u\n", f->timeout);
	if (f->serial)
		fprintf(o, "cz_serial: %u\n", f->serial);
	fputs("cz_todo:\n", o);
	for (h = 0; h < f->nhosts; h++)
		if (!f->hosts[h].done) {
			fputs("  - ", o);
			yaml_unsafe(o, f->hosts[h].name);
			putc('\n', o);
		}
	fputs(f->nzab_args ? "cz_zab_args:\n" : "cz_zab_args: []\n", o);
	for (i = 0; i < f->nzab_args; i++) {
		fputs("  - ", o);
		yaml_unsafe(o, f->zab_args[i]);
		putc('\n', o);
	}
	if (fclose(o)) {
		cz_err("%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}
