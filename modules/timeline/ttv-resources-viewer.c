/* ttv-resources-viewer.c: the resources viewer of the time-line module: one row per CPU
 * (idle, or the running task's mode, with its name when zoomed in), IRQ and
 * soft IRQ (active, named as the history names them) and block device
 * (busy), from the state history; rows searched and
 * hidden when idle.  Drawing and navigation: ttv-timeline*.c,
 * shared with the control flow viewer. */
#include "ttv-timeline-view.h"
#include "ttv-timeline-viewers.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#define TTV_TYPE_RESOURCES_VIEWER (ttv_resources_viewer_get_type ())
G_DECLARE_FINAL_TYPE (TtvResourcesViewer, ttv_resources_viewer, TTV, RESOURCES_VIEWER, GtkBox)

struct _TtvResourcesViewer {
  GtkBox parent_instance;

  TtvTabState *state;          /* owned reference */
  gulong handlers[4];
  GSimpleActionGroup *actions; /* owned */
  TtvTimeline *timeline;       /* weak: a child */
  GtkWidget *search;
  GtkWidget *count_label;
  gint followed_cpu;           /* the CPU followed (its row's menu), -1: none */
  guint followed_machine;      /* its machine */
  guint menu_machine;          /* the machine of the row whose menu was last opened */
};

G_DEFINE_FINAL_TYPE (TtvResourcesViewer, ttv_resources_viewer, GTK_TYPE_BOX)

/* The history names soft IRQs as the trace does (LTT's enumeration) or as
 * Linux does (LTTng 2), devices by their numbers when it knows no other. */
static char *
row_label (TtvViewerRowKind kind, const TtvViewerRowInfo *info)
{
  const char *name = info->name && *info->name ? info->name : NULL;

  switch (kind)
    {
    case TTV_VIEWER_ROW_CPU:
      return g_strdup_printf (_("CPU %u"), info->id);
    case TTV_VIEWER_ROW_IRQ:
      return name ? g_strdup_printf (_("IRQ %u %s"), info->id, name) : g_strdup_printf (_("IRQ %u"), info->id);
    case TTV_VIEWER_ROW_SOFTIRQ:
      return name ? g_strdup_printf (_("Soft IRQ %u %s"), info->id, name)
                  : g_strdup_printf (_("Soft IRQ %u"), info->id);
    default:
      {
        g_autofree char *number = g_strdup_printf ("%u:%u", info->id >> 20, info->id & 0xfffff);

        /* The history names a device by its numbers when it knows no other. */
        if (name && strcmp (name, number) != 0)
          return g_strdup_printf (_("Block device %s (%s)"), name, number);
        return g_strdup_printf (_("Block device %s"), number);
      }
    }
}

static const TtvPaletteColor legend[] = {
  TTV_PALETTE_CPU_IDLE, TTV_PALETTE_RUN_USER, TTV_PALETTE_RUN_SYSCALL,
  TTV_PALETTE_RUN_TRAP, TTV_PALETTE_RUN_IRQ, TTV_PALETTE_RUN_SOFTIRQ, TTV_PALETTE_RUN_UNKNOWN,
  TTV_PALETTE_IRQ_ACTIVE, TTV_PALETTE_BLOCKDEV_BUSY, TTV_PALETTE_UNKNOWN, TTV_PALETTE_MIXED,
};

static const TtvViewerRowKind kinds[] = {
  TTV_VIEWER_ROW_CPU, TTV_VIEWER_ROW_IRQ, TTV_VIEWER_ROW_SOFTIRQ, TTV_VIEWER_ROW_BLOCKDEV,
};

static gboolean
hide_idle (TtvResourcesViewer *self)
{
  g_autoptr (GVariant) v = g_action_group_get_action_state (G_ACTION_GROUP (self->actions), "hide-idle");

  return g_variant_get_boolean (v);
}

/* The rows of @h that pass the search (@needle, casefolded, on the label)
 * and hide idle (a row doing nothing in @state's time window: a few
 * intervals read per row), each machine's under its header row when there
 * are several; *@n_all (may be NULL): the rows there are; *@n_headers:
 * the header rows among those returned. */
