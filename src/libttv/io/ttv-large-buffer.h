/* ttv-large-buffer.h: buffers of half a megabyte and more (a window onto
 * a trace's large packets), in 2 MiB regions that the kernel may back
 * with huge pages.
 *
 * A fresh buffer's pages are faulted in one by one when first written;
 * on a virtual machine such a fault costs microseconds, and a window of
 * 1 MiB has 256 of them: on a recorded LTTng-UST trace (1 MiB packets),
 * a tenth of `ttv-report`'s time (bench/README.md, issue 15, "large
 * buffers in huge pages").  A region of 2 MiB aligned on 2 MiB and marked
 * MADV_HUGEPAGE takes one fault instead of 512, and holds up to four
 * buffers of 512 KiB pieces, so that two windows of 1 MiB take one
 * region, not two (the memory stays what malloc would take).
 *
 * Thread-safe.  Under AddressSanitizer every buffer comes from malloc,
 * so that a read past a window's end is still reported. */
#pragma once

#include "ttv-sanitizer.h"

#include <glib.h>

G_BEGIN_DECLS

#define TTV_LARGE_BUFFER_REGIONS (!TTV_SANITIZED)

/* Requests below this come from malloc. */
#define TTV_LARGE_BUFFER_PIECE ((gsize) 512 << 10)
/* A region: four pieces.  Larger requests take regions of their own. */
#define TTV_LARGE_BUFFER_REGION ((gsize) 2 << 20)

/* A buffer of @size bytes (any size; 16-byte aligned at least), its bytes
 * undefined; NULL when there is no memory for it. */
guint8 *ttv_large_buffer_alloc (gsize size);

/* The same, for sizes the program chose (not a trace's): aborts when
 * there is no memory, as g_malloc () does. */
guint8 *ttv_large_buffer_new (gsize size);

/* Gives back @buf (NULL or from ttv_large_buffer_alloc), allocated with
 * @size. */
void ttv_large_buffer_free (guint8 *buf, gsize size);

/* The whole pages of [@buf, @buf + @size), a fresh buffer about to be
 * filled (a report's pieces of text), faulted in for writing by one call
 * rather than by a fault each (MADV_POPULATE_WRITE, Linux 5.14 and
 * later; where the kernel lacks it, they fault in as they are written).
 * For buffers that cannot come from ttv_large_buffer_alloc (a GString's
 * text, which grows by realloc). */
void ttv_large_buffer_populate (void *buf, gsize size);

G_END_DECLS
