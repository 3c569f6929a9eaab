/* ttv-report.c: formatting events as report lines (see ttv-report.h).
 * Fields come from the one decoder, so every format prints the same way. */
#include "ttv-report.h"
#include "ttv-event-json.h"
#include "ttv-event-owner.h"
#include "ttv-hook-groups.h"
#include "ttv-json-out.h"
#include "ttv-position-token.h"
#include "ttv-text.h"

#include <string.h>

/* jsonl: the keys of a struct's members (",\"name\":", escaped once),
 * each with the name it was made from: a node whose name is another
 * pointer is not the member cached and is escaped as it comes. */
typedef struct {
  const char *name;          /* weak: the member's name */
  char *key;                 /* owned */
  gsize len;
} JsonKey;

typedef struct {
  const TtvType *type;       /* weak: the struct the keys are of */
  guint n;
  JsonKey *keys;             /* owned */
} JsonKeys;

/* jsonl: what is written the same for every event of a type: its name
 * and the member keys of its fields and contexts (in the order of
 * TtvEventContext, the fields last). */
typedef struct {
  GString *name;             /* owned: the JSON string of its name */
  JsonKeys scopes[TTV_EVENT_N_CONTEXTS + 1];
} JsonType;

/* A direct-mapped memo in front of a pointer-keyed hash table: a jsonl
 * line looks up its tracefile and its type, and two g_hash_table_lookup()
 * calls cost about 130 instructions an event; a hit here costs a few. */
#define JSON_MEMO_SLOTS 256
typedef struct {
  gconstpointer key;         /* weak; NULL: empty */
  gpointer value;            /* weak: the hash table owns it */
} JsonMemoSlot;

static inline JsonMemoSlot *
json_memo_slot (JsonMemoSlot *memo, gconstpointer key)
{
  guintptr k = (guintptr) key;
  return &memo[(k >> 4 ^ k >> 12) & (JSON_MEMO_SLOTS - 1)];
}

#define JSON_FIELDS TTV_EVENT_N_CONTEXTS

/* jsonl: the line's piece from its tracefile to its type's name
 * ("\",\"trace\":…,\"event\":\"name\""), the same for every event of
 * a type in a tracefile, kept per pair in a direct-mapped memo in whole
 * blocks (ttv_text_put_blocks): one copy where the tracefile's piece and
 * the name took two lookups and two copies, the first (70 bytes and more)
 * through memcpy, the second too when the name is longer than 16 bytes.
 * 1024 slots: a 4-CPU kernel trace's few hundred pairs missed 9 % of 256
 * (a miss makes the text again: about 100 instructions and two memcpy). */
#define JSON_HEAD_SLOTS 1024
typedef struct {
  const TtvTracefile *tf;    /* weak; NULL: empty */
  const TtvEventType *type;  /* weak */
  JsonType *jt;              /* weak: json_types owns it */
  gsize len;
  gsize room;                /* of text: whole blocks */
  char *text;                /* owned */
} JsonHeadSlot;

/* jsonl: the text before the nanoseconds of the second's first time and
 * of its second time, in one block each: "{\"time_ns\":S" and
 * ",\"time\":\"S." (a second has at most 19 digits). */
typedef struct {
  gint64 second;             /* -1: none yet */
  char ns_head[TTV_TEXT_BLOCK];
  gsize ns_head_len;
  char time_head[TTV_TEXT_BLOCK];
  gsize time_head_len;
} JsonSecond;

struct _TtvReportPrinter {
  TtvReportOptions options;
  TtvDecoder *decoder;       /* owned, reused for every event */
  TtvTime previous_time;     /* for the babeltrace delta */
  /* jsonl: what a line says of its tracefile (",\"trace\":…,\"event\":")
   * and what it says the same for every event of a type, made once (the
   * printer lives for one traceset, whose tracefiles and types live as
   * long: pointers are keys). */
  GHashTable *json_where;    /* TtvTracefile * -> GString *, owned */
  GHashTable *json_types;    /* TtvEventType * -> JsonType *, owned */
  JsonMemoSlot where_memo[JSON_MEMO_SLOTS];
  JsonMemoSlot type_memo[JSON_MEMO_SLOTS];
  JsonHeadSlot head_memo[JSON_HEAD_SLOTS];  /* their texts owned */
  TtvPositionTokenWriter *tokens;  /* owned: each event's position token */
  /* jsonl: the text of the last event's second (times of at least a
   * second: nanoseconds since the epoch have 19 digits, and writing them
   * cost about 120 instructions an event, the second's digits alone
   * changing once in thousands of events). */
  JsonSecond json_second;
  /* jsonl: the fields and contexts written by the event's format straight
   * from its bytes when it can (ttv_event_append_jsonl_scopes), else from
   * the decoded tree; FALSE only in the tests that compare the two. */
  gboolean jsonl_direct;
};