static GPtrArray *
build_rows (TtvViewerHistory *h, TtvTabState *state, const char *needle, gboolean idle, gint followed_cpu,
            guint followed_machine, guint *n_all, guint *n_headers)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) ttv_timeline_row_free);
  guint n = 0, n_machines = ttv_viewer_history_get_n_machines (h);
  TtvTime t0, t1;

  *n_headers = 0;
  ttv_tab_state_get_time_window (state, &t0, &t1);
  for (guint m = 0; m < n_machines; m++)
    {
      guint first = rows->len;

      for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
        for (guint i = 0; i < ttv_viewer_history_get_n_rows (h, kinds[k]); i++)
          {
            const TtvViewerRowInfo *info = ttv_viewer_history_get_row (h, kinds[k], i);

            if (info->machine != m)
              continue;
            n++;

            g_autofree char *label = row_label (kinds[k], info);
            g_autofree char *folded = g_utf8_casefold (label, -1);
            gboolean followed = kinds[k] == TTV_VIEWER_ROW_CPU && info->id == (guint32) followed_cpu
                                && info->machine == followed_machine;

            /* The followed CPU stays in sight. */
            if (*needle && !strstr (folded, needle) && !followed)
              continue;
            if (idle && !followed && !ttv_timeline_row_is_busy (h, kinds[k], i, t0, t1))
              continue;
            g_ptr_array_add (rows, ttv_timeline_row_new (kinds[k], i, label));
          }
      if (n_machines > 1 && rows->len > first)
        {
          g_ptr_array_insert (rows, (gint) first, ttv_timeline_machine_row_new (h, m));
          (*n_headers)++;
        }
    }
  if (n_all)
    *n_all = n;
  return rows;
}

/* The followed CPU's row is the keyboard row, in sight; the task it runs
 * at the current time is the tab's selected thread (every view shows it). */
static void
show_followed (TtvResourcesViewer *self)
{
  TtvViewerHistory *h = ttv_timeline_get_history (self->timeline);
  TtvViewerInterval iv;
  gint row;

  if (self->followed_cpu < 0 || !h)
    return;
  row = ttv_viewer_history_find_row (h, TTV_VIEWER_ROW_CPU, self->followed_machine, (guint32) self->followed_cpu, -1,
                                     ttv_tab_state_get_current_time (self->state));
  for (guint i = 0; row >= 0 && i < ttv_timeline_get_n_rows (self->timeline); i++)
    {
      const TtvTimelineRow *r = ttv_timeline_get_row (self->timeline, i);

      if (r->kind == TTV_VIEWER_ROW_CPU && r->row == (guint) row)
        {
          ttv_timeline_set_cursor (self->timeline, (gint) i);
          break;
        }
    }
  if (row >= 0
      && ttv_viewer_history_get_interval_at (h, TTV_VIEWER_ROW_CPU, (guint) row,
                                             ttv_tab_state_get_current_time (self->state), &iv)
      && ttv_viewer_state_low (iv.state) == TTV_VIEWER_CPU_BUSY && iv.aux != 0 && iv.aux != TTV_VIEWER_PID_NONE)
    ttv_tab_state_select_thread_on (self->state, self->followed_machine, iv.aux);
}

static void
refresh_rows (TtvResourcesViewer *self)
{
  TtvViewerHistory *h = ttv_timeline_get_history (self->timeline);
  g_autofree char *needle = g_utf8_casefold (gtk_entry_get_text (GTK_ENTRY (self->search)), -1);
  g_autofree char *text = NULL;
  GPtrArray *rows;
  guint n, n_headers;

  if (!h)
    {
      ttv_timeline_set_rows (self->timeline, NULL);
      gtk_label_set_text (GTK_LABEL (self->count_label), "");
      return;
    }
  rows = build_rows (h, self->state, needle, hide_idle (self), self->followed_cpu, self->followed_machine, &n,
                     &n_headers);
  text = self->followed_cpu >= 0 ? g_strdup_printf (_("%u of %u rows; following CPU %d"), rows->len - n_headers,
                                                    n, self->followed_cpu)
                                 : g_strdup_printf (_("%u of %u rows"), rows->len - n_headers, n);
  gtk_label_set_text (GTK_LABEL (self->count_label), text);
  ttv_timeline_set_rows (self->timeline, rows);
  show_followed (self);
}

