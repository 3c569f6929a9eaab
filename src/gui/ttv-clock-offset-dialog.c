/* ttv-clock-offset-dialog.c: File > Clock Offsets: an entry per trace for
 * the offset of its clock in seconds; Apply corrects the traces (checking
 * every entry first) and the tab reloads its views. */
#include "ttv-config.h"

#include "ttv-clock-offset-dialog.h"

#include "ttv-clock-correction.h"
#include "ttv-tab-state-private.h"

#include <glib/gi18n.h>
#include <math.h>

struct _TtvClockOffsetDialog {
  GtkDialog parent_instance;

  TtvTab *tab;                  /* weak: the dialog goes with its window */
  GPtrArray *entries;           /* of GtkEntry *, one per trace (weak: in the grid) */
  GtkLabel *problem;            /* why Apply did nothing */
};

G_DEFINE_FINAL_TYPE (TtvClockOffsetDialog, ttv_clock_offset_dialog, GTK_TYPE_DIALOG)

/* The offset in seconds as the user would type it: "+0.250000000". */
static char *
dup_seconds (double offset_ns)
{
  char digits[G_ASCII_DTOSTR_BUF_SIZE];

  g_ascii_formatd (digits, sizeof digits, "%.9f", fabs (offset_ns) / 1e9);
  return g_strconcat (offset_ns < 0 ? "-" : "+", digits, NULL);
}

/* Reads every entry into @offsets; FALSE, the first wrong entry marked and
 * said, when one is not a number of seconds. */
static gboolean
read_offsets (TtvClockOffsetDialog *self, TtvTraceset *ts, gint64 *offsets)
{
  gboolean ok = TRUE;

  for (guint t = 0; t < self->entries->len; t++)
    {
      GtkWidget *entry = self->entries->pdata[t];
      GtkStyleContext *style = gtk_widget_get_style_context (entry);
      const char *text = gtk_entry_get_text (GTK_ENTRY (entry));

      if (ttv_clock_offset_parse (text, &offsets[t]))
        {
          gtk_style_context_remove_class (style, GTK_STYLE_CLASS_ERROR);
          continue;
        }
      gtk_style_context_add_class (style, GTK_STYLE_CLASS_ERROR);
      if (ok)
        {
          g_autofree char *message =
            g_strdup_printf (_("%s: “%s” is not an offset in seconds (such as +0.25 or -1.5)"),
                             ttv_traceset_get_trace (ts, t)->name, text);
          gtk_label_set_text (self->problem, message);
          gtk_widget_grab_focus (entry);
        }
      ok = FALSE;
    }
  return ok;
}

static void
ttv_clock_offset_dialog_response (GtkDialog *dialog, gint response)
{
  TtvClockOffsetDialog *self = TTV_CLOCK_OFFSET_DIALOG (dialog);
  TtvTraceset *ts = ttv_tab_state_get_traceset (ttv_tab_get_state (self->tab));
  g_autofree gint64 *offsets = NULL;

  if (response == GTK_RESPONSE_APPLY)
    {
      /* The traceset may have grown since the dialog opened. */
      if (self->entries->len != ttv_traceset_get_n_traces (ts))
        {
          gtk_label_set_text (self->problem, _("The traces changed: close this and open it again"));
          return;
        }
      offsets = g_new0 (gint64, self->entries->len);
      if (!read_offsets (self, ts, offsets))
        return;
      ttv_tab_set_clock_offsets (self->tab, offsets);
    }
  gtk_widget_destroy (GTK_WIDGET (dialog));
}

static void
ttv_clock_offset_dialog_finalize (GObject *object)
{
  TtvClockOffsetDialog *self = TTV_CLOCK_OFFSET_DIALOG (object);

  g_ptr_array_unref (self->entries);
  G_OBJECT_CLASS (ttv_clock_offset_dialog_parent_class)->finalize (object);
}

static void
ttv_clock_offset_dialog_class_init (TtvClockOffsetDialogClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ttv_clock_offset_dialog_finalize;
  GTK_DIALOG_CLASS (klass)->response = ttv_clock_offset_dialog_response;
}