static void
json_type_free (gpointer data)
{
  JsonType *jt = data;
  for (guint i = 0; i < G_N_ELEMENTS (jt->scopes); i++)
    {
      for (guint k = 0; k < jt->scopes[i].n; k++)
        g_free (jt->scopes[i].keys[k].key);
      g_free (jt->scopes[i].keys);
    }
  g_string_free (jt->name, TRUE);
  g_free (jt);
}

static void
gstring_free (gpointer data)
{
  g_string_free (data, TRUE);
}

TtvReportPrinter *
ttv_report_printer_new (const TtvReportOptions *options)
{
  TtvReportPrinter *p = g_new0 (TtvReportPrinter, 1);
  p->options = *options;
  p->decoder = ttv_decoder_new ();
  p->previous_time = TTV_TIME_MIN;
  p->json_second.second = -1;
  p->json_where = g_hash_table_new_full (NULL, NULL, NULL, gstring_free);
  p->json_types = g_hash_table_new_full (NULL, NULL, NULL, json_type_free);
  p->tokens = ttv_position_token_writer_new ();
  p->jsonl_direct = TRUE;
  return p;
}

void
ttv_report_printer_set_jsonl_direct (TtvReportPrinter *p, gboolean direct)
{
  g_return_if_fail (p != NULL);
  p->jsonl_direct = direct;
}

void
ttv_report_printer_free (TtvReportPrinter *p)
{
  if (p == NULL)
    return;
  ttv_decoder_free (p->decoder);
  g_hash_table_unref (p->json_where);
  g_hash_table_unref (p->json_types);
  ttv_position_token_writer_free (p->tokens);
  for (guint i = 0; i < JSON_HEAD_SLOTS; i++)
    g_free (p->head_memo[i].text);
  g_free (p);
}

static void
append_json_string (GString *out, const char *s)
{
  ttv_json_append_string (out, s, -1);
}

/* "cpuN" or the tracefile's name, after "TRACE/" with show_trace.
 * Without printf: the text report writes it on every line. */
static void
append_where (GString *out, const TtvReportOptions *o, const TtvEvent *ev)
{
  const TtvTracefile *tf = ev->tracefile;
  if (o->show_trace)
    {
      g_string_append (out, tf->trace->name);
      g_string_append_c (out, '/');
    }
  if (tf->cpu >= 0)
    {
      char *at = TTV_TEXT_PUT_LITERAL (ttv_text_reserve (out, TTV_TEXT_NUMBER_MAX), "cpu");
      ttv_text_commit (out, ttv_text_put_i64 (at, tf->cpu));
    }
  else
    g_string_append (out, tf->name);
}

/* Appends the decoded fields, or a note saying why they could not be. */
static gboolean
decode (TtvReportPrinter *p, const TtvEvent *ev, gint32 *root, GError **error)
{
  ttv_decoder_reset (p->decoder);
  *root = ttv_event_decode_fields (ev, p->decoder, error);
  return *root >= 0;
}

/* The fields part of a line: by template when the format file has one,
 * else "NAME: fields" (@with_name) or the fields alone. */
static void
append_description (TtvReportPrinter *p, const TtvEvent *ev, const TtvState *state, gboolean with_name,
                    GString *out)
{
  gint32 root;
  g_autoptr (GError) error = NULL;
  gboolean ok = decode (p, ev, &root, &error);
  if (p->options.format_file)
    {
      if (ttv_format_file_append (p->options.format_file, ev, p->decoder, ok ? root : -1, state, out))
        return;
    }
  if (with_name)
    g_string_append (out, ev->type->full_name);
  if (!ok)
    g_string_append_printf (out, "%s<undecodable: %s>", with_name ? ": " : "", error ? error->message : "?");
  else if (ttv_decoder_get (p->decoder, (guint32) root)->n_children > 0)
    {
      if (with_name)
        g_string_append (out, ": ");
      ttv_decoder_append_value (p->decoder, (guint32) root, TTV_VALUE_STYLE_PLAIN, out);
    }
}

