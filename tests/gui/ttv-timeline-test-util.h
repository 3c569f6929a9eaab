/* ttv-timeline-test-util.h: what the time line tests share: pixels of
 * their PNG renders, rows counted by their stripes, the control flow's
 * shown pids and search, intervals of the history, the sanitizer hooks. */
#pragma once

#include "ttv-history.h"

#include <cairo.h>
#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The RGB of (@x, @y) of an image surface (asserted inside). */
guint32     ttv_test_pixel (cairo_surface_t *s, int x, int y);
/* A PNG file as a surface (asserted readable). */
cairo_surface_t *ttv_test_load_png (const char *path);
/* Where a time line drawing's rows start: the first row's stripe (either
 * shade: a scrolled view may start with an odd row). */
int         ttv_test_header_of (cairo_surface_t *s);
/* Rows drawn: the striped label column, alternating, from the header down. */
guint       ttv_test_count_rows (cairo_surface_t *s);
/* The control flow viewer's shown-pids (transfer full, of guint32). */
GArray     *ttv_test_shown_pids (GtkWidget *cf);
gboolean    ttv_test_pids_contain (GArray *pids, guint32 pid);
/* Types @text in a viewer's search entry (without waiting for its delay). */
void        ttv_test_set_search (GtkWidget *viewer, const char *text);
/* The longest interval of a process row other than an idle task whose
 * state has status @low and mode @mode. */
gboolean    ttv_test_find_interval (const TtvHistory *h, guint low, TtvExecMode mode, guint *row,
                                    TtvHistoryInterval *out);

/* Per pixel of [t0, t1) over @w pixels, whether an interval of @row in a
 * state @busy says is there overlaps it (from the exact intervals);
 * transfer full. */
gboolean   *ttv_test_active_pixels (const TtvHistory *h, TtvHistoryRowKind kind, guint row, TtvTime t0,
                                    TtvTime t1, guint w, gboolean (*busy) (guint16 state));
/* For ttv_test_active_pixels(): an IRQ, soft IRQ or disk row's activity. */
gboolean    ttv_test_irq_active (guint16 state);

G_END_DECLS
