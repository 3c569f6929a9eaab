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
  GArray *entries;              /* of TtvHookEntry, sorted by prio, stable */
};

/* ttv_hooks_call() inline: the call of a list of one hook (the state pass's
 * tracker) costs no more than the hook's own call. */
static inline gboolean
ttv_hooks_run (const TtvHooks *h, gpointer call_data)
{
  const TtvHookEntry *e = (const TtvHookEntry *) (gpointer) h->entries->data;
  guint n = h->entries->len;
  if (G_LIKELY (n == 1))
    return e[0].func (e[0].hook_data, call_data);
  gboolean stop = FALSE;
  for (guint i = 0; i < n; i++)
    stop |= e[i].func (e[i].hook_data, call_data);
  return stop;
}

G_END_DECLS
