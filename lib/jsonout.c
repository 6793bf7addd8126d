/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * JSON output on jansson: builders that never return NULL and one checked
 * dump (lib/jsonout.h).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jsonout.h"

static json_t *must(json_t *v)
{
	if (!v) {
		fputs("out of memory (JSON)\n", stderr);
		exit(1);
	}
	return v;
}

json_t *cz_jnum(double x)
{
	if (!isfinite(x))
		return must(json_null());
	if (x == floor(x) && fabs(x) < 9007199254740992.0 && !(x == 0 && signbit(x)))
		return must(json_integer((json_int_t)x));
	return must(json_real(x));
}

json_t *cz_jfixed(double x, int decimals)
{
	char txt[64];

	if (!isfinite(x))
		return must(json_null());
	snprintf(txt, sizeof(txt), "%.*f", decimals, x);
	if (decimals <= 0)
		return cz_jnum(strtod(txt, NULL));	/* "%.0f": a whole number */
	return must(json_real(strtod(txt, NULL)));
}

json_t *cz_juint(unsigned long long x)
{
	if (x > (unsigned long long)INT64_MAX)
		return must(json_real((double)x));
	return must(json_integer((json_int_t)x));
}

/* Length of the UTF-8 sequence at s (RFC 3629), or 0 when it is not one. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n, i;
	unsigned c = s[0], cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return n;
}

json_t *cz_jstr(const char *s)
{
	json_t *v;
	char *fixed;
	size_t i, n;

	if (!s)
		return must(json_null());
	v = json_string(s);
	if (v)
		return v;
	/* Not UTF-8 (a path or a command line is bytes): replace what is not. */
	fixed = strdup(s);
	if (!fixed)
		return must(NULL);
	for (i = 0; fixed[i]; i += n) {
		n = utf8_len((const unsigned char *)fixed + i);
		if (!n) {
			fixed[i] = '?';
			n = 1;
		}
	}
	v = json_string(fixed);
	free(fixed);
	return must(v);
}

json_t *cz_jset(json_t *obj, const char *key, json_t *val)
{
	if (json_object_set_new(obj, key, must(val)))
		must(NULL);
	return val;
}

json_t *cz_jpush(json_t *arr, json_t *val)
{
	if (json_array_append_new(arr, must(val)))
		must(NULL);
	return val;
}

json_t *cz_jobj(void)
{
	return must(json_object());
}

json_t *cz_jarr(void)
{
	return must(json_array());
}

int cz_json_dump(FILE *f, const json_t *v, size_t flags)
{
	if (json_dumpf(v, f, flags) || fputc('\n', f) == EOF || ferror(f))
		return -1;
	return 0;
}