/* @t in seconds with @decimals (at most 9) decimals, truncated. */
static void
append_seconds (GString *out, TtvTime t, guint decimals)
{
  char *p = ttv_text_reserve (out, TTV_TEXT_NUMBER_MAX);
  guint64 u = t < 0 ? (guint64) 0 - (guint64) t : (guint64) t;
  guint64 frac = u % 1000000000u;
  for (guint i = decimals; i < 9; i++)
    frac /= 10;
  if (t < 0)
    *p++ = '-';
  p = ttv_text_put_u64 (p, u / 1000000000u);
  *p++ = '.';
  ttv_text_commit (out, ttv_text_put_u64_padded (p, frac, decimals));
}

/* Spaces up to @width bytes after @start, then one more: a column's
 * cell, in one write (the column layout pads every cell of every line). */
static void
pad_to (GString *out, gsize start, gsize width)
{
  gsize used = out->len - start;
  gsize n = (used < width ? width - used : 0) + 1;
  char *p = ttv_text_reserve (out, n);
  memset (p, ' ', n);
  ttv_text_commit (out, p + n);
}

static void
append_cell (GString *out, const char *text, gsize width)
{
  gsize start = out->len;
  g_string_append (out, text);
  pad_to (out, start, width);
}

/* A cell of @v in decimal, or "-" when it is negative (none known). */
static void
append_number_cell (GString *out, gint64 v, gsize width)
{
  gsize start = out->len;
  if (v >= 0)
    ttv_text_commit (out, ttv_text_put_i64 (ttv_text_reserve (out, TTV_TEXT_NUMBER_MAX), v));
  else
    g_string_append_c (out, '-');
  pad_to (out, start, width);
}

static void
trim_line (GString *out, gsize line_start)
{
  while (out->len > line_start && out->str[out->len - 1] == ' ')
    g_string_truncate (out, out->len - 1);
  g_string_append_c (out, '\n');
}

void
ttv_report_printer_append_headings (TtvReportPrinter *p, GString *out)
{
  const TtvReportOptions *o = &p->options;
  if (!o->column_layout)
    return;
  gsize line = out->len;
  if (o->columns & TTV_REPORT_COLUMN_ID)
    append_cell (out, "ID", 5);
  if (o->timestamp == TTV_REPORT_TIMESTAMP_ELAPSED)
    {
      append_cell (out, "ELAPSED_SEC", 14);
      append_cell (out, "DELTA_MSEC", 14);
    }
  else if (o->timestamp == TTV_REPORT_TIMESTAMP_US)
    append_cell (out, "ELAPSED_SEC", 14);
  else if (o->timestamp == TTV_REPORT_TIMESTAMP_NS)
    {
      append_cell (out, "ELAPSED_SEC", 14);
      append_cell (out, "DELTA_USEC", 10);
    }
  if (o->columns & TTV_REPORT_COLUMN_CPU)
    append_cell (out, "CPU", 4);
  if (o->columns & TTV_REPORT_COLUMN_PID)
    append_cell (out, "PID", 7);
  if (o->columns & TTV_REPORT_COLUMN_TID)
    append_cell (out, "TID", 7);
  if (o->columns & TTV_REPORT_COLUMN_EXEC)
    append_cell (out, "EXEC", 16);
  if (o->columns & TTV_REPORT_COLUMN_SVC)
    append_cell (out, "SVC", 16);
  append_cell (out, "EVENT", 24);
  if (o->two_line)
    {
      trim_line (out, line);
      line = out->len;
      g_string_append (out, "        ");
    }
  g_string_append (out, "DESCRIPTION");
  trim_line (out, line);
}

