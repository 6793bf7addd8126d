/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel: linux/kconfig.h is force-included into every kernel compile; it
 * provides IS_ENABLED() and friends over the CONFIG_ symbols.
 * Here: the same tests over cusezero's small CONFIG_ set (see
 * cz/kconfig.h of the architecture).  A boolean counts as enabled when it
 * is defined to 1; modules do not exist here, so IS_MODULE() is 0.
 */
#ifndef ZEROING_KCOMPAT_INCLUDE_LINUX_KCONFIG_H
#define ZEROING_KCOMPAT_INCLUDE_LINUX_KCONFIG_H

/* Token-pasting test: CZ_KC_ONE_1 exists only for the spelling "1". */
#define CZ_KC_ONE_1			junk,
#define CZ_KC_SECOND(a, b, ...)		b
#define CZ_KC_TEST(x)			CZ_KC_PASTE(x)	/* expand x first */
#define CZ_KC_PASTE(v)			CZ_KC_TEST_(CZ_KC_ONE_##v)
#define CZ_KC_TEST_(maybe_junk)		CZ_KC_SECOND(maybe_junk 1, 0, 0)

#define IS_BUILTIN(option)		CZ_KC_TEST(option)
#define IS_MODULE(option)		0
#define IS_ENABLED(option)		CZ_KC_TEST(option)
#define IS_REACHABLE(option)		CZ_KC_TEST(option)

#endif /* ZEROING_KCOMPAT_INCLUDE_LINUX_KCONFIG_H */
