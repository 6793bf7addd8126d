/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ZEROING_GENERIC_H
#define ZEROING_GENERIC_H

#include <stddef.h>
#include <stdint.h>

#include "zeroing.h"

/* c_store_loop's own section; the linker's start/stop symbols bound its code */
#define ZR_C_STORE_LOOP_SECTION "zr_text_c_store_loop"
extern const unsigned char __start_zr_text_c_store_loop[], __stop_zr_text_c_store_loop[];

size_t zr_c_store_loop(void *dst, size_t n);
size_t zr_memset_clear_pages(void *dst, size_t n);

#endif
