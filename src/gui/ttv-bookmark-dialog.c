/* ttv-bookmark-dialog.c: the dialog that adds or edits one bookmark;
 * the tab validates its content and keeps it open on a typing mistake. */
#include "ttv-config.h"

#include "ttv-bookmark-dialog.h"
#include "ttv-time-display.h"

#include "ttv-error.h"

#include <glib/gi18n.h>
#include <stdlib.h>

struct _TtvBookmarkDialog {
  GtkDialog parent_instance;

  GtkEntry *name_entry;
  GtkEntry *text_entry;
  GtkEntry *cpu_entry;
  GtkEntry *start_entry;
  GtkEntry *end_entry;
  GtkLabel *error_label;
  TtvTabState *state;      /* owned: times are shown and read as its tab does */
  TtvTime initial_start, initial_end;
  gint trace_index;
  guint64 start_cycle, end_cycle;
  gboolean has_cycles;
};

G_DEFINE_FINAL_TYPE (TtvBookmarkDialog, ttv_bookmark_dialog, GTK_TYPE_DIALOG)

static void
ttv_bookmark_dialog_finalize (GObject *object)
{
  g_clear_object (&TTV_BOOKMARK_DIALOG (object)->state);
  G_OBJECT_CLASS (ttv_bookmark_dialog_parent_class)->finalize (object);
}

static void
ttv_bookmark_dialog_class_init (TtvBookmarkDialogClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = ttv_bookmark_dialog_finalize;
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/ttv/Viewer/ttv-bookmark-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, TtvBookmarkDialog, name_entry);
  gtk_widget_class_bind_template_child (widget_class, TtvBookmarkDialog, text_entry);
  gtk_widget_class_bind_template_child (widget_class, TtvBookmarkDialog, cpu_entry);
  gtk_widget_class_bind_template_child (widget_class, TtvBookmarkDialog, start_entry);
  gtk_widget_class_bind_template_child (widget_class, TtvBookmarkDialog, end_entry);
  gtk_widget_class_bind_template_child (widget_class, TtvBookmarkDialog, error_label);
}

static void
ttv_bookmark_dialog_init (TtvBookmarkDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
ttv_bookmark_dialog_new (GtkWindow *parent, const char *title, TtvTabState *state,
                         const TtvViewerBookmark *initial)
{
  TtvBookmarkDialog *self = g_object_new (TTV_TYPE_BOOKMARK_DIALOG, "transient-for", parent,
                                          "title", title, NULL);
  g_autofree char *start = ttv_tab_state_format_time (state, initial->start);
  g_autofree char *end = ttv_tab_state_format_time (state, initial->end);

  self->state = g_object_ref (state);
  self->initial_start = initial->start;
  self->initial_end = initial->end;
  gtk_entry_set_text (self->name_entry, initial->name);
  gtk_entry_set_text (self->text_entry, initial->text);
  if (initial->cpu >= 0)
    {
      g_autofree char *cpu = g_strdup_printf ("%d", initial->cpu);
      gtk_entry_set_text (self->cpu_entry, cpu);
    }
  gtk_entry_set_text (self->start_entry, start);
  gtk_entry_set_text (self->end_entry, end);
  self->trace_index = initial->trace_index;
  self->has_cycles = initial->has_cycles;
  self->start_cycle = initial->start_cycle;
  self->end_cycle = initial->end_cycle;
  if (initial->has_cycles)
    {
      /* Cycle bookmarks keep their cycles: times are not editable. */
      gtk_widget_set_sensitive (GTK_WIDGET (self->start_entry), FALSE);
      gtk_widget_set_sensitive (GTK_WIDGET (self->end_entry), FALSE);
    }
  gtk_widget_grab_focus (GTK_WIDGET (self->name_entry));
  return GTK_WIDGET (self);
}

/* The time typed in @entry, in any form the time entries read; FALSE with
 * @error naming the entry (@label) and what is wrong. */
static gboolean
read_time (TtvBookmarkDialog *self, GtkEntry *entry, const char *label, TtvTime near, TtvTime *time,
           GError **error)
{
  g_autoptr (GError) parse_error = NULL;

  if (ttv_time_display_parse (self->state, gtk_entry_get_text (entry), near, time, &parse_error))
    return TRUE;
  /* TRANSLATORS: "Start" or "End", then why the typed text is not a time */
  g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT, _("%s: %s"), label,
               parse_error->message);
  return FALSE;
}

TtvViewerBookmark *
ttv_bookmark_dialog_dup_bookmark (TtvBookmarkDialog *self, GError **error)
{
  const char *cpu_text = gtk_entry_get_text (self->cpu_entry);
  TtvTime start = 0, end = 0;
  gint64 cpu = -1;
  TtvViewerBookmark *b;

  if (!read_time (self, self->start_entry, _("Start"), self->initial_start, &start, error)
      || !read_time (self, self->end_entry, _("End"), self->initial_end, &end, error))
    return NULL;
  if (*cpu_text && (!g_ascii_string_to_signed (cpu_text, 10, 0, G_MAXINT32, &cpu, NULL)))
    {
      g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                   _("CPU: “%s” is not a CPU number"), cpu_text);
      return NULL;
    }
  b = ttv_viewer_bookmark_new (gtk_entry_get_text (self->name_entry),
                               gtk_entry_get_text (self->text_entry), (gint) cpu, start, end);
  b->trace_index = self->trace_index;
  b->has_cycles = self->has_cycles;
  b->start_cycle = self->start_cycle;
  b->end_cycle = self->end_cycle;
  return b;
}

void
ttv_bookmark_dialog_show_error (TtvBookmarkDialog *self, const char *message)
{
  gtk_label_set_text (self->error_label, message);
  gtk_widget_show (GTK_WIDGET (self->error_label));
}
