/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Numbers in a benchmark's output (zab_number, model/model.h). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "model.h"

/* The length of [0-9]+ at s. */
static size_t digits(const char *s)
{
	size_t n = 0;

	while (isdigit((unsigned char)s[n]))
		n++;
	return n;
}

/*
 * strtod takes far more than a number: "-nan", "inf", "0x10", "0x1p4", and
 * 1e999 as HUGE_VAL.  A result file or a benchmark's output holding one of
 * those is garbage, not a sample, so the text is checked against the
 * grammar first -- RFC 8259's for JSON; for a benchmark's output a plain
 * decimal (an optional sign, digits with an optional point, an exponent) --
 * and the value must be finite.  Underflow to 0 or a denormal is a number.
 */
bool zab_number(const char *s, bool json, char **end, double *x)
{
	const char *p = s;
	size_t n;

	if (*p == '-' || (!json && *p == '+'))
		p++;
	n = digits(p);
	if (json && (!n || (p[0] == '0' && n > 1)))
		return false;	/* no digit, or a leading zero */
	p += n;
	if (*p == '.') {
		size_t frac = digits(p + 1);

		if (json ? !frac : !frac && !n)
			return false;
		p += 1 + frac;
		n += frac;
	}
	if (!n)
		return false;
	if (*p == 'e' || *p == 'E') {
		const char *q = p + 1 + (p[1] == '+' || p[1] == '-');

		if (!digits(q))
			return false;
		p = q + digits(q);
	}
	errno = 0;
	*x = strtod(s, end);
	if (*end != p || !isfinite(*x))
		return false;
	return true;
}
