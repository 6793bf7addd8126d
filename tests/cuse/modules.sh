#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: no dependency cycle anywhere in the tree -- between modules,
# neither by #include nor by the symbols their objects use, nor between
# folders (scripts/check-includes.sh over every directory; doc/DESIGN.md,
# "Modules"), and tools/zab's folders used only from the layers above them
# (doc/zab-layout.md).
exec sh "$top_srcdir/scripts/check-includes.sh" -s "$top_srcdir" -b "$top_builddir"
