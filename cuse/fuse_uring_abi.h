/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The FUSE-over-io_uring kernel ABI (protocol 7.42, Linux >= 6.14 with
 * CONFIG_FUSE_IO_URING), written from the facts in the kernel's
 * include/uapi/linux/fuse.h and fs/fuse/dev_uring.c.  Debian 12 ships 6.1
 * uapi headers and libfuse 3.14, neither of which has it, so we carry our
 * own copy under our own names (no clash once the system headers grow it).
 *
 * How the kernel uses it (fs/fuse/dev_uring.c):
 *  - the ring must be created with IORING_SETUP_SQE128: the 80-byte command
 *    area (sqe->cmd) holds struct cz_fuse_uring_cmd_req, else -EINVAL;
 *  - IORING_OP_URING_CMD on the /dev/fuse fd, sqe->cmd_op = the command;
 *  - REGISTER: sqe->addr points to 2 iovecs (sqe->len == 2): iov[0] the
 *    header buffer (>= sizeof(struct cz_fuse_uring_req_header)), iov[1] the
 *    payload buffer (>= max(8192, max_write, max_pages * PAGE_SIZE));
 *    -EAGAIN until the INIT reply was processed, -EOPNOTSUPP unless the
 *    connection negotiated FUSE_OVER_IO_URING (needs enable_uring=Y);
 *  - one queue per possible CPU (qid = CPU number); a request is queued on
 *    the queue of the CPU its sender runs on; the ring only takes over once
 *    EVERY queue has an entry registered.  Until then, and always for
 *    FORGET and INTERRUPT, requests keep arriving on /dev/fuse;
 *  - a request completes the entry's CQE with res 0: header.in_out holds
 *    struct fuse_in_header, header.op_in the opcode's fixed argument
 *    (in_args[0], e.g. struct fuse_read_in), the payload buffer the other
 *    arguments (ring_ent_in_out.payload_sz bytes); in_header.len is the
 *    classic total length, so the op_in size = len - 40 - payload_sz;
 *  - COMMIT_AND_FETCH answers (commit_id = ring_ent_in_out.commit_id): the
 *    kernel reads struct fuse_out_header from header.in_out (error, unique;
 *    len is not used), the out arguments from the payload buffer
 *    (ring_ent_in_out.payload_sz bytes, no out header in front), and re-arms
 *    the entry;
 *  - teardown (unmount, abort): pending entries complete with -ENOTCONN.
 */
#ifndef CUSE_FUSE_URING_ABI_H
#define CUSE_FUSE_URING_ABI_H

#include <stdint.h>

/* INIT flag, bit 41: in flags2 (bit 9) of fuse_init_in/out with FUSE_INIT_EXT. */
#define CZ_FUSE_OVER_IO_URING		(1ULL << 41)
#define CZ_FUSE_INIT_EXT		(1U << 30)
/* Protocol minor that introduced the transport. */
#define CZ_FUSE_URING_MINOR		42

/* sqe->cmd_op values (enum fuse_uring_cmd). */
#define CZ_FUSE_IO_URING_CMD_INVALID		0
#define CZ_FUSE_IO_URING_CMD_REGISTER		1
#define CZ_FUSE_IO_URING_CMD_COMMIT_AND_FETCH	2

#define CZ_FUSE_URING_IN_OUT_HEADER_SZ	128
#define CZ_FUSE_URING_OP_IN_OUT_SZ	128

/* struct fuse_uring_ent_in_out: 32 bytes. */
struct cz_fuse_uring_ent_in_out {
	uint64_t flags;
	uint64_t commit_id;	/* kernel -> us: the id to commit with */
	uint32_t payload_sz;	/* bytes valid in the payload buffer */
	uint32_t padding;
	uint64_t reserved;
};

/* struct fuse_uring_req_header: 288 bytes, iov[0] of an entry. */
struct cz_fuse_uring_req_header {
	char in_out[CZ_FUSE_URING_IN_OUT_HEADER_SZ];	/* fuse_in_header / fuse_out_header */
	char op_in[CZ_FUSE_URING_OP_IN_OUT_SZ];		/* per-opcode header */
	struct cz_fuse_uring_ent_in_out ring_ent_in_out;
};

/* struct fuse_uring_cmd_req: first 24 bytes of the SQE's 80-byte cmd area. */
struct cz_fuse_uring_cmd_req {
	uint64_t flags;
	uint64_t commit_id;	/* 0 for REGISTER */
	uint16_t qid;		/* queue = CPU number */
	uint8_t padding[6];
};

_Static_assert(sizeof(struct cz_fuse_uring_ent_in_out) == 32, "fuse_uring_ent_in_out is 32 bytes");
_Static_assert(sizeof(struct cz_fuse_uring_req_header) == 288, "fuse_uring_req_header is 288 bytes");
_Static_assert(sizeof(struct cz_fuse_uring_cmd_req) == 24, "fuse_uring_cmd_req is 24 bytes");

#endif
