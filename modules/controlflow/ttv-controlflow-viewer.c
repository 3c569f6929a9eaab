/* ttv-controlflow-viewer.c: the control flow viewer module: one row per
 * process (thread) of the state history with its states over time, marks
 * and wakeup arrows; rows sorted, filtered, searched and grouped by
 * process.  Drawing and navigation: modules/common/ttv-timeline.c. */
#include "ttv-timeline.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#define TTV_TYPE_CONTROLFLOW_VIEWER (ttv_controlflow_viewer_get_type ())
G_DECLARE_FINAL_TYPE (TtvControlflowViewer, ttv_controlflow_viewer, TTV, CONTROLFLOW_VIEWER, GtkBox)

typedef enum { SORT_PID, SORT_NAME, SORT_CPU_TIME, SORT_BIRTH } SortKey;

struct _TtvControlflowViewer {
  GtkBox parent_instance;

  TtvTabState *state;          /* owned reference */
  gulong handlers[3];
  GSimpleActionGroup *actions; /* owned */
  TtvTimeline *timeline;       /* weak: a child */
  GtkWidget *search;
  GtkWidget *count_label;
};

G_DEFINE_FINAL_TYPE (TtvControlflowViewer, ttv_controlflow_viewer, GTK_TYPE_BOX)

static gboolean
flag (TtvControlflowViewer *self, const char *name)
{
  g_autoptr (GVariant) v = g_action_group_get_action_state (G_ACTION_GROUP (self->actions), name);

  return g_variant_get_boolean (v);
}

static SortKey
sort_key (TtvControlflowViewer *self)
{
  g_autoptr (GVariant) v = g_action_group_get_action_state (G_ACTION_GROUP (self->actions), "sort");
  const char *s = g_variant_get_string (v, NULL);

  if (strcmp (s, "name") == 0)
    return SORT_NAME;
  if (strcmp (s, "cpu-time") == 0)
    return SORT_CPU_TIME;
  if (strcmp (s, "birth") == 0)
    return SORT_BIRTH;
  return SORT_PID;
}

typedef struct {
  const TtvHistoryRowInfo *info;
  guint row;
  guint n_threads;             /* grouped: threads folded into this row */
} Entry;

static int
compare_entries (gconstpointer a, gconstpointer b, gpointer data)
{
  const Entry *x = a, *y = b;
  SortKey key = GPOINTER_TO_INT (data);
  int c = 0;

  switch (key)
    {
    case SORT_NAME: c = g_strcmp0 (x->info->name, y->info->name); break;
    case SORT_CPU_TIME: c = (x->info->cpu_time < y->info->cpu_time) - (x->info->cpu_time > y->info->cpu_time); break;
    case SORT_BIRTH: c = (x->info->birth > y->info->birth) - (x->info->birth < y->info->birth); break;
    default: break;
    }
  if (c == 0)
    c = (x->info->id > y->info->id) - (x->info->id < y->info->id);
  if (c == 0)
    c = (x->info->birth > y->info->birth) - (x->info->birth < y->info->birth);
  return c;
}

static char *
row_label (const TtvHistoryRowInfo *info, guint n_threads, TtvTime origin)
{
  /* Birth from the trace start: the absolute time is too wide for the column. */
  g_autofree char *birth = g_strdup_printf ("+%.6f", (double) (info->birth - origin) / 1e9);
  const char *name = info->name && *info->name ? info->name : _("(unnamed)");
  g_autofree char *pid = info->cpu >= 0 ? g_strdup_printf ("0/%d", info->cpu)
                                        : g_strdup_printf ("%u", info->id);
  g_autofree char *ppid = info->ppid == TTV_VIEWER_PID_NONE ? g_strdup ("?")
                                                            : g_strdup_printf ("%u", info->ppid);

  if (n_threads > 1)
    return g_strdup_printf (_("%s %s/%u ^%s %s (%u threads)"), name, pid, info->tgid, ppid,
                            birth, n_threads);
  /* name pid/tgid ^ppid +birth */
  return g_strdup_printf ("%s %s/%u ^%s %s", name, pid, info->tgid, ppid, birth);
}

