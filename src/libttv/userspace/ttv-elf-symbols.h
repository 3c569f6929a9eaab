/* ttv-elf-symbols.h: one ELF file's function symbols, build id, debug link
 * and DWARF line table, read through elfutils' libelf and libdw.  The
 * symbolizer (ttv-symbolizer.c) opens binaries and debug files with it;
 * the fuzz target feeds it arbitrary bytes. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _TtvElfSymbols TtvElfSymbols;

/* Opens a regular file (anything else, and a file that is no ELF object,
 * is refused with G_IO_ERROR naming it).  Symbols and lines are read
 * lazily, on the first lookup. */
TtvElfSymbols *ttv_elf_symbols_open (const char *path, GError **error);
/* The same over bytes in memory (copied). */
TtvElfSymbols *ttv_elf_symbols_new_from_bytes (const guint8 *data, gsize size, const char *name,
                                               GError **error);
void        ttv_elf_symbols_free (TtvElfSymbols *elf);

const char *ttv_elf_symbols_get_path (const TtvElfSymbols *elf);
/* The GNU build id (NT_GNU_BUILD_ID note), or NULL (*len 0). */
const guint8 *ttv_elf_symbols_get_build_id (const TtvElfSymbols *elf, guint *len);
/* The .gnu_debuglink file name and CRC, or NULL. */
const char *ttv_elf_symbols_get_debug_link (const TtvElfSymbols *elf, guint32 *crc);
/* The address of the first loadable segment: run-time addresses map to
 * file addresses as addr - load base + this. */
guint64     ttv_elf_symbols_get_first_load_address (const TtvElfSymbols *elf);
/* Whether it has a symbol table with functions (.symtab, else .dynsym),
 * and DWARF line tables. */
gboolean    ttv_elf_symbols_has_functions (TtvElfSymbols *elf);
gboolean    ttv_elf_symbols_has_lines (TtvElfSymbols *elf);
/* The function containing file address @addr: its name (borrowed) and
 * @addr's offset from its start; NULL when no symbol covers @addr (a
 * symbol without a size covers only its own address). */
const char *ttv_elf_symbols_lookup_function (TtvElfSymbols *elf, guint64 addr, guint64 *offset);
/* The source file (borrowed) and line of file address @addr from DWARF,
 * or NULL. */
const char *ttv_elf_symbols_lookup_line (TtvElfSymbols *elf, guint64 addr, guint *line);

/* Where the function containing @addr is declared (DW_AT_decl_file and
 * decl_line of its subprogram), or NULL. */
const char *ttv_elf_symbols_lookup_declaration (TtvElfSymbols *elf, guint64 addr, guint *line);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvElfSymbols, ttv_elf_symbols_free)

G_END_DECLS
