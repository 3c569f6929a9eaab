/* ttv-filter-bar.c: the filter bar under a tab's time bar.  Enter applies
 * the expression to the tab (every view follows "filter-changed"); an
 * expression that does not parse is marked in place with the parser's
 * message and leaves the tab's filter as it was.  Applied expressions go to
 * a history shared by every tab (GSettings filter-history, most recent
 * first), offered by the entry's drop-down list. */
#include "ttv-config.h"

#include "ttv-filter-bar.h"

#include "ttv-settings.h"

#include <glib/gi18n.h>
#include <string.h>

#define HISTORY_MAX 20

struct _TtvFilterBar {
  GtkBox parent_instance;

  TtvTabState *state;           /* owned reference */
  gulong handlers[3];
  GSettings *settings;          /* owned, NULL without the schema */
  GPtrArray *history;           /* of char *, owned: used without settings */
  GtkComboBoxText *combo;
  GtkEntry *entry;
  GtkLabel *status;
  gboolean applying;            /* our own set_filter: no echo back */
};

G_DEFINE_FINAL_TYPE (TtvFilterBar, ttv_filter_bar, GTK_TYPE_BOX)

/* --- History --------------------------------------------------------------- */

static GStrv
dup_history (TtvFilterBar *self)
{
  if (self->settings)
    return g_settings_get_strv (self->settings, "filter-history");
  g_ptr_array_add (self->history, NULL);
  GStrv copy = g_strdupv ((char **) self->history->pdata);
  g_ptr_array_remove_index (self->history, self->history->len - 1);
  return copy;
}

static void
fill_combo (TtvFilterBar *self)
{
  g_auto (GStrv) items = dup_history (self);
  g_autofree char *text = g_strdup (gtk_entry_get_text (self->entry));

  /* Removing the items must not touch what the user is typing. */
  gtk_combo_box_text_remove_all (self->combo);
  for (guint i = 0; items[i]; i++)
    gtk_combo_box_text_append_text (self->combo, items[i]);
  gtk_entry_set_text (self->entry, text);
}

static void
remember (TtvFilterBar *self, const char *text)
{
  g_auto (GStrv) old = dup_history (self);
  g_autoptr (GPtrArray) items = g_ptr_array_new ();

  g_ptr_array_add (items, (char *) text);
  for (guint i = 0; old[i] && items->len < HISTORY_MAX; i++)
    if (strcmp (old[i], text) != 0)
      g_ptr_array_add (items, old[i]);
  g_ptr_array_add (items, NULL);
  if (self->settings)
    g_settings_set_strv (self->settings, "filter-history", (const char *const *) items->pdata);
  else
    {
      g_ptr_array_set_size (self->history, 0);
      for (guint i = 0; items->pdata[i]; i++)
        g_ptr_array_add (self->history, g_strdup (items->pdata[i]));
      fill_combo (self);
    }
}

/* --- Status ---------------------------------------------------------------- */

static void
show_error (TtvFilterBar *self, const char *message)
{
  GtkStyleContext *style = gtk_widget_get_style_context (GTK_WIDGET (self->entry));

  if (message)
    {
      gtk_style_context_add_class (style, GTK_STYLE_CLASS_ERROR);
      gtk_entry_set_icon_from_icon_name (self->entry, GTK_ENTRY_ICON_SECONDARY, "dialog-error-symbolic");
      gtk_entry_set_icon_tooltip_text (self->entry, GTK_ENTRY_ICON_SECONDARY, message);
      gtk_label_set_text (self->status, message);
    }
  else
    {
      gtk_style_context_remove_class (style, GTK_STYLE_CLASS_ERROR);
      gtk_entry_set_icon_from_icon_name (self->entry, GTK_ENTRY_ICON_SECONDARY, NULL);
    }
}

/* What the tab's filter does right now, under the entry's error if any:
 * how many events match (counted in the background). */
