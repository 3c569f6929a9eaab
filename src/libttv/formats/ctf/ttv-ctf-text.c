/* ttv-ctf-text.c: babeltrace2's text.pretty line format (default options,
 * --clock-gmt) for CTF events; see ttv-ctf-text.h.  What is printed for an
 * event class (which members show, their names and separators, how each
 * value is written) is worked out once into a plan; values are written
 * without printf (ttv-text.h). */
#include "ttv-ctf-text.h"
#include "ttv-ctf.h"
#include "ttv-ctf-private.h"
#include "ttv-text.h"

#include <inttypes.h>
#include <string.h>

static gboolean
is_text (const TtvType *t)
{
  const TtvType *e = t->element;
  return e && (e->kind == TTV_TYPE_INTEGER || e->kind == TTV_TYPE_ENUM) && e->size_bits == 8
         && e->align_bits == 8 && e->encoding == TTV_ENCODING_UTF8;
}

/* babeltrace2 keeps in its trace model only what has no special meaning:
 * integers with a role (the packet context's sizes, times and counters)
 * or mapped to a clock vanish, and compounds with nothing left. */
static gboolean
visible (const TtvType *t)
{
  switch (t->kind)
    {
    case TTV_TYPE_INTEGER:
      return t->clock_name == NULL && t->roles == 0;
    case TTV_TYPE_ENUM:
      return t->roles == 0 && (t->container == NULL || t->container->clock_name == NULL);
    case TTV_TYPE_ARRAY:
    case TTV_TYPE_SEQUENCE:
      return visible (t->element);
    case TTV_TYPE_STRUCT:
    case TTV_TYPE_VARIANT:
      if (t->fields->len == 0)
        return TRUE;
      for (guint i = 0; i < t->fields->len; i++)
        if (visible (((const TtvField *) g_ptr_array_index (t->fields, i))->type))
          return TRUE;
      return FALSE;
    default:
      return TRUE;
    }
}

/* --- escaped strings --------------------------------------------------- */

/* As babeltrace2's print_escape_string: quotes, backslash and '?' escaped,
 * other control characters as \xNN; 0 for a byte written as it is. */
static const char *
escape_of (guchar c)
{
  static char hex[32][5];
  static gsize ready;
  if (g_once_init_enter (&ready))
    {
      for (guint i = 0; i < 32; i++)
        g_snprintf (hex[i], sizeof hex[i], "\\x%02x", i);
      g_once_init_leave (&ready, 1);
    }
  switch (c)
    {
    case '\\': return "\\\\";
    case '\'': return "\\'";
    case '"': return "\\\"";
    case '?': return "\\?";
    case '\x1b': return "\\e";
    case '\a': return "\\a";
    case '\b': return "\\b";
    case '\f': return "\\f";
    case '\n': return "\\n";
    case '\r': return "\\r";
    case '\t': return "\\t";
    case '\v': return "\\v";
    case 0x7f: return "\\x7f";
    default: return c < 0x20 ? hex[c] : NULL;
    }
}

static const char *const *
escape_table (void)
{
  static const char *table[256];
  static gsize ready;
  if (g_once_init_enter (&ready))
    {
      for (guint i = 0; i < 256; i++)
        table[i] = escape_of ((guchar) i);
      g_once_init_leave (&ready, 1);
    }
  return table;
}

static char *
put_escaped (char *p, const char *s, gsize len)
{
  const char *const *table = escape_table ();
  *p++ = '"';
  for (gsize i = 0; i < len; i++)
    {
      const char *e = table[(guchar) s[i]];
      if (G_LIKELY (e == NULL))
        *p++ = s[i];
      else
        p = ttv_text_put (p, e, strlen (e));
    }
  *p++ = '"';
  return p;
}

static void
write_escaped (TtvTextWriter *w, const char *s, gsize len)
{
  w->p = put_escaped (ttv_text_writer_need (w, 4 * len + 2), s, len);
}

static void
append_escaped (GString *out, const char *s, gsize len)
{
  ttv_text_commit (out, put_escaped (ttv_text_reserve (out, 4 * len + 2), s, len));
}

/* --- plans ------------------------------------------------------------- */

