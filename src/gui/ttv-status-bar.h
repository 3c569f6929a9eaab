/* ttv-status-bar.h: the line at the bottom of a tab: events in the
 * traceset, the selection's length, what the background work is doing, and
 * the running jobs (background passes, a bookmark save) with their progress
 * and Cancel / Restart buttons.  Used by the tab. */
#pragma once

#include "ttv-tab-state-private.h"

#include "ttv-viewer.h"

G_BEGIN_DECLS

#define TTV_TYPE_STATUS_BAR (ttv_status_bar_get_type ())
G_DECLARE_FINAL_TYPE (TtvStatusBar, ttv_status_bar, TTV, STATUS_BAR, GtkBox)

typedef enum {
  TTV_STATUS_JOB_BACKGROUND,   /* first read, state, history */
  TTV_STATUS_JOB_SAVE,         /* saving bookmarks */
  TTV_STATUS_N_JOBS
} TtvStatusJob;

typedef void (*TtvStatusFunc) (gpointer user_data);

/* Follows @state's event count and selection. */
GtkWidget  *ttv_status_bar_new (TtvTabState *state);
/* What the background work is doing or did ("state ready", "indexing
 * cancelled"), after the counts. */
void        ttv_status_bar_set_background (TtvStatusBar *self, const char *text);
/* Shows @job: @text, a progress bar at @fraction (< 0: no bar) and, when
 * @button_label is given, a button calling @func (@user_data). */
void        ttv_status_bar_set_job (TtvStatusBar *self, TtvStatusJob job, const char *text,
                                    double fraction, const char *button_label,
                                    const char *button_tooltip, TtvStatusFunc func,
                                    gpointer user_data);
void        ttv_status_bar_set_fraction (TtvStatusBar *self, TtvStatusJob job, double fraction);
void        ttv_status_bar_clear_job (TtvStatusBar *self, TtvStatusJob job);

/* For tests: the summary (counts, selection, background), a job's text
 * (NULL when hidden), and pressing a job's button (FALSE when none). */
const char *ttv_status_bar_get_summary (TtvStatusBar *self);
const char *ttv_status_bar_get_job_text (TtvStatusBar *self, TtvStatusJob job);
gboolean    ttv_status_bar_activate_job (TtvStatusBar *self, TtvStatusJob job);

G_END_DECLS
