/* ttv-event-column-view.h: the columns of the event list's tree view: sized
 * from what they show, shown, hidden and resized by the user through a menu
 * (header right-click, Shift+F10, the Columns button) that also chooses the
 * time format; the choices are kept in the settings. */
#pragma once

#include "ttv-event-columns.h"

G_BEGIN_DECLS

typedef struct _TtvEventColumnView TtvEventColumnView;

/* The model of the view holds the texts at the TtvEventColumn indexes,
 * then the style of a row (PangoStyle) at @style_column and its
 * foreground colour name (NULL: the theme's) after it, then the machine
 * of the row's event (guint: its PID is a thread of that machine).  The columns are added to @view; the menu's
 * actions ("evlist.column-NAME", "evlist.time-format") go on @owner, an
 * ancestor of @view and of the Columns button. */
TtvEventColumnView *ttv_event_column_view_new (GtkWidget *owner, GtkTreeView *view,
                                               TtvTabState *state, gint style_column);
void        ttv_event_column_view_free (TtvEventColumnView *columns);
/* The columns shown: a set of TTV_EVENT_COLUMN_BIT. */
guint       ttv_event_column_view_get_visible (TtvEventColumnView *columns);
/* Widths from the content and default visibility again (the traceset or
 * the time format changed); what the user chose stays. */
void        ttv_event_column_view_update (TtvEventColumnView *columns);
/* The view is @available pixels wide: widths are fitted to it. */
void        ttv_event_column_view_fit (TtvEventColumnView *columns, gint available);
/* A button opening the menu. */
GtkWidget  *ttv_event_column_view_new_button (TtvEventColumnView *columns);
/* Opens the menu at the pointer of @event, or under the view's header
 * when NULL (from the keyboard). */
void        ttv_event_column_view_popup (TtvEventColumnView *columns, const GdkEvent *event);

G_END_DECLS
