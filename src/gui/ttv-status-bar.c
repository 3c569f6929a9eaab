/* ttv-status-bar.c: a tab's status line (counts, selection, background
 * state) and its job slots (label, progress, one button each). */
#include "ttv-config.h"

#include "ttv-status-bar.h"

#include "ttv-time.h"

#include <glib/gi18n.h>

typedef struct {
  GtkWidget *box;
  GtkWidget *label;
  GtkWidget *progress;
  GtkWidget *button;
  TtvStatusFunc func;
  gpointer user_data;
} Job;

struct _TtvStatusBar {
  GtkBox parent_instance;

  TtvTabState *state;          /* owned reference */
  GtkWidget *summary;
  char *background;            /* owned, may be NULL */
  Job jobs[TTV_STATUS_N_JOBS];
};

G_DEFINE_FINAL_TYPE (TtvStatusBar, ttv_status_bar, GTK_TYPE_BOX)

static void
update_summary (TtvStatusBar *self)
{
  g_autoptr (GString) text = g_string_new (NULL);
  gboolean complete;
  guint64 n = ttv_tab_state_get_event_count (self->state, &complete);
  TtvTime start, end;

  if (complete)
    {
      g_autofree char *count = g_strdup_printf ("%'" G_GUINT64_FORMAT, n);
      g_string_printf (text, ngettext ("%s event", "%s events", (gulong) MIN (n, G_MAXULONG)), count);
    }
  else
    g_string_assign (text, _("events not counted yet"));
  if (*ttv_tab_state_get_filter (self->state))
    {
      gboolean done;
      guint64 matched = ttv_tab_state_get_filter_count (self->state, &done);
      g_autofree char *count = g_strdup_printf ("%'" G_GUINT64_FORMAT, matched);

      g_string_append (text, " · ");
      if (done)
        g_string_append_printf (text, ngettext ("%s matches the filter", "%s match the filter",
                                                (gulong) MIN (matched, G_MAXULONG)), count);
      else
        g_string_append_printf (text, _("%s match the filter so far"), count);
    }
  if (ttv_tab_state_get_selection (self->state, &start, &end))
    {
      g_autofree char *length = ttv_time_dup_duration (end - start);
      g_string_append (text, " · ");
      g_string_append_printf (text, _("selection %s"), length);
    }
  if (self->background && *self->background)
    {
      g_string_append (text, " · ");
      g_string_append (text, self->background);
    }
  gtk_label_set_text (GTK_LABEL (self->summary), text->str);
}

void
ttv_status_bar_set_background (TtvStatusBar *self, const char *text)
{
  g_return_if_fail (TTV_IS_STATUS_BAR (self));
  g_free (self->background);
  self->background = g_strdup (text);
  update_summary (self);
}

static void
job_clicked (GtkButton *button, Job *job)
{
  if (job->func)
    job->func (job->user_data);
}

void
ttv_status_bar_set_job (TtvStatusBar *self, TtvStatusJob which, const char *text, double fraction,
                        const char *button_label, const char *button_tooltip, TtvStatusFunc func,
                        gpointer user_data)
{
  Job *job;

  g_return_if_fail (TTV_IS_STATUS_BAR (self) && which < TTV_STATUS_N_JOBS);
  job = &self->jobs[which];
  gtk_label_set_text (GTK_LABEL (job->label), text);
  gtk_widget_set_visible (job->progress, fraction >= 0);
  if (fraction >= 0)
    gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (job->progress), CLAMP (fraction, 0, 1));
  job->func = button_label ? func : NULL;
  job->user_data = user_data;
  gtk_widget_set_visible (job->button, button_label != NULL);
  if (button_label)
    {
      gtk_button_set_label (GTK_BUTTON (job->button), button_label);
      gtk_widget_set_tooltip_text (job->button, button_tooltip);
    }
  gtk_widget_show (job->box);
}

void
ttv_status_bar_set_fraction (TtvStatusBar *self, TtvStatusJob which, double fraction)
{
  g_return_if_fail (TTV_IS_STATUS_BAR (self) && which < TTV_STATUS_N_JOBS);
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->jobs[which].progress),
                                 CLAMP (fraction, 0, 1));
}

void
ttv_status_bar_clear_job (TtvStatusBar *self, TtvStatusJob which)
{
  g_return_if_fail (TTV_IS_STATUS_BAR (self) && which < TTV_STATUS_N_JOBS);
  self->jobs[which].func = NULL;
  gtk_widget_hide (self->jobs[which].box);
}

