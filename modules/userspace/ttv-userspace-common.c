/* ttv-userspace-common.c: colours, byte counts, the interval, text, the
 * waiting for an analysis and the status line (see ttv-userspace-common.h). */
#include "ttv-userspace-common.h"
#include "ttv-view-text.h"

#include <glib/gi18n-lib.h>
#include <math.h>

void
ttv_userspace_function_rgb (guint32 function, double rgb[3])
{
  /* Warm hues (red to yellow), as flame graphs are drawn; neighbours differ. */
  guint32 h = function * 2654435761u;
  double hue = (h % 1000) / 1000.0 * 55.0;             /* 0..55 degrees */
  double light = 0.62 + ((h >> 10) % 100) / 100.0 * 0.18;
  double sat = 0.70;
  double c = (1 - fabs (2 * light - 1)) * sat;
  double x = c * (1 - fabs (fmod (hue / 60.0, 2) - 1));
  double m = light - c / 2;
  rgb[0] = c + m;
  rgb[1] = x + m;
  rgb[2] = m;
}

GStrv
ttv_userspace_dup_machine_names (TtvTabState *state)
{
  guint n = ttv_tab_state_get_n_machines (state);
  if (n < 2)
    return NULL;
  GStrv names = g_new0 (char *, n + 1);
  for (guint m = 0; m < n; m++)
    names[m] = g_strdup (ttv_tab_state_get_machine_name (state, m));
  return names;
}

/* "beta: prog [42]", or @label alone without a machine. */
static char *
label_after_machine (const char *machine, const char *label)
{
  return machine ? g_strdup_printf ("%s: %s", machine, label) : g_strdup (label);
}

char *
ttv_userspace_label_on_machine (const char *const *machines, guint machine, const char *label)
{
  gboolean named = machines != NULL && machine < g_strv_length ((GStrv) machines);
  return label_after_machine (named ? machines[machine] : NULL, label);
}

char *
ttv_userspace_dup_machine_label (TtvTabState *state, guint machine, const char *label)
{
  /* Called per row while painting: the tab's names, not a copy of them. */
  guint n = ttv_tab_state_get_n_machines (state);
  return label_after_machine (n > 1 && machine < n ? ttv_tab_state_get_machine_name (state, machine) : NULL, label);
}

char *
ttv_userspace_format_bytes (guint64 bytes)
{
  static const char *const units[] = { "KiB", "MiB", "GiB", "TiB" };
  if (bytes < 1024)
    return g_strdup_printf ("%" G_GUINT64_FORMAT " B", bytes);
  double v = (double) bytes;
  guint u = 0;
  for (v /= 1024; v >= 1024 && u + 1 < G_N_ELEMENTS (units); u++)
    v /= 1024;
  return g_strdup_printf (v < 10 ? "%.2f %s" : v < 100 ? "%.1f %s" : "%.0f %s", v, units[u]);
}

void
ttv_userspace_get_interval (TtvTabState *state, TtvTime *t0, TtvTime *t1)
{
  if (!ttv_tab_state_get_selection (state, t0, t1) || *t1 <= *t0)
    ttv_tab_state_get_time_window (state, t0, t1);
}

gboolean
ttv_userspace_show_text (cairo_t *cr, double x, double y, double max_width, const char *text)
{
  cairo_text_extents_t ext;
  ttv_view_text_extents (cr, text, &ext);
  if (ext.x_advance <= max_width)
    {
      cairo_move_to (cr, x, y);
      ttv_view_show_text (cr, text);
      return TRUE;
    }
  /* Cut at a character boundary, with an ellipsis. */
  glong n = g_utf8_strlen (text, -1);
  g_autofree char *cut = NULL;
  for (glong keep = n - 1; keep > 0; keep--)
    {
      g_free (cut);
      const char *end = g_utf8_offset_to_pointer (text, keep);
      cut = g_strdup_printf ("%.*s…", (int) (end - text), text);
      ttv_view_text_extents (cr, cut, &ext);
      if (ext.x_advance <= max_width)
        {
          cairo_move_to (cr, x, y);
          ttv_view_show_text (cr, cut);
          return TRUE;
        }
      if (keep > 64)   /* long names: shrink faster */
        keep = keep * 3 / 4;
    }
  return FALSE;
}

struct _TtvUserspaceWait {
  TtvTabState *state;           /* owned reference */
  TtvViewerUserspaceAnalysis which;
  GtkLabel *label;              /* weak */
  void (*ready) (gpointer data);
  gpointer data;
  guint poll;                   /* timeout source, 0 when idle */
  gulong handler;
};

