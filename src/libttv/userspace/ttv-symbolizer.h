/* ttv-symbolizer.h: addresses of traced processes to function names and
 * source lines.  Holds the processes' binaries (a TtvBinMap fed with the
 * statedump and dl events) and the ELF and DWARF files found for them
 * (ttv-debug-search.h), each opened once.  An address it cannot place
 * exactly stays an address: nothing is ever guessed.  The call stack and
 * memory analyses and the event list's symbol columns use it; it is safe
 * to use from several threads. */
#pragma once

#include "ttv-bin-map.h"

G_BEGIN_DECLS

typedef struct {
  const char *function;         /* NULL: unknown */
  guint64 offset;               /* of the address from the function's start */
  const char *file;             /* source file, NULL: unknown */
  guint line;                   /* 0: unknown */
  const char *binary;           /* the binary's path as recorded, NULL: no binary known there */
  guint64 binary_offset;        /* the address's offset from the binary's base */
  guint binary_index;           /* with @binary: that binary's place in ttv_symbolizer_list_binaries() */
} TtvSymbol;

typedef struct _TtvSymbolizer TtvSymbolizer;

/* @dirs: the user's directories of binaries and debug files (may be
 * NULL); @debug_dirs: where debug files are installed (NULL:
 * /usr/lib/debug); @only_dirs: look in @dirs only, never at the recorded
 * paths nor in @debug_dirs (a trace from another machine).  Copied. */
TtvSymbolizer *ttv_symbolizer_new (const char *const *dirs, const char *const *debug_dirs, gboolean only_dirs);
void        ttv_symbolizer_free (TtvSymbolizer *symbolizer);

/* Feeds a statedump or dl event (others are ignored). */
void        ttv_symbolizer_apply (TtvSymbolizer *symbolizer, const TtvUstEvent *event);
/* Whether any binary was described: without, nothing resolves. */
gboolean    ttv_symbolizer_has_binaries (TtvSymbolizer *symbolizer);

/* Resolves @addr of process (@trace, @vpid) at @time.  @return_address:
 * @addr is where a call returns to (a call site, an ip context), so its
 * line is the call's (the instruction before).  The strings are the
 * symbolizer's (valid while it lives).  FALSE when not even a binary is
 * known (every field NULL / 0). */
gboolean    ttv_symbolizer_resolve (TtvSymbolizer *symbolizer, guint trace, gint64 vpid, guint64 addr,
                                    TtvTime time, gboolean return_address, TtvSymbol *out);

/* The binaries described, and for each what was found (a file, or why
 * not): two arrays of the same length, of borrowed const char *
 * (recorded path, description), in the order they were first met. */
void        ttv_symbolizer_list_binaries (TtvSymbolizer *symbolizer, GPtrArray *paths, GPtrArray *found);

/* The processes' binaries (borrowed; read it once the events are all
 * applied: it is not locked). */
const TtvBinMap *ttv_symbolizer_get_bin_map (TtvSymbolizer *symbolizer);
/* Where @mapping's symbols come from on this machine (looked for now if
 * not yet): a file, or why none was taken. */
const char *ttv_symbolizer_describe (TtvSymbolizer *symbolizer, const TtvBinMapping *mapping);

/* "name+0x1a" / "name", else "libfoo.so.1+0x3c8" (the offset in its
 * binary when no symbol covers it), else "0x7f3c…" (the address in hex:
 * no binary known there), then " (file.c:12)" when the line is known. */
void        ttv_symbol_append (GString *out, const TtvSymbol *symbol, guint64 addr, gboolean with_line);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvSymbolizer, ttv_symbolizer_free)

G_END_DECLS
