/* ttv-hooks.h: priority-ordered hook lists (seed 003), and hook lists per
 * event type.  The traceset context calls them; state, statistics and viewers add to them. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Priorities: 0 is called first, 99 last. */
#define TTV_PRIO_FIRST 0
#define TTV_PRIO_STATE 25
#define TTV_PRIO_DEFAULT 50
#define TTV_PRIO_LAST 99

/* A hook returns TRUE to ask the caller to stop (e.g. process_middle stops
 * after the current event). */
typedef gboolean (*TtvHook) (gpointer hook_data, gpointer call_data);

typedef struct _TtvHooks TtvHooks;
typedef struct _TtvHooksById TtvHooksById;

TtvHooks   *ttv_hooks_new (void);
void        ttv_hooks_free (TtvHooks *hooks);
/* Hooks of equal priority are called in the order they were added. */
void        ttv_hooks_add (TtvHooks *hooks, TtvHook func, gpointer hook_data, guint prio);
/* Adds every hook of @other (with its priority). */
void        ttv_hooks_add_list (TtvHooks *hooks, const TtvHooks *other);
/* Removes every hook with this function and data; returns how many. */
guint       ttv_hooks_remove (TtvHooks *hooks, TtvHook func, gpointer hook_data);
guint       ttv_hooks_get_n_hooks (const TtvHooks *hooks);
/* The i-th hook in call order. */
TtvHook     ttv_hooks_get (const TtvHooks *hooks, guint i, gpointer *hook_data, guint *prio);
/* Calls every hook in priority order; returns TRUE if any returned TRUE.
 * @hooks may be NULL (nothing to call). */
gboolean    ttv_hooks_call (const TtvHooks *hooks, gpointer call_data);
/* Calls the hooks of both lists interleaved in priority order (@a's first
 * on equal priority), each with its own call data; TRUE if any returned TRUE. */
gboolean    ttv_hooks_call_merge (const TtvHooks *a, gpointer call_data_a,
                                  const TtvHooks *b, gpointer call_data_b);

/* Hook lists per event type.  Event-type ids are dense per trace, so a list
 * is registered either by event name (full name "core.syscall_entry" or plain
 * name "sched_switch"), resolved to each trace's id when processing begins,
 * or by (trace index in the traceset, type id). */
TtvHooksById *ttv_hooks_by_id_new (void);
void        ttv_hooks_by_id_free (TtvHooksById *by_id);
/* The list for this event name, created empty if needed (borrowed). */
TtvHooks   *ttv_hooks_by_id_find (TtvHooksById *by_id, const char *event_name);
/* The list for this trace's type id, created empty if needed (borrowed). */
TtvHooks   *ttv_hooks_by_id_find_id (TtvHooksById *by_id, guint trace_index, guint type_id);
/* The list for this event name or NULL (borrowed). */
TtvHooks   *ttv_hooks_by_id_get (const TtvHooksById *by_id, const char *event_name);
TtvHooks   *ttv_hooks_by_id_get_id (const TtvHooksById *by_id, guint trace_index, guint type_id);
/* The event names registered, in registration order (borrowed). */
guint       ttv_hooks_by_id_get_n_names (const TtvHooksById *by_id);
const char *ttv_hooks_by_id_get_name (const TtvHooksById *by_id, guint i);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvHooks, ttv_hooks_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvHooksById, ttv_hooks_by_id_free)

G_END_DECLS