static void
update_status (TtvFilterBar *self)
{
  const char *filter = ttv_tab_state_get_filter (self->state);
  gboolean complete, counted;
  guint64 matched = ttv_tab_state_get_filter_count (self->state, &complete);
  guint64 total = ttv_tab_state_get_event_count (self->state, &counted);
  g_autofree char *n = g_strdup_printf ("%'" G_GUINT64_FORMAT, matched);
  g_autofree char *text = NULL;

  if (!*filter)
    text = g_strdup ("");
  else if (ttv_tab_state_filter_needs_state (self->state) && !ttv_tab_state_is_state_ready (self->state))
    text = g_strdup (_("Filtering; state.* terms apply once the state is computed"));
  else if (!complete)
    text = g_strdup_printf (_("Counting matching events… %s"), n);
  else if (counted)
    {
      g_autofree char *all = g_strdup_printf ("%'" G_GUINT64_FORMAT, total);
      text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s of %s event matches", "%s of %s events match",
                                           (gulong) MIN (total, G_MAXULONG)), n, all);
    }
  else
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s event matches", "%s events match",
                                         (gulong) MIN (matched, G_MAXULONG)), n);
  gtk_label_set_text (self->status, text);
}

/* --- Applying ---------------------------------------------------------------- */

gboolean
ttv_filter_bar_apply (TtvFilterBar *self, const char *text)
{
  g_autoptr (GError) error = NULL;
  gboolean ok;

  g_return_val_if_fail (TTV_IS_FILTER_BAR (self), FALSE);

  self->applying = TRUE;
  ok = ttv_tab_state_set_filter (self->state, text, &error);
  self->applying = FALSE;
  if (!ok)
    {
      g_autofree char *message = g_strdup_printf (_("Filter not applied: %s"), error->message);
      show_error (self, message);
      return FALSE;
    }
  show_error (self, NULL);
  if (strcmp (gtk_entry_get_text (self->entry), text) != 0)
    gtk_entry_set_text (self->entry, text);
  if (*ttv_tab_state_get_filter (self->state))
    remember (self, ttv_tab_state_get_filter (self->state));
  update_status (self);
  return TRUE;
}

static void
entry_activated (GtkEntry *entry, TtvFilterBar *self)
{
  ttv_filter_bar_apply (self, gtk_entry_get_text (entry));
}

/* A choice from the drop-down list applies at once. */
static void
combo_changed (GtkComboBox *combo, TtvFilterBar *self)
{
  g_autofree char *text = NULL;

  if (gtk_combo_box_get_active (combo) < 0)
    {
      /* Typing: the error mark is about the applied text, not this one. */
      show_error (self, NULL);
      return;
    }
  text = gtk_combo_box_text_get_active_text (GTK_COMBO_BOX_TEXT (combo));
  ttv_filter_bar_apply (self, text);
}

static void
clear_clicked (TtvFilterBar *self)
{
  gtk_entry_set_text (self->entry, "");
  ttv_filter_bar_apply (self, "");
}

static gboolean
entry_key (GtkWidget *widget, GdkEventKey *ev, TtvFilterBar *self)
{
  if (ev->keyval == GDK_KEY_Escape)
    {
      /* Back to the applied filter. */
      gtk_entry_set_text (self->entry, ttv_tab_state_get_filter (self->state));
      show_error (self, NULL);
      update_status (self);
      return GDK_EVENT_STOP;
    }
  return GDK_EVENT_PROPAGATE;
}

/* The filter set elsewhere (a test, another widget): show it. */
static void
filter_changed (TtvFilterBar *self)
{
  if (!self->applying)
    {
      gtk_entry_set_text (self->entry, ttv_tab_state_get_filter (self->state));
      show_error (self, NULL);
    }
  update_status (self);
}

void
ttv_filter_bar_focus (TtvFilterBar *self)
{
  g_return_if_fail (TTV_IS_FILTER_BAR (self));
  gtk_widget_grab_focus (GTK_WIDGET (self->entry));
}

/* --- Construction ------------------------------------------------------------ */