static void
append_columns (TtvReportPrinter *p, const TtvEvent *ev, const TtvState *state, const char *suffix,
                GString *out)
{
  const TtvReportOptions *o = &p->options;
  gsize line = out->len, start;
  const TtvProcessState *proc = state ? ttv_state_get_event_process (state, ev->tracefile->cpu) : NULL;
  TtvTime delta = ev->time - (p->previous_time == TTV_TIME_MIN ? o->origin : p->previous_time);
  if (o->columns & TTV_REPORT_COLUMN_ID)
    {
      char id[TTV_EVENT_ID_LEN];
      append_cell (out, ttv_event_type_format_id (ev->type, id), 5);
    }
  if (o->timestamp != TTV_REPORT_TIMESTAMP_NONE)
    {
      start = out->len;
      append_seconds (out, ev->time - o->origin, o->timestamp == TTV_REPORT_TIMESTAMP_US ? 6 : 9);
      pad_to (out, start, 14);
    }
  if (o->timestamp == TTV_REPORT_TIMESTAMP_ELAPSED)
    {
      /* Milliseconds with nanosecond resolution: seconds scaled by 1000. */
      start = out->len;
      guint64 u = delta < 0 ? (guint64) 0 - (guint64) delta : (guint64) delta;
      char *at = ttv_text_reserve (out, TTV_TEXT_NUMBER_MAX);
      if (delta < 0)
        *at++ = '-';
      at = ttv_text_put_u64 (at, u / 1000000u);
      *at++ = '.';
      ttv_text_commit (out, ttv_text_put_u64_padded (at, u % 1000000u, 6));
      pad_to (out, start, 14);
    }
  else if (o->timestamp == TTV_REPORT_TIMESTAMP_NS)
    {
      start = out->len;
      ttv_text_commit (out, ttv_text_put_i64 (ttv_text_reserve (out, TTV_TEXT_NUMBER_MAX), delta / 1000));
      pad_to (out, start, 10);
    }
  if (o->columns & TTV_REPORT_COLUMN_CPU)
    append_number_cell (out, ev->tracefile->cpu, 4);
  /* No running process known (a userspace trace has no kernel state):
   * what the event's own contexts say (vpid, vtid, procname). */
  TtvEventOwner ctx = { -1, -1, "", FALSE, 0 };
  if (proc == NULL && (o->columns & (TTV_REPORT_COLUMN_PID | TTV_REPORT_COLUMN_TID | TTV_REPORT_COLUMN_EXEC)))
    ttv_event_owner_from_context (ev, p->decoder, &ctx);
  if (o->columns & TTV_REPORT_COLUMN_PID)
    append_number_cell (out, proc ? (gint64) ttv_process_state_get_tgid (proc) : ctx.pid, 7);
  if (o->columns & TTV_REPORT_COLUMN_TID)
    append_number_cell (out, proc ? (gint64) proc->pid : ctx.tid, 7);
  if (o->columns & TTV_REPORT_COLUMN_EXEC)
    append_cell (out, proc && proc->name ? g_quark_to_string (proc->name) : !proc && ctx.name[0] ? ctx.name : "-", 16);
  if (o->columns & TTV_REPORT_COLUMN_SVC)
    {
      const char *svc = state ? ttv_state_get_event_syscall (state, ev->tracefile->cpu) : NULL;
      append_cell (out, svc ? svc : "-", 16);
    }
  start = out->len;
  if (o->show_trace)
    {
      g_string_append (out, ev->tracefile->trace->name);
      g_string_append_c (out, '/');
    }
  g_string_append (out, ev->type->full_name);
  pad_to (out, start, 24);
  if (o->two_line)
    {
      trim_line (out, line);
      line = out->len;
      g_string_append (out, "        ");
    }
  append_description (p, ev, state, FALSE, out);
  if (suffix)
    g_string_append_printf (out, " %s", suffix);
  trim_line (out, line);
}

static void
append_text (TtvReportPrinter *p, const TtvEvent *ev, const TtvPosition *pos,
             const TtvState *state, const char *suffix, GString *out)
{
  /* ttv_time_to_string's text, written in place. */
  char *at = ttv_text_put_seconds (ttv_text_reserve (out, TTV_TEXT_NUMBER_MAX), ev->time);
  *at++ = ' ';
  ttv_text_commit (out, at);
  append_where (out, &p->options, ev);
  if (p->options.show_state)
    {
      const TtvProcessState *proc = state ? ttv_state_get_event_process (state, ev->tracefile->cpu) : NULL;
      if (proc)
        {
          /* " pid %u NAME MODE", without printf: on every line. */
          at = TTV_TEXT_PUT_LITERAL (ttv_text_reserve (out, TTV_TEXT_NUMBER_MAX), " pid ");
          at = ttv_text_put_u64 (at, proc->pid);
          *at++ = ' ';
          ttv_text_commit (out, at);
          g_string_append (out, proc->name ? g_quark_to_string (proc->name) : "-");
          g_string_append_c (out, ' ');
          g_string_append (out, ttv_exec_mode_name (ttv_process_state_get_mode (proc)));
        }
      else
        g_string_append (out, " pid - - unknown");
    }
  if (p->options.show_position && pos)
    {
      g_string_append (out, " @");
      ttv_position_token_writer_append (p->tokens, pos, out);
    }
  g_string_append_c (out, ' ');
  append_description (p, ev, state, TRUE, out);
  if (suffix)
    g_string_append_printf (out, " %s", suffix);
  g_string_append_c (out, '\n');
}