const char *
ttv_status_bar_get_summary (TtvStatusBar *self)
{
  g_return_val_if_fail (TTV_IS_STATUS_BAR (self), NULL);
  return gtk_label_get_text (GTK_LABEL (self->summary));
}

const char *
ttv_status_bar_get_job_text (TtvStatusBar *self, TtvStatusJob which)
{
  g_return_val_if_fail (TTV_IS_STATUS_BAR (self) && which < TTV_STATUS_N_JOBS, NULL);
  if (!gtk_widget_get_visible (self->jobs[which].box))
    return NULL;
  return gtk_label_get_text (GTK_LABEL (self->jobs[which].label));
}

gboolean
ttv_status_bar_activate_job (TtvStatusBar *self, TtvStatusJob which)
{
  g_return_val_if_fail (TTV_IS_STATUS_BAR (self) && which < TTV_STATUS_N_JOBS, FALSE);
  if (!gtk_widget_get_visible (self->jobs[which].box) || !self->jobs[which].func)
    return FALSE;
  gtk_button_clicked (GTK_BUTTON (self->jobs[which].button));
  return TRUE;
}

static void
ttv_status_bar_dispose (GObject *object)
{
  TtvStatusBar *self = TTV_STATUS_BAR (object);

  if (self->state)
    g_signal_handlers_disconnect_by_data (self->state, self);
  g_clear_object (&self->state);
  G_OBJECT_CLASS (ttv_status_bar_parent_class)->dispose (object);
}

static void
ttv_status_bar_finalize (GObject *object)
{
  g_free (TTV_STATUS_BAR (object)->background);
  G_OBJECT_CLASS (ttv_status_bar_parent_class)->finalize (object);
}

static void
ttv_status_bar_class_init (TtvStatusBarClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ttv_status_bar_dispose;
  G_OBJECT_CLASS (klass)->finalize = ttv_status_bar_finalize;
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "statusbar");
}

static void
job_init (Job *job, GtkWidget *parent)
{
  job->box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  job->label = gtk_label_new (NULL);
  gtk_label_set_ellipsize (GTK_LABEL (job->label), PANGO_ELLIPSIZE_MIDDLE);
  job->progress = gtk_progress_bar_new ();
  gtk_widget_set_size_request (job->progress, 160, -1);
  gtk_widget_set_valign (job->progress, GTK_ALIGN_CENTER);
  job->button = gtk_button_new ();
  gtk_button_set_use_underline (GTK_BUTTON (job->button), TRUE);
  gtk_button_set_relief (GTK_BUTTON (job->button), GTK_RELIEF_NONE);
  g_signal_connect (job->button, "clicked", G_CALLBACK (job_clicked), job);
  gtk_box_pack_start (GTK_BOX (job->box), job->label, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (job->box), job->progress, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (job->box), job->button, FALSE, FALSE, 0);
  gtk_widget_show_all (job->box);
  gtk_widget_set_no_show_all (job->box, TRUE);
  gtk_widget_hide (job->box);
  gtk_box_pack_end (GTK_BOX (parent), job->box, FALSE, FALSE, 0);
}

static void
ttv_status_bar_init (TtvStatusBar *self)
{
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_HORIZONTAL);
  gtk_box_set_spacing (GTK_BOX (self), 12);
  g_object_set (self, "margin-start", 6, "margin-end", 6, NULL);
  self->summary = gtk_label_new (NULL);
  gtk_widget_set_name (self->summary, "status-summary");
  gtk_label_set_xalign (GTK_LABEL (self->summary), 0);
  gtk_label_set_ellipsize (GTK_LABEL (self->summary), PANGO_ELLIPSIZE_END);
  gtk_label_set_selectable (GTK_LABEL (self->summary), TRUE);
  gtk_widget_set_can_focus (self->summary, FALSE);
  gtk_box_pack_start (GTK_BOX (self), self->summary, TRUE, TRUE, 0);
  for (guint i = 0; i < TTV_STATUS_N_JOBS; i++)
    job_init (&self->jobs[i], GTK_WIDGET (self));
}

GtkWidget *
ttv_status_bar_new (TtvTabState *state)
{
  TtvStatusBar *self = g_object_new (TTV_TYPE_STATUS_BAR, NULL);
  static const char *const signals[] = {
    "traceset-changed", "selection-changed", "density-ready", "filter-changed", "filter-count-changed",
  };

  self->state = g_object_ref (state);
  for (guint i = 0; i < G_N_ELEMENTS (signals); i++)
    g_signal_connect_swapped (state, signals[i], G_CALLBACK (update_summary), self);
  update_summary (self);
  gtk_widget_show_all (GTK_WIDGET (self));
  return GTK_WIDGET (self);
}
