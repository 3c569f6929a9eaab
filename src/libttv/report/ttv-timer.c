/* ttv-timer.c: timer rules resolved once per event type, pending starts per
 * (rule, thread) in one hash table (see ttv-timer.h). */
#include "ttv-timer.h"
#include "ttv-error.h"
#include "ttv-hook-groups.h"

#include <glib/gi18n-lib.h>
#include <string.h>

typedef struct {
  char *start;            /* owned */
  char *end;              /* owned */
} Rule;

typedef struct {
  guint64 starts;         /* bit per rule (the first 64 rules) */
  guint64 ends;
} Roles;

typedef struct {
  const TtvTrace *trace;  /* weak: the key */
  GArray *roles;          /* of Roles, indexed by type id; resolved[] says which are set */
  GArray *resolved;       /* of gboolean */
} TraceRoles;

struct _TtvTimerSet {
  GArray *rules;          /* of Rule */
  GArray *traces;         /* of TraceRoles */
  GHashTable *pending;    /* (rule, thread) key -> start time (boxed in a gint64 array slot) */
  GArray *times;          /* of TtvTime: values of @pending point into here by index */
  GArray *free_slots;     /* of guint: reusable indexes of @times */
};

TtvTimerSet *
ttv_timer_set_new (void)
{
  TtvTimerSet *t = g_new0 (TtvTimerSet, 1);
  t->rules = g_array_new (FALSE, FALSE, sizeof (Rule));
  t->traces = g_array_new (FALSE, FALSE, sizeof (TraceRoles));
  t->pending = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  t->times = g_array_new (FALSE, FALSE, sizeof (TtvTime));
  t->free_slots = g_array_new (FALSE, FALSE, sizeof (guint));
  return t;
}

void
ttv_timer_set_free (TtvTimerSet *t)
{
  if (t == NULL)
    return;
  for (guint i = 0; i < t->rules->len; i++)
    {
      g_free (g_array_index (t->rules, Rule, i).start);
      g_free (g_array_index (t->rules, Rule, i).end);
    }
  g_array_unref (t->rules);
  for (guint i = 0; i < t->traces->len; i++)
    {
      g_array_unref (g_array_index (t->traces, TraceRoles, i).roles);
      g_array_unref (g_array_index (t->traces, TraceRoles, i).resolved);
    }
  g_array_unref (t->traces);
  g_hash_table_unref (t->pending);
  g_array_unref (t->times);
  g_array_unref (t->free_slots);
  g_free (t);
}

void
ttv_timer_set_add (TtvTimerSet *t, const char *start, const char *end)
{
  Rule r = { g_strdup (start), g_strdup (end) };
  g_array_append_val (t->rules, r);
}

gboolean
ttv_timer_set_add_rule (TtvTimerSet *t, const char *rule, GError **error)
{
  const char *colon = strchr (rule, ':');
  if (colon == NULL || colon == rule || colon[1] == '\0' || strchr (colon + 1, ':'))
    {
      g_set_error (error, TTV_FILTER_ERROR, TTV_FILTER_ERROR_SYNTAX,
                   _("timer '%s': expected START:END (event names, globs or ids)"), rule);
      return FALSE;
    }
  if (t->rules->len >= 64)
    {
      g_set_error (error, TTV_FILTER_ERROR, TTV_FILTER_ERROR_BAD_VALUE, _("at most 64 timers"));
      return FALSE;
    }
  g_autofree char *start = g_strndup (rule, (gsize) (colon - rule));
  ttv_timer_set_add (t, start, colon + 1);
  return TRUE;
}

guint
ttv_timer_set_get_n_rules (const TtvTimerSet *t)
{
  return t->rules->len;
}

void
ttv_timer_set_get_rule (const TtvTimerSet *t, guint index, const char **start, const char **end)
{
  g_return_if_fail (index < t->rules->len);
  *start = g_array_index (t->rules, Rule, index).start;
  *end = g_array_index (t->rules, Rule, index).end;
}

