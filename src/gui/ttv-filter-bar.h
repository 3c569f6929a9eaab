/* ttv-filter-bar.h: the filter bar of a tab: edits the tab's filter
 * expression, shows parse errors where they are, keeps a history. */
#pragma once

#include "ttv-viewer.h"

G_BEGIN_DECLS

#define TTV_TYPE_FILTER_BAR (ttv_filter_bar_get_type ())
G_DECLARE_FINAL_TYPE (TtvFilterBar, ttv_filter_bar, TTV, FILTER_BAR, GtkBox)

GtkWidget  *ttv_filter_bar_new (TtvTabState *state);
/* Puts the keyboard focus in the expression entry. */
void        ttv_filter_bar_focus (TtvFilterBar *bar);
/* Applies @text as if typed and Enter pressed; FALSE (and the error shown
 * in the bar) when it does not parse. */
gboolean    ttv_filter_bar_apply (TtvFilterBar *bar, const char *text);

G_END_DECLS