static void
ttv_filter_bar_dispose (GObject *object)
{
  TtvFilterBar *self = TTV_FILTER_BAR (object);

  if (self->state)
    for (guint i = 0; i < G_N_ELEMENTS (self->handlers); i++)
      g_clear_signal_handler (&self->handlers[i], self->state);
  g_clear_object (&self->state);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->history, g_ptr_array_unref);
  G_OBJECT_CLASS (ttv_filter_bar_parent_class)->dispose (object);
}

static void
ttv_filter_bar_class_init (TtvFilterBarClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ttv_filter_bar_dispose;
}

static void
ttv_filter_bar_init (TtvFilterBar *self)
{
}

GtkWidget *
ttv_filter_bar_new (TtvTabState *state)
{
  TtvFilterBar *self = g_object_new (TTV_TYPE_FILTER_BAR, "orientation", GTK_ORIENTATION_HORIZONTAL,
                                     "spacing", 6, "border-width", 2, NULL);
  GtkWidget *label = gtk_label_new_with_mnemonic (_("Fi_lter"));
  GtkWidget *clear = gtk_button_new_from_icon_name ("edit-clear-symbolic", GTK_ICON_SIZE_BUTTON);

  self->state = g_object_ref (state);
  self->settings = ttv_settings_dup_with_key ("filter-history");
  self->history = g_ptr_array_new_with_free_func (g_free);
  self->combo = GTK_COMBO_BOX_TEXT (gtk_combo_box_text_new_with_entry ());
  self->entry = GTK_ENTRY (gtk_bin_get_child (GTK_BIN (self->combo)));
  gtk_entry_set_placeholder_text (self->entry, _("Filter expression, e.g. event.name = sched_* & cpu = 0"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->entry),
                               _("Show only the events that match (Enter applies, Esc reverts).  "
                                 "Names: event.name, event.field.NAME, event.time, cpu, trace.name, "
                                 "state.pid, state.process_name, state.exec_mode, state.syscall; "
                                 "operators = != < <= > >= & | ! ( ).  A single word filters event "
                                 "names containing it."));
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), GTK_WIDGET (self->entry));
  gtk_widget_set_tooltip_text (clear, _("Show every event"));
  self->status = GTK_LABEL (gtk_label_new (""));
  gtk_widget_set_name (GTK_WIDGET (self->status), "filter-status");
  gtk_label_set_ellipsize (self->status, PANGO_ELLIPSIZE_END);
  gtk_label_set_xalign (self->status, 0);
  gtk_label_set_width_chars (self->status, 20);

  gtk_box_pack_start (GTK_BOX (self), label, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (self), GTK_WIDGET (self->combo), TRUE, TRUE, 0);
  gtk_box_pack_start (GTK_BOX (self), clear, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (self), GTK_WIDGET (self->status), FALSE, TRUE, 0);

  g_signal_connect (self->entry, "activate", G_CALLBACK (entry_activated), self);
  g_signal_connect (self->entry, "key-press-event", G_CALLBACK (entry_key), self);
  g_signal_connect (self->combo, "changed", G_CALLBACK (combo_changed), self);
  g_signal_connect_swapped (clear, "clicked", G_CALLBACK (clear_clicked), self);
  if (self->settings)
    g_signal_connect_object (self->settings, "changed::filter-history", G_CALLBACK (fill_combo), self,
                             G_CONNECT_SWAPPED);
  self->handlers[0] = g_signal_connect_swapped (state, "filter-changed", G_CALLBACK (filter_changed), self);
  self->handlers[1] = g_signal_connect_swapped (state, "state-ready", G_CALLBACK (update_status), self);
  self->handlers[2] = g_signal_connect_swapped (state, "filter-count-changed", G_CALLBACK (update_status), self);
  fill_combo (self);
  gtk_entry_set_text (self->entry, ttv_tab_state_get_filter (state));
  update_status (self);
  gtk_widget_show_all (GTK_WIDGET (self));
  return GTK_WIDGET (self);
}
