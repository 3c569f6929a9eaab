/* ttv-viewer-filter.c: filter expressions for the viewer (the tab's filter
 * bar, the event list's Find): libttv's filter language, plus the viewer's
 * shortcut of a bare word for an event name pattern. */
#include "ttv-config.h"

#include "ttv-settings.h"
#include "ttv-request-queue.h"
#include "ttv-tab-state-private.h"

#include "ttv-error.h"
#include "ttv-filter.h"
#include "ttv-hook-groups.h"

#include <gio/gio.h>

#include <glib/gi18n.h>
#include <string.h>

struct _TtvViewerFilter {
  char *text;          /* as the user typed it */
  TtvHookGroups *groups;  /* owned: the filter refers to it */
  TtvFilter *filter;   /* owned */
};

/* The hook groups of the viewer's filters: the built-in ones and those of
 * the user's groups file, in the format of ttv-report --groups: the file
 * the GSettings key hook-groups-file names, else ~/.config/ttv/groups when
 * it exists.  Read for each new filter, so that an edited file applies
 * without a restart. */
static TtvHookGroups *
load_groups (GError **error)
{
  g_autoptr (TtvHookGroups) groups = ttv_hook_groups_new ();
  g_autofree char *path = NULL;
  g_autoptr (GSettings) settings = ttv_settings_dup_with_key ("hook-groups-file");
  if (settings)
    path = g_settings_get_string (settings, "hook-groups-file");
  gboolean chosen = path && *path;
  if (!chosen)
    {
      g_free (path);
      path = g_build_filename (g_get_user_config_dir (), "ttv", "groups", NULL);
    }
  if ((chosen || g_file_test (path, G_FILE_TEST_EXISTS)) && !ttv_hook_groups_load_file (groups, path, error))
    return NULL;
  return g_steal_pointer (&groups);
}

/* A single word that is not a name of the language ("sched", "irq_*"):
 * what a user types into a search box.  Anything with an operator, a
 * space, a quote or a parenthesis is an expression. */
static gboolean
is_bare_word (const char *text)
{
  if (!*text || strpbrk (text, " \t=!<>&|()\"") != NULL)
    return FALSE;
  return !g_str_has_prefix (text, "event.") && !g_str_has_prefix (text, "state.")
         && !g_str_has_prefix (text, "trace.") && !g_str_has_prefix (text, "tracefile.")
         && strcmp (text, "cpu") != 0 && strcmp (text, "not") != 0;
}

static char *
bare_word_expression (const char *word)
{
  /* A word with a wildcard is already a pattern; otherwise a substring. */
  if (strpbrk (word, "*?[") != NULL)
    return g_strdup_printf ("event.name = \"%s\"", word);
  return g_strdup_printf ("event.name = \"*%s*\"", word);
}

TtvViewerFilter *
ttv_viewer_filter_new (const char *text, GError **error)
{
  g_autofree char *stripped = g_strstrip (g_strdup (text ? text : ""));
  g_autofree char *expression = NULL;
  TtvFilter *filter;
  TtvViewerFilter *self;

  if (!*stripped)
    {
      g_set_error (error, TTV_FILTER_ERROR, TTV_FILTER_ERROR_SYNTAX, "%s",
                   _("The filter is empty"));
      return NULL;
    }
  expression = is_bare_word (stripped) ? bare_word_expression (stripped) : g_strdup (stripped);
  g_autoptr (TtvHookGroups) groups = load_groups (error);
  if (!groups)
    return NULL;
  filter = ttv_filter_new (expression, groups, error);
  if (!filter)
    return NULL;
  self = g_new0 (TtvViewerFilter, 1);
  self->text = g_steal_pointer (&stripped);
  self->groups = g_steal_pointer (&groups);
  self->filter = filter;
  return self;
}

void
ttv_viewer_filter_free (TtvViewerFilter *self)
{
  if (!self)
    return;
  ttv_filter_free (self->filter);
  ttv_hook_groups_free (self->groups);
  g_free (self->text);
  g_free (self);
}

const char *
ttv_viewer_filter_get_text (const TtvViewerFilter *self)
{
  return self->text;
}

gboolean
ttv_viewer_filter_needs_state (const TtvViewerFilter *self)
{
  return ttv_filter_needs_state (self->filter);
}

gboolean
ttv_viewer_filter_matches (TtvViewerFilter *self, TtvEventRequest *request, const TtvViewerEvent *event)
{
  const TtvState *state = request ? ttv_event_request_get_state (request) : NULL;

  return ttv_filter_matches (self->filter, (const TtvEvent *) event, state);
}
