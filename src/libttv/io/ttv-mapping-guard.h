/* ttv-mapping-guard.h: what a program says when a trace file it reads
 * through a mapping shrinks under it.
 *
 * Trace windows read on by mapping the file (ttv-file-window.h).  A file
 * another program truncates while it is mapped takes its pages away, and
 * the next read of them raises SIGBUS, which would end the program
 * without a word (babeltrace2, which maps its CTF files too, dies so).
 * Windows register their mappings here; a program that installs the
 * guard then exits with status 1 and a message naming the file and the
 * byte offset instead.  The library never installs a signal handler on
 * its own: the programs (ttv, ttv-report, ttv-bench) call
 * ttv_mapping_guard_install() at start, after the locale is set. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Installs the SIGBUS handler (once; later calls do nothing), whose
 * message starts with @program's name.  A SIGBUS outside every registered
 * mapping keeps the default action (the program's own bug, a core
 * dump). */
void ttv_mapping_guard_install (const char *program);

/* Registers the @len bytes mapped at @start from byte offset @offset of
 * the file @path (which must outlive the registration): a handle for
 * ttv_mapping_guard_remove(), or -1 when every slot is taken (the caller
 * then does not map the file). */
gint ttv_mapping_guard_add (const void *start, gsize len, const char *path, guint64 offset);
void ttv_mapping_guard_remove (gint handle);

G_END_DECLS
