/* ttv-hooks-private.h: the layout of a hook list, for the engine's event
 * loop (ttv-context-process.c), which calls a list for every event. */
#pragma once

#include "ttv-hooks.h"

G_BEGIN_DECLS

typedef struct {
  TtvHook func;
  gpointer hook_data;
  guint prio;
} TtvHookEntry;

struct _TtvHooks {
  /* The one hook of a list of one (the state pass's tracker, an
   * analysis's handler of an event type), NULL otherwise: the event loop
   * calls it without going through @entries, two dependent loads fewer
   * an event.  Kept by every change of @entries. */
  TtvHook single;
  gpointer single_data;
  GArray *entries;              /* of TtvHookEntry, sorted by prio, stable */
};

/* ttv_hooks_call() inline: the call of a list of one hook (the state pass's
 * tracker) costs no more than the hook's own call. */
static inline gboolean
ttv_hooks_run (const TtvHooks *h, gpointer call_data)
{
  if (G_LIKELY (h->single != NULL))
    return h->single (h->single_data, call_data);
  const TtvHookEntry *e = (const TtvHookEntry *) (gpointer) h->entries->data;
  guint n = h->entries->len;
  gboolean stop = FALSE;
  for (guint i = 0; i < n; i++)
    stop |= e[i].func (e[i].hook_data, call_data);
  return stop;
}

G_END_DECLS
