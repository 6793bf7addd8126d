/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * JSON output shared by every program, on jansson
 * (https://jansson.readthedocs.io/): value builders that never return NULL
 * (allocation failure exits, as malloc failure does elsewhere) and one dump
 * with the project's flags that reports write errors.
 */
#ifndef LIB_JSONOUT_H
#define LIB_JSONOUT_H

#include <jansson.h>
#include <stdio.h>

/* One line, 15 significant digits (cz_jfixed's values print as rounded). */
#define CZ_JSON_COMPACT (JSON_COMPACT | JSON_REAL_PRECISION(15))
/* Two-space indentation, 15 significant digits (outputs of cz_jfixed values). */
#define CZ_JSON_PRETTY (JSON_INDENT(2) | JSON_REAL_PRECISION(15))
/* Two-space indentation, 17 significant digits: a double reads back equal. */
#define CZ_JSON_FLAGS (JSON_INDENT(2) | JSON_REAL_PRECISION(17))

/* A number: a whole value below 2^53 as a JSON integer, any other finite
 * value as a real, NaN and infinities as null (JSON has no such number). */
json_t *cz_jnum(double x);
/* An integer (counters: uint64_t above INT64_MAX is written as a real). */
json_t *cz_juint(unsigned long long x);
/* x rounded to decimals places (what "%.*f" prints), as a real (decimals 0:
 * as cz_jnum, an integer); NaN: null. */
json_t *cz_jfixed(double x, int decimals);
/* A string; NULL gives null, a byte that is not UTF-8 is written as '?'. */
json_t *cz_jstr(const char *s);
/* obj[key] = val (val's reference is taken); returns val. */
json_t *cz_jset(json_t *obj, const char *key, json_t *val);
/* Appends val to arr (val's reference is taken); returns val. */
json_t *cz_jpush(json_t *arr, json_t *val);
/* New empty object / array, never NULL. */
json_t *cz_jobj(void);
json_t *cz_jarr(void);

/* Writes v with flags and a newline (no flush: the caller's close or
 * cz_stdout_flush() reports a failed write); 0, or -1 on a write error. */
int cz_json_dump(FILE *f, const json_t *v, size_t flags);

#endif /* LIB_JSONOUT_H */
