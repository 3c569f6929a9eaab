/* ttv-symbols-analysis.h: the binaries of the traced processes and their
 * symbols.  From the statedump and dl events alone, every binary each
 * process had (path, base, size, build id, debug link, when loaded and
 * unloaded) and where its symbols were found on this machine; its
 * symbolizer names any address of the trace (the event list's symbol
 * columns for ip contexts).  ttv-report --analysis symbols lists them. */
#pragma once

#include "ttv-analysis.h"
#include "ttv-symbolizer.h"

G_BEGIN_DECLS

extern const TtvAnalysisClass ttv_symbols_analysis;         /* "symbols" */

typedef struct _TtvSymbols TtvSymbols;

/* The symbols an analysis of ttv_symbols_analysis holds (borrowed). */
TtvSymbols *ttv_symbols_from_analysis (const TtvAnalysis *analysis);
TtvSymbolizer *ttv_symbols_get_symbolizer (const TtvSymbols *symbols);   /* borrowed */
/* Whether the traces recorded any binary (without, nothing resolves). */
gboolean    ttv_symbols_has_binaries (const TtvSymbols *symbols);

/* What an event's ip context (or any address it names) is: "main+0x2a
 * (prog.c:14)", "libfoo.so.1+0x3c8", or the address in hex.  @trace: the
 * event's trace index; @vpid its vpid context (-1: none); @return_address:
 * @addr is where a call returns to (the ip context of the libc wrapper,
 * a call site).  Caller frees. */
char       *ttv_symbols_dup_name (const TtvSymbols *symbols, guint trace, gint64 vpid, guint64 addr,
                                  TtvTime time, gboolean return_address);

G_END_DECLS