/* Rebuilds the row list from the history and the toolbar's choices. */
static void
refresh_rows (TtvControlflowViewer *self)
{
  TtvViewerHistory *h = ttv_timeline_get_history (self->timeline);
  g_autoptr (GArray) entries = g_array_new (FALSE, FALSE, sizeof (Entry));
  g_autoptr (GHashTable) groups = NULL;
  GPtrArray *rows;
  gboolean hide_idle = flag (self, "hide-idle"), group = flag (self, "group-threads");
  const char *search = gtk_entry_get_text (GTK_ENTRY (self->search));
  g_autofree char *needle = g_utf8_casefold (search, -1);
  TtvTime t0, t1, origin, span_end;
  guint n;

  if (!h)
    {
      gtk_label_set_text (GTK_LABEL (self->count_label), "");
      ttv_timeline_set_rows (self->timeline, NULL);
      return;
    }
  ttv_tab_state_get_time_window (self->state, &t0, &t1);
  ttv_tab_state_get_time_span (self->state, &origin, &span_end);
  groups = g_hash_table_new (NULL, NULL);
  n = ttv_viewer_history_get_n_rows (h, TTV_HISTORY_ROW_PROCESS);
  for (guint i = 0; i < n; i++)
    {
      Entry e = { ttv_viewer_history_get_row (h, TTV_HISTORY_ROW_PROCESS, i), i, 1 };

      if (hide_idle)
        {
          TtvHistoryPixel px;

          /* One pixel over the window: O(1) per row. */
          ttv_viewer_history_query_pixels (h, TTV_HISTORY_ROW_PROCESS, i, t0, t1 + 1, 1, &px);
          if (px.n_events == 0)
            continue;
        }
      if (*needle)
        {
          g_autofree char *name = g_utf8_casefold (e.info->name ? e.info->name : "", -1);
          g_autofree char *pid = g_strdup_printf ("%u", e.info->id);

          if (!strstr (name, needle) && strcmp (pid, needle) != 0)
            continue;
        }
      if (group && e.info->cpu < 0 && e.info->tgid != 0 && e.info->tgid != TTV_VIEWER_PID_NONE)
        {
          /* One row per thread group: the leader's (or the first seen). */
          gpointer slot = g_hash_table_lookup (groups, GUINT_TO_POINTER (e.info->tgid));

          if (slot)
            {
              Entry *g = &g_array_index (entries, Entry, GPOINTER_TO_UINT (slot) - 1);

              g->n_threads++;
              if (e.info->id == e.info->tgid && g->info->id != g->info->tgid)
                {
                  g->info = e.info;
                  g->row = i;
                }
              continue;
            }
          g_hash_table_insert (groups, GUINT_TO_POINTER (e.info->tgid), GUINT_TO_POINTER (entries->len + 1));
        }
      g_array_append_val (entries, e);
    }
  g_array_sort_with_data (entries, compare_entries, GINT_TO_POINTER (sort_key (self)));
  rows = g_ptr_array_new_full (entries->len, (GDestroyNotify) ttv_timeline_row_free);
  for (guint i = 0; i < entries->len; i++)
    {
      const Entry *e = &g_array_index (entries, Entry, i);
      g_autofree char *label = row_label (e->info, e->n_threads, origin);

      g_ptr_array_add (rows, ttv_timeline_row_new (TTV_HISTORY_ROW_PROCESS, e->row, label));
    }
  {
    g_autofree char *text = g_strdup_printf (_("%u of %u processes"), rows->len, n);
    gtk_label_set_text (GTK_LABEL (self->count_label), text);
  }
  ttv_timeline_set_rows (self->timeline, rows);
}

static void
history_changed (TtvControlflowViewer *self)
{
  g_autoptr (TtvViewerHistory) h = ttv_tab_state_dup_history (self->state);

  if (h == ttv_timeline_get_history (self->timeline))
    return;
  ttv_timeline_set_history (self->timeline, h);
  refresh_rows (self);
}

static void
window_changed (TtvControlflowViewer *self)
{
  if (flag (self, "hide-idle"))
    refresh_rows (self);
}

static void
change_state (GSimpleAction *action, GVariant *value, gpointer data)
{
  g_simple_action_set_state (action, value);
  refresh_rows (data);
}

static void
sort_changed (GtkComboBox *combo, TtvControlflowViewer *self)
{
  const char *id = gtk_combo_box_get_active_id (combo);

  if (id)
    g_action_group_change_action_state (G_ACTION_GROUP (self->actions), "sort", g_variant_new_string (id));
}

static void
ttv_controlflow_viewer_dispose (GObject *object)
{
  TtvControlflowViewer *self = TTV_CONTROLFLOW_VIEWER (object);

  if (self->state)
    for (guint i = 0; i < G_N_ELEMENTS (self->handlers); i++)
      g_clear_signal_handler (&self->handlers[i], self->state);
  g_clear_object (&self->state);
  g_clear_object (&self->actions);
  G_OBJECT_CLASS (ttv_controlflow_viewer_parent_class)->dispose (object);
}

static void
ttv_controlflow_viewer_class_init (TtvControlflowViewerClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ttv_controlflow_viewer_dispose;
}

static void
ttv_controlflow_viewer_init (TtvControlflowViewer *self)
{
}