/* Makes @keys those of @v's members when they are of another struct. */
static void
json_keys_update (JsonKeys *keys, const TtvDecoder *d, const TtvValue *v)
{
  if (keys->type == v->type)
    return;
  for (guint k = 0; k < keys->n; k++)
    g_free (keys->keys[k].key);
  g_free (keys->keys);
  const TtvValue *children = ttv_decoder_get_children (d, v);
  keys->type = v->type;
  keys->n = v->n_children;
  keys->keys = g_new0 (JsonKey, keys->n);
  for (guint i = 0; i < keys->n; i++)
    {
      keys->keys[i].name = children[i].name;
      keys->keys[i].key = ttv_event_json_key_new (children[i].name, &keys->keys[i].len);
    }
}

/* Member @i's key, after '{' (@first) or ','. */
static void
append_json_key (GString *out, const JsonKeys *keys, guint i, const TtvValue *member, gboolean first)
{
  if (G_UNLIKELY (i >= keys->n || keys->keys[i].name != member->name))
    {
      g_string_append_c (out, first ? '{' : ',');
      append_json_string (out, member->name ? member->name : "");
      g_string_append_c (out, ':');
      return;
    }
  const JsonKey *k = &keys->keys[i];
  char *p = ttv_text_put (ttv_text_reserve (out, k->len), k->key, k->len);
  p[-(gssize) k->len] = first ? '{' : ',';
  ttv_text_commit (out, p);
}

/* Member @i, key and value.  Integers (most members) are written with
 * their key in one go; the rest as ttv_event_json_append_value writes
 * them (what the formats' direct writers use too). */
static void
append_json_member (const TtvDecoder *d, GString *out, const JsonKeys *keys, guint i, const TtvValue *member,
                    gboolean first)
{
  const TtvType *t = member->type;
  if (G_LIKELY (i < keys->n && keys->keys[i].name == member->name && t->kind == TTV_TYPE_INTEGER
                && t->int_kind != TTV_INT_BOOLEAN))
    {
      const JsonKey *k = &keys->keys[i];
      char *p = ttv_text_put (ttv_text_reserve (out, k->len + TTV_TEXT_NUMBER_MAX), k->key, k->len);
      p[-(gssize) k->len] = first ? '{' : ',';
      p = t->is_signed ? ttv_text_put_i64 (p, member->v.s) : ttv_text_put_u64 (p, member->v.u);
      ttv_text_commit (out, p);
      return;
    }
  append_json_key (out, keys, i, member, first);
  ttv_event_json_append_value (out, d, member, ttv_event_json_kind_of (t));
}

/* The fields: a struct's members by their cached keys (as the decoder's
 * JSON writes them), anything else by the decoder. */
static void
append_json_fields (const TtvDecoder *d, guint32 node, JsonKeys *keys, GString *out)
{
  const TtvValue *v = ttv_decoder_get (d, node);
  if (v->type->kind != TTV_TYPE_STRUCT)
    {
      ttv_decoder_append_node (d, v, TTV_VALUE_STYLE_JSON, out);
      return;
    }
  json_keys_update (keys, d, v);
  const TtvValue *children = ttv_decoder_get_children (d, v);
  for (guint32 i = 0; i < v->n_children; i++)
    {
      append_json_member (d, out, keys, i, &children[i], i == 0);
    }
  if (v->n_children == 0)
    g_string_append_c (out, '{');
  g_string_append_c (out, '}');
}

/* The members of a decoded context without a role for the reader (packet
 * sizes, times and counters, which describe the packet, not the event). */
static gboolean
append_json_members (const TtvDecoder *d, guint32 node, JsonKeys *keys, GString *out)
{
  const TtvValue *v = ttv_decoder_get (d, node);
  json_keys_update (keys, d, v);
  const TtvValue *children = ttv_decoder_get_children (d, v);
  guint n = 0;
  for (guint32 i = 0; i < v->n_children; i++)
    {
      const TtvValue *c = &children[i];
      if (c->type->roles || c->type->clock_name)
        continue;
      append_json_member (d, out, keys, i, c, n++ == 0);
    }
  if (n)
    g_string_append_c (out, '}');
  return n > 0;
}

/* "contexts": {"packet": {...}, "stream": {...}, "event": {...}}, each
 * scope the event has and that holds something (CTF's packet context,
 * stream event context and event context), none when it has none. */