typedef enum {
  P_INTEGER,
  P_ENUM,
  P_FLOAT,
  P_STRING,
  P_TEXT_VIEW,     /* a text array: one node viewing its bytes */
  P_TEXT_NODES,    /* text made of nodes (enum bytes) */
  P_ARRAY,
  P_STRUCT,
  P_VARIANT,
} PrintKind;

typedef struct _Printer Printer;

typedef struct {
  guint32 index;          /* child of the struct node */
  const char *prefix;     /* " name = " or ", name = " */
  gsize prefix_len;
  const Printer *value;
} Member;

struct _Printer {
  PrintKind kind;
  const TtvType *type;    /* weak */
  const TtvType *int_type;  /* INTEGER, ENUM: the integer's type (an enum's container) */
  /* ENUM: label lists of the values below 256 ("\"A\", \"B\"", or "<unknown>") */
  char **enum_labels;
  const Printer *element; /* ARRAY */
  Member *members;        /* STRUCT: the members shown */
  guint n_members;
  const TtvType **option_types;  /* VARIANT */
  const Printer **options;
  guint n_options;
};

struct _CtfTextPlan {
  char *prefix;           /* "host name: " */
  gsize prefix_len;
  /* Packet context, stream event context, event context, fields: */
  const Printer *scopes[4];      /* NULL when not shown */
  const TtvType *types[4];       /* weak, NULL when absent */
  const TtvFlatLayout *flat[4];  /* when read straight from the bytes */
  gboolean has_payload;          /* the class has fields (else "{ }") */
  GPtrArray *owned;
};

static gpointer
owned (CtfTextPlan *plan, gpointer p)
{
  g_ptr_array_add (plan->owned, p);
  return p;
}

static gboolean
mapping_hit (const TtvType *t, const TtvEnumMapping *m, guint64 raw)
{
  return ttv_type_mapping_matches (t, m, raw);
}

/* The labels of @raw, in order of first appearance (a label may have
 * several ranges), escaped and comma-separated, or "<unknown>". */
static char *
enum_labels (const TtvType *t, guint64 raw)
{
  GString *out = g_string_new (NULL);
  guint printed = 0;
  for (guint i = 0; i < t->mappings->len; i++)
    {
      const TtvEnumMapping *m = &g_array_index (t->mappings, TtvEnumMapping, i);
      gboolean first = TRUE, hit = FALSE;
      for (guint j = 0; j < t->mappings->len && first; j++)
        {
          const TtvEnumMapping *o = &g_array_index (t->mappings, TtvEnumMapping, j);
          if (strcmp (o->label, m->label) != 0)
            continue;
          if (j < i)
            first = FALSE;
          else if (mapping_hit (t, o, raw))
            hit = TRUE;
        }
      if (!first || !hit)
        continue;
      if (printed++)
        g_string_append (out, ", ");
      append_escaped (out, m->label, strlen (m->label));
    }
  if (printed == 0)
    g_string_append (out, "<unknown>");
  return g_string_free (out, FALSE);
}

#define ENUM_TABLE 256

static const Printer *compile (CtfTextPlan *plan, const TtvType *t);

static const Printer *
compile_struct (CtfTextPlan *plan, const TtvType *t)
{
  Printer *p = owned (plan, g_new0 (Printer, 1));
  p->kind = P_STRUCT;
  p->type = t;
  p->members = owned (plan, g_new0 (Member, MAX (t->fields->len, 1)));
  for (guint i = 0; i < t->fields->len; i++)
    {
      const TtvField *f = g_ptr_array_index (t->fields, i);
      if (!visible (f->type))
        continue;
      Member *m = &p->members[p->n_members];
      char *prefix = owned (plan, g_strdup_printf ("%s%s = ", p->n_members ? ", " : " ", f->name ? f->name : ""));
      m->index = i;
      m->prefix = prefix;
      m->prefix_len = strlen (prefix);
      m->value = compile (plan, f->type);
      p->n_members++;
    }
  return p;
}

