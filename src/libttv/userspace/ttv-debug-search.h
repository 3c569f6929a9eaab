/* ttv-debug-search.h: where a traced binary's file and its debug
 * information are on this machine: at the path the trace recorded, under
 * a directory the user gives, by build id under a debug directory
 * (/usr/lib/debug/.build-id/xx/yyyy.debug), or through its debug link
 * beside the binary.  A file is taken only when its build id (or, with
 * none recorded, its debug link CRC) is the one the trace recorded: a
 * rebuilt binary at the same path never names a traced address. */
#pragma once

#include "ttv-bin-map.h"
#include "ttv-elf-symbols.h"

G_BEGIN_DECLS

typedef struct {
  TtvElfSymbols *binary;        /* owned, NULL: not found */
  TtvElfSymbols *debug;         /* owned, NULL: none (or the binary has its own) */
  char *why;                    /* owned: what was found, or why nothing was ("not found:
                                 * /usr/bin/x has another build id") */
} TtvDebugFiles;

/* Looks for @mapping's files: the user's @dirs first (each as a root the
 * recorded path is under, and as a flat folder of binaries and debug
 * files), then the recorded path; debug files by build id under @dirs and
 * @debug_dirs (NULL: /usr/lib/debug), then by debug link beside the
 * binary, in its .debug folder and under the same directories. */
void     ttv_debug_files_find (const TtvBinMapping *mapping, const char *const *dirs,
                               const char *const *debug_dirs, TtvDebugFiles *out);
/* The same in @dirs only: neither the recorded path, nor the directories
 * beside it, nor the default debug directory (a trace from elsewhere). */
void     ttv_debug_files_find_in (const TtvBinMapping *mapping, const char *const *dirs, TtvDebugFiles *out);
void     ttv_debug_files_clear (TtvDebugFiles *files);

/* The CRC-32 .gnu_debuglink uses (the zlib / IEEE 802.3 one) of a file;
 * FALSE when it cannot be read. */
gboolean ttv_debug_link_crc32 (const char *path, guint32 *crc);

G_END_DECLS