static void
append_json_contexts (TtvReportPrinter *p, JsonType *jt, const gint32 scopes[TTV_EVENT_N_CONTEXTS], GString *out)
{
  static const struct {
    TtvEventContext scope;
    const char *first;         /* the key when the first of the contexts */
    const char *next;
  } order[] = {
    { TTV_EVENT_CONTEXT_PACKET, ",\"contexts\":{\"packet\":", ",\"packet\":" },
    { TTV_EVENT_CONTEXT_STREAM_EVENT, ",\"contexts\":{\"stream\":", ",\"stream\":" },
    { TTV_EVENT_CONTEXT_EVENT, ",\"contexts\":{\"event\":", ",\"event\":" },
  };
  guint n = 0;
  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    {
      TtvEventContext scope = order[i].scope;
      if (scopes[scope] < 0)
        continue;
      gsize mark = out->len;
      const char *key = n ? order[i].next : order[i].first;
      ttv_text_append (out, key, strlen (key));
      if (append_json_members (p->decoder, (guint32) scopes[scope], &jt->scopes[scope], out))
        n++;
      else
        g_string_truncate (out, mark);
    }
  if (n)
    g_string_append_c (out, '}');
}

/* The part of a jsonl line that names @tf: ",\"trace\":…,\"event\":". */
static const GString *
jsonl_where (TtvReportPrinter *p, const TtvTracefile *tf)
{
  JsonMemoSlot *slot = json_memo_slot (p->where_memo, tf);
  if (G_LIKELY (slot->key == tf))
    return slot->value;
  GString *where = g_hash_table_lookup (p->json_where, tf);
  if (where == NULL)
    {
      where = g_string_new ("\",\"trace\":");
      append_json_string (where, tf->trace->name);
      g_string_append (where, ",\"tracefile\":");
      append_json_string (where, tf->name);
      g_string_append (where, ",\"cpu\":");
      if (tf->cpu >= 0)
        g_string_append_printf (where, "%d", tf->cpu);
      else
        g_string_append (where, "null");
      g_string_append (where, ",\"event\":");
      g_hash_table_insert (p->json_where, (gpointer) tf, where);
    }
  slot->key = tf;
  slot->value = where;
  return where;
}

/* What is written the same for every event of @type. */
static JsonType *
jsonl_type (TtvReportPrinter *p, const TtvEventType *type)
{
  JsonMemoSlot *slot = json_memo_slot (p->type_memo, type);
  if (G_LIKELY (slot->key == type))
    return slot->value;
  JsonType *jt = g_hash_table_lookup (p->json_types, type);
  if (jt == NULL)
    {
      jt = g_new0 (JsonType, 1);
      jt->name = g_string_new (NULL);
      append_json_string (jt->name, type->full_name);
      g_hash_table_insert (p->json_types, (gpointer) type, jt);
    }
  slot->key = type;
  slot->value = jt;
  return jt;
}

/* The head piece of @tf and @type, made on a miss from jsonl_where() and
 * jsonl_type(). */
static const JsonHeadSlot *
jsonl_head (TtvReportPrinter *p, const TtvTracefile *tf, const TtvEventType *type)
{
  guintptr k = (guintptr) tf ^ (guintptr) type;
  JsonHeadSlot *slot = &p->head_memo[(k >> 4 ^ k >> 12) & (JSON_HEAD_SLOTS - 1)];
  if (G_LIKELY (slot->tf == tf && slot->type == type))
    return slot;
  const GString *where = jsonl_where (p, tf);
  JsonType *jt = jsonl_type (p, type);
  gsize len = where->len + jt->name->len;
  gsize room = (len + TTV_TEXT_BLOCK - 1) / TTV_TEXT_BLOCK * TTV_TEXT_BLOCK;
  if (room > slot->room)
    {
      g_free (slot->text);
      slot->text = g_malloc (room);
      slot->room = room;
    }
  memcpy (slot->text, where->str, where->len);
  memcpy (slot->text + where->len, jt->name->str, jt->name->len);
  slot->tf = tf;
  slot->type = type;
  slot->jt = jt;
  slot->len = len;
  return slot;
}

/* The second of @time (at least one) made the memo's. */
static void
json_second_update (JsonSecond *js, gint64 second)
{
  char digits[TTV_TEXT_NUMBER_MAX];
  gsize n = (gsize) (ttv_text_put_i64 (digits, second) - digits);
  js->second = second;
  char *at = TTV_TEXT_PUT_LITERAL (js->ns_head, "{\"time_ns\":");
  js->ns_head_len = (gsize) (ttv_text_put (at, digits, n) - js->ns_head);
  at = TTV_TEXT_PUT_LITERAL (js->time_head, ",\"time\":\"");
  at = ttv_text_put (at, digits, n);
  *at++ = '.';
  js->time_head_len = (gsize) (at - js->time_head);
}

