/* ttv-ctf-text.c: babeltrace2's text.pretty line format (default options,
 * --clock-gmt) for CTF events; see ttv-ctf-text.h.  What is printed for an
 * event class (which members show, their names and separators, how each
 * value is written) is worked out once into a plan; values are written
 * without printf (ttv-text.h). */
#include "ttv-ctf-text.h"
#include "ttv-ctf.h"
#include "ttv-ctf-private.h"
#include "ttv-ctf-scope-memo.h"
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

#define BYTES_OF(c) (G_GUINT64_CONSTANT (0x0101010101010101) * (guchar) (c))

/* The high bit of each byte of @x below @n (<= 0x80), at least for the
 * first such byte (bits above it may be wrong: only the lowest is read). */
static inline guint64
bytes_below (guint64 x, guchar n)
{
  return (x - BYTES_OF (n)) & ~x & BYTES_OF (0x80);
}

/* The bytes of @x (its first byte lowest) that the text escapes: below
 * 0x20 (NUL included), 0x7f, the quotes, backslash and '?'; exact for
 * the first (bytes_below()).  8 bytes in about 30 instructions where a
 * table took 5 a byte. */
static inline guint64
escaped_bytes (guint64 x)
{
  return bytes_below (x, 0x20) | bytes_below (x ^ BYTES_OF (0x7f), 1) | bytes_below (x ^ BYTES_OF ('"'), 1)
         | bytes_below (x ^ BYTES_OF ('\\'), 1) | bytes_below (x ^ BYTES_OF ('\''), 1)
         | bytes_below (x ^ BYTES_OF ('?'), 1);
}

/* Where the first byte escaped is among the 8 at @s, or 8. */
static inline guint
first_escaped_in_word (const char *s)
{
  guint64 x;
  memcpy (&x, s, 8);
  guint64 hits = escaped_bytes (GUINT64_FROM_LE (x));
  return hits ? (guint) __builtin_ctzll (hits) / 8 : 8;
}

/* The same bytes one at a time, by a bit map known at compile time. */
static inline gboolean
byte_escaped (guchar c)
{
  static const guint64 escaped[4] = {
    G_GUINT64_CONSTANT (0xFFFFFFFF) | G_GUINT64_CONSTANT (1) << '"' | G_GUINT64_CONSTANT (1) << '\''
      | G_GUINT64_CONSTANT (1) << '?',
    G_GUINT64_CONSTANT (1) << ('\\' - 64) | G_GUINT64_CONSTANT (1) << (0x7f - 64), 0, 0,
  };
  return (escaped[c >> 6] >> (c & 63)) & 1;
}

/* How many of the first @len bytes of @s the text copies as they are
 * before one it escapes: 8 at a time (the last 8 overlapping the ones
 * before), or one at a time below 8. */
static inline gsize
plain_prefix (const char *s, gsize len)
{
  gsize i = 0;
  if (len >= 8)
    {
      for (; i + 8 <= len; i += 8)
        {
          guint k = first_escaped_in_word (s + i);
          if (k < 8)
            return i + k;
        }
      if (i == len)
        return len;
      i = len - 8;
      return i + first_escaped_in_word (s + i);
    }
  while (i < len && !byte_escaped ((guchar) s[i]))
    i++;
  return i;
}

/* @s escaped in quotes; a NUL ends it when @nul_ends (fixed text arrays:
 * their text ends at the first, found by the same scan). */
static char *
put_escaped_until (char *p, const char *s, gsize len, gboolean nul_ends)
{
  *p++ = '"';
  for (;;)
    {
      gsize n = plain_prefix (s, len);
      p = ttv_text_put (p, s, n);
      if (n == len || (nul_ends && s[n] == '\0'))
        break;
      const char *e = escape_table ()[(guchar) s[n]];
      p = ttv_text_put (p, e, strlen (e));
      s += n + 1;
      len -= n + 1;
    }
  *p++ = '"';
  return p;
}

