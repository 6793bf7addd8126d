#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: the daemon's modules (cuse/), zeroctl and the libraries they
# link form no dependency cycle, neither by #include nor by the symbols their
# objects use (scripts/check-includes.sh; doc/DESIGN.md, "Modules").
exec sh "$top_srcdir/scripts/check-includes.sh" -s "$top_srcdir" -b "$top_builddir" \
	cuse tools/zeroctl lib zeroing "zeroing/$ZERO_ARCH"