/* ",\"fields\":...,\"contexts\":..." from the decoded tree of the
 * event, or the error that stopped its decoding. */
static void
append_jsonl_decoded (TtvReportPrinter *p, JsonType *jt, const TtvEvent *ev, GString *out)
{
  gint32 root;
  g_autoptr (GError) error = NULL;
  gint32 scopes[TTV_EVENT_N_CONTEXTS];
  ttv_decoder_reset (p->decoder);
  root = ttv_event_decode_contexts (ev, p->decoder, scopes, &error);
  TTV_TEXT_APPEND_LITERAL (out, ",\"fields\":");
  if (root >= 0)
    {
      append_json_fields (p->decoder, (guint32) root, &jt->scopes[JSON_FIELDS], out);
      append_json_contexts (p, jt, scopes, out);
    }
  else
    {
      g_string_append (out, "null,\"error\":");
      append_json_string (out, error ? error->message : "?");
    }
}

static void
append_jsonl (TtvReportPrinter *p, const TtvEvent *ev, const TtvPosition *pos,
              const TtvState *state, GString *out)
{
  const TtvTracefile *tf = ev->tracefile;
  const JsonHeadSlot *head = jsonl_head (p, tf, ev->type);
  JsonType *jt = head->jt;
  /* Without printf: a line per event (bench/run's text_jsonl).  The
   * times, the head piece and the position's key with one check of room
   * (the blocks' copies write up to a block past their text). */
  char *at = ttv_text_reserve (out, 2 * TTV_TEXT_NUMBER_MAX + head->room + 3 * TTV_TEXT_BLOCK);
  if (ev->time >= TTV_NSEC_PER_SEC)
    {
      JsonSecond *js = &p->json_second;
      gint64 second = ev->time / TTV_NSEC_PER_SEC;
      guint32 ns = (guint32) (ev->time % TTV_NSEC_PER_SEC);
      if (second != js->second)
        json_second_update (js, second);
      /* The same digits twice, the second time with the point before the
       * last nine.  Each text before them is one block: copied whole, with
       * no loop over blocks. */
      memcpy (at, js->ns_head, TTV_TEXT_BLOCK);
      at += js->ns_head_len;
      char *nine = at;
      memcpy (at + 9, js->time_head, TTV_TEXT_BLOCK);
      at += 9 + js->time_head_len;
      ttv_text_put_ns9_twice (nine, at, ns);
      at += 9;
    }
  else
    {
      at = TTV_TEXT_PUT_LITERAL (at, "{\"time_ns\":");
      at = ttv_text_put_i64 (at, ev->time);
      at = TTV_TEXT_PUT_LITERAL (at, ",\"time\":\"");
      at = ttv_text_put_seconds (at, ev->time);
    }
  at = ttv_text_put_blocks (at, head->text, head->len);
  if (pos)
    {
      /* Base32 needs no escape. */
      ttv_text_commit (out, TTV_TEXT_PUT_LITERAL (at, ",\"position\":\""));
      ttv_position_token_writer_append (p->tokens, pos, out);
      TTV_TEXT_APPEND_LITERAL (out, "\"");
    }
  else
    ttv_text_commit (out, at);
  if (p->options.show_state)
    {
      const TtvProcessState *proc = state ? ttv_state_get_event_process (state, tf->cpu) : NULL;
      if (proc)
        {
          char *pid = TTV_TEXT_PUT_LITERAL (ttv_text_reserve (out, TTV_TEXT_NUMBER_MAX), ",\"pid\":");
          ttv_text_commit (out, TTV_TEXT_PUT_LITERAL (ttv_text_put_u64 (pid, proc->pid), ",\"process\":"));
          append_json_string (out, proc->name ? g_quark_to_string (proc->name) : "");
          g_string_append (out, ",\"mode\":");
          append_json_string (out, ttv_exec_mode_name (ttv_process_state_get_mode (proc)));
        }
      else
        g_string_append (out, ",\"pid\":null,\"process\":null,\"mode\":null");
    }
  if (!p->jsonl_direct || !ttv_event_append_jsonl_scopes (out, ev, p->decoder))
    append_jsonl_decoded (p, jt, ev, out);
  TTV_TEXT_APPEND_LITERAL (out, "}\n");
}

static void
append_json_time (GString *out, const char *key, TtvTime t, gboolean known)
{
  if (known)
    g_string_append_printf (out, ",\"%s\":%" G_GINT64_FORMAT, key, t);
  else
    g_string_append_printf (out, ",\"%s\":null", key);
}

