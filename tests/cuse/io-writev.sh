#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: io.sh with --reply writev: the same reads, ioctls and settings
# switches when /dev/fuse replies go by writev instead of splice (the default).
CZ_IO_OPTS="--reply writev${CZ_IO_OPTS:+ $CZ_IO_OPTS}"
# Needs: root fuse
. "$top_srcdir/tests/cuse/io.sh"
