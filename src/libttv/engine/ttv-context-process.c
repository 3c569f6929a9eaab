/* ttv-context-process.c: hook-driven processing of a traceset context (seed 003):
 * begin adds event hooks and calls begin hooks, middle delivers events, end undoes begin. */
#include "ttv-context-private.h"
#include "ttv-hooks-private.h"
#include "ttv-position-private.h"
#include "ttv-error.h"

#include <glib/gi18n-lib.h>

void
ttv_context_process_clear (TtvContext *ctx)
{
  if (ctx->dispatch)
    {
      guint n_traces = ttv_traceset_get_n_traces (ctx->traceset);
      for (guint t = 0; t < n_traces; t++)
        g_free (ctx->dispatch[t]);
      g_clear_pointer (&ctx->dispatch, g_free);
    }
  g_ptr_array_set_size (ctx->owned_hooks, 0);
  g_clear_pointer (&ctx->event_hooks, ttv_hooks_free);
  for (guint i = 0; i < ctx->n; i++)
    {
      ctx->streams[i].dispatch = NULL;
      ctx->streams[i].n_dispatch = 0;
    }
}

static void
add_by_id (TtvHooks **list, const TtvHooks *from)
{
  if (ttv_hooks_get_n_hooks (from) == 0)
    return;
  if (*list == NULL)
    *list = ttv_hooks_new ();
  ttv_hooks_add_list (*list, from);
}

/* Resolves every registration to one list per (trace, type id), so that
 * delivering an event costs one lookup and one list walk. */
static void
rebuild_dispatch (TtvContext *ctx)
{
  ttv_context_process_clear (ctx);
  if (ctx->registrations->len == 0)
    return;

  TtvHooks *general = ttv_hooks_new ();
  for (guint r = 0; r < ctx->registrations->len; r++)
    ttv_hooks_add_list (general, g_array_index (ctx->registrations, TtvRegistration, r).event);
  if (ttv_hooks_get_n_hooks (general) == 0)
    g_clear_pointer (&general, ttv_hooks_free);
  ctx->event_hooks = general;

  /* Without lists by event type every type's list is the general one: no
   * tables, and no lookup through the event's type for each event (the
   * state pass's case: a chain of dependent loads before its hook). */
  gboolean by_type = FALSE;
  for (guint r = 0; r < ctx->registrations->len; r++)
    by_type |= g_array_index (ctx->registrations, TtvRegistration, r).by_id != NULL;
  if (!by_type)
    return;

  guint n_traces = ttv_traceset_get_n_traces (ctx->traceset);
  ctx->dispatch = g_new0 (TtvHooks **, MAX (n_traces, 1));
  for (guint t = 0; t < n_traces; t++)
    {
      const TtvTrace *trace = ttv_traceset_get_trace (ctx->traceset, t);
      guint n_types = trace->event_types->len;
      TtvHooks **table = g_new0 (TtvHooks *, MAX (n_types, 1));
      ctx->dispatch[t] = table;
      for (guint id = 0; id < n_types; id++)
        {
          const TtvEventType *et = g_ptr_array_index (trace->event_types, id);
          TtvHooks *list = NULL;
          gboolean any = FALSE;
          for (guint r = 0; r < ctx->registrations->len && !any; r++)
            {
              const TtvHooksById *b = g_array_index (ctx->registrations, TtvRegistration, r).by_id;
              if (b == NULL)
                continue;
              any = ttv_hooks_get_n_hooks (ttv_hooks_by_id_get_id (b, t, id)) > 0
                    || (et->full_name && ttv_hooks_get_n_hooks (ttv_hooks_by_id_get (b, et->full_name)) > 0)
                    || (et->name && g_strcmp0 (et->name, et->full_name) != 0
                        && ttv_hooks_get_n_hooks (ttv_hooks_by_id_get (b, et->name)) > 0);
            }
          if (!any)
            {
              table[id] = general;
              continue;
            }
          /* ttv_hooks_add keeps insertion order among equal priorities:
           * registration order, general list before by-id lists. */
          for (guint r = 0; r < ctx->registrations->len; r++)
            {
              const TtvRegistration *reg = &g_array_index (ctx->registrations, TtvRegistration, r);
              add_by_id (&list, reg->event);
              if (reg->by_id == NULL)
                continue;
              if (et->full_name)
                add_by_id (&list, ttv_hooks_by_id_get (reg->by_id, et->full_name));
              if (et->name && g_strcmp0 (et->name, et->full_name) != 0)
                add_by_id (&list, ttv_hooks_by_id_get (reg->by_id, et->name));
              add_by_id (&list, ttv_hooks_by_id_get_id (reg->by_id, t, id));
            }
          g_ptr_array_add (ctx->owned_hooks, list);
          table[id] = list;
        }
    }
  for (guint i = 0; i < ctx->n; i++)
    {
      TtvStream *s = &ctx->streams[i];
      s->dispatch = ctx->dispatch[s->trace];
      s->n_dispatch = ttv_traceset_get_trace (ctx->traceset, s->trace)->event_types->len;
    }
}

