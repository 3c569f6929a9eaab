/* ttv-time-display.c: how every view shows and reads times: the user's
 * choice of format (GSettings "time-format", followed while the program
 * runs) applied through libttv's ttv_time_format_text() and
 * ttv_time_parse_text(), relative times counting from the traceset's start.
 * GLib only (the viewer's model); Preferences' list of the formats is
 * src/gui/ttv-time-format-chooser.c. */
#include "ttv-config.h"

#include "ttv-time-display.h"

#include "ttv-settings.h"
#include "ttv-time-ticks.h"

#include <glib/gi18n.h>

/* Process-wide: the setting is the same for every window and tab. */
static GSettings *display_settings;   /* owned, NULL without the schema */
static TtvTimeFormat display_format = TTV_TIME_FORMAT_RELATIVE;

static void
settings_changed (GSettings *settings, const char *key, gpointer unused)
{
  g_autofree char *name = g_settings_get_string (settings, TTV_TIME_FORMAT_SETTINGS_KEY);

  if (!ttv_time_format_from_name (name, &display_format))
    display_format = TTV_TIME_FORMAT_RELATIVE;
}

/* The settings, looked up once; NULL when the schema (or the key, with an
 * older schema installed) is missing: the format stays relative. */
GSettings *
ttv_time_display_get_settings (void)
{
  static gsize initialized;

  if (g_once_init_enter (&initialized))
    {
      display_settings = ttv_settings_dup_with_key (TTV_TIME_FORMAT_SETTINGS_KEY);
      if (display_settings)
        {
          /* First connected, so the format is up to date before any tab
           * state announces it. */
          g_signal_connect (display_settings, "changed::" TTV_TIME_FORMAT_SETTINGS_KEY,
                            G_CALLBACK (settings_changed), NULL);
          settings_changed (display_settings, TTV_TIME_FORMAT_SETTINGS_KEY, NULL);
        }
      g_once_init_leave (&initialized, 1);
    }
  return display_settings;
}

/* The choices, as menus and the Preferences list show them (with their
 * mnemonic), and as the setting names them. */
static const struct { const char *label, *name; } format_items[] = {
  { N_("_Relative to the traceset start (+S.N)"), "relative" },
  { N_("_Seconds since the epoch (S.N)"), "absolute" },
  { N_("Time of day, _UTC (HH:MM:SS.NZ)"), "utc" },
  { N_("Time of day, _local (HH:MM:SS.N)"), "local" },
};

GMenuModel *
ttv_viewer_time_format_menu_new (const char *prefix)
{
  GMenu *menu = g_menu_new ();
  g_autofree char *action = g_strdup_printf ("%s.%s", prefix, TTV_TIME_FORMAT_SETTINGS_KEY);

  for (guint i = 0; i < G_N_ELEMENTS (format_items); i++)
    {
      g_autoptr (GMenuItem) item = g_menu_item_new (_(format_items[i].label), NULL);

      g_menu_item_set_action_and_target (item, action, "s", format_items[i].name);
      g_menu_append_item (menu, item);
    }
  return G_MENU_MODEL (menu);
}

guint
ttv_time_display_get_n_choices (void)
{
  return G_N_ELEMENTS (format_items);
}

const char *
ttv_time_display_get_choice_label (guint index)
{
  g_return_val_if_fail (index < G_N_ELEMENTS (format_items), NULL);
  return _(format_items[index].label);
}

const char *
ttv_time_display_get_choice_name (guint index)
{
  g_return_val_if_fail (index < G_N_ELEMENTS (format_items), NULL);
  return format_items[index].name;
}

GAction *
ttv_viewer_time_format_action_new (void)
{
  GSettings *settings = ttv_time_display_get_settings ();

  return settings ? g_settings_create_action (settings, TTV_TIME_FORMAT_SETTINGS_KEY) : NULL;
}

static void
announce (TtvTabState *state)
{
  g_signal_emit_by_name (state, "time-format-changed");
}

void
ttv_time_display_watch (TtvTabState *state)
{
  GSettings *settings = ttv_time_display_get_settings ();

  if (settings)
    g_signal_connect_object (settings, "changed::" TTV_TIME_FORMAT_SETTINGS_KEY,
                             G_CALLBACK (announce), state, G_CONNECT_SWAPPED);
}

TtvTimeFormat
ttv_time_display_get_format (void)
{
  ttv_time_display_get_settings ();
  return display_format;
}

static TtvTime
origin_of (TtvTabState *state)
{
  TtvTime start;

  ttv_tab_state_get_time_span (state, &start, NULL);
  return start;
}

char *
ttv_viewer_time_to_string (TtvTime time)
{
  return ttv_time_dup_string (time);
}

char *
ttv_viewer_format_duration (TtvTime duration)
{
  return ttv_time_dup_duration (duration);
}

char *
ttv_tab_state_format_time (TtvTabState *state, TtvTime time)
{
  char buf[TTV_TIME_TEXT_MAX];

  g_return_val_if_fail (TTV_IS_TAB_STATE (state), NULL);
  return g_strdup (ttv_time_format_text (time, ttv_time_display_get_format (), origin_of (state), 9,
                                         buf, sizeof buf));
}

gboolean
ttv_time_display_may_contain (const char *needle)
{
  g_return_val_if_fail (needle != NULL, TRUE);
  return ttv_time_text_may_contain (needle);
}

gboolean
ttv_time_display_parse (TtvTabState *state, const char *text, TtvTime near, TtvTime *time,
                          GError **error)
{
  g_return_val_if_fail (TTV_IS_TAB_STATE (state), FALSE);
  g_return_val_if_fail (text != NULL && time != NULL, FALSE);
  return ttv_time_parse_text (text, ttv_time_display_get_format (), origin_of (state), near, time, error);
}

TtvTime
ttv_viewer_tick_step (TtvTime min_step)
{
  return ttv_time_ticks_step (min_step);
}

TtvTime
ttv_viewer_first_tick (TtvTime start, TtvTime step, TtvTime origin)
{
  g_return_val_if_fail (step > 0, start);
  return ttv_time_ticks_first (start, step, ttv_time_display_get_format (), origin);
}

char *
ttv_viewer_format_tick (TtvTime tick, TtvTime step, TtvTime origin)
{
  char buf[TTV_TIME_TEXT_MAX];

  return g_strdup (ttv_time_ticks_label (tick, step, ttv_time_display_get_format (), origin, buf, sizeof buf));
}
