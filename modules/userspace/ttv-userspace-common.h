/* ttv-userspace-common.h: what the userspace views share (the call stack,
 * flame graph, functions and memory views of modules/userspace): a
 * function's colour, byte counts as people read them, the interval a view
 * describes (the selection, else the time window), and waiting for the
 * tab's analysis with a status line that says how far it is. */
#pragma once

#include "ttv-viewer.h"

#include <cairo.h>
#include <gtk/gtk.h>

G_BEGIN_DECLS

/* A light, stable colour for function @function ("warm" for flame graphs). */
void        ttv_userspace_function_rgb (guint32 function, double rgb[3]);
/* "12.3 KiB", "850 B", "1.50 MiB"; caller frees. */
char       *ttv_userspace_format_bytes (guint64 bytes);
/* What a view of the selection describes: the selection when there is one,
 * else the time window. */
void        ttv_userspace_get_interval (TtvTabState *state, TtvTime *t0, TtvTime *t1);
/* Text in @cr at (@x, @y: its baseline), cut with "…" to @max_width;
 * FALSE when not even one character fits. */
gboolean    ttv_userspace_show_text (cairo_t *cr, double x, double y, double max_width, const char *text);

/* Follows the tab's analysis @which for a view: asks for it, polls its
 * progress into @label while it runs, and calls @ready (with @data) when it
 * is there or dropped (the traceset changed), until the view is destroyed. */
typedef struct _TtvUserspaceWait TtvUserspaceWait;
TtvUserspaceWait *ttv_userspace_wait_new (TtvTabState *state, TtvViewerUserspaceAnalysis which, GtkLabel *label,
                                          void (*ready) (gpointer data), gpointer data);
void        ttv_userspace_wait_free (TtvUserspaceWait *wait);
/* Asks again (after "traceset-changed"). */
void        ttv_userspace_wait_start (TtvUserspaceWait *wait);

G_END_DECLS
