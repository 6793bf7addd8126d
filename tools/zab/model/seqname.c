/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Names a sequence reads (patch files, subjects, kernel versions) are data:
 * shown escaped on one line, and refused as files unless one plain word
 * (sequence.h).  Apart from sequence.c so that the readers it calls
 * (seqseries.c, seqgit.c) and pack.c use them without a cycle.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "sequence.h"

char *zab_seq_escape(const char *s)
{
	char *out = cz_xmalloc(4 * strlen(s) + 1), *o = out;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f)
			o += sprintf(o, "\\x%02x", c);
		else
			*o++ = (char)c;
	}
	*o = 0;
	return out;
}

bool zab_seq_plain_name(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s <= 0x20 || *s == 0x7f)
			return false;
	return true;
}