static const Printer *
compile (CtfTextPlan *plan, const TtvType *t)
{
  if (t->kind == TTV_TYPE_STRUCT)
    return compile_struct (plan, t);
  Printer *p = owned (plan, g_new0 (Printer, 1));
  p->type = t;
  switch (t->kind)
    {
    case TTV_TYPE_INTEGER:
      p->kind = P_INTEGER;
      p->int_type = t;
      break;
    case TTV_TYPE_ENUM:
      p->kind = P_ENUM;
      p->int_type = t->container ? t->container : t;
      p->enum_labels = owned (plan, g_new0 (char *, ENUM_TABLE));
      for (guint v = 0; v < ENUM_TABLE; v++)
        p->enum_labels[v] = owned (plan, enum_labels (t, v));
      break;
    case TTV_TYPE_FLOAT:
      p->kind = P_FLOAT;
      break;
    case TTV_TYPE_STRING:
      p->kind = P_STRING;
      break;
    case TTV_TYPE_ARRAY:
    case TTV_TYPE_SEQUENCE:
      if (ttv_type_is_text_array (t))
        p->kind = P_TEXT_VIEW;
      else if (is_text (t))
        p->kind = P_TEXT_NODES;
      else
        {
          p->kind = P_ARRAY;
          p->element = compile (plan, t->element);
        }
      break;
    case TTV_TYPE_VARIANT:
      p->kind = P_VARIANT;
      p->n_options = t->fields->len;
      p->option_types = owned (plan, g_new0 (const TtvType *, MAX (p->n_options, 1)));
      p->options = owned (plan, g_new0 (const Printer *, MAX (p->n_options, 1)));
      for (guint i = 0; i < p->n_options; i++)
        {
          const TtvField *f = g_ptr_array_index (t->fields, i);
          p->option_types[i] = f->type;
          p->options[i] = compile (plan, f->type);
        }
      break;
    case TTV_TYPE_STRUCT:
      g_assert_not_reached ();
    }
  return p;
}

void
ttv_ctf_text_plan_free (CtfTextPlan *plan)
{
  if (plan == NULL)
    return;
  g_ptr_array_unref (plan->owned);
  g_free (plan);
}

static const TtvType *
empty_struct (void)
{
  static TtvType *empty;
  if (g_once_init_enter (&empty))
    {
      TtvType *t = ttv_type_new_struct ();
      ttv_type_finish (t);
      g_once_init_leave (&empty, t);
    }
  return empty;
}

static CtfTextPlan *
plan_new (const TtvEvent *event, CtfEventClass *ec)
{
  CtfTextPlan *plan = g_new0 (CtfTextPlan, 1);
  plan->owned = g_ptr_array_new_with_free_func (g_free);
  /* The environment's host, procname and vpid as babeltrace2 shows them. */
  const CtfTracePriv *priv = event->tracefile->trace->priv;
  plan->prefix = owned (plan, g_strdup_printf ("%s%s: ", priv->babeltrace_prefix ? priv->babeltrace_prefix : "",
                                               event->type->full_name));
  plan->prefix_len = strlen (plan->prefix);
  const CtfStreamClass *sc = ec->stream;
  /* The packet context when a member without a meaning (a role) shows,
   * or it has none. */
  const TtvType *pctx = sc ? sc->packet_context : NULL;
  if (pctx && pctx->kind == TTV_TYPE_STRUCT)
    {
      if (visible (pctx))
        plan->scopes[0] = compile_struct (plan, pctx);
      plan->types[0] = pctx;
    }
  const TtvType *scopes[3] = { sc ? sc->event_context : NULL, ec->context, ec->fields ? ec->fields : empty_struct () };
  for (guint i = 0; i < 3; i++)
    {
      if (scopes[i] && visible (scopes[i]))
        plan->scopes[i + 1] = compile (plan, scopes[i]);
      plan->types[i + 1] = scopes[i];
    }
  plan->has_payload = ec->fields != NULL;
  for (guint i = 0; i < 4; i++)
    if (plan->types[i] && plan->types[i]->kind == TTV_TYPE_STRUCT)
      plan->flat[i] = ttv_type_get_flat_layout (plan->types[i]);
  return plan;
}

/* --- writing ----------------------------------------------------------- */

