/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fio's header verifies (fio's HOWTO: verify=md5, crc32c, ..., meta): fio
 * writes each block with a verify header (magic 0xacca, then the checksum)
 * and, once the write phase has written all it was to write, reads the
 * blocks back and checks them; a read job with verify checks what it reads.
 * A zero device discards what is written and returns zeros, so the first
 * block read back has magic 0 where 0xacca should be: zload reports it with
 * fio's line and the job fails (fio: err=84, EILSEQ, exit 1).  A write phase
 * that ends by runtime has no verify phase, as in fio.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "zload.h"

#define ZL_VERIFY_MAGIC	0xacca		/* fio's verify header magic (verify.h) */

/* The block at s (res bytes read): fio's magic first, else a failure line. */
bool zl_verify_hdr(struct zl_job *j, const struct zl_slot *s, const unsigned char *b, size_t res)
{
	unsigned magic = res >= 2 ? (unsigned)b[0] | (unsigned)b[1] << 8 : 0;

	if (magic == ZL_VERIFY_MAGIC)
		return true;
	if (j->c.verify_failures++ < ZL_MAX_ERR_LINES)
		fprintf(stderr, "verify: bad magic header %x, wanted %x at file %s offset %llu, "
			"length %u (requested block: offset=%llu, length=%u)\n", magic,
			ZL_VERIFY_MAGIC, j->o->path, (unsigned long long)s->offset, s->len,
			(unsigned long long)s->offset, s->len);
	__atomic_store_n(&j->stop, 1, __ATOMIC_RELAXED);
	return false;
}

/*
 * After a write-only job with a header verify: when the writes ended by
 * their size (or number_ios), not stopped (runtime, exitall), fio's verify phase reads the first block
 * written back into buf (the job's I/O buffer) and checks it.
 */
void zl_verify_phase(struct zl_job *j, char *buf, bool stopped)
{
	struct zl_slot s = { .offset = j->verify_off, .len = j->verify_len };
	ssize_t r;

	if (!j->o->verify_hdr || j->o->rwmix_read || !j->wr.ios || j->c.errors || stopped ||
	    __atomic_load_n(&j->stop, __ATOMIC_RELAXED))
		return;
	do
		r = pread(j->fd, buf, s.len, (off_t)s.offset);
	while (r < 0 && errno == EINTR);
	if (r < 0) {
		j->c.errors++;
		fprintf(stderr, "zload: job %d: verify read of %u bytes at offset %llu failed: %s\n",
			j->id, s.len, (unsigned long long)s.offset, strerror(errno));
		return;
	}
	zl_verify_hdr(j, &s, (const unsigned char *)buf, (size_t)r);
}
