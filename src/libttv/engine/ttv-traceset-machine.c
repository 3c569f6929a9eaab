/* ttv-traceset-machine.c: which machine each trace of a traceset records
 * (docs/multi-machine.md).  Used by the traceset as traces are added; the
 * state tracker, statistics, history, filters and views read the result. */
#include "ttv-traceset-private.h"

#include <string.h>

#include "ttv-escape.h"

const char *
ttv_trace_get_host (const TtvTrace *trace)
{
  const char *host = ttv_trace_get_info (trace, "hostname");
  if (host == NULL || *host == '\0')
    host = ttv_trace_get_info (trace, "node_name");
  return host && *host ? host : NULL;
}

/* What makes two traces one machine: the same host name; without one, the
 * same LTTng session directory (kernel/ and ust/ of one session); else
 * nothing: the trace is a machine of its own (NULL). */
static char *
machine_key (const TtvTrace *trace)
{
  const char *host = ttv_trace_get_host (trace);
  if (host)
    return g_strconcat ("host:", host, NULL);
  if (trace->session_rel && g_str_has_suffix (trace->path, trace->session_rel))
    {
      gsize session_len = strlen (trace->path) - strlen (trace->session_rel);
      g_autofree char *session = g_strndup (trace->path, session_len);
      return g_strconcat ("session:", session, NULL);
    }
  return NULL;
}

guint
ttv_traces_number_machines (GPtrArray *traces, guint *trace_machine, GPtrArray *names)
{
  g_autoptr (GPtrArray) keys = g_ptr_array_new_with_free_func (g_free);
  for (guint t = 0; t < traces->len; t++)
    {
      const TtvTrace *trace = g_ptr_array_index (traces, t);
      char *key = machine_key (trace);
      guint machine = keys->len;
      for (guint i = 0; key && i < keys->len; i++)
        if (g_strcmp0 (g_ptr_array_index (keys, i), key) == 0)
          {
            machine = i;
            break;
          }
      if (machine == keys->len)
        {
          const char *host = ttv_trace_get_host (trace);
          g_ptr_array_add (keys, key);
          if (names)
            g_ptr_array_add (names, g_strdup (host ? host : trace->name));
        }
      else
        g_free (key);
      trace_machine[t] = machine;
    }
  return MAX (keys->len, 1);
}

void
ttv_traceset_number_machines (TtvTraceset *ts)
{
  g_array_set_size (ts->trace_machine, ts->traces->len);
  g_ptr_array_set_size (ts->machine_names, 0);
  ts->n_machines = ttv_traces_number_machines (ts->traces, (guint *) (gpointer) ts->trace_machine->data,
                                               ts->machine_names);
}

guint
ttv_traceset_get_n_machines (const TtvTraceset *ts)
{
  return ts->n_machines;
}

guint
ttv_traceset_get_trace_machine (const TtvTraceset *ts, guint trace)
{
  g_return_val_if_fail (trace < ts->trace_machine->len, 0);
  return g_array_index (ts->trace_machine, guint, trace);
}

const char *
ttv_traceset_get_machine_name (const TtvTraceset *ts, guint machine)
{
  if (machine >= ts->machine_names->len)
    return NULL;
  return g_ptr_array_index (ts->machine_names, machine);
}

const char *
ttv_traceset_get_machine_name_if_several (const TtvTraceset *ts, guint machine)
{
  return ttv_traceset_get_n_machines (ts) > 1 ? ttv_traceset_get_machine_name (ts, machine) : NULL;
}

gboolean
ttv_traceset_get_machine_span (const TtvTraceset *ts, guint machine, TtvTime *start, TtvTime *end)
{
  *start = TTV_TIME_MAX;
  *end = TTV_TIME_MIN;
  for (guint i = 0; i < ts->traces->len; i++)
    {
      const TtvTrace *trace = g_ptr_array_index (ts->traces, i);

      if (ttv_traceset_get_trace_machine (ts, i) != machine || trace->tracefiles->len == 0
          || trace->start > trace->end)
        continue;
      *start = MIN (*start, trace->start);
      *end = MAX (*end, trace->end);
    }
  return *start <= *end;
}

char *
ttv_traceset_dup_machine_names (const TtvTraceset *ts)
{
  g_autoptr (GString) names = g_string_new (NULL);
  for (guint m = 0; m < ts->machine_names->len; m++)
    {
      g_autofree char *name = ttv_text_for_display (g_ptr_array_index (ts->machine_names, m));
      g_string_append_printf (names, "%s%s", m ? ", " : "", name);
    }
  return g_string_free (g_steal_pointer (&names), FALSE);
}