static void
call_phase (TtvContext *ctx, TtvHooks *traceset, TtvHooks *trace, TtvHooks *tracefile,
            gboolean ending)
{
  TtvHookCall call = { ctx, NULL, G_MAXUINT, G_MAXUINT };
  guint n_traces = ttv_traceset_get_n_traces (ctx->traceset);
  if (!ending)
    ttv_hooks_call (traceset, &call);
  for (guint t = 0; t < n_traces; t++)
    {
      guint first = ttv_traceset_get_trace_first_stream (ctx->traceset, t);
      guint n_tf = ttv_traceset_get_trace (ctx->traceset, t)->tracefiles->len;
      call.trace = t;
      call.stream = G_MAXUINT;
      if (!ending)
        ttv_hooks_call (trace, &call);
      for (guint i = 0; i < n_tf; i++)
        {
          call.stream = first + i;
          ttv_hooks_call (tracefile, &call);
        }
      call.stream = G_MAXUINT;
      if (ending)
        ttv_hooks_call (trace, &call);
    }
  call.trace = G_MAXUINT;
  if (ending)
    ttv_hooks_call (traceset, &call);
}

void
ttv_context_process_begin (TtvContext *ctx, TtvHooks *before_traceset, TtvHooks *before_trace,
                           TtvHooks *before_tracefile, TtvHooks *event, TtvHooksById *event_by_id)
{
  g_return_if_fail (ctx != NULL);
  TtvRegistration reg = { event, event_by_id };
  g_array_append_val (ctx->registrations, reg);
  rebuild_dispatch (ctx);
  call_phase (ctx, before_traceset, before_trace, before_tracefile, FALSE);
}

void
ttv_context_process_end (TtvContext *ctx, TtvHooks *after_traceset, TtvHooks *after_trace,
                         TtvHooks *after_tracefile, TtvHooks *event, TtvHooksById *event_by_id)
{
  g_return_if_fail (ctx != NULL);
  call_phase (ctx, after_traceset, after_trace, after_tracefile, TRUE);
  for (guint r = ctx->registrations->len; r > 0; r--)
    {
      const TtvRegistration *reg = &g_array_index (ctx->registrations, TtvRegistration, r - 1);
      if (reg->event == event && reg->by_id == event_by_id)
        {
          g_array_remove_index (ctx->registrations, r - 1);
          break;
        }
    }
  rebuild_dispatch (ctx);
}

/* The next event (of stream @w) is at or after @end in position order. */
static gboolean
reached (const TtvContext *ctx, const TtvPosition *end, guint w)
{
  if (end->next >= end->n)
    return FALSE;                       /* the end: reached by running out */
  const TtvEvent *ev = &ctx->streams[w].event;
  if (ev->time != end->next_time)
    return ev->time > end->next_time;
  if (w != end->next)
    return w > end->next;
  const TtvTracefilePosition *p = &end->tf[w].pos;
  int c = ttv_tracefile_position_compare (&ev->pos, p);
  return c > 0 || (c == 0 && ev->pos.index >= p->index);
}

guint64
ttv_context_process_middle (TtvContext *ctx, TtvTime end_time, guint64 max_events,
                            const TtvPosition *end_position, GError **error)
{
  g_return_val_if_fail (ctx != NULL && !ctx->in_hooks, 0);
  if (end_position && (end_position->n != ctx->n || end_position->shape != ctx->shape))
    {
      g_set_error (error, TTV_ENGINE_ERROR, TTV_ENGINE_ERROR_BAD_POSITION,
                   _("The end position was saved for another traceset"));
      return 0;
    }
  /* Events before @check_time cannot reach the end position: the loop
   * looks at the position only from there on. */
  TtvTime check_time = end_position && end_position->next < end_position->n
                         ? end_position->next_time : TTV_TIME_MAX;
  gboolean check_position = end_position && end_position->next < end_position->n;
  TtvHookCall *call = &ctx->call;
  TtvHooks *general = ctx->event_hooks;
  guint64 n = 0;
  /* It moves any stream: the next peek compares all. */
  ctx->epoch++;

  if (!ttv_context_prepare (ctx, error))
    return 0;
  while (n < max_events)
    {
      if (ctx->pending && !ttv_context_advance (ctx))
        {
          g_propagate_error (error, g_error_copy (ctx->error));
          break;
        }
      if (ttv_merge_at_end (&ctx->merge))
        break;
      guint w = ttv_merge_winner (&ctx->merge);
      TtvStream *s = &ctx->streams[w];
      const TtvEvent *ev = &s->event;
      if (ev->time > end_time)
        break;
      if (G_UNLIKELY (ev->time >= check_time) && check_position
          && reached (ctx, end_position, w))
        break;
      ttv_context_set_pending (ctx, w);
      n++;
      TtvHooks *hooks = general;
      if (s->dispatch && ev->type && ev->type->id < s->n_dispatch)
        hooks = s->dispatch[ev->type->id];
      if (hooks)
        {
          call->event = ev;
          call->trace = s->trace;
          call->stream = w;
          ctx->in_hooks = TRUE;
          gboolean stop = ttv_hooks_run (hooks, call);
          ctx->in_hooks = FALSE;
          if (stop)
            break;
        }
    }
  return n;
}
