/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel: EXPORT_SYMBOL* put the symbol into the kernel's export table
 * (__ksymtab* sections) so that modules can link against it.
 * Here: there are no modules; the loader finds functions by name in the
 * object's symbol table.  Every form expands to nothing (no section).
 */
#ifndef ZEROING_KCOMPAT_INCLUDE_LINUX_EXPORT_H
#define ZEROING_KCOMPAT_INCLUDE_LINUX_EXPORT_H

#define EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_GPL(sym)
#define EXPORT_SYMBOL_NS(sym, ns)
#define EXPORT_SYMBOL_NS_GPL(sym, ns)
#define EXPORT_SYMBOL_FOR_MODULES(sym, mods)
#define EXPORT_SYMBOL_GPL_FOR_MODULES(sym, mods)
#define EXPORT_SYMBOL_FOR_KVM(sym)
#define EXPORT_SYMBOL_NOINSTR(sym)

#endif /* ZEROING_KCOMPAT_INCLUDE_LINUX_EXPORT_H */