static void
ttv_clock_offset_dialog_init (TtvClockOffsetDialog *self)
{
  self->entries = g_ptr_array_new ();
}

/* A trace's line: its name, its offset, what synchronization set beside. */
static void
add_trace_row (TtvClockOffsetDialog *self, GtkGrid *grid, TtvTrace *trace, gint row)
{
  GtkWidget *name = gtk_label_new (trace->name);
  GtkWidget *entry = gtk_entry_new ();
  g_autofree char *seconds = dup_seconds (trace->clock.offset_ns);

  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_widget_set_tooltip_text (name, trace->display_path ? trace->display_path : trace->path);
  gtk_entry_set_text (GTK_ENTRY (entry), seconds);
  gtk_entry_set_width_chars (GTK_ENTRY (entry), 16);
  gtk_entry_set_activates_default (GTK_ENTRY (entry), TRUE);
  gtk_widget_set_name (entry, "clock-offset");
  gtk_grid_attach (grid, name, 0, row, 1, 1);
  gtk_grid_attach (grid, entry, 1, row, 1, 1);
  gtk_grid_attach (grid, gtk_label_new (_("s")), 2, row, 1, 1);
  if (trace->clock.drift != 0)
    {
      /* A drift found by synchronization goes: say what it was. */
      g_autofree char *formula = ttv_clock_correction_to_string (&trace->clock);
      g_autofree char *text = g_strdup_printf (_("now %s (Apply keeps the offset only)"), formula);
      GtkWidget *now = gtk_label_new (text);

      gtk_widget_set_opacity (now, 0.7);
      gtk_grid_attach (grid, now, 3, row, 1, 1);
    }
  g_ptr_array_add (self->entries, entry);
}

GtkWidget *
ttv_clock_offset_dialog_new (GtkWindow *parent, TtvTab *tab)
{
  TtvClockOffsetDialog *self = g_object_new (TTV_TYPE_CLOCK_OFFSET_DIALOG, "transient-for", parent,
                                             "destroy-with-parent", TRUE, "title", _("Clock Offsets"),
                                             "use-header-bar", FALSE, NULL);
  TtvTraceset *ts = ttv_tab_state_get_traceset (ttv_tab_get_state (tab));
  GtkWidget *content = gtk_dialog_get_content_area (GTK_DIALOG (self));
  GtkWidget *intro = gtk_label_new (_("Each trace's clock is corrected by the offset in seconds added to its "
                                      "times (such as +0.25 or -1.5): traces of machines whose clocks "
                                      "disagree then line up.  The offsets are kept with the traces' "
                                      "bookmarks, where ttv-report finds them too."));
  GtkWidget *grid = gtk_grid_new ();

  self->tab = tab;
  gtk_label_set_line_wrap (GTK_LABEL (intro), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (intro), 60);
  gtk_label_set_xalign (GTK_LABEL (intro), 0);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 8);
  for (guint t = 0; t < ttv_traceset_get_n_traces (ts); t++)
    add_trace_row (self, GTK_GRID (grid), ttv_traceset_get_trace (ts, t), (gint) t);
  self->problem = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_set_name (GTK_WIDGET (self->problem), "clock-offset-problem");
  gtk_label_set_line_wrap (self->problem, TRUE);
  gtk_label_set_xalign (self->problem, 0);
  gtk_container_set_border_width (GTK_CONTAINER (content), 12);
  gtk_box_set_spacing (GTK_BOX (content), 12);
  gtk_box_pack_start (GTK_BOX (content), intro, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (content), grid, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (content), GTK_WIDGET (self->problem), FALSE, FALSE, 0);
  gtk_dialog_add_buttons (GTK_DIALOG (self), _("_Cancel"), GTK_RESPONSE_CANCEL, _("_Apply"),
                          GTK_RESPONSE_APPLY, NULL);
  gtk_dialog_set_default_response (GTK_DIALOG (self), GTK_RESPONSE_APPLY);
  gtk_widget_show_all (content);
  return GTK_WIDGET (self);
}
