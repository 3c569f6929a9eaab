/* ttv-hook-groups.h: named sets of event types (trcrpt's hook groups): sched,
 * syscalls, irq... built in, extensible from a file.  Used by filters
 * (event.group = NAME), ttv-report -d/-k @NAME and the viewer's filter bar. */
#pragma once

#include "ttv-trace.h"

G_BEGIN_DECLS

typedef struct _TtvHookGroups TtvHookGroups;

/* A set holding the built-in groups: sched, syscalls, irq, trap, process,
 * block, net. */
TtvHookGroups *ttv_hook_groups_new (void);
void           ttv_hook_groups_free (TtvHookGroups *groups);
/* Adds groups, or patterns to existing groups, from a text file: one group
 * per line, "NAME: PATTERN PATTERN ...", '#' starts a comment.  A pattern
 * is an event name or glob (full name or plain name), an event id (hex
 * as the ID column prints it: the trace's own numbering), or @GROUP.  Errors name
 * file:line:column (TTV_FILTER_ERROR). */
gboolean       ttv_hook_groups_load_file (TtvHookGroups *groups, const char *path, GError **error);
/* The same from memory; @origin names it in messages. */
gboolean       ttv_hook_groups_load_data (TtvHookGroups *groups, const char *data, const char *origin,
                                          GError **error);
gboolean       ttv_hook_groups_has (const TtvHookGroups *groups, const char *name);
/* Sorted group names (free the array only). */
GPtrArray     *ttv_hook_groups_list (const TtvHookGroups *groups);
/* The patterns of a group, space separated ("" for an unknown group). */
char          *ttv_hook_groups_dup_patterns (const TtvHookGroups *groups, const char *name);
/* Whether @type belongs to group @name (FALSE for an unknown group).  Meant
 * to be resolved once per event type, not per event. */
gboolean       ttv_hook_groups_match (const TtvHookGroups *groups, const char *name,
                                      const TtvEventType *type);

/* Whether @type matches one selector of -d/-k, a timer or a group: a glob
 * over the full name ("core.sched_*") or the plain name ("sched_*"), or an
 * event id as the ID column shows it (hex, as trcrpt's hook ids: "15b",
 * also "0x15b") equal to the type's format id.  A word of hex digits is
 * both: "add" selects id 0xadd and the event named add. */
gboolean       ttv_event_type_matches_pattern (const TtvEventType *type, const char *pattern);

/* Parses an event id as ttv_event_type_matches_pattern() reads it: hex
 * digits, with or without 0x.  FALSE for anything else. */
gboolean       ttv_event_id_parse (const char *text, guint64 *id);

#define TTV_EVENT_ID_LEN 24
/* The type's id in the trace's own numbering as the ID column, -j and
 * {$id} print it: lower-case hex, at least three digits ("00f", "15b"). */
const char    *ttv_event_type_format_id (const TtvEventType *type, char buf[TTV_EVENT_ID_LEN]);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvHookGroups, ttv_hook_groups_free)

G_END_DECLS
