/* ttv-viewer-filter.c: filter expressions for the viewer (the tab's filter
 * bar, the event list's Find): libttv's filter language, plus the viewer's
 * shortcut of a bare word for an event name pattern. */
#include "ttv-config.h"

#include "ttv-tab-state-private.h"

#include "ttv-error.h"
#include "ttv-filter.h"

#include <glib/gi18n.h>
#include <string.h>

struct _TtvViewerFilter {
  char *text;          /* as the user typed it */
  TtvFilter *filter;   /* owned */
};

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
  filter = ttv_filter_new (expression, NULL, error);
  if (!filter)
    return NULL;
  self = g_new0 (TtvViewerFilter, 1);
  self->text = g_steal_pointer (&stripped);
  self->filter = filter;
  return self;
}

void
ttv_viewer_filter_free (TtvViewerFilter *self)
{
  if (!self)
    return;
  ttv_filter_free (self->filter);
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
ttv_viewer_filter_matches (TtvViewerFilter *self, TtvEventRequest *request, const TtvEvent *event)
{
  const TtvState *state = request ? ttv_event_request_get_state (request) : NULL;

  return ttv_filter_matches (self->filter, event, state);
}