static char *
put_integer (char *p, const TtvType *t, guint64 raw)
{
  guint len = t->size_bits;
  /* CTF 2 booleans and bit arrays, as babeltrace2 2.1 prints them. */
  if (G_UNLIKELY (t->int_kind == TTV_INT_BOOLEAN))
    return raw ? TTV_TEXT_PUT_LITERAL (p, "true") : TTV_TEXT_PUT_LITERAL (p, "false");
  if (G_UNLIKELY (t->int_kind == TTV_INT_BIT_ARRAY && !t->mappings))
    {
      p = TTV_TEXT_PUT_LITERAL (p, "0x");
      return ttv_text_put_hex (p, raw, TRUE);
    }
  switch (t->base)
    {
    case 2:
      p = TTV_TEXT_PUT_LITERAL (p, "0b");
      for (guint i = len; i-- > 0;)
        *p++ = (raw >> i) & 1 ? '1' : '0';
      return p;
    case 8:
      if (t->is_signed && len < 64)
        {
          guint rounded = ((len - 1) / 3 + 1) * 3;
          if (rounded < 64)
            raw &= (G_GUINT64_CONSTANT (1) << rounded) - 1;
        }
      *p++ = '0';
      return ttv_text_put_octal (p, raw);
    case 16:
      if (len < 64)
        {
          guint rounded = (len + 3) & ~3u;
          if (rounded < 64)
            raw &= (G_GUINT64_CONSTANT (1) << rounded) - 1;
        }
      p = TTV_TEXT_PUT_LITERAL (p, "0x");
      return ttv_text_put_hex (p, raw, TRUE);
    default:
      return t->is_signed ? ttv_text_put_i64 (p, (gint64) raw) : ttv_text_put_u64 (p, raw);
    }
}

static void write_value (TtvTextWriter *w, const TtvDecoder *d, const TtvValue *v, const Printer *pr);

static void
write_struct (TtvTextWriter *w, const TtvDecoder *d, const TtvValue *v, const Printer *pr)
{
  *ttv_text_writer_need (w, 1) = '{';
  w->p++;
  const TtvValue *children = ttv_decoder_get_children (d, v);
  for (guint i = 0; i < pr->n_members; i++)
    {
      const Member *m = &pr->members[i];
      w->p = ttv_text_put (ttv_text_writer_need (w, m->prefix_len), m->prefix, m->prefix_len);
      write_value (w, d, &children[m->index], m->value);
    }
  w->p = TTV_TEXT_PUT_LITERAL (ttv_text_writer_need (w, 2), " }");
}

static void
write_value (TtvTextWriter *w, const TtvDecoder *d, const TtvValue *v, const Printer *pr)
{
  char *p;
  switch (pr->kind)
    {
    case P_INTEGER:
      w->p = put_integer (ttv_text_writer_need (w, TTV_TEXT_NUMBER_MAX), pr->int_type, v->v.u);
      break;
    case P_ENUM:
      {
        g_autofree char *dynamic = v->v.u < ENUM_TABLE ? NULL : enum_labels (pr->type, v->v.u);
        const char *labels = dynamic ? dynamic : pr->enum_labels[v->v.u];
        gsize n = strlen (labels);
        p = ttv_text_writer_need (w, n + TTV_TEXT_NUMBER_MAX + 32);
        p = TTV_TEXT_PUT_LITERAL (p, "( ");
        p = ttv_text_put (p, labels, n);
        p = TTV_TEXT_PUT_LITERAL (p, " : container = ");
        p = put_integer (p, pr->int_type, v->v.u);
        w->p = TTV_TEXT_PUT_LITERAL (p, " )");
      }
      break;
    case P_FLOAT:
      w->p = ttv_text_put_double_g (ttv_text_writer_need (w, TTV_TEXT_NUMBER_MAX), v->v.f);
      break;
    case P_STRING:
      write_escaped (w, v->v.string.str, v->v.string.len);
      break;
    case P_TEXT_VIEW:
      {
        const char *text = v->v.string.str;
        write_escaped (w, text, text ? strnlen (text, v->v.string.len) : 0);
      }
      break;
    case P_TEXT_NODES:
      {
        g_autoptr (GString) s = g_string_new (NULL);
        for (guint32 i = 0; i < v->n_children; i++)
          {
            char ch = (char) ttv_decoder_get (d, v->first_child + i)->v.u;
            if (ch == '\0')
              break;
            g_string_append_c (s, ch);
          }
        write_escaped (w, s->str, s->len);
      }
      break;
    case P_ARRAY:
      {
        *ttv_text_writer_need (w, 1) = '[';
        w->p++;
        const TtvValue *children = ttv_decoder_get_children (d, v);
        for (guint32 i = 0; i < v->n_children; i++)
          {
            p = ttv_text_writer_need (w, TTV_TEXT_NUMBER_MAX);
            p = i ? TTV_TEXT_PUT_LITERAL (p, ", [") : TTV_TEXT_PUT_LITERAL (p, " [");
            p = ttv_text_put_u64 (p, i);
            w->p = TTV_TEXT_PUT_LITERAL (p, "] = ");
            write_value (w, d, &children[i], pr->element);
          }
        w->p = TTV_TEXT_PUT_LITERAL (ttv_text_writer_need (w, 2), " ]");
      }
      break;
    case P_STRUCT:
      write_struct (w, d, v, pr);
      break;
    case P_VARIANT:
      if (pr->type->optional && v->n_children == 0)
        {
          w->p = TTV_TEXT_PUT_LITERAL (ttv_text_writer_need (w, 6), "<none>");
          break;
        }
      w->p = TTV_TEXT_PUT_LITERAL (ttv_text_writer_need (w, 2), "{ ");
      if (v->n_children == 1)
        {
          const TtvValue *c = ttv_decoder_get (d, v->first_child);
          for (guint i = 0; i < pr->n_options; i++)
            if (pr->option_types[i] == c->type)
              {
                write_value (w, d, c, pr->options[i]);
                break;
              }
        }
      w->p = TTV_TEXT_PUT_LITERAL (ttv_text_writer_need (w, 2), " }");
      break;
    }
}