static GtkWidget *
ttv_controlflow_viewer_new (TtvTabState *state)
{
  static const GActionEntry actions[] = {
    { "sort", NULL, "s", "'pid'", change_state, { 0 } },
    { "hide-idle", NULL, NULL, "false", change_state, { 0 } },
    { "group-threads", NULL, NULL, "false", change_state, { 0 } },
  };
  static const TtvTimelineColor legend[] = {
    TTV_TIMELINE_COLOR_RUN_USER, TTV_TIMELINE_COLOR_RUN_SYSCALL, TTV_TIMELINE_COLOR_RUN_TRAP,
    TTV_TIMELINE_COLOR_RUN_IRQ, TTV_TIMELINE_COLOR_RUN_SOFTIRQ, TTV_TIMELINE_COLOR_WAIT_CPU,
    TTV_TIMELINE_COLOR_BLOCKED, TTV_TIMELINE_COLOR_ZOMBIE, TTV_TIMELINE_COLOR_EXITED,
    TTV_TIMELINE_COLOR_UNKNOWN,
  };
  TtvControlflowViewer *self = g_object_new (TTV_TYPE_CONTROLFLOW_VIEWER,
                                             "orientation", GTK_ORIENTATION_VERTICAL, NULL);
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *w;

  self->state = g_object_ref (state);
  self->actions = g_simple_action_group_new ();
  g_action_map_add_action_entries (G_ACTION_MAP (self->actions), actions, G_N_ELEMENTS (actions), self);
  self->timeline = TTV_TIMELINE (ttv_timeline_new (state, legend, G_N_ELEMENTS (legend)));
  ttv_timeline_add_actions (self->timeline, G_ACTION_MAP (self->actions));
  gtk_widget_insert_action_group (GTK_WIDGET (self), "controlflow", G_ACTION_GROUP (self->actions));

  gtk_container_set_border_width (GTK_CONTAINER (bar), 4);
  gtk_box_pack_start (GTK_BOX (bar), gtk_label_new (_("Sort by:")), FALSE, FALSE, 0);
  w = gtk_combo_box_text_new ();
  gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (w), "pid", _("PID"));
  gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (w), "name", _("Name"));
  gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (w), "cpu-time", _("CPU time"));
  gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (w), "birth", _("Birth"));
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (w), "pid");
  g_signal_connect (w, "changed", G_CALLBACK (sort_changed), self);
  gtk_box_pack_start (GTK_BOX (bar), w, FALSE, FALSE, 0);
  self->search = gtk_search_entry_new ();
  gtk_entry_set_placeholder_text (GTK_ENTRY (self->search), _("Find a process (name or PID)"));
  g_signal_connect_swapped (self->search, "search-changed", G_CALLBACK (refresh_rows), self);
  gtk_box_pack_start (GTK_BOX (bar), self->search, FALSE, FALSE, 0);
  w = gtk_check_button_new_with_mnemonic (_("_Hide idle"));
  gtk_widget_set_tooltip_text (w, _("Hide the processes without events in the time window"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (w), "controlflow.hide-idle");
  gtk_box_pack_start (GTK_BOX (bar), w, FALSE, FALSE, 0);
  w = gtk_check_button_new_with_mnemonic (_("_Group threads"));
  gtk_widget_set_tooltip_text (w, _("One row per process: its threads folded under it"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (w), "controlflow.group-threads");
  gtk_box_pack_start (GTK_BOX (bar), w, FALSE, FALSE, 0);
  w = gtk_button_new_with_mnemonic (_("E_xport…"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (w), "controlflow.export-dialog");
  gtk_box_pack_end (GTK_BOX (bar), w, FALSE, FALSE, 0);
  w = gtk_button_new_with_mnemonic (_("Co_lours…"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (w), "controlflow.edit-colors");
  gtk_box_pack_end (GTK_BOX (bar), w, FALSE, FALSE, 0);
  self->count_label = gtk_label_new (NULL);
  gtk_widget_set_opacity (self->count_label, 0.7);
  gtk_widget_set_tooltip_text (self->count_label, _("Ctrl+wheel zooms, drag pans, Shift+wheel scrolls "
                                                    "in time, click sets the current time, "
                                                    "right-drag or Shift+drag selects"));
  gtk_box_pack_end (GTK_BOX (bar), self->count_label, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (self), bar, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (self), GTK_WIDGET (self->timeline), TRUE, TRUE, 0);

  self->handlers[0] = g_signal_connect_swapped (state, "statistics-changed", G_CALLBACK (history_changed), self);
  self->handlers[1] = g_signal_connect_swapped (state, "traceset-changed", G_CALLBACK (history_changed), self);
  self->handlers[2] = g_signal_connect_swapped (state, "time-window-changed", G_CALLBACK (window_changed), self);
  history_changed (self);
  gtk_widget_show_all (GTK_WIDGET (self));
  return GTK_WIDGET (self);
}

static const TtvViewerInfo info = {
  .name = "controlflow",
  .title = N_("Control Flow"),
  .icon_name = "view-list-symbolic",
  .menu_label = N_("_Control Flow"),
  .new_viewer = ttv_controlflow_viewer_new,
  .show_by_default = FALSE,
};

TTV_VIEWER_MODULE (controlflow_init)

static void
controlflow_init (void)
{
  TtvViewerInfo copy = info;

  copy.title = g_dgettext (GETTEXT_PACKAGE, info.title);
  copy.menu_label = g_dgettext (GETTEXT_PACKAGE, info.menu_label);
  ttv_viewer_register (&copy);
}
