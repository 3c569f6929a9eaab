/* ttv-resources-viewer.c: the resources viewer module: one row per CPU
 * (idle, or the running task's mode), IRQ and soft IRQ (active) and block
 * device (busy), from the state history.  Drawing and navigation:
 * modules/common/ttv-timeline.c, shared with the control flow viewer. */
#include "ttv-timeline.h"

#include <glib/gi18n-lib.h>

#define TTV_TYPE_RESOURCES_VIEWER (ttv_resources_viewer_get_type ())
G_DECLARE_FINAL_TYPE (TtvResourcesViewer, ttv_resources_viewer, TTV, RESOURCES_VIEWER, GtkBox)

struct _TtvResourcesViewer {
  GtkBox parent_instance;

  TtvTabState *state;          /* owned reference */
  gulong handlers[2];
  GSimpleActionGroup *actions; /* owned */
  TtvTimeline *timeline;       /* weak: a child */
};

G_DEFINE_FINAL_TYPE (TtvResourcesViewer, ttv_resources_viewer, GTK_TYPE_BOX)

static char *
row_label (TtvHistoryRowKind kind, const TtvHistoryRowInfo *info)
{
  const char *name = info->name && *info->name ? info->name : NULL;

  switch (kind)
    {
    case TTV_HISTORY_ROW_CPU:
      return g_strdup_printf (_("CPU %u"), info->id);
    case TTV_HISTORY_ROW_IRQ:
      return name ? g_strdup_printf (_("IRQ %u %s"), info->id, name) : g_strdup_printf (_("IRQ %u"), info->id);
    case TTV_HISTORY_ROW_SOFTIRQ:
      return name ? g_strdup_printf (_("Soft IRQ %u %s"), info->id, name)
                  : g_strdup_printf (_("Soft IRQ %u"), info->id);
    default:
      return name ? g_strdup_printf (_("Block device %u:%u %s"), info->id >> 20, info->id & 0xfffff, name)
                  : g_strdup_printf (_("Block device %u:%u"), info->id >> 20, info->id & 0xfffff);
    }
}

static void
history_changed (TtvResourcesViewer *self)
{
  g_autoptr (TtvViewerHistory) h = ttv_tab_state_dup_history (self->state);
  static const TtvHistoryRowKind kinds[] = {
    TTV_HISTORY_ROW_CPU, TTV_HISTORY_ROW_IRQ, TTV_HISTORY_ROW_SOFTIRQ, TTV_HISTORY_ROW_BLOCKDEV,
  };
  GPtrArray *rows;

  if (h == ttv_timeline_get_history (self->timeline))
    return;
  ttv_timeline_set_history (self->timeline, h);
  if (!h)
    return;
  rows = g_ptr_array_new_with_free_func ((GDestroyNotify) ttv_timeline_row_free);
  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    for (guint i = 0; i < ttv_viewer_history_get_n_rows (h, kinds[k]); i++)
      {
        g_autofree char *label = row_label (kinds[k], ttv_viewer_history_get_row (h, kinds[k], i));

        g_ptr_array_add (rows, ttv_timeline_row_new (kinds[k], i, label));
      }
  ttv_timeline_set_rows (self->timeline, rows);
}

static void
ttv_resources_viewer_dispose (GObject *object)
{
  TtvResourcesViewer *self = TTV_RESOURCES_VIEWER (object);

  if (self->state)
    for (guint i = 0; i < G_N_ELEMENTS (self->handlers); i++)
      g_clear_signal_handler (&self->handlers[i], self->state);
  g_clear_object (&self->state);
  g_clear_object (&self->actions);
  G_OBJECT_CLASS (ttv_resources_viewer_parent_class)->dispose (object);
}

static void
ttv_resources_viewer_class_init (TtvResourcesViewerClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ttv_resources_viewer_dispose;
}

static void
ttv_resources_viewer_init (TtvResourcesViewer *self)
{
}

static GtkWidget *
ttv_resources_viewer_new (TtvTabState *state)
{
  static const TtvPaletteColor legend[] = {
    TTV_PALETTE_CPU_IDLE, TTV_PALETTE_RUN_USER, TTV_PALETTE_RUN_SYSCALL,
    TTV_PALETTE_RUN_TRAP, TTV_PALETTE_RUN_IRQ, TTV_PALETTE_RUN_SOFTIRQ,
    TTV_PALETTE_IRQ_ACTIVE, TTV_PALETTE_BLOCKDEV_BUSY, TTV_PALETTE_UNKNOWN,
  };
  TtvResourcesViewer *self = g_object_new (TTV_TYPE_RESOURCES_VIEWER,
                                           "orientation", GTK_ORIENTATION_VERTICAL, NULL);
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *w;

  self->state = g_object_ref (state);
  self->actions = g_simple_action_group_new ();
  self->timeline = TTV_TIMELINE (ttv_timeline_new (state, legend, G_N_ELEMENTS (legend)));
  ttv_timeline_add_actions (self->timeline, G_ACTION_MAP (self->actions));
  gtk_widget_insert_action_group (GTK_WIDGET (self), "resources", G_ACTION_GROUP (self->actions));

  gtk_container_set_border_width (GTK_CONTAINER (bar), 4);
  w = gtk_label_new (_("Ctrl+wheel zooms, drag pans, click sets the current time, "
                       "right-drag or Shift+drag selects"));
  gtk_widget_set_opacity (w, 0.7);
  gtk_box_pack_start (GTK_BOX (bar), w, FALSE, FALSE, 0);
  w = gtk_button_new_with_mnemonic (_("E_xport…"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (w), "resources.export-dialog");
  gtk_box_pack_end (GTK_BOX (bar), w, FALSE, FALSE, 0);
  w = gtk_button_new_with_mnemonic (_("Co_lours…"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (w), "resources.edit-colors");
  gtk_box_pack_end (GTK_BOX (bar), w, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (self), bar, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (self), GTK_WIDGET (self->timeline), TRUE, TRUE, 0);

  self->handlers[0] = g_signal_connect_swapped (state, "statistics-changed", G_CALLBACK (history_changed), self);
  self->handlers[1] = g_signal_connect_swapped (state, "traceset-changed", G_CALLBACK (history_changed), self);
  history_changed (self);
  gtk_widget_show_all (GTK_WIDGET (self));
  return GTK_WIDGET (self);
}

static const TtvViewerInfo info = {
  .name = "resources",
  .title = N_("Resources"),
  .icon_name = "computer-symbolic",
  .menu_label = N_("_Resources"),
  .new_viewer = ttv_resources_viewer_new,
};

TTV_VIEWER_MODULE (resources_init)

static void
resources_init (void)
{
  TtvViewerInfo copy = info;

  copy.title = g_dgettext (GETTEXT_PACKAGE, info.title);
  copy.menu_label = g_dgettext (GETTEXT_PACKAGE, info.menu_label);
  ttv_viewer_register (&copy);
}