/* "[HH:MM:SS.nnnnnnnnn] " of @t's time of day in UTC. */
static char *
put_time (char *p, TtvTime t)
{
  *p++ = '[';
  p = ttv_text_put_clock (p, t);
  return TTV_TEXT_PUT_LITERAL (p, "] ");
}

/* A struct of constant layout printed from the bytes at bit @start of
 * @data (@bits long); FALSE, writing nothing, when they are too few. */
static gboolean
write_flat (TtvTextWriter *w, const TtvFlatLayout *layout, const Printer *pr, const guint8 *data, guint64 bits,
            guint64 start)
{
  guint64 p = ttv_align_up (start, layout->align_bits);
  if (p > bits || bits - p < layout->size_bits)
    return FALSE;
  const guint8 *base = data + p / 8;
  *ttv_text_writer_need (w, 1) = '{';
  w->p++;
  for (guint i = 0; i < pr->n_members; i++)
    {
      const Member *m = &pr->members[i];
      TtvValue v;
      v.type = ((const TtvField *) g_ptr_array_index (pr->type->fields, m->index))->type;
      ttv_flat_layout_load (layout, m->index, base, &v);
      w->p = ttv_text_put (ttv_text_writer_need (w, m->prefix_len), m->prefix, m->prefix_len);
      write_value (w, NULL, &v, m->value);
    }
  w->p = TTV_TEXT_PUT_LITERAL (ttv_text_writer_need (w, 2), " }");
  return TRUE;
}

/* The scopes of an event written the fast way: flat ones straight from the
 * bytes, the others decoded alone where the cursor found them (the class
 * refers to no other scope, its contexts and fields have plans).  FALSE
 * when this does not apply or anything fails (the caller then decodes
 * everything, which reports the error). */
