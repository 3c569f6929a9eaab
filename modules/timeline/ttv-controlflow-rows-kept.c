/* ttv-controlflow-rows-kept.c: the rows hidden and pinned in the control
 * flow, per traceset, in GSettings (never in the trace). */
#include "ttv-controlflow-rows-kept.h"

#define SETTINGS_KEY "controlflow-rows"
/* Tracesets kept: the ones changed last. */
#define MAX_KEPT 32

/* What names @state's traceset: its traces' paths, one per line. */
static char *
traceset_key (TtvTabState *state)
{
  GString *key = g_string_new (NULL);

  for (guint i = 0; i < ttv_tab_state_get_n_traces (state); i++)
    {
      const char *path = ttv_viewer_trace_get_path (ttv_tab_state_get_trace (state, i));

      if (i)
        g_string_append_c (key, '\n');
      g_string_append (key, path ? path : "");
    }
  return g_string_free (key, FALSE);
}

void
ttv_controlflow_rows_load (TtvTabState *state, GHashTable *hidden, GArray *pinned)
{
  g_autoptr (GSettings) settings = ttv_viewer_dup_settings (SETTINGS_KEY);
  g_autofree char *key = traceset_key (state);
  g_autoptr (GVariant) all = NULL;
  g_autoptr (GVariant) hidden_v = NULL, pinned_v = NULL;

  if (!settings || !*key)
    return;
  all = g_settings_get_value (settings, SETTINGS_KEY);
  if (!g_variant_lookup (all, key, "(@at@at)", &hidden_v, &pinned_v))
    return;
  for (gsize i = 0; i < g_variant_n_children (hidden_v); i++)
    {
      guint64 k;

      g_variant_get_child (hidden_v, i, "t", &k);
      g_hash_table_add (hidden, g_memdup2 (&k, sizeof k));
    }
  for (gsize i = 0; i < g_variant_n_children (pinned_v); i++)
    {
      guint64 k;

      g_variant_get_child (pinned_v, i, "t", &k);
      g_array_append_val (pinned, k);
    }
}

void
ttv_controlflow_rows_save (TtvTabState *state, GHashTable *hidden, GArray *pinned)
{
  g_autoptr (GSettings) settings = ttv_viewer_dup_settings (SETTINGS_KEY);
  g_autofree char *key = traceset_key (state);
  g_autoptr (GVariant) all = NULL;
  GVariantBuilder b, hb, pb;
  GVariantIter iter;
  const char *k;
  GVariant *v;
  gsize n, skip;

  if (!settings || !*key)
    return;
  all = g_settings_get_value (settings, SETTINGS_KEY);
  /* The others, oldest first, this traceset's last (the newest). */
  n = g_variant_n_children (all);
  skip = n >= MAX_KEPT ? n - MAX_KEPT + 1 : 0;
  g_variant_builder_init (&b, G_VARIANT_TYPE ("a{s(atat)}"));
  g_variant_iter_init (&iter, all);
  for (gsize i = 0; g_variant_iter_next (&iter, "{&s@(atat)}", &k, &v); i++)
    {
      if (i >= skip && strcmp (k, key) != 0)
        g_variant_builder_add (&b, "{s@(atat)}", k, v);
      g_variant_unref (v);
    }
  if (g_hash_table_size (hidden) > 0 || pinned->len > 0)
    {
      GHashTableIter hi;
      gpointer hk;

      g_variant_builder_init (&hb, G_VARIANT_TYPE ("at"));
      g_hash_table_iter_init (&hi, hidden);
      while (g_hash_table_iter_next (&hi, &hk, NULL))
        g_variant_builder_add (&hb, "t", *(const guint64 *) hk);
      g_variant_builder_init (&pb, G_VARIANT_TYPE ("at"));
      for (guint i = 0; i < pinned->len; i++)
        g_variant_builder_add (&pb, "t", g_array_index (pinned, guint64, i));
      g_variant_builder_add (&b, "{s(atat)}", key, &hb, &pb);
    }
  g_settings_set_value (settings, SETTINGS_KEY, g_variant_builder_end (&b));
}
