/* ttv-userspace-common.h: what the userspace views share (the call stack,
 * flame graph, functions and memory views of modules/userspace): a
 * function's colour, byte counts as people read them, the interval a view
 * describes (the selection, else the time window), and waiting for the
 * tab's analysis with a status line that says how far it is (or that the
 * traces have no calls). */
#pragma once

#include "ttv-viewer.h"

#include <cairo.h>
#include <gtk/gtk.h>

G_BEGIN_DECLS

/* A light, stable colour for function @function ("warm" for flame graphs). */
void        ttv_userspace_function_rgb (guint32 function, double rgb[3]);
/* "12.3 KiB", "850 B", "1.50 MiB"; caller frees. */
char       *ttv_userspace_format_bytes (guint64 bytes);
/* @label after its machine's name ("beta: prog [42]") when the tab holds
 * several machines (docs/multi-machine.md), else @label alone. */
char       *ttv_userspace_dup_machine_label (TtvTabState *state, guint machine, const char *label);
/* The tab's machines' names when it holds several, else NULL: what a
 * worker thread labels with (ttv_userspace_label_on_machine()). */
GStrv       ttv_userspace_dup_machine_names (TtvTabState *state);
/* @label after the name of machine @machine of @machines, or @label alone
 * when @machines is NULL. */
char       *ttv_userspace_label_on_machine (const char *const *machines, guint machine, const char *label);
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
/* The tab's call stacks in *@cs (a new reference, the old one dropped);
 * asks again through @wait when they went with the old traceset.  When
 * the traces have no function entry or exit, says so in @status (unless
 * NULL). */
void        ttv_userspace_take_callstacks (TtvTabState *state, TtvUserspaceWait *wait, GtkLabel *status,
                                           TtvViewerCallstacks **cs);

/* Connects the @redraw of a view over the time window (swapped, @view) to
 * what changes its picture (the window, the current time, the selection,
 * the time format) and its @traceset_changed to "traceset-changed"; the
 * ids in @handlers. */
#define TTV_USERSPACE_TIME_VIEW_HANDLERS 5
void        ttv_userspace_follow_time_view (TtvTabState *state, gulong handlers[TTV_USERSPACE_TIME_VIEW_HANDLERS],
                                            GCallback redraw, GCallback traceset_changed, gpointer view);

/* The status line at the bottom of @view (packed there), left-aligned and
 * cut with "…". */
GtkLabel   *ttv_userspace_status_new (GtkBox *view);

G_END_DECLS