static gboolean
write_scopes_direct (TtvTextWriter *w, const CtfTextPlan *plan, const TtvEvent *event, TtvDecoder *d)
{
  const CtfStreamFile *sf = event->tracefile->priv;
  CtfEventClass *ec = event->type->priv;
  guint64 hdr_end = CTF_EVENT_HEADER_END (event);
  if (!(ttv_ctf_event_class_refs (sf, ec) & CTF_REFS_FIELDS_ALONE) || hdr_end == 0
      || (plan->types[0] && ec->packet_context_bit < 0))
    return FALSE;
  static const char *const names[] = { "stream.packet.context", "stream.event.context", "event.context",
                                       "event.fields" };
  guint64 starts[4] = { (guint64) ec->packet_context_bit, hdr_end, 0, event->payload_bit };
  ttv_decoder_reset (d);
  gboolean first = TRUE;
  for (guint i = 0; i < 4; i++)
    {
      const TtvType *t = plan->types[i];
      if (i == 2)
        starts[2] = starts[1];   /* after the stream event context, below */
      if (t == NULL || (i == 3 && !plan->has_payload))
        {
          if (i == 3 && plan->scopes[3])
            {
              /* No fields: "{ }". */
              if (!first)
                w->p = TTV_TEXT_PUT_LITERAL (ttv_text_writer_need (w, 2), ", ");
              w->p = TTV_TEXT_PUT_LITERAL (ttv_text_writer_need (w, 3), "{ }");
            }
          continue;
        }
      if (plan->scopes[i] && !first)
        w->p = TTV_TEXT_PUT_LITERAL (ttv_text_writer_need (w, 2), ", ");
      if (plan->flat[i] && plan->scopes[i] && plan->scopes[i]->kind == P_STRUCT)
        {
          if (!write_flat (w, plan->flat[i], plan->scopes[i], event->data, event->data_bits, starts[i]))
            return FALSE;
          if (i == 1)
            starts[1] = ttv_align_up (starts[1], plan->flat[1]->align_bits) + plan->flat[1]->size_bits;
        }
      else if (plan->flat[i] && i == 1)
        starts[1] = ttv_align_up (starts[1], plan->flat[1]->align_bits) + plan->flat[1]->size_bits;
      else if (plan->scopes[i] || i == 1)
        {
          guint64 pos = starts[i];
          gint32 node = ttv_decoder_decode (d, t, names[i], event->data, event->data_bits, &pos, NULL);
          if (node < 0)
            return FALSE;
          if (plan->scopes[i])
            write_value (w, d, ttv_decoder_get (d, (guint32) node), plan->scopes[i]);
          if (i == 1)
            starts[1] = pos;
        }
      first = first && plan->scopes[i] == NULL;
    }
  return TRUE;
}

static const CtfTextPlan *
plan_of (const TtvEvent *event, CtfEventClass *ec)
{
  CtfTextPlan *plan = g_atomic_pointer_get (&ec->text);
  if (G_LIKELY (plan != NULL))
    return plan;
  plan = plan_new (event, ec);
  if (!g_atomic_pointer_compare_and_exchange (&ec->text, NULL, plan))
    {
      ttv_ctf_text_plan_free (plan);
      plan = g_atomic_pointer_get (&ec->text);
    }
  return plan;
}

void
ttv_ctf_append_babeltrace_line (GString *out, const TtvEvent *event, TtvTime previous_time,
                                TtvDecoder *decoder)
{
  g_return_if_fail (out != NULL && event != NULL && decoder != NULL);
  const CtfTextPlan *plan = plan_of (event, event->type->priv);
  TtvTextWriter w;
  ttv_text_writer_begin (&w, out);
  char *p = ttv_text_writer_need (&w, 2 * TTV_TEXT_NUMBER_MAX + plan->prefix_len);
  const CtfStreamFile *sf = event->tracefile->priv;
  /* A stream without a clock has no time to print (nor a delta). */
  if (G_LIKELY (sf->sc->has_time))
    {
      p = put_time (p, event->time);
      if (previous_time == TTV_TIME_MIN)
        p = TTV_TEXT_PUT_LITERAL (p, "(+?.\?\?\?\?\?\?\?\?\?) ");
      else
        {
          guint64 delta = (guint64) event->time - (guint64) previous_time;
          /* Mostly below a second: no division. */
          if (G_LIKELY (delta < 1000000000u))
            {
              p = TTV_TEXT_PUT_LITERAL (p, "(+0.");
              p = ttv_text_put_ns9 (p, (guint32) delta);
            }
          else
            {
              p = TTV_TEXT_PUT_LITERAL (p, "(+");
              p = ttv_text_put_u64 (p, delta / 1000000000u);
              *p++ = '.';
              p = ttv_text_put_ns9 (p, (guint32) (delta % 1000000000u));
            }
          p = TTV_TEXT_PUT_LITERAL (p, ") ");
        }
    }
  w.p = ttv_text_put (p, plan->prefix, plan->prefix_len);
  gsize mark = (gsize) (w.p - out->str);
  if (write_scopes_direct (&w, plan, event, decoder))
    {
      *ttv_text_writer_need (&w, 1) = '\n';
      w.p++;
      ttv_text_writer_end (&w);
      return;
    }
  w.p = out->str + mark;
  gint32 nodes[4] = { -1, -1, -1, -1 };
  g_autoptr (GError) error = NULL;
  nodes[3] = ttv_ctf_event_decode_contexts (event, decoder, &nodes[1], &nodes[2], &nodes[0], &error);
  if (nodes[3] < 0)
    {
      ttv_text_writer_end (&w);
      g_string_append_printf (out, "<error: %s>\n", error ? error->message : "?");
      return;
    }
  gboolean first = TRUE;
  for (guint i = 0; i < 4; i++)
    {
      if (nodes[i] < 0 || plan->scopes[i] == NULL)
        continue;
      if (!first)
        w.p = TTV_TEXT_PUT_LITERAL (ttv_text_writer_need (&w, 2), ", ");
      first = FALSE;
      write_value (&w, decoder, ttv_decoder_get (decoder, (guint32) nodes[i]), plan->scopes[i]);
    }
  *ttv_text_writer_need (&w, 1) = '\n';
  w.p++;
  ttv_text_writer_end (&w);
}