static void
history_changed (TtvResourcesViewer *self)
{
  g_autoptr (TtvViewerHistory) h = ttv_tab_state_dup_history (self->state);

  if (h == ttv_timeline_get_history (self->timeline))
    return;
  ttv_timeline_set_history (self->timeline, h);
  refresh_rows (self);
}

static void
window_changed (TtvResourcesViewer *self)
{
  if (hide_idle (self))
    refresh_rows (self);
  else
    show_followed (self);
}

/* --- The row menu of a CPU: follow it, filter on it ---------------------------- */

static void
set_followed (TtvResourcesViewer *self, gint cpu)
{
  GAction *stop = g_action_map_lookup_action (G_ACTION_MAP (self->actions), "stop-following");

  self->followed_cpu = cpu;
  self->followed_machine = self->menu_machine;
  g_simple_action_set_enabled (G_SIMPLE_ACTION (stop), cpu >= 0);
  refresh_rows (self);
}

static void
act_follow_cpu (GSimpleAction *action, GVariant *param, gpointer data)
{
  set_followed (data, (gint) g_variant_get_uint32 (param));
}

static void
act_stop_following (GSimpleAction *action, GVariant *param, gpointer data)
{
  set_followed (data, -1);
}

/* The tab's filter becomes the CPU (docs/filters.md), shown in the filter bar. */
static void
act_filter_cpu (GSimpleAction *action, GVariant *param, gpointer data)
{
  TtvResourcesViewer *self = data;

  ttv_timeline_filter_on (self->timeline, "cpu", g_variant_get_uint32 (param));
}

/* A right click on a CPU's name, the Menu key or Shift+F10 (Trace
 * Compass's Follow CPU). */
static void
row_menu (TtvResourcesViewer *self, guint index, const GdkEvent *event)
{
  const TtvTimelineRow *r = ttv_timeline_get_row (self->timeline, index);
  TtvViewerHistory *h = ttv_timeline_get_history (self->timeline);
  const TtvViewerRowInfo *info = r && h ? ttv_viewer_history_get_row (h, r->kind, r->row) : NULL;
  g_autoptr (GMenu) menu = g_menu_new ();

  if (!info || r->kind != TTV_VIEWER_ROW_CPU)
    return;
  self->menu_machine = info->machine;
  if ((gint) info->id == self->followed_cpu && info->machine == self->followed_machine)
    g_menu_append (menu, _("Stop _Following"), "resources.stop-following");
  else
    ttv_timeline_menu_append (menu, _("_Follow This CPU"), "resources.follow-cpu", info->id);
  ttv_timeline_menu_append (menu, _("_Filter on This CPU"), "resources.filter-cpu", info->id);
  ttv_timeline_popup_row_menu (self->timeline, G_MENU_MODEL (menu), index, event);
}

static void
change_state (GSimpleAction *action, GVariant *value, gpointer data)
{
  g_simple_action_set_state (action, value);
  refresh_rows (data);
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
  self->followed_cpu = -1;
}

