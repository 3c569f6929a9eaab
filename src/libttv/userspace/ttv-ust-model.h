/* ttv-ust-model.h: what LTTng-UST's helper libraries' events mean.  One
 * table maps the events of liblttng-ust-cyg-profile(-fast),
 * -libc-wrapper, -dl and the tracer's own statedump to actions with their
 * arguments, the way the kernel model does for kernel events; the call
 * stack and memory analyses and the binaries' map read events through it. */
#pragma once

#include "ttv-trace.h"

G_BEGIN_DECLS

typedef enum {
  TTV_UST_NONE,
  TTV_UST_FUNC_ENTRY,       /* addr, call_site (cyg-profile; the fast variant has no call_site) */
  TTV_UST_FUNC_EXIT,        /* addr (not in the fast variant) */
  TTV_UST_MALLOC,           /* size, ptr */
  TTV_UST_CALLOC,           /* nmemb, size, ptr */
  TTV_UST_REALLOC,          /* in_ptr, size, ptr */
  TTV_UST_MEMALIGN,         /* alignment, size, ptr */
  TTV_UST_POSIX_MEMALIGN,   /* ptr (out_ptr), alignment, size, result */
  TTV_UST_FREE,             /* ptr */
  TTV_UST_STATEDUMP_START,  /* a process describes its binaries from here... */
  TTV_UST_STATEDUMP_END,    /* ... to here */
  TTV_UST_BIN_INFO,         /* baddr, memsz, path, is_pic, has_build_id, has_debug_link */
  TTV_UST_LOAD,             /* the same, of a binary loaded later (dlopen, dlmopen, lib:load) */
  TTV_UST_UNLOAD,           /* baddr (dlclose, lib:unload) */
  TTV_UST_BUILD_ID,         /* baddr, build_id */
  TTV_UST_DEBUG_LINK,       /* baddr, crc, path (the debug file's name) */
  TTV_UST_PROCNAME,         /* the process's name in procname */
  TTV_UST_N_ACTIONS
} TtvUstAction;

/* A GNU build id is 20 bytes (SHA-1) for GCC and binutils, 16 or 8 for
 * other linkers; longer ones are refused. */
#define TTV_UST_MAX_BUILD_ID 64
/* Paths longer than this are refused (PATH_MAX). */
#define TTV_UST_MAX_PATH 4096

/* One event as the model reads it.  Integer arguments the event does not
 * carry read 0 with their has_ flag FALSE where it matters. */
typedef struct {
  TtvUstAction action;
  TtvTime time;
  gint cpu;                     /* the stream's CPU, -1 unknown */
  guint trace;                  /* trace index in the traceset */
  gint64 vpid;                  /* contexts: -1 when absent */
  gint64 vtid;
  char procname[64];            /* context, "" when absent; TTV_UST_PROCNAME: the payload's */
  gboolean has_ip;              /* the ip context (the caller's address) */
  guint64 ip;
  guint64 addr, call_site;      /* functions */
  gboolean has_addr, has_call_site;
  guint64 ptr, in_ptr, size, nmemb, alignment;   /* memory */
  gint64 result;
  guint64 baddr, memsz;         /* binaries */
  guint32 crc;
  gboolean is_pic, has_build_id, has_debug_link;
  const char *path;             /* weak (valid until the next read), NUL-terminated, may be NULL */
  guint build_id_len;
  guint8 build_id[TTV_UST_MAX_BUILD_ID];
} TtvUstEvent;

typedef struct _TtvUstModel TtvUstModel;

/* Binds the table to every event type of @traces (of TtvTrace *, the
 * traceset's order). */
TtvUstModel *ttv_ust_model_new (GPtrArray *traces);
void         ttv_ust_model_free (TtvUstModel *model);
/* Whether any trace has an event type of @action. */
gboolean     ttv_ust_model_has_action (const TtvUstModel *model, TtvUstAction action);
/* The action of an event type (TTV_UST_NONE when the model ignores it). */
TtvUstAction ttv_ust_model_get_action (const TtvUstModel *model, guint trace, const TtvEventType *type);
/* The full names of the event types of @action in any trace (for hooks);
 * of const char *, borrowed. */
GPtrArray   *ttv_ust_model_dup_event_names (const TtvUstModel *model, TtvUstAction action);
/* Reads @event of trace @trace: FALSE when the model ignores its type, or
 * when it is damaged or lacks an argument its action needs (a build id
 * longer than TTV_UST_MAX_BUILD_ID, a path longer than TTV_UST_MAX_PATH). */
gboolean     ttv_ust_model_read (TtvUstModel *model, guint trace, const TtvEvent *event, TtvUstEvent *out);

/* Lower-case hex of a build id ("" for none); @out holds 2 * len + 1. */
void         ttv_ust_build_id_to_hex (const guint8 *id, guint len, char *out);
/* A build id back from hex (even length, 2..2 * TTV_UST_MAX_BUILD_ID digits). */
gboolean     ttv_ust_build_id_from_hex (const char *hex, guint8 *id, guint *len);

/* Whether @field of an event named @event_name holds a return address
 * (the instruction after a call: the call is the one before it, and its
 * line the call's): call_site, and the ip context of LTTng-UST's events
 * but cyg-profile's, whose probes give the traced function's own address
 * as their ip. */
gboolean     ttv_ust_field_is_return_address (const char *event_name, const char *field);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvUstModel, ttv_ust_model_free)

G_END_DECLS