static gboolean
poll_progress (gpointer data)
{
  TtvUserspaceWait *w = data;
  double percent = 100 * ttv_tab_state_get_userspace_progress (w->state, w->which);
  g_autofree char *text = NULL;
  switch (w->which)
    {
    case TTV_VIEWER_USERSPACE_CALLSTACKS:
      text = g_strdup_printf (_("Computing the call stacks… %.0f%%"), percent);
      break;
    case TTV_VIEWER_USERSPACE_MEMORY:
      text = g_strdup_printf (_("Computing the memory in use… %.0f%%"), percent);
      break;
    default:
      text = g_strdup_printf (_("Reading the traced binaries… %.0f%%"), percent);
      break;
    }
  gtk_label_set_text (w->label, text);
  return G_SOURCE_CONTINUE;
}

static void
on_ready (TtvTabState *state, TtvUserspaceWait *w)
{
  const GError *error = ttv_tab_state_get_userspace_error (state, w->which);
  if (ttv_tab_state_get_userspace_progress (state, w->which) >= 1 || error)
    {
      g_clear_handle_id (&w->poll, g_source_remove);
      if (error)
        gtk_label_set_text (w->label, error->message);
    }
  w->ready (w->data);
}

TtvUserspaceWait *
ttv_userspace_wait_new (TtvTabState *state, TtvViewerUserspaceAnalysis which, GtkLabel *label,
                        void (*ready) (gpointer data), gpointer data)
{
  TtvUserspaceWait *w = g_new0 (TtvUserspaceWait, 1);
  w->state = g_object_ref (state);
  w->which = which;
  w->label = label;
  w->ready = ready;
  w->data = data;
  w->handler = g_signal_connect (state, "userspace-ready", G_CALLBACK (on_ready), w);
  ttv_userspace_wait_start (w);
  return w;
}

void
ttv_userspace_wait_start (TtvUserspaceWait *w)
{
  if (ttv_tab_state_request_userspace (w->state, w->which))
    return;
  if (!w->poll)
    w->poll = g_timeout_add (200, poll_progress, w);
  poll_progress (w);
}

void
ttv_userspace_wait_free (TtvUserspaceWait *w)
{
  if (w == NULL)
    return;
  g_clear_handle_id (&w->poll, g_source_remove);
  g_signal_handler_disconnect (w->state, w->handler);
  g_object_unref (w->state);
  g_free (w);
}

void
ttv_userspace_take_callstacks (TtvTabState *state, TtvUserspaceWait *wait, GtkLabel *status,
                               TtvViewerCallstacks **cs)
{
  g_clear_pointer (cs, ttv_viewer_callstacks_unref);
  *cs = ttv_tab_state_dup_callstacks (state);
  if (*cs == NULL && ttv_tab_state_get_userspace_error (state, TTV_VIEWER_USERSPACE_CALLSTACKS) == NULL)
    ttv_userspace_wait_start (wait);   /* dropped with the old traceset: ask again */
  else if (*cs && ttv_viewer_callstacks_get_n_threads (*cs) == 0 && status)
    gtk_label_set_text (status, _("No function entry or exit in these traces: trace a program built with "
                                  "-finstrument-functions under LD_PRELOAD=liblttng-ust-cyg-profile.so."));
}

GtkLabel *
ttv_userspace_status_new (GtkBox *view)
{
  GtkLabel *status = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (status, 0);
  gtk_label_set_ellipsize (status, PANGO_ELLIPSIZE_END);
  gtk_widget_set_margin_start (GTK_WIDGET (status), 6);
  gtk_box_pack_start (view, GTK_WIDGET (status), FALSE, FALSE, 2);
  return status;
}

void
ttv_userspace_follow_time_view (TtvTabState *state, gulong handlers[TTV_USERSPACE_TIME_VIEW_HANDLERS],
                                GCallback redraw, GCallback traceset_changed, gpointer view)
{
  static const char *const redraws[] = { "time-window-changed", "current-time-changed", "selection-changed",
                                         "time-format-changed" };
  G_STATIC_ASSERT (G_N_ELEMENTS (redraws) + 1 == TTV_USERSPACE_TIME_VIEW_HANDLERS);
  for (guint i = 0; i < G_N_ELEMENTS (redraws); i++)
    handlers[i] = g_signal_connect_swapped (state, redraws[i], redraw, view);
  handlers[G_N_ELEMENTS (redraws)] = g_signal_connect_swapped (state, "traceset-changed", traceset_changed, view);
}