static const Roles *
get_roles (TtvTimerSet *t, const TtvEvent *ev)
{
  const TtvTrace *trace = ev->tracefile->trace;
  TraceRoles *tr = NULL;
  for (guint i = 0; i < t->traces->len && tr == NULL; i++)
    if (g_array_index (t->traces, TraceRoles, i).trace == trace)
      tr = &g_array_index (t->traces, TraceRoles, i);
  if (tr == NULL)
    {
      TraceRoles n = { trace, g_array_new (FALSE, TRUE, sizeof (Roles)), g_array_new (FALSE, TRUE, sizeof (gboolean)) };
      g_array_append_val (t->traces, n);
      tr = &g_array_index (t->traces, TraceRoles, t->traces->len - 1);
    }
  guint id = ev->type->id;
  if (id >= tr->roles->len)
    {
      g_array_set_size (tr->roles, id + 1);
      g_array_set_size (tr->resolved, id + 1);
    }
  Roles *r = &g_array_index (tr->roles, Roles, id);
  if (!g_array_index (tr->resolved, gboolean, id))
    {
      for (guint i = 0; i < t->rules->len && i < 64; i++)
        {
          const Rule *rule = &g_array_index (t->rules, Rule, i);
          if (ttv_event_type_matches_pattern (ev->type, rule->start))
            r->starts |= G_GUINT64_CONSTANT (1) << i;
          if (ttv_event_type_matches_pattern (ev->type, rule->end))
            r->ends |= G_GUINT64_CONSTANT (1) << i;
        }
      g_array_index (tr->resolved, gboolean, id) = TRUE;
    }
  return r;
}

/* Keys mix the rule into the thread: threads are 32-bit ids or small negatives. */
static gint64
key_of (guint rule, gint64 thread)
{
  return (gint64) (((guint64) rule << 56) ^ (guint64) thread);
}

gboolean
ttv_timer_set_process (TtvTimerSet *t, const TtvEvent *ev, gint64 thread, TtvTime *elapsed)
{
  if (t->rules->len == 0)
    return FALSE;
  const Roles *r = get_roles (t, ev);
  gboolean found = FALSE;
  for (guint i = 0; r->ends && i < t->rules->len && i < 64; i++)
    {
      if (!(r->ends & (G_GUINT64_CONSTANT (1) << i)))
        continue;
      gint64 key = key_of (i, thread);
      gpointer slot;
      if (!g_hash_table_lookup_extended (t->pending, &key, NULL, &slot))
        continue;
      guint s = GPOINTER_TO_UINT (slot);
      if (!found)
        {
          *elapsed = ev->time - g_array_index (t->times, TtvTime, s);
          found = TRUE;
        }
      g_hash_table_remove (t->pending, &key);
      g_array_append_val (t->free_slots, s);
    }
  for (guint i = 0; r->starts && i < t->rules->len && i < 64; i++)
    {
      if (!(r->starts & (G_GUINT64_CONSTANT (1) << i)))
        continue;
      gint64 key = key_of (i, thread);
      gpointer slot;
      if (g_hash_table_lookup_extended (t->pending, &key, NULL, &slot))
        {
          g_array_index (t->times, TtvTime, GPOINTER_TO_UINT (slot)) = ev->time;   /* restarted */
          continue;
        }
      guint s;
      if (t->free_slots->len)
        {
          s = g_array_index (t->free_slots, guint, t->free_slots->len - 1);
          g_array_set_size (t->free_slots, t->free_slots->len - 1);
          g_array_index (t->times, TtvTime, s) = ev->time;
        }
      else
        {
          s = t->times->len;
          g_array_append_val (t->times, ev->time);
        }
      gint64 *k = g_new (gint64, 1);
      *k = key;
      g_hash_table_insert (t->pending, k, GUINT_TO_POINTER (s));
    }
  return found;
}

void
ttv_timer_append_elapsed (GString *out, TtvTime elapsed)
{
  const char *sign = elapsed < 0 ? "-" : "";
  guint64 e = elapsed < 0 ? (guint64) -elapsed : (guint64) elapsed;
  g_string_append_printf (out, "[%s%" G_GUINT64_FORMAT ".%03u us]", sign, e / 1000, (guint) (e % 1000));
}
