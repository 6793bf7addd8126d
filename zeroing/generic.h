/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ZEROING_GENERIC_H
#define ZEROING_GENERIC_H

#include <stddef.h>
#include <stdint.h>

#include "zeroing.h"

size_t zr_c_store_loop(void *dst, size_t n);
size_t zr_memset_clear_pages(void *dst, size_t n);

#endif