/* babeltrace2's stream id: the stream instance id, else the place of the
 * file among the files of its stream class (as it numbers them). */
static guint64
stream_id (const CtfStreamFile *sf)
{
  if (sf->meta->packet_header && (ttv_type_collect_roles (sf->meta->packet_header) & TTV_ROLE_STREAM_ID))
    return sf->stream_instance_id;
  const CtfTracePriv *priv = sf->tracefile->trace->priv;
  guint64 n = 0;
  for (guint i = 0; i < priv->files->len; i++)
    {
      const CtfStreamFile *o = g_ptr_array_index (priv->files, i);
      if (o == sf)
        break;
      n += o->sc == sf->sc;
    }
  return n;
}

void
ttv_ctf_append_babeltrace_lost (GString *out, const TtvTracefile *tf, const TtvLostRange *lost)
{
  g_return_if_fail (out != NULL && tf != NULL && lost != NULL);
  const CtfStreamFile *sf = tf->priv;
  const CtfMeta *m = sf->meta;
  const TtvTrace *trace = tf->trace;
  gboolean packets = lost->packets > 0;
  guint64 count = packets ? lost->packets : lost->count;
  const char *what = packets ? "packet" : "event";
  /* babeltrace2 2.0 knows no count for the stream's first packet. */
  if (!packets && (lost->flags & TTV_LOST_SINCE_STREAM_START))
    g_string_append_printf (out, "WARNING: Tracer may have discarded %ss ", what);
  else
    g_string_append_printf (out, "WARNING: Tracer discarded %" PRIu64 " %s%s ", count, what, count == 1 ? "" : "s");
  if (lost->flags & TTV_LOST_TIME_UNKNOWN)
    g_string_append (out, "(unknown time range)");
  else
    {
      char *p = TTV_TEXT_PUT_LITERAL (ttv_text_reserve (out, 2 * TTV_TEXT_NUMBER_MAX + 16), "between [");
      p = TTV_TEXT_PUT_LITERAL (ttv_text_put_clock (p, lost->start), "] and [");
      p = ttv_text_put_clock (p, lost->end);
      *p++ = ']';
      ttv_text_commit (out, p);
    }
  /* The trace's name: the host, then where it was found in a session. */
  const char *host = ttv_trace_get_info (trace, "hostname");
  g_string_append (out, " in trace \"");
  if (host)
    g_string_append_printf (out, "%s%s", host, trace->session_rel ? "/" : "");
  if (trace->session_rel)
    g_string_append (out, trace->session_rel);
  g_string_append (out, "\" ");
  if (m->has_uuid)
    {
      const guint8 *u = m->uuid;
      g_string_append_printf (out, "(UUID: %02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x) ",
                              u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12],
                              u[13], u[14], u[15]);
    }
  else
    g_string_append (out, "(no UUID) ");
  const CtfStreamFile *first = sf->stream_first ? sf->stream_first : sf;
  g_autofree char *path = g_canonicalize_filename (first->path, NULL);
  g_string_append_printf (out, "within stream \"%s\" (stream class ID: %" PRIu64 ", stream ID: %" PRIu64 ").\n",
                          path, sf->sc ? sf->sc->id : 0, stream_id (sf));
}