void
ttv_report_printer_append_lost (TtvReportPrinter *p, const TtvTracefile *tf, const TtvLostRange *lost,
                                GString *out, GString *err)
{
  char b1[32], b2[32];
  gboolean known = !(lost->flags & TTV_LOST_TIME_UNKNOWN);
  gboolean since_start = (lost->flags & TTV_LOST_SINCE_STREAM_START) != 0;
  ttv_time_to_string (lost->start, b1, sizeof b1);
  ttv_time_to_string (lost->end, b2, sizeof b2);
  if (p->options.format == TTV_REPORT_JSONL)
    {
      g_string_append_printf (out, "{\"lost_events\":%" G_GUINT64_FORMAT ",\"lost_packets\":%" G_GUINT64_FORMAT,
                              lost->count, lost->packets);
      if (since_start)
        g_string_append (out, ",\"since_stream_start\":true");
      append_json_time (out, "start_ns", lost->start, known);
      append_json_time (out, "end_ns", lost->end, known);
      g_string_append (out, ",\"trace\":");
      append_json_string (out, tf->trace->name);
      g_string_append (out, ",\"tracefile\":");
      append_json_string (out, tf->name);
      g_string_append (out, "}\n");
      return;
    }
  /* babeltrace2 prints lost events as a warning on stderr, not a line. */
  if (p->options.format == TTV_REPORT_BABELTRACE)
    {
      if (err)
        ttv_tracefile_append_babeltrace_lost (err, tf, lost);
      return;
    }
  g_string_append_printf (out, "%s ", known ? b1 : "-");
  TtvEvent where = { .tracefile = (TtvTracefile *) tf };
  append_where (out, &p->options, &where);
  g_string_append (out, " --- ");
  if (lost->packets)
    g_string_append_printf (out, "%" G_GUINT64_FORMAT " packet%s", lost->packets, lost->packets == 1 ? "" : "s");
  if (lost->packets && lost->count)
    g_string_append (out, " and ");
  if (lost->count || !lost->packets)
    g_string_append_printf (out, "%" G_GUINT64_FORMAT " events", lost->count);
  if (!known)
    g_string_append (out, " lost ---\n");
  else if (since_start)
    g_string_append_printf (out, " lost before %s (counted since the stream began) ---\n", b2);
  else
    g_string_append_printf (out, " lost between %s and %s ---\n", b1, b2);
}

void
ttv_report_printer_set_deferred (TtvReportPrinter *p, gboolean defer)
{
  g_return_if_fail (p != NULL);
  ttv_position_token_writer_set_deferred (p->tokens, defer);
}

void
ttv_report_printer_finish (TtvReportPrinter *p)
{
  g_return_if_fail (p != NULL);
  ttv_position_token_writer_finish (p->tokens);
}

void
ttv_report_printer_append (TtvReportPrinter *p, const TtvEvent *ev, const TtvPosition *pos,
                           const TtvState *state, GString *out)
{
  ttv_report_printer_append_full (p, ev, pos, state, NULL, out);
}

/* The lines of the formats but jsonl.  Out of line: the jsonl line, one
 * an event, is then a tail call that saves no registers. */
static G_NO_INLINE void
append_not_jsonl (TtvReportPrinter *p, const TtvEvent *ev, const TtvPosition *pos, const TtvState *state,
                  const char *suffix, GString *out)
{
  switch (p->options.format)
    {
    case TTV_REPORT_TEXT:
      if (p->options.column_layout)
        append_columns (p, ev, state, suffix, out);
      else
        append_text (p, ev, pos, state, suffix, out);
      break;
    case TTV_REPORT_JSONL:
      g_assert_not_reached ();
    case TTV_REPORT_BABELTRACE:
      /* Only CTF events have babeltrace2's line; others print as text. */
      if (!ttv_event_append_babeltrace_line (out, ev, p->previous_time, p->decoder))
        append_text (p, ev, pos, state, suffix, out);
      break;
    }
  p->previous_time = ev->time;
}

void
ttv_report_printer_append_full (TtvReportPrinter *p, const TtvEvent *ev, const TtvPosition *pos,
                                const TtvState *state, const char *suffix, GString *out)
{
  if (p->options.format != TTV_REPORT_JSONL)
    {
      append_not_jsonl (p, ev, pos, state, suffix, out);
      return;
    }
  /* The jsonl line does not read the time before. */
  p->previous_time = ev->time;
  append_jsonl (p, ev, pos, state, out);
}
