#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: io.sh with --poll-us 200: the same reads, ioctls and settings
# switches while the loop busy-polls /dev/fuse between requests.
CZ_IO_OPTS="--poll-us 200${CZ_IO_OPTS:+ $CZ_IO_OPTS}"
# Needs: root fuse
. "$top_srcdir/tests/cuse/io.sh"
