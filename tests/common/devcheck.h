/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The device checks shared by the host FUSE tests (tests/cuse/zdev-check.c)
 * and the VM tests (tests/vm/vmcheck.c): every ioctl of include/cusezero.h on a
 * running cusezero, CUSE node or FUSE zero file alike.  Results are TAP lines
 * (tests/tap.h); each caller adds its own checks around them.
 */
#ifndef TESTS_COMMON_DEVCHECK_H
#define TESTS_COMMON_DEVCHECK_H

#include <stdbool.h>
#include <stddef.h>

struct dc_dev {
	const char *path;		/* /dev/NAME (CUSE) or MNT/zero (FUSE) */
	const char *label;		/* prefix of every TAP line */
	/* The routine the daemon must report first (its default), or NULL. */
	const char *expect_routine;
	/* A fuller data check after each setting; NULL: dc_zeros(). */
	void (*data)(const struct dc_dev *d, const char *what);
	void *priv;			/* for data() */
};

/* Every ioctl, valid and invalid, privileged or not; the settings are restored. */
void dc_check_ioctl(const struct dc_dev *d);

/*
 * Reads of 1 B .. 128 KiB through fd into 0xA5-filled buffers at two buffer
 * offsets: NULL when each returned its full count of zeros and left the
 * guard bytes around it alone, else a static text naming the read and byte.
 */
const char *dc_zeros(int fd);

/*
 * The guarded-buffer rule of the device checkers: buf[0, lead) and
 * buf[lead + n, lead + n + tail) still hold fill, buf[lead, lead + n) is all
 * zeros (cz_first_nonzero).  The offset in buf of the first wrong byte, or -1.
 */
long long dc_bad_byte(const unsigned char *buf, size_t lead, size_t n, size_t tail,
		      unsigned char fill);

/* GET_ROUTINE into name[CUSEZERO_NAME_MAX]; false on error (errno set). */
bool dc_get_routine(int fd, char *name);

/* SET_ROUTINE: 0 or the errno. */
int dc_set_routine(int fd, const char *name);

/* The largest read the kernel sends as one request to this device. */
size_t dc_max_request(const char *path);

#endif