static char *
put_escaped (char *p, const char *s, gsize len)
{
  return put_escaped_until (p, s, len, FALSE);
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

/* --- contexts whose bytes repeat ------------------------------------------ */

/* The contexts' texts kept with their bytes (ttv-ctf-scope-memo.h). */
static _Thread_local TtvCtfScopeMemo scope_memos[TTV_CTF_SCOPE_MEMOS];

void
ttv_ctf_text_forget_scopes (void)
{
  memset (scope_memos, 0, sizeof scope_memos);
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

/* How an integer prints, from its type (put_integer). */
typedef enum {
  INT_DECIMAL,
  INT_DECIMAL_SIGNED,
  INT_HEX,                /* "0x" and upper-case digits of the value masked */
  INT_OCTAL,              /* "0" and the digits of the value masked */
  INT_BINARY,             /* "0b" and each of its bits */
  INT_BOOLEAN,            /* CTF 2 */
} IntFormat;

typedef struct {
  IntFormat format;
  guint bits;             /* BINARY: the integer's size */
  guint64 mask;           /* HEX, OCTAL: the bits shown */
} IntPrint;

/* How a member of a flat struct prints when read straight from the bytes:
 * plain decimal integers and text arrays (most members) written there,
 * the others through write_value. */
typedef enum {
  FLAT_DECIMAL,
  FLAT_DECIMAL_SIGNED,
  FLAT_TEXT,
  FLAT_STRING,            /* of a sequential struct: its length known */
  FLAT_ARRAY,             /* of a sequential struct: its elements from the bytes */
  FLAT_VALUE,
} FlatPrint;

typedef struct _Printer Printer;

/* An enum's labels for the values past its table: the values split into
 * ranges over which no mapping starts nor ends, so that each range has
 * one label list.  keys[i] starts range i, in the order of the values
 * (signed ones offset by 2^63 to compare as unsigned); keys[0] is 0, the
 * least value.  Without them each such value would compute its list,
 * about 1,300 instructions (an HTTP status of 404, say). */
typedef struct {
  guint n;
  guint64 *keys;
  const char **labels;
} LabelRanges;

typedef struct {
  guint32 index;          /* child of the struct node */
  const char *prefix;     /* " name = " or ", name = " */
  gsize prefix_len;
  const Printer *value;
  /* Read from a flat struct's bytes (write_flat): its load, how it prints,
   * its type, and for FLAT_VALUE the room to make after it (for what
   * follows up to the next FLAT_VALUE's prefix, or the end). */
  const TtvFlatMember *load;
  FlatPrint flat_print;
  const TtvType *type;
  gsize room_after;
  const TtvSeqMember *array;  /* FLAT_ARRAY: how its elements load */
} Member;

struct _Printer {
  PrintKind kind;
  const TtvType *type;    /* weak */
  IntPrint int_print;     /* INTEGER, ENUM: of the integer's type (an enum's container) */
  /* ENUM: label lists of the values below 256 ("\"A\", \"B\"", or "<unknown>") */
  char **enum_labels;
  const LabelRanges *label_ranges;  /* ENUM: the others, when they apply */
  const Printer *element; /* ARRAY */
  Member *members;        /* STRUCT: the members shown */
  guint n_members;
  gsize flat_room;        /* STRUCT of a flat scope: room for what write_flat writes
                           * up to its first FLAT_VALUE's prefix, or the end */
  const Member **seq_shown;  /* STRUCT of a sequential scope: each member's, or NULL
                              * when it does not show */
  const TtvType **option_types;  /* VARIANT */
  const Printer **options;
  guint n_options;
};

/* What write_scopes_direct does for a scope, worked out with the plan. */
typedef enum {
  STEP_FLAT,      /* printed from the bytes */
  STEP_REMEMBERED,  /* the same, or copied when its bytes repeat (scope_memos) */
  STEP_SEQ,       /* the same, member after member */
  STEP_DECODE,    /* decoded alone, then printed */
  STEP_EMPTY,     /* the fields of a class without any: "{ }" */
  STEP_SKIP,      /* the stream event context, not shown: only where it ends */
} StepKind;

typedef struct {
  StepKind kind;
  guint scope;            /* index in the plan's scopes */
  gboolean separator;     /* ", " before it */
} Step;

struct _CtfTextPlan {
  char *prefix;           /* "host name: " */
  gsize prefix_len;
  /* Packet context, stream event context, event context, fields: */
  const Printer *scopes[4];      /* NULL when not shown */
  const TtvType *types[4];       /* weak, NULL when absent */
  const TtvFlatLayout *flat[4];  /* when read straight from the bytes */
  const TtvSeqLayout *seq[4];    /* else when read member after member */
  gboolean has_payload;          /* the class has fields (else "{ }") */
  gboolean remembered[4];        /* flat scopes whose text the line may copy
                                  * when their bytes repeat (scope_memos) */
  Step steps[4];                 /* write_scopes_direct's, in order */
  guint n_steps;
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

/* Enums with more mappings keep computing each list: the ranges would take
 * a list per range, each over all pairs of mappings, at plan time. */
#define LABEL_RANGES_MAX_MAPPINGS 64

static guint64
value_order_key (const TtvType *t, guint64 raw)
{
  return t->is_signed ? raw ^ G_GUINT64_CONSTANT (0x8000000000000000) : raw;
}

static gint
compare_keys (gconstpointer a, gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;
  return x < y ? -1 : x > y;
}

/* @t's label ranges (see LabelRanges), owned by @plan; NULL for bit maps
 * (a value's labels follow its bits, not ranges) and enums of many
 * mappings. */
static const LabelRanges *
label_ranges_new (CtfTextPlan *plan, const TtvType *t)
{
  if (t->bit_flags || t->mappings == NULL || t->mappings->len > LABEL_RANGES_MAX_MAPPINGS)
    return NULL;
  g_autoptr (GArray) keys = g_array_new (FALSE, FALSE, sizeof (guint64));
  guint64 least = 0;
  g_array_append_val (keys, least);
  for (guint i = 0; i < t->mappings->len; i++)
    {
      const TtvEnumMapping *m = &g_array_index (t->mappings, TtvEnumMapping, i);
      guint64 start = value_order_key (t, m->start), past = value_order_key (t, m->end) + 1;
      g_array_append_val (keys, start);
      if (past != 0)
        g_array_append_val (keys, past);
    }
  g_array_sort (keys, compare_keys);
  LabelRanges *r = owned (plan, g_new0 (LabelRanges, 1));
  r->keys = owned (plan, g_new (guint64, keys->len));
  r->labels = owned (plan, g_new (const char *, keys->len));
  for (guint i = 0; i < keys->len; i++)
    {
      guint64 key = g_array_index (keys, guint64, i);
      if (r->n > 0 && r->keys[r->n - 1] == key)
        continue;
      r->keys[r->n] = key;
      r->labels[r->n] = owned (plan, enum_labels (t, value_order_key (t, key)));
      r->n++;
    }
  return r;
}

/* The labels of @raw: those of the last range starting at or before it. */
static const char *
label_ranges_find (const LabelRanges *r, const TtvType *t, guint64 raw)
{
  guint64 key = value_order_key (t, raw);
  guint lo = 0, hi = r->n;
  while (hi - lo > 1)
    {
      guint mid = lo + (hi - lo) / 2;
      if (r->keys[mid] <= key)
        lo = mid;
      else
        hi = mid;
    }
  return r->labels[lo];
}

/* As babeltrace2 2.1 prints them: CTF 2 booleans as words, bit arrays
 * (without flags) in hexadecimal; then by the display base, hexadecimal
 * and signed octal values cut to whole digits of their size. */
static IntPrint
int_print_of (const TtvType *t)
{
  guint len = t->size_bits;
  IntPrint ip = { t->is_signed ? INT_DECIMAL_SIGNED : INT_DECIMAL, len, G_MAXUINT64 };
  if (t->int_kind == TTV_INT_BOOLEAN)
    ip.format = INT_BOOLEAN;
  else if (t->int_kind == TTV_INT_BIT_ARRAY && !t->mappings)
    ip.format = INT_HEX;
  else if (t->base == 2)
    ip.format = INT_BINARY;
  else if (t->base == 8)
    {
      ip.format = INT_OCTAL;
      if (t->is_signed && len < 64)
        {
          guint rounded = ((len - 1) / 3 + 1) * 3;
          if (rounded < 64)
            ip.mask = (G_GUINT64_CONSTANT (1) << rounded) - 1;
        }
    }
  else if (t->base == 16)
    {
      ip.format = INT_HEX;
      guint rounded = (len + 3) & ~3u;
      if (len < 64 && rounded < 64)
        ip.mask = (G_GUINT64_CONSTANT (1) << rounded) - 1;
    }
  return ip;
}

static const Printer *compile (CtfTextPlan *plan, const TtvType *t);

static Printer *
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
      p->int_print = int_print_of (t);
      break;
    case TTV_TYPE_ENUM:
      p->kind = P_ENUM;
      p->int_print = int_print_of (t->container ? t->container : t);
      p->enum_labels = owned (plan, g_new0 (char *, ENUM_TABLE));
      for (guint v = 0; v < ENUM_TABLE; v++)
        p->enum_labels[v] = owned (plan, enum_labels (t, v));
      p->label_ranges = label_ranges_new (plan, t);
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

/* Text arrays longer than this go through write_value: write_flat makes
 * room for its members up front. */
#define FLAT_TEXT_MAX 4096

static FlatPrint
flat_print_of (const Member *m)
{
  const Printer *v = m->value;
  if (v->kind == P_INTEGER && v->int_print.format == INT_DECIMAL)
    return FLAT_DECIMAL;
  if (v->kind == P_INTEGER && v->int_print.format == INT_DECIMAL_SIGNED)
    return FLAT_DECIMAL_SIGNED;
  if (v->kind == P_TEXT_VIEW && m->load->load == TTV_FLAT_LOAD_TEXT && m->load->length <= FLAT_TEXT_MAX)
    return FLAT_TEXT;
  return FLAT_VALUE;
}

/* How write_flat prints the members of @p, a struct of @layout, and the
 * room it makes: before the members, and after each FLAT_VALUE, for
 * everything up to the next FLAT_VALUE's prefix or the end. */
static void
plan_flat (Printer *p, const TtvFlatLayout *layout)
{
  gsize *room = &p->flat_room;
  gsize need = 1;   /* "{" */
  for (guint i = 0; i < p->n_members; i++)
    {
      Member *m = &p->members[i];
      m->load = &layout->members[m->index];
      m->type = ((const TtvField *) g_ptr_array_index (p->type->fields, m->index))->type;
      m->flat_print = flat_print_of (m);
      need += m->prefix_len;
      if (m->flat_print == FLAT_VALUE)
        {
          *room = need;
          room = &m->room_after;
          need = 0;
        }
      else
        /* Escaped text: 4 bytes a byte at most, and quotes. */
        need += m->flat_print == FLAT_TEXT ? 4 * (gsize) m->load->length + 2 : TTV_TEXT_NUMBER_MAX;
    }
  *room = need + 2;   /* " }" */
}

/* How write_sequential prints the members of @p, a struct of @layout;
 * FALSE when it cannot (an array of bytes printed as text). */
static gboolean
plan_seq (CtfTextPlan *plan, Printer *p, const TtvSeqLayout *layout)
{
  p->seq_shown = owned (plan, g_new0 (const Member *, MAX (layout->n_members, 1)));
  for (guint i = 0; i < p->n_members; i++)
    {
      Member *m = &p->members[i];
      const TtvSeqMember *sm = &layout->members[m->index];
      m->load = &sm->load;
      m->type = ((const TtvField *) g_ptr_array_index (p->type->fields, m->index))->type;
      if (sm->array)
        {
          if (m->value->kind != P_ARRAY)
            return FALSE;
          m->flat_print = FLAT_ARRAY;
          m->array = sm;
        }
      else
        m->flat_print = sm->string && m->value->kind == P_STRING ? FLAT_STRING : flat_print_of (m);
      p->seq_shown[m->index] = m;
    }
  return TRUE;
}

void
ttv_ctf_text_plan_free (CtfTextPlan *plan)
{
  if (plan == NULL)
    return;
  /* The types it printed may go with it: scope_memos must not take a
   * successor at the same address for them. */
  ttv_ctf_scope_memo_plans_freed ();
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

/* Whether the text of scope @i, printed by @p from a flat struct of
 * @layout, is kept in scope_memos: a context of a few bytes, each member
 * written by write_flat itself (no write_value: its room is known), of
 * two members at least: a single one (the kernel's cpu_id) costs less
 * to write than to remember, and its packets alternate in a merged read. */
static gboolean
may_remember (const Printer *p, const TtvFlatLayout *layout, guint i)
{
  if (i >= TTV_CTF_SCOPE_MEMOS || p->n_members < 2 || layout->size_bits % 8 != 0
      || layout->size_bits / 8 > TTV_CTF_SCOPE_MEMO_BYTES || p->flat_room + 2 > TTV_CTF_SCOPE_MEMO_TEXT)
    return FALSE;
  for (guint k = 0; k < p->n_members; k++)
    if (p->members[k].flat_print == FLAT_VALUE)
      return FALSE;
  return TRUE;
}

/* write_scopes_direct's steps: the scopes shown, the stream event context
 * even when not (where it ends is where the event context starts; its
 * bytes too few fail the line, as the full decoding would), "{ }" for a
 * class without fields. */
static void
plan_steps (CtfTextPlan *plan)
{
  gboolean first = TRUE;
  for (guint i = 0; i < 4; i++)
    {
      Step *step = &plan->steps[plan->n_steps];
      step->scope = i;
      step->separator = !first;
      if (plan->types[i] == NULL || (i == 3 && !plan->has_payload))
        {
          if (i == 3 && plan->scopes[3])
            {
              step->kind = STEP_EMPTY;
              plan->n_steps++;
            }
          continue;
        }
      if (plan->scopes[i])
        {
          step->kind = plan->remembered[i] ? STEP_REMEMBERED
                       : plan->flat[i]    ? STEP_FLAT
                       : plan->seq[i]     ? STEP_SEQ
                                          : STEP_DECODE;
          plan->n_steps++;
          first = FALSE;
        }
      else if (i == 1)
        {
          step->kind = STEP_SKIP;
          plan->n_steps++;
        }
    }
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
  plan->types[0] = pctx && pctx->kind == TTV_TYPE_STRUCT ? pctx : NULL;
  plan->types[1] = sc ? sc->event_context : NULL;
  plan->types[2] = ec->context;
  plan->types[3] = ec->fields ? ec->fields : empty_struct ();
  plan->has_payload = ec->fields != NULL;
  for (guint i = 0; i < 4; i++)
    {
      const TtvType *t = plan->types[i];
      if (t && t->kind == TTV_TYPE_STRUCT)
        plan->flat[i] = ttv_type_get_flat_layout (t);
      if (t == NULL || !visible (t))
        continue;
      if (t->kind == TTV_TYPE_STRUCT && !plan->flat[i])
        plan->seq[i] = ttv_type_get_seq_layout (t);
      if (plan->flat[i] || plan->seq[i])
        {
          Printer *p = compile_struct (plan, t);
          if (plan->flat[i])
            {
              plan_flat (p, plan->flat[i]);
              plan->remembered[i] = may_remember (p, plan->flat[i], i);
            }
          else if (!plan_seq (plan, p, plan->seq[i]))
            plan->seq[i] = NULL;   /* decoded then, its printer as it is */
          plan->scopes[i] = p;
        }
      else
        plan->scopes[i] = compile (plan, t);
    }
  plan_steps (plan);
  return plan;
}

/* --- writing ----------------------------------------------------------- */

static char *
put_integer (char *p, const IntPrint *ip, guint64 raw)
{
  switch (ip->format)
    {
    case INT_DECIMAL:
      return ttv_text_put_u64 (p, raw);
    case INT_DECIMAL_SIGNED:
      return ttv_text_put_i64 (p, (gint64) raw);
    case INT_HEX:
      p = TTV_TEXT_PUT_LITERAL (p, "0x");
      return ttv_text_put_hex (p, raw & ip->mask, TRUE);
    case INT_OCTAL:
      *p++ = '0';
      return ttv_text_put_octal (p, raw & ip->mask);
    case INT_BINARY:
      p = TTV_TEXT_PUT_LITERAL (p, "0b");
      for (guint i = ip->bits; i-- > 0;)
        *p++ = (raw >> i) & 1 ? '1' : '0';
      return p;
    case INT_BOOLEAN:
      return raw ? TTV_TEXT_PUT_LITERAL (p, "true") : TTV_TEXT_PUT_LITERAL (p, "false");
    }
  g_assert_not_reached ();
}

/* The labels of @raw of enum printer @pr worked out with the plan, or NULL
 * when they must be computed. */
static const char *
labels_planned (const Printer *pr, guint64 raw)
{
  if (raw < ENUM_TABLE)
    return pr->enum_labels[raw];
  return pr->label_ranges ? label_ranges_find (pr->label_ranges, pr->type, raw) : NULL;
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
      w->p = put_integer (ttv_text_writer_need (w, TTV_TEXT_NUMBER_MAX), &pr->int_print, v->v.u);
      break;
    case P_ENUM:
      {
        const char *labels = labels_planned (pr, v->v.u);
        g_autofree char *dynamic = labels ? NULL : enum_labels (pr->type, v->v.u);
        if (dynamic)
          labels = dynamic;
        gsize n = strlen (labels);
        p = ttv_text_writer_need (w, n + TTV_TEXT_NUMBER_MAX + 32);
        p = TTV_TEXT_PUT_LITERAL (p, "( ");
        p = ttv_text_put (p, labels, n);
        p = TTV_TEXT_PUT_LITERAL (p, " : container = ");
        p = put_integer (p, &pr->int_print, v->v.u);
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

/* Where a flat struct of @layout starts at or after bit @pos (its
 * alignment is a power of two). */
static inline guint64
flat_start (const TtvFlatLayout *layout, guint64 pos)
{
  return (pos + layout->align_bits - 1) & ~(guint64) (layout->align_bits - 1);
}

/* Array member @m whose value @array (ttv_seq_member_load) views its
 * elements' bytes, as write_value writes a decoded one: each element
 * loaded, decimal integers (most) written here. */
static void
write_array_loaded (TtvTextWriter *w, const Member *m, const TtvValue *array)
{
  const Printer *element = m->value->element;
  gboolean decimal = element->kind == P_INTEGER && (element->int_print.format == INT_DECIMAL
                                                    || element->int_print.format == INT_DECIMAL_SIGNED);
  *ttv_text_writer_need (w, 1) = '[';
  w->p++;
  for (guint32 i = 0; i < array->v.string.len; i++)
    {
      TtvValue v;
      ttv_seq_element_load (m->array, array, i, &v);
      char *p = ttv_text_writer_need (w, 2 * TTV_TEXT_NUMBER_MAX);
      p = i ? TTV_TEXT_PUT_LITERAL (p, ", [") : TTV_TEXT_PUT_LITERAL (p, " [");
      p = TTV_TEXT_PUT_LITERAL (ttv_text_put_u64 (p, i), "] = ");
      if (decimal)
        {
          w->p = put_integer (p, &element->int_print, v.v.u);
          continue;
        }
      w->p = p;
      v.type = element->type;
      write_value (w, NULL, &v, element);
    }
  w->p = TTV_TEXT_PUT_LITERAL (ttv_text_writer_need (w, 2), " ]");
}

/* Member @m's value @v, loaded from the bytes, at @p (room made for it);
 * a FLAT_ARRAY or FLAT_VALUE through write_value, which makes its own. */
static inline char *
put_loaded (TtvTextWriter *w, char *p, const Member *m, TtvValue *v)
{
  switch (m->flat_print)
    {
    case FLAT_DECIMAL:
      return ttv_text_put_decimal (p, v->v.u);
    case FLAT_DECIMAL_SIGNED:
      return v->v.s >= 0 ? ttv_text_put_decimal (p, v->v.u) : ttv_text_put_i64 (p, v->v.s);
    case FLAT_TEXT:
      return put_escaped_until (p, v->v.string.str, v->v.string.len, TRUE);
    case FLAT_STRING:
      return put_escaped (p, v->v.string.str, v->v.string.len);
    case FLAT_ARRAY:
      w->p = p;
      write_array_loaded (w, m, v);
      return w->p;
    case FLAT_VALUE:
      v->type = m->type;
      w->p = p;
      write_value (w, NULL, v, m->value);
      return w->p;
    }
  g_assert_not_reached ();
}

/* A struct of constant layout printed from the bytes at bit @start of
 * @data (@bits long), after ", " when @separator; FALSE, writing nothing,
 * when they are too few.  One check of room for what is written here
 * (the longest text of each member is known), another after each member
 * written by write_value.  Inline, as the compiler chose before
 * write_flat_remembered called it too: a call of seven arguments per
 * scope costs about 40 instructions an event. */
static G_ALWAYS_INLINE inline gboolean
write_flat (TtvTextWriter *w, const TtvFlatLayout *layout, const Printer *pr, gboolean separator,
            const guint8 *data, guint64 bits, guint64 start)
{
  guint64 at = flat_start (layout, start);
  if (at > bits || bits - at < layout->size_bits)
    return FALSE;
  const guint8 *base = data + at / 8;
  char *p = ttv_text_writer_need (w, pr->flat_room + 2);
  if (separator)
    p = TTV_TEXT_PUT_LITERAL (p, ", ");
  *p++ = '{';
  for (guint i = 0; i < pr->n_members; i++)
    {
      const Member *m = &pr->members[i];
      p = ttv_text_put (p, m->prefix, m->prefix_len);
      TtvValue v;
      ttv_flat_member_load (m->load, base, &v);
      p = put_loaded (w, p, m, &v);
      if (m->flat_print == FLAT_VALUE)
        p = ttv_text_writer_need (w, m->room_after);
    }
  w->p = TTV_TEXT_PUT_LITERAL (p, " }");
  return TRUE;
}

static G_NO_INLINE void
write_flat_outlined (TtvTextWriter *w, const TtvFlatLayout *layout, const Printer *pr, const guint8 *data,
                     guint64 bits, guint64 start)
{
  write_flat (w, layout, pr, FALSE, data, bits, start);
}

/* write_flat of scope @i of @plan, whose text is kept in scope_memos
 * (plan->remembered): copied when its bytes are those of the text kept.
 * Not inline, nor is its write_flat: the registers of a bigger
 * write_scopes_direct cost the scopes not remembered (the kernel's) about
 * 30 instructions an event. */
static G_NO_INLINE gboolean
write_flat_remembered (TtvTextWriter *w, const CtfTextPlan *plan, guint i, const guint8 *data, guint64 bits,
                       guint64 start)
{
  const TtvFlatLayout *layout = plan->flat[i];
  guint64 at = flat_start (layout, start);
  if (at > bits || bits - at < layout->size_bits)
    return FALSE;
  const guint8 *bytes = data + at / 8;
  gsize n_bytes = layout->size_bits / 8;
  TtvCtfScopeMemo *memo = &scope_memos[i];
  gint generation = ttv_ctf_scope_memo_generation ();
  if (ttv_ctf_scope_memo_holds (memo, plan->types[i], generation, bytes, n_bytes))
    {
      char *p = ttv_text_writer_need (w, memo->text_len);
      memcpy (p, memo->text, memo->text_len);
      w->p = p + memo->text_len;
      return TRUE;
    }
  gsize before = (gsize) (w->p - w->out->str);
  write_flat_outlined (w, layout, plan->scopes[i], data, bits, start);
  ttv_ctf_scope_memo_keep (memo, plan->types[i], generation, bytes, n_bytes, w->out->str + before,
                           (gsize) (w->p - w->out->str) - before);
  return TRUE;
}

/* The room write_sequential makes for member @m's value: a string's is
 * known once its end is found (@len); write_value makes its own. */
static inline gsize
seq_room (const Member *m, gsize len)
{
  switch (m->flat_print)
    {
    case FLAT_STRING:
      return 4 * len + 2;
    case FLAT_TEXT:
      return 4 * (gsize) m->load->length + 2;
    case FLAT_ARRAY:
    case FLAT_VALUE:
      return 0;
    default:
      return TTV_TEXT_NUMBER_MAX;
    }
}

/* A struct of sequential @layout printed from the bytes at bit *@pos of
 * @data (@bits long), each member where the one before ends; *@pos then
 * past it.  FALSE when the bytes are too few or a string has no end, as
 * the decoder would fail.  Room is made member by member: a string's
 * length is known once its end is found. */
static gboolean
write_sequential (TtvTextWriter *w, const TtvSeqLayout *layout, const Printer *pr, const guint8 *data,
                  guint64 bits, guint64 *pos)
{
  guint64 at = ttv_align_up (*pos, layout->align_bits);
  guint64 counts[TTV_SEQ_MAX_COUNTS];
  *ttv_text_writer_need (w, 1) = '{';
  w->p++;
  for (guint i = 0; i < layout->n_members; i++)
    {
      TtvValue v;
      if (!ttv_seq_member_load (&layout->members[i], data, bits, &at, counts, &v))
        return FALSE;
      const Member *m = pr->seq_shown[i];
      if (m == NULL)
        continue;
      gsize len = m->flat_print == FLAT_STRING ? v.v.string.len : 0;
      char *p = ttv_text_writer_need (w, m->prefix_len + seq_room (m, len));
      w->p = put_loaded (w, ttv_text_put (p, m->prefix, m->prefix_len), m, &v);
    }
  w->p = TTV_TEXT_PUT_LITERAL (ttv_text_writer_need (w, 2), " }");
  *pos = at;
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
  /* The event context starts where the stream event context ends. */
  guint64 starts[4] = { (guint64) ec->packet_context_bit, hdr_end, hdr_end, event->payload_bit };
  for (guint k = 0; k < plan->n_steps; k++)
    {
      const Step *step = &plan->steps[k];
      guint i = step->scope;
      const TtvFlatLayout *flat = plan->flat[i];
      guint64 pos = starts[i];
      if (step->separator && step->kind != STEP_FLAT)
        w->p = TTV_TEXT_PUT_LITERAL (ttv_text_writer_need (w, 2), ", ");
      switch (step->kind)
        {
        case STEP_EMPTY:
          w->p = TTV_TEXT_PUT_LITERAL (ttv_text_writer_need (w, 3), "{ }");
          continue;
        case STEP_FLAT:
          if (!write_flat (w, flat, plan->scopes[i], step->separator, event->data, event->data_bits, pos))
            return FALSE;
          pos = flat_start (flat, pos) + flat->size_bits;
          break;
        case STEP_REMEMBERED:
          if (!write_flat_remembered (w, plan, i, event->data, event->data_bits, pos))
            return FALSE;
          pos = flat_start (flat, pos) + flat->size_bits;
          break;
        case STEP_SEQ:
          if (!write_sequential (w, plan->seq[i], plan->scopes[i], event->data, event->data_bits, &pos))
            return FALSE;
          break;
        case STEP_SKIP:
          if (flat)
            {
              pos = flat_start (flat, pos) + flat->size_bits;
              break;
            }
          G_GNUC_FALLTHROUGH;
        case STEP_DECODE:
          {
            /* Each scope printed as soon as decoded: its nodes alone.  (A
             * reset only here: most events have nothing to decode.) */
            ttv_decoder_reset (d);
            gint32 node = ttv_decoder_decode (d, plan->types[i], names[i], event->data, event->data_bits, &pos,
                                              NULL);
            if (node < 0)
              return FALSE;
            if (plan->scopes[i])
              write_value (w, d, ttv_decoder_get (d, (guint32) node), plan->scopes[i]);
          }
          break;
        }
      if (i == 1)
        starts[2] = pos;
    }
  return TRUE;
}

static const CtfTextPlan *
plan_of (const TtvEvent *event, CtfEventClass *ec)
{
  CtfTextPlan *plan = g_atomic_pointer_get (&ec->text);
  if (G_LIKELY (plan != NULL))
    return plan;
  return ttv_ctf_event_class_install_plan ((gpointer *) &ec->text, plan_new (event, ec),
                                           (GDestroyNotify) ttv_ctf_text_plan_free);
}

/* ttv_ctf_append_babeltrace_line, its scopes written from the bytes when
 * @direct and that applies (write_scopes_direct). */
static G_ALWAYS_INLINE inline void
append_line (GString *out, const TtvEvent *event, TtvTime previous_time, TtvDecoder *decoder, gboolean direct)
{
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
  if (direct && write_scopes_direct (&w, plan, event, decoder))
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

void
ttv_ctf_append_babeltrace_line (GString *out, const TtvEvent *event, TtvTime previous_time,
                                TtvDecoder *decoder)
{
  g_return_if_fail (out != NULL && event != NULL && decoder != NULL);
  append_line (out, event, previous_time, decoder, TRUE);
}

void
ttv_ctf_append_babeltrace_line_decoded (GString *out, const TtvEvent *event, TtvTime previous_time,
                                        TtvDecoder *decoder)
{
  g_return_if_fail (out != NULL && event != NULL && decoder != NULL);
  append_line (out, event, previous_time, decoder, FALSE);
}

char *
ttv_ctf_text_enum_labels (const TtvType *t, guint64 raw, gboolean planned)
{
  g_return_val_if_fail (t != NULL && t->kind == TTV_TYPE_ENUM, NULL);
  if (!planned)
    return enum_labels (t, raw);
  CtfTextPlan plan = { .owned = g_ptr_array_new_with_free_func (g_free) };
  char *labels = g_strdup (labels_planned (compile (&plan, t), raw));
  g_ptr_array_unref (plan.owned);
  return labels;
}

/* ttv_ctf_text_escape's byte by byte, as put_escaped_until once was. */
static char *
put_escaped_bytewise (char *p, const char *s, gsize len, gboolean nul_ends)
{
  const char *const *table = escape_table ();
  *p++ = '"';
  for (gsize i = 0; i < len && !(nul_ends && s[i] == '\0'); i++)
    {
      const char *e = table[(guchar) s[i]];
      if (e == NULL)
        *p++ = s[i];
      else
        p = ttv_text_put (p, e, strlen (e));
    }
  *p++ = '"';
  return p;
}

char *
ttv_ctf_text_escape (const char *s, gsize len, gboolean nul_ends, gboolean scan)
{
  g_return_val_if_fail (s != NULL || len == 0, NULL);
  char *text = g_malloc (4 * len + 3);
  char *end = scan ? put_escaped_until (text, s, len, nul_ends) : put_escaped_bytewise (text, s, len, nul_ends);
  *end = '\0';
  return text;
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