GtkWidget *
ttv_resources_viewer_new (TtvTabState *state)
{
  static const GActionEntry actions[] = {
    { "hide-idle", NULL, NULL, "false", change_state, { 0 } },
    { "follow-cpu", act_follow_cpu, "u", NULL, NULL, { 0 } },
    { "stop-following", act_stop_following, NULL, NULL, NULL, { 0 } },
    { "filter-cpu", act_filter_cpu, "u", NULL, NULL, { 0 } },
  };
  const TtvTimelineColumn columns[] = { { _("Resource"), 100, FALSE } };
  TtvResourcesViewer *self = g_object_new (TTV_TYPE_RESOURCES_VIEWER,
                                           "orientation", GTK_ORIENTATION_VERTICAL, NULL);
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *w;

  self->state = g_object_ref (state);
  self->actions = g_simple_action_group_new ();
  g_action_map_add_action_entries (G_ACTION_MAP (self->actions), actions, G_N_ELEMENTS (actions), self);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (self->actions),
                                                                            "stop-following")), FALSE);
  self->timeline = TTV_TIMELINE (ttv_timeline_new (state, legend, G_N_ELEMENTS (legend)));
  ttv_timeline_set_columns (self->timeline, columns, G_N_ELEMENTS (columns));
  ttv_timeline_add_actions (self->timeline, G_ACTION_MAP (self->actions));
  gtk_widget_insert_action_group (GTK_WIDGET (self), "resources", G_ACTION_GROUP (self->actions));

  gtk_container_set_border_width (GTK_CONTAINER (bar), 4);
  self->search = gtk_search_entry_new ();
  gtk_entry_set_placeholder_text (GTK_ENTRY (self->search), _("Find a CPU, IRQ or device"));
  g_signal_connect_swapped (self->search, "search-changed", G_CALLBACK (refresh_rows), self);
  gtk_box_pack_start (GTK_BOX (bar), self->search, FALSE, FALSE, 0);
  w = gtk_check_button_new_with_mnemonic (_("_Hide idle"));
  gtk_widget_set_tooltip_text (w, _("Show only the CPUs running a task, the active IRQs and soft IRQs "
                                    "and the busy devices in the time window"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (w), "resources.hide-idle");
  gtk_box_pack_start (GTK_BOX (bar), w, FALSE, FALSE, 0);
  w = gtk_button_new_with_mnemonic (_("E_xport…"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (w), "resources.export-dialog");
  gtk_box_pack_end (GTK_BOX (bar), w, FALSE, FALSE, 0);
  w = gtk_button_new_with_mnemonic (_("Co_lours…"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (w), "resources.edit-colors");
  gtk_box_pack_end (GTK_BOX (bar), w, FALSE, FALSE, 0);
  self->count_label = gtk_label_new (NULL);
  gtk_widget_set_opacity (self->count_label, 0.7);
  gtk_widget_set_tooltip_text (self->count_label, _("Ctrl+wheel zooms, drag pans, click sets the current "
                                                    "time, right-drag or Shift+drag selects; zoomed in, "
                                                    "CPU rows name the running task; Left/Right go to "
                                                    "the selected row's previous/next state change; "
                                                    "a right click on a CPU's name follows it or "
                                                    "filters on it"));
  gtk_box_pack_end (GTK_BOX (bar), self->count_label, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (self), bar, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (self), GTK_WIDGET (self->timeline), TRUE, TRUE, 0);

  self->handlers[0] = g_signal_connect_swapped (state, "history-changed", G_CALLBACK (history_changed), self);
  self->handlers[1] = g_signal_connect_swapped (state, "traceset-changed", G_CALLBACK (history_changed), self);
  self->handlers[2] = g_signal_connect_swapped (state, "time-window-changed", G_CALLBACK (window_changed), self);
  self->handlers[3] = g_signal_connect_swapped (state, "current-time-changed", G_CALLBACK (show_followed), self);
  g_signal_connect_swapped (self->timeline, "row-menu", G_CALLBACK (row_menu), self);
  history_changed (self);
  gtk_widget_show_all (GTK_WIDGET (self));
  return GTK_WIDGET (self);
}

/* ttv --render resources: every row of the history, as a new viewer shows
 * them. */
gboolean
ttv_resources_viewer_render (TtvTabState *state, cairo_t *cr, int width, int height, GError **error)
{
  const TtvTimelineColumn columns[] = { { _("Resource"), 100, FALSE } };
  TtvTimelineView v;
  guint n_headers;

  ttv_timeline_view_init_render (&v, state, legend, G_N_ELEMENTS (legend), columns, G_N_ELEMENTS (columns));
  if (v.history)
    ttv_timeline_view_set_rows (&v, build_rows (v.history, state, "", FALSE, -1, 0, NULL, &n_headers));
  return ttv_timeline_view_render_once (&v, cr, width, height, error);
}
