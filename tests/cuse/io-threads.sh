#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: io.sh with --threads 4: the same reads, ioctls and settings
# switches while four workers serve requests concurrently (hazard-protected
# settings, per-thread reply buffers and counters).
CZ_IO_OPTS="--threads 4${CZ_IO_OPTS:+ $CZ_IO_OPTS}"
# Needs: root fuse
. "$top_srcdir/tests/cuse/io.sh"
