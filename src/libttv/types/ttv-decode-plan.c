/* ttv-decode-plan.c: a type tree compiled once into a plan (see
 * ttv-decode-plan.h): each value is an operation whose kind, alignment, size
 * and byte order are decided at compile time; references (sequence
 * lengths, variant tags) become slots written when their field is read;
 * structs of fixed-size members read them at constant offsets after one
 * bounds check; text arrays are views.  Values and node layout are exactly
 * those of the walk of the type tree in ttv-decoder.c. */
#include "ttv-decode-plan.h"

#include <string.h>

typedef enum {
  OP_U8,          /* byte-aligned integers of 8, 16, 32, 64 bits */
  OP_U16,
  OP_U32,
  OP_U64,
  OP_BITS,        /* any other integer: ttv_read_bits */
  OP_F32,         /* byte-aligned floats */
  OP_F64,
  OP_FBITS,       /* a float at a bit position */
  OP_STRING,
  OP_TEXT,        /* a text array or sequence: a view of its bytes */
  OP_ARRAY,       /* an array or sequence of nodes */
  OP_STRUCT,
  OP_VARIANT,
} OpKind;

typedef enum {
  COUNT_FIXED,    /* an array's length */
  COUNT_SLOT,     /* a field read before (a sequence length, a variant tag) */
  COUNT_PREFIX,   /* an integer right before the data (LTT) */
} CountKind;

#define NO_SLOT 0xffffu
#define MAX_SLOTS 64
/* Enum tags below this select their variant option through a table. */
#define TAG_TABLE 64

/* A flat struct's member as decode_flat makes it: its node's template
 * and its load side by side, one pointer for both; and the same load as
 * masks of a 64-bit word at its bytes (Op.words): the value is the word's
 * bits in @keep, sign-extended from @sign_bit ((x ^ s) - s), or (@text,
 * all ones for a text array, whose @keep is 0) the bytes' address. */
typedef struct {
  TtvValue node;
  TtvFlatMember load;
  guint64 keep, sign_bit, text;
} FlatNode;

typedef struct _Op Op;

struct _Op {
  guint8 kind;            /* OpKind */
  guint8 swap;            /* byte-aligned reads: swap the bytes after loading */
  guint8 sign;            /* integers: sign-extend from size bits */
  guint8 count_kind;      /* CountKind: ARRAY, TEXT, VARIANT */
  guint16 size;           /* bits: scalars */
  guint16 slot;           /* scalars: slot the raw value goes to, or NO_SLOT */
  guint16 count_slot;     /* COUNT_SLOT */
  TtvByteOrder order;     /* every scalar */
  guint align;            /* bits (>= 1): scalars, STRUCT */
  const TtvType *type;    /* weak: the node's type */
  guint64 length;         /* COUNT_FIXED */
  Op *count_op;           /* COUNT_PREFIX: the prefix's scalar */
  /* ARRAY and TEXT */
  guint elem_align;
  guint64 elem_min_bits;  /* each element takes at least this much */
  /* ARRAY: children[0] is the element; STRUCT: the members; VARIANT: the options */
  Op *children;
  guint32 n_children;
  TtvValue *tmpl;         /* STRUCT: member nodes (type, name); VARIANT: option nodes */
  /* STRUCT whose members are all scalars at constant offsets from its
   * aligned start: their offsets (bits), and the struct's size. */
  guint32 *offsets;
  guint64 fixed_bits;
  /* The same when every member is a byte-aligned integer, float or
   * fixed-length text array, none referenced: one load each; and with
   * their nodes' templates (decode_flat's). */
  TtvFlatMember *loads;
  FlatNode *flat;
  /* Every member a little-endian integer or a text array (on a
   * little-endian machine): decode_flat reads each as a word of 64 bits
   * (FlatNode) when a word's overrun of bits follows the struct. */
  gboolean words;
  TtvFlatLayout *layout;  /* the same, for printers */
  /* The root STRUCT when it is not flat, each member a load or a string
   * where the one before ends: for printers (ttv_type_get_seq_layout). */
  TtvSeqLayout *seq;
  gboolean has_slots;     /* STRUCT: a member is referenced (skipping must read it) */
  guint64 align_mask;      /* align - 1: scalars, STRUCT (a power of two) */
  /* A byte-aligned scalar nobody refers to, member of a struct that is not
   * flat: read by one load (byte 0 of @load). */
  gboolean loadable;
  TtvFlatMember load;
  /* VARIANT */
  const TtvType *tag_type;  /* weak: the referenced enum, NULL for an integer index */
  gint16 *tag_table;        /* enum tags < TAG_TABLE: option index, -1 for none */
};

/* One member of a struct read by loads alone: byte offset from the struct's
 * start, TtvFlatLoad, elements of a text array. */
typedef TtvFlatMember FlatLoad;


struct _TtvDecodePlan {
  Op root;
  GPtrArray *owned;       /* every allocation of the plan */
};

TtvDecodePlan ttv_decode_no_plan;
#define no_plan ttv_decode_no_plan

/* --- compiling ------------------------------------------------------- */

typedef struct {
  const TtvType *type;    /* a struct being compiled */
  Op *members;            /* its member operations */
  guint member;           /* the one being compiled */
} Frame;

typedef struct {
  Frame frames[TTV_DECODER_MAX_DEPTH + 1];
  guint n_frames;
  guint n_slots;
  GPtrArray *owned;
} Compiler;

static gpointer
owned_alloc0 (Compiler *c, gsize size)
{
  gpointer p = g_malloc0 (size);
  g_ptr_array_add (c->owned, p);
  return p;
}

static gboolean
is_power_of_two (guint v)
{
  return v != 0 && (v & (v - 1)) == 0;
}

static guint
align_of (const TtvType *t)
{
  return t->align_bits ? t->align_bits : 1;
}

/* The member a plain name refers to, as the walk finds it: in the enclosing
 * structs innermost first, among the members decoded before, the last of
 * that name; it must be an integer or an enum. */
static Op *
resolve_ref (Compiler *c, const char *ref, const TtvType **type)
{
  if (ref == NULL || strchr (ref, '.') != NULL || ref[0] == '^')
    return NULL;  /* a path (maybe another scope) or a CTF 2 climb: only the walk sees them */
  for (guint f = c->n_frames; f-- > 0;)
    {
      const Frame *fr = &c->frames[f];
      for (guint i = fr->member; i-- > 0;)
        {
          const TtvField *m = g_ptr_array_index (fr->type->fields, i);
          if (g_strcmp0 (m->name, ref) != 0)
            continue;
          if (m->type->kind != TTV_TYPE_INTEGER && m->type->kind != TTV_TYPE_ENUM)
            return NULL;
          *type = m->type;
          return &fr->members[i];
        }
    }
  return NULL;
}

static gboolean
ref_slot (Compiler *c, const char *ref, guint16 *slot, const TtvType **type)
{
  Op *target = resolve_ref (c, ref, type);
  if (target == NULL)
    return FALSE;
  if (target->slot == NO_SLOT)
    {
      if (c->n_slots == MAX_SLOTS)
        return FALSE;
      target->slot = (guint16) c->n_slots++;
    }
  *slot = target->slot;
  return TRUE;
}

static gboolean compile_op (Compiler *c, const TtvType *t, Op *op, guint level);

static gboolean
compile_scalar (const TtvType *t, Op *op)
{
  /* CTF 2 encodings (LEB128, reversed bits; an enum's are its
   * container's) are the walk's. */
  const TtvType *bits = t->kind == TTV_TYPE_ENUM && t->container ? t->container : t;
  if (bits->leb128 || bits->reverse_bits || t->leb128 || t->reverse_bits)
    return FALSE;
  op->size = (guint16) t->size_bits;
  op->align = align_of (t);
  op->order = t->byte_order;
  op->swap = t->byte_order != TTV_BYTE_ORDER_NATIVE;
  if (!is_power_of_two (op->align))
    return FALSE;
  op->align_mask = op->align - 1;
  gboolean bytes = op->align % 8 == 0;
  if (t->kind == TTV_TYPE_FLOAT)
    {
      if (t->size_bits != 32 && t->size_bits != 64)
        return FALSE;
      op->kind = !bytes ? OP_FBITS : t->size_bits == 32 ? OP_F32 : OP_F64;
      return TRUE;
    }
  if (t->size_bits < 1 || t->size_bits > 64)
    return FALSE;
  op->sign = t->is_signed && t->size_bits < 64;
  switch (bytes ? t->size_bits : 0)
    {
    case 8: op->kind = OP_U8; break;
    case 16: op->kind = OP_U16; break;
    case 32: op->kind = OP_U32; break;
    case 64: op->kind = OP_U64; break;
    default: op->kind = OP_BITS; break;
    }
  return TRUE;
}

/* Where an array's count, or a variant's tag, comes from. */
static gboolean
compile_count (Compiler *c, const TtvType *t, Op *op, const TtvType **ref_type)
{
  *ref_type = NULL;
  if (t->prefix)
    {
      if (t->prefix->kind != TTV_TYPE_INTEGER && t->prefix->kind != TTV_TYPE_ENUM)
        return FALSE;
      op->count_kind = COUNT_PREFIX;
      op->count_op = owned_alloc0 (c, sizeof (Op));
      op->count_op->slot = NO_SLOT;
      op->count_op->type = t->prefix;
      return compile_scalar (t->prefix, op->count_op);
    }
  op->count_kind = COUNT_SLOT;
  return ref_slot (c, t->ref, &op->count_slot, ref_type);
}

static gboolean
compile_array (Compiler *c, const TtvType *t, Op *op, guint level)
{
  const TtvType *e = t->element;
  const TtvType *unused;
  if (t->kind == TTV_TYPE_ARRAY)
    {
      op->count_kind = COUNT_FIXED;
      op->length = t->length;
    }
  else if (!compile_count (c, t, op, &unused))
    return FALSE;
  op->elem_align = align_of (e);
  if (!is_power_of_two (op->elem_align))
    return FALSE;
  op->elem_min_bits = e->fixed_size_bits > 0 ? (guint64) e->fixed_size_bits : e->kind == TTV_TYPE_STRING ? 8 : 1;
  if (ttv_type_is_text_array (t))
    {
      op->kind = OP_TEXT;
      return TRUE;
    }
  op->kind = OP_ARRAY;
  op->children = owned_alloc0 (c, sizeof (Op));
  op->n_children = 1;
  /* Nothing refers to an element: each would write slot 0 (a length
   * another sequence reads) over its value. */
  op->children[0].slot = NO_SLOT;
  return compile_op (c, e, &op->children[0], level + 1);
}

/* Members at constant offsets from the struct's aligned start: each a
 * scalar whose alignment divides the struct's. */
static gboolean
is_fixed_text (const Op *m)
{
  return m->kind == OP_TEXT && m->count_kind == COUNT_FIXED && m->length <= G_MAXUINT32 / 8;
}

gboolean
ttv_flat_load_of_integer (guint size_bits, gboolean is_signed, TtvByteOrder order, TtvFlatLoad *kind)
{
  /* A 64-bit integer needs no sign extension: signed or not, its load
   * gives the same bits. */
  gboolean sign = is_signed && size_bits < 64;
  gboolean swap = order != TTV_BYTE_ORDER_NATIVE;
  switch (size_bits)
    {
    case 8:
      *kind = sign ? TTV_FLAT_LOAD_S8 : TTV_FLAT_LOAD_U8;
      return TRUE;
    case 16:
      *kind = swap ? (sign ? TTV_FLAT_LOAD_S16_SWAP : TTV_FLAT_LOAD_U16_SWAP)
                   : sign ? TTV_FLAT_LOAD_S16 : TTV_FLAT_LOAD_U16;
      return TRUE;
    case 32:
      *kind = swap ? (sign ? TTV_FLAT_LOAD_S32_SWAP : TTV_FLAT_LOAD_U32_SWAP)
                   : sign ? TTV_FLAT_LOAD_S32 : TTV_FLAT_LOAD_U32;
      return TRUE;
    case 64:
      *kind = swap ? TTV_FLAT_LOAD_U64_SWAP : TTV_FLAT_LOAD_U64;
      return TRUE;
    default:
      return FALSE;
    }
}

/* How a flat struct's member loads (FALSE: not by a load alone). */
static gboolean
load_kind (const Op *m, TtvFlatLoad *kind)
{
  if (m->slot != NO_SLOT)
    return FALSE;
  switch (m->kind)
    {
    case OP_U8:
    case OP_U16:
    case OP_U32:
    case OP_U64:
      return ttv_flat_load_of_integer (m->size, m->sign, m->order, kind);
    case OP_F64:
      *kind = m->swap ? TTV_FLAT_LOAD_U64_SWAP : TTV_FLAT_LOAD_U64;
      return TRUE;
    case OP_F32:
      *kind = m->swap ? TTV_FLAT_LOAD_F32_SWAP : TTV_FLAT_LOAD_F32;
      return TRUE;
    case OP_TEXT:
      *kind = TTV_FLAT_LOAD_TEXT;
      return is_fixed_text (m);
    default:
      return FALSE;
    }
}

/* @f's load as masks of a 64-bit word (see FlatNode): FALSE for the
 * loads they do not cover (swapped bytes, 32-bit floats). */
static gboolean
word_load (FlatNode *f)
{
  guint bits;
  gboolean sign = FALSE;
  switch ((TtvFlatLoad) f->load.load)
    {
    case TTV_FLAT_LOAD_S8: sign = TRUE; /* fall through */
    case TTV_FLAT_LOAD_U8: bits = 8; break;
    case TTV_FLAT_LOAD_S16: sign = TRUE; /* fall through */
    case TTV_FLAT_LOAD_U16: bits = 16; break;
    case TTV_FLAT_LOAD_S32: sign = TRUE; /* fall through */
    case TTV_FLAT_LOAD_U32: bits = 32; break;
    case TTV_FLAT_LOAD_U64: bits = 64; break;
    case TTV_FLAT_LOAD_TEXT:
      /* Its length in its template: the word way writes the address alone. */
      f->node.v.string.len = f->load.length;
      f->text = G_MAXUINT64;
      return TRUE;
    default: return FALSE;
    }
  f->keep = G_MAXUINT64 >> (64 - bits);
  f->sign_bit = sign ? G_GUINT64_CONSTANT (1) << (bits - 1) : 0;
  return TRUE;
}

static void
compile_flat (Compiler *c, const TtvType *t, Op *op)
{
  guint64 off = 0;
  for (guint i = 0; i < op->n_children; i++)
    {
      const Op *m = &op->children[i];
      guint align = m->kind == OP_TEXT ? m->elem_align : m->align;
      if ((m->kind > OP_FBITS && !is_fixed_text (m)) || op->align % align != 0)
        return;
      off = ttv_align_up (off, align) + (m->kind == OP_TEXT ? m->length * 8 : m->size);
      if (off > G_MAXUINT32)
        return;
    }
  op->offsets = owned_alloc0 (c, sizeof (guint32) * MAX (op->n_children, 1));
  off = 0;
  for (guint i = 0; i < op->n_children; i++)
    {
      const Op *m = &op->children[i];
      off = ttv_align_up (off, m->kind == OP_TEXT ? m->elem_align : m->align);
      op->offsets[i] = (guint32) off;
      off += m->kind == OP_TEXT ? m->length * 8 : m->size;
    }
  op->fixed_bits = off;
  /* An empty struct has no load to misplace whatever its alignment (CTF
   * kernel traces are full of them, a sixth of ctf-kernel-500k's events):
   * its node alone, the fast way, and a layout for printers too. */
  if (op->align % 8 != 0 && op->n_children > 0)
    return;
  FlatLoad *loads = owned_alloc0 (c, sizeof (FlatLoad) * MAX (op->n_children, 1));
  for (guint i = 0; i < op->n_children; i++)
    {
      TtvFlatLoad kind;
      if (!load_kind (&op->children[i], &kind) || op->offsets[i] % 8 != 0)
        return;
      loads[i].byte = op->offsets[i] / 8;
      loads[i].load = kind;
      loads[i].length = (guint32) op->children[i].length;
    }
  op->loads = loads;
  op->flat = owned_alloc0 (c, sizeof (FlatNode) * MAX (op->n_children, 1));
  op->words = G_BYTE_ORDER == G_LITTLE_ENDIAN;
  for (guint i = 0; i < op->n_children; i++)
    {
      FlatNode *f = &op->flat[i];
      *f = (FlatNode) { op->tmpl[i], loads[i], 0, 0, 0 };
      op->words = word_load (f) && op->words;
    }
  op->layout = owned_alloc0 (c, sizeof (TtvFlatLayout));
  op->layout->align_bits = op->align;
  op->layout->size_bits = op->fixed_bits;
  op->layout->n_members = op->n_children;
  op->layout->members = loads;
}

/* Whether struct member @m reads by a load alone (see Op.loadable). */
static void
compile_loadable (Op *m)
{
  TtvFlatLoad kind;
  if (m->kind > OP_F64 || !load_kind (m, &kind))
    return;
  m->loadable = TRUE;
  m->load.load = kind;
}

/* How scalar @m loads whether or not it is referenced (load_kind refuses
 * a referenced member: a flat struct's skip must read it). */
static gboolean
load_kind_of_value (const Op *m, TtvFlatLoad *kind)
{
  Op plain = *m;
  plain.slot = NO_SLOT;
  return load_kind (&plain, kind);
}

/* How array @m of a sequential struct reads into @sm: elements of one
 * load each (not text, which prints as such), without padding between
 * them, a fixed count or an earlier member's (@members, compiled before
 * it: its slot becomes one of TTV_SEQ_MAX_COUNTS); FALSE when not so. */
static gboolean
compile_seq_array (const Op *op, guint i, TtvSeqMember *members)
{
  const Op *m = &op->children[i];
  TtvSeqMember *sm = &members[i];
  if (m->kind != OP_ARRAY)
    return FALSE;
  const Op *e = &m->children[0];
  const TtvType *et = e->type;
  TtvFlatLoad kind;
  if (e->kind == OP_TEXT || !load_kind (e, &kind) || e->align % 8 != 0 || e->size % e->align != 0
      || (et->size_bits == 8 && et->encoding != TTV_ENCODING_NONE))
    return FALSE;
  sm->array = TRUE;
  sm->align_bits = m->elem_align;
  sm->size_bits = e->size;
  sm->load.load = kind;
  if (m->count_kind == COUNT_FIXED)
    return m->length <= TTV_SEQ_MAX_ELEMENTS && (sm->length = m->length, TRUE);
  if (m->count_kind != COUNT_SLOT || m->count_slot >= TTV_SEQ_MAX_COUNTS)
    return FALSE;
  /* The length: an earlier member of this struct (the only scope a
   * reference from here sees), an integer or an enum (resolve_ref) read
   * by a load. */
  for (guint j = 0; j < i; j++)
    if (op->children[j].slot == m->count_slot)
      {
        members[j].keep = (guint8) m->count_slot;
        sm->count = (guint8) m->count_slot;
        return TRUE;
      }
  return FALSE;
}

/* The sequential layout of struct @op when it has no flat one and each
 * member reads by one load (see load_kind), is a NUL-terminated string or
 * an array of loads (compile_seq_array): most payloads with a name, a
 * path or a small array in them. */
static void
compile_seq (Compiler *c, Op *op)
{
  if (op->layout != NULL || op->align % 8 != 0)
    return;
  TtvSeqMember *members = owned_alloc0 (c, sizeof (TtvSeqMember) * MAX (op->n_children, 1));
  guint n_arrays = 0;
  for (guint i = 0; i < op->n_children; i++)
    {
      const Op *m = &op->children[i];
      TtvSeqMember *sm = &members[i];
      TtvFlatLoad kind;
      sm->count = sm->keep = TTV_SEQ_NO_COUNT;
      if (m->kind == OP_STRING)
        {
          sm->align_bits = 8;     /* as run_string */
          sm->string = TRUE;
          continue;
        }
      if (m->kind == OP_ARRAY)
        {
          /* Their elements, decoded, stay far below the decoder's limit
           * of nodes (TTV_SEQ_MAX_ELEMENTS). */
          if (!compile_seq_array (op, i, members) || ++n_arrays > 64)
            return;
          continue;
        }
      guint align = m->kind == OP_TEXT ? m->elem_align : m->align;
      /* A referenced member loads like any other: its value goes to a
       * count when a sequence here refers to it (compile_seq_array). */
      if (!load_kind_of_value (m, &kind) || align % 8 != 0)
        return;
      sm->align_bits = align;
      sm->size_bits = m->kind == OP_TEXT ? m->length * 8 : m->size;
      sm->load.load = kind;
      sm->load.length = (guint32) m->length;
    }
  op->seq = owned_alloc0 (c, sizeof (TtvSeqLayout));
  op->seq->align_bits = op->align;
  op->seq->n_members = op->n_children;
  op->seq->members = members;
}

static gboolean
compile_struct (Compiler *c, const TtvType *t, Op *op, guint level)
{
  op->kind = OP_STRUCT;
  op->align = align_of (t);
  if (!is_power_of_two (op->align) || c->n_frames > TTV_DECODER_MAX_DEPTH)
    return FALSE;
  op->align_mask = op->align - 1;
  op->n_children = t->fields->len;
  op->children = owned_alloc0 (c, sizeof (Op) * MAX (op->n_children, 1));
  op->tmpl = owned_alloc0 (c, sizeof (TtvValue) * MAX (op->n_children, 1));
  Frame *fr = &c->frames[c->n_frames++];
  fr->type = t;
  fr->members = op->children;
  for (guint i = 0; i < op->n_children; i++)
    {
      const TtvField *f = g_ptr_array_index (t->fields, i);
      op->tmpl[i].type = f->type;
      op->tmpl[i].name = f->name;
      op->children[i].slot = NO_SLOT;
    }
  gboolean ok = TRUE;
  for (guint i = 0; i < op->n_children && ok; i++)
    {
      fr->member = i;
      ok = compile_op (c, ((const TtvField *) g_ptr_array_index (t->fields, i))->type, &op->children[i],
                       level + 1);
    }
  c->n_frames--;
  /* References to these members come from inside the struct: all seen. */
  for (guint i = 0; i < op->n_children; i++)
    op->has_slots |= op->children[i].slot != NO_SLOT;
  if (ok)
    compile_flat (c, t, op);
  for (guint i = 0; i < op->n_children && ok && op->offsets == NULL; i++)
    compile_loadable (&op->children[i]);
  return ok;
}

static gboolean
compile_variant (Compiler *c, const TtvType *t, Op *op, guint level)
{
  op->kind = OP_VARIANT;
  /* CTF 2 variants chosen by ranges, and optionals, are the walk's. */
  if (t->option_ranges != NULL || t->optional)
    return FALSE;
  const TtvType *ref_type;
  if (!compile_count (c, t, op, &ref_type))
    return FALSE;
  if (ref_type && ref_type->kind == TTV_TYPE_ENUM)
    {
      op->tag_type = ref_type;
      op->tag_table = owned_alloc0 (c, sizeof (gint16) * TAG_TABLE);
      for (guint v = 0; v < TAG_TABLE; v++)
        op->tag_table[v] = (gint16) ttv_decoder_variant_option (t, ref_type, v);
    }
  op->n_children = t->fields->len;
  op->children = owned_alloc0 (c, sizeof (Op) * MAX (op->n_children, 1));
  op->tmpl = owned_alloc0 (c, sizeof (TtvValue) * MAX (op->n_children, 1));
  for (guint i = 0; i < op->n_children; i++)
    {
      const TtvField *f = g_ptr_array_index (t->fields, i);
      op->tmpl[i].type = f->type;
      op->tmpl[i].name = f->name;
      op->children[i].slot = NO_SLOT;
      if (!compile_op (c, f->type, &op->children[i], level + 1))
        return FALSE;
    }
  return TRUE;
}

static gboolean
compile_op (Compiler *c, const TtvType *t, Op *op, guint level)
{
  /* The walk refuses deeper trees with an error: let it. */
  if (level > TTV_DECODER_MAX_DEPTH)
    return FALSE;
  op->type = t;
  switch (t->kind)
    {
    case TTV_TYPE_INTEGER:
    case TTV_TYPE_ENUM:
    case TTV_TYPE_FLOAT:
      return compile_scalar (t, op);
    case TTV_TYPE_STRING:
      /* NUL-terminated bytes only: CTF 2's sized and UTF-16/32 strings are
       * the walk's. */
      op->kind = OP_STRING;
      return !t->static_length && t->ref == NULL
             && (t->encoding == TTV_ENCODING_NONE || t->encoding == TTV_ENCODING_UTF8);
    case TTV_TYPE_ARRAY:
    case TTV_TYPE_SEQUENCE:
      return compile_array (c, t, op, level);
    case TTV_TYPE_STRUCT:
      return compile_struct (c, t, op, level);
    case TTV_TYPE_VARIANT:
      return compile_variant (c, t, op, level);
    }
  return FALSE;
}

void
ttv_decode_plan_free (gpointer p)
{
  TtvDecodePlan *plan = p;
  if (plan == NULL || plan == &no_plan)
    return;
  g_ptr_array_unref (plan->owned);
  g_free (plan);
}

const TtvDecodePlan *
ttv_decode_plan_compile (const TtvType *type)
{
  TtvType *t = (TtvType *) type;
  TtvDecodePlan *plan;
  Compiler c = { .owned = g_ptr_array_new_with_free_func (g_free) };
  plan = g_new0 (TtvDecodePlan, 1);
  plan->root.slot = NO_SLOT;
  if (compile_op (&c, type, &plan->root, 1))
    {
      /* Printers ask for the layout of a type's own plan: the root's. */
      if (plan->root.kind == OP_STRUCT)
        compile_seq (&c, &plan->root);
      plan->owned = c.owned;
    }
  else
    {
      g_ptr_array_unref (c.owned);
      g_free (plan);
      plan = &no_plan;
    }
  if (!g_atomic_pointer_compare_and_exchange (&t->plan, NULL, plan))
    {
      ttv_decode_plan_free (plan);
      plan = g_atomic_pointer_get (&t->plan);
    }
  return plan == &no_plan ? NULL : plan;
}

/* --- running --------------------------------------------------------- */

typedef struct {
  TtvDecoder *d;          /* NULL: skipping, no nodes */
  const guint8 *buf;
  guint64 bits;
  guint64 slots[MAX_SLOTS];
} Run;

/* @pos aligned by an alignment's mask (alignment - 1, of a power of two:
 * plans have no other), without ttv_align_up's tests. */
static inline guint64
align_up (guint64 pos, guint64 mask)
{
  return (pos + mask) & ~mask;
}

/* Loads a byte-aligned scalar at byte @p. */
static inline guint64
load (const Op *op, const guint8 *p)
{
  switch (op->kind)
    {
    case OP_U8:
      return p[0];
    case OP_U16:
    {
      guint16 x;
      memcpy (&x, p, 2);
      return op->swap ? GUINT16_SWAP_LE_BE (x) : x;
    }
    case OP_U32:
    case OP_F32:
    {
      guint32 x;
      memcpy (&x, p, 4);
      return op->swap ? GUINT32_SWAP_LE_BE (x) : x;
    }
    default:
    {
      guint64 x;
      memcpy (&x, p, 8);
      return op->swap ? GUINT64_SWAP_LE_BE (x) : x;
    }
    }
}

/* A bit field: from one 64-bit load when the buffer has those bytes. */
static inline guint64
read_bits (const Op *op, const guint8 *buf, guint64 buf_bits, guint64 p)
{
  guint shift = (guint) (p & 7);
  if (op->order == TTV_BYTE_ORDER_LITTLE && shift + op->size <= 64 && (p >> 3) + 8 <= (buf_bits >> 3))
    {
      guint64 w;
      memcpy (&w, buf + (p >> 3), 8);
      w = GUINT64_FROM_LE (w) >> shift;
      return op->size < 64 ? w & ((G_GUINT64_CONSTANT (1) << op->size) - 1) : w;
    }
  return ttv_read_bits (buf, p, op->size, op->order);
}

/* Reads the scalar at bit @p (bounds checked by the caller). */
static inline guint64
read_scalar_at (const Op *op, const guint8 *buf, guint64 buf_bits, guint64 p)
{
  guint64 raw = op->kind == OP_BITS || op->kind == OP_FBITS
                ? read_bits (op, buf, buf_bits, p)
                : load (op, buf + (p >> 3));
  if (op->sign && (raw >> (op->size - 1)) & 1)
    raw |= ~(guint64) 0 << op->size;
  return raw;
}

/* Stores a scalar's raw value in its node (and slot). */
static inline void
store_scalar (Run *r, const Op *op, guint32 node, guint64 raw)
{
  if (op->slot != NO_SLOT)
    r->slots[op->slot] = raw;
  if (r->d == NULL)
    return;
  TtvValue *v = &r->d->nodes[node];
  if (op->kind == OP_F32 || (op->kind == OP_FBITS && op->size == 32))
    {
      guint32 r32 = (guint32) raw;
      float f;
      memcpy (&f, &r32, 4);
      v->v.f = f;
    }
  else if (op->kind >= OP_F32)
    memcpy (&v->v.f, &raw, 8);
  else
    v->v.u = raw;
}

static inline gboolean
read_scalar (Run *r, const Op *op, guint64 *pos, guint64 *raw)
{
  guint64 p = align_up (*pos, op->align_mask);
  if (G_UNLIKELY (p > r->bits || r->bits - p < op->size))
    return FALSE;
  *raw = read_scalar_at (op, r->buf, r->bits, p);
  *pos = p + op->size;
  return TRUE;
}

static gboolean run_op (Run *r, const Op *op, guint32 node, guint64 *pos);

/* The members of a flat struct whose bytes start at @b, into @v. */
static void
run_loads (const FlatLoad *loads, guint32 n, const guint8 *b, TtvValue *v)
{
  for (guint32 i = 0; i < n; i++)
    ttv_flat_member_load (&loads[i], b, &v[i]);
}

const TtvFlatLayout *
ttv_type_get_flat_layout (const TtvType *type)
{
  const TtvDecodePlan *plan = ttv_decode_plan_get (type);
  return plan && plan->root.kind == OP_STRUCT ? plan->root.layout : NULL;
}

const TtvSeqLayout *
ttv_type_get_seq_layout (const TtvType *type)
{
  const TtvDecodePlan *plan = ttv_decode_plan_get (type);
  return plan && plan->root.kind == OP_STRUCT ? plan->root.seq : NULL;
}

static gboolean
get_count (Run *r, const Op *op, guint64 *pos, guint64 *count)
{
  switch (op->count_kind)
    {
    case COUNT_FIXED:
      *count = op->length;
      return TRUE;
    case COUNT_SLOT:
      *count = r->slots[op->count_slot];
      return TRUE;
    default:
      return read_scalar (r, op->count_op, pos, count);
    }
}

static gboolean
run_array (Run *r, const Op *op, guint32 node, guint64 *pos)
{
  guint64 n;
  if (!get_count (r, op, pos, &n))
    return FALSE;
  guint64 left = r->bits > *pos ? r->bits - *pos : 0;
  if (n > left / op->elem_min_bits && n > 0)
    return FALSE;
  guint64 p = ttv_align_up (*pos, op->elem_align);
  if (op->kind == OP_TEXT)
    {
      /* Bytes: one view. */
      if (p > r->bits || (r->bits - p) / 8 < n)
        return FALSE;
      if (r->d)
        {
          TtvValue *v = &r->d->nodes[node];
          v->v.string.str = (const char *) r->buf + p / 8;
          v->v.string.len = (guint32) n;
        }
      *pos = p + n * 8;
      return TRUE;
    }
  const Op *e = &op->children[0];
  guint32 first = 0;
  if (r->d)
    {
      if (n > TTV_DECODER_MAX_NODES - r->d->n_nodes)
        return FALSE;
      TtvValue elem = { .type = e->type };
      ttv_decoder_reserve (r->d, (guint32) n);
      first = r->d->n_nodes;
      for (guint32 i = 0; i < n; i++)
        r->d->nodes[first + i] = elem;
      r->d->n_nodes += (guint32) n;
      r->d->nodes[node].first_child = first;
      r->d->nodes[node].n_children = (guint32) n;
    }
  *pos = p;
  if (e->kind <= OP_FBITS && r->d == NULL && e->size % e->align == 0)
    {
      /* Skipping scalars without padding between them. */
      if (p > r->bits || (r->bits - p) / e->size < n)
        return FALSE;
      *pos = p + n * e->size;
      return TRUE;
    }
  if (e->kind <= OP_FBITS)
    {
      for (guint32 i = 0; i < n; i++)
        {
          guint64 raw;
          if (!read_scalar (r, e, pos, &raw))
            return FALSE;
          store_scalar (r, e, first + i, raw);
        }
      return TRUE;
    }
  for (guint32 i = 0; i < n; i++)
    if (!run_op (r, e, first + i, pos))
      return FALSE;
  return TRUE;
}

static inline gboolean
run_string (Run *r, guint32 node, guint64 *pos)
{
  guint64 p = ttv_align_up (*pos, 8);
  if (p > r->bits)
    return FALSE;
  const char *s = (const char *) r->buf + p / 8;
  const char *nul = memchr (s, '\0', (r->bits - p) / 8);
  if (nul == NULL)
    return FALSE;
  if (r->d)
    {
      TtvValue *v = &r->d->nodes[node];
      v->v.string.str = s;
      v->v.string.len = (guint32) (nul - s);
    }
  *pos = p + ((guint64) (nul - s) + 1) * 8;
  return TRUE;
}

static gboolean
run_struct (Run *r, const Op *op, guint32 node, guint64 *pos)
{
  guint64 p = align_up (*pos, op->align_mask);
  guint32 n = op->n_children, first = 0;
  if (r->d)
    {
      if (n > TTV_DECODER_MAX_NODES - r->d->n_nodes)
        return FALSE;
      first = ttv_decoder_alloc (r->d, n, op->tmpl);
      r->d->nodes[node].first_child = first;
      r->d->nodes[node].n_children = n;
    }
  if (op->offsets)
    {
      /* One bounds check, then loads at constant offsets. */
      if (G_UNLIKELY (p > r->bits || r->bits - p < op->fixed_bits))
        return FALSE;
      *pos = p + op->fixed_bits;
      if (op->loads && r->d)
        {
          run_loads (op->loads, n, r->buf + p / 8, &r->d->nodes[first]);
          return TRUE;
        }
      for (guint32 i = 0; i < n && (r->d || op->has_slots); i++)
        {
          const Op *m = &op->children[i];
          if (m->kind == OP_TEXT)
            {
              if (r->d)
                {
                  TtvValue *v = &r->d->nodes[first + i];
                  v->v.string.str = (const char *) r->buf + (p + op->offsets[i]) / 8;
                  v->v.string.len = (guint32) m->length;
                }
              continue;
            }
          store_scalar (r, m, first + i, read_scalar_at (m, r->buf, r->bits, p + op->offsets[i]));
        }
      return TRUE;
    }
  /* The position in a local whose address never escapes (run_op gets a
   * copy): the stores into nodes would make the compiler reload it. */
  guint64 at = p;
  for (guint32 i = 0; i < n; i++)
    {
      const Op *m = &op->children[i];
      /* Scalars and strings here, the rest through run_op. */
      if (m->loadable)
        {
          guint64 q = align_up (at, m->align_mask);
          if (G_UNLIKELY (q > r->bits || r->bits - q < m->size))
            return FALSE;
          if (r->d)
            ttv_flat_member_load (&m->load, r->buf + q / 8, &r->d->nodes[first + i]);
          at = q + m->size;
        }
      else if (m->kind == OP_STRING)
        {
          if (!run_string (r, first + i, &at))
            return FALSE;
        }
      else if (m->kind <= OP_FBITS)
        {
          guint64 raw;
          if (!read_scalar (r, m, &at, &raw))
            return FALSE;
          store_scalar (r, m, first + i, raw);
        }
      else
        {
          guint64 sub = at;
          if (!run_op (r, m, first + i, &sub))
            return FALSE;
          at = sub;
        }
    }
  *pos = at;
  return TRUE;
}

static gboolean
run_variant (Run *r, const Op *op, guint32 node, guint64 *pos)
{
  guint64 tag;
  if (!get_count (r, op, pos, &tag))
    return FALSE;
  gint opt;
  if (op->tag_type == NULL)
    opt = tag < op->n_children ? (gint) tag : -1;
  else if (tag < TAG_TABLE)
    opt = op->tag_table[tag];
  else
    opt = ttv_decoder_variant_option (op->type, op->tag_type, tag);
  if (opt < 0)
    return FALSE;
  guint32 child = 0;
  if (r->d)
    {
      if (1 > TTV_DECODER_MAX_NODES - r->d->n_nodes)
        return FALSE;
      r->d->nodes[node].v.u = tag;
      child = ttv_decoder_alloc (r->d, 1, &op->tmpl[opt]);
      r->d->nodes[node].first_child = child;
      r->d->nodes[node].n_children = 1;
    }
  return run_op (r, &op->children[opt], child, pos);
}

static gboolean
run_op (Run *r, const Op *op, guint32 node, guint64 *pos)
{
  switch (op->kind)
    {
    case OP_STRING:
      return run_string (r, node, pos);
    case OP_TEXT:
    case OP_ARRAY:
      return run_array (r, op, node, pos);
    case OP_STRUCT:
      return run_struct (r, op, node, pos);
    case OP_VARIANT:
      return run_variant (r, op, node, pos);
    default:
      {
        guint64 raw;
        if (!read_scalar (r, op, pos, &raw))
          return FALSE;
        store_scalar (r, op, node, raw);
        return TRUE;
      }
    }
}

/* The node of struct @op at @root (room made for it and its @n
 * members), its members' to follow; returns it. */
static inline TtvValue *
put_struct_node (const Op *op, TtvDecoder *d, guint32 root, guint32 n)
{
  ttv_decoder_reserve (d, n + 1);
  TtvValue *v = &d->nodes[root];
  v->type = op->type;
  v->name = NULL;
  v->first_child = root + 1;
  v->n_children = n;
  memset (&v->v, 0, sizeof v->v);
  return v;
}

/* decode_flat when it cannot go on: the walk when the bytes are too few
 * or the nodes too many, else the node or scope array grown first (cold:
 * they reach their size within the first events), then the decode. */
static G_NO_INLINE gint32
decode_flat_slow (const TtvDecodePlan *plan, TtvDecoder *d, const char *scope_name, const guint8 *buf,
                  guint64 buf_bits, guint64 *bit_pos, GError **error)
{
  const Op *op = &plan->root;
  guint32 root = d->n_nodes;
  guint64 p = align_up (*bit_pos, op->align_mask);
  guint32 n = op->n_children;
  if (p > buf_bits || buf_bits - p < op->fixed_bits || n + 1 > TTV_DECODER_MAX_NODES - root)
    return ttv_decoder_decode_walk (d, op->type, scope_name, buf, buf_bits, bit_pos, error);
  /* decode_flat's room: then root + n + 2 <= cap <= TTV_DECODER_MAX_NODES
   * + 1 (ttv_decoder_grow), which it takes for the limit. */
  ttv_decoder_reserve (d, n + 2);
  if (d->n_scopes == d->scopes_cap)
    ttv_decoder_grow_scopes (d);
  return ttv_decode_plan_decode (plan, d, scope_name, buf, buf_bits, bit_pos, error);
}

/* The same without an error: six arguments, so that
 * ttv_decode_plan_decode_quiet calls it in tail position. */
static G_NO_INLINE gint32
decode_flat_slow_quiet (const TtvDecodePlan *plan, TtvDecoder *d, const char *scope_name, const guint8 *buf,
                        guint64 buf_bits, guint64 *bit_pos)
{
  return decode_flat_slow (plan, d, scope_name, buf, buf_bits, bit_pos, NULL);
}

/* A flat struct (most payloads), as ttv_decode_plan_decode's result:
 * its node, registered as @scope_name when set, then its members by
 * loads; the walk when the bytes are too few or the nodes too many.
 * Everything but the values is written before the loop, so that little
 * stays live across it: the loop is the function's last work. */
static G_ALWAYS_INLINE inline gint32
decode_flat (const TtvDecodePlan *plan, TtvDecoder *d, const char *scope_name, const guint8 *buf,
             guint64 buf_bits, guint64 *bit_pos, GError **error, gboolean quiet)
{
  const Op *op = &plan->root;
  guint32 root = d->n_nodes;
  guint64 p = align_up (*bit_pos, op->align_mask);
  guint32 n = op->n_children;
  /* No call but in tail position (the rest is decode_flat_slow's): the
   * function then keeps no registers of its caller's.  The room for one
   * node more than the struct's, as the array never outgrows
   * TTV_DECODER_MAX_NODES + 1, says it stays within the limit too. */
  G_STATIC_ASSERT (TTV_DECODER_MAX_NODES < G_MAXUINT32);
  if (G_UNLIKELY (p > buf_bits || buf_bits - p < op->fixed_bits || d->cap - root < n + 2
                  || d->n_scopes == d->scopes_cap))
    return quiet ? decode_flat_slow_quiet (plan, d, scope_name, buf, buf_bits, bit_pos)
                 : decode_flat_slow (plan, d, scope_name, buf, buf_bits, bit_pos, error);
  guint n_scopes = d->n_scopes;
  TtvDecoderScope *scope = &d->scopes[n_scopes];
  TtvValue *v = &d->nodes[root];
  d->n_nodes = root + 1 + n;
  *bit_pos = p + op->fixed_bits;
  if (scope_name)
    {
      /* ttv_decoder_add_scope, the room made above. */
      scope->name = scope_name;
      scope->node = root;
      d->n_scopes = n_scopes + 1;
    }
  v->type = op->type;
  v->name = NULL;
  v->first_child = root + 1;
  v->n_children = n;
  memset (&v->v, 0, sizeof v->v);
  v++;
  /* Each member's node from its template (copied inline: a call to
   * memcpy costs more), then its value, in one pass. */
  const FlatNode *f = op->flat;
  const guint8 *b = buf + p / 8;
  /* buf_bits - p >= op->fixed_bits, tested above. */
  if (op->words && buf_bits - p - op->fixed_bits >= 64)
    {
      /* Every value as one word, by masks: no jump by the member's kind,
       * which the processor mispredicts from event to event of different
       * classes. */
      for (guint32 i = 0; i < n; i++)
        {
          v[i] = f[i].node;
          const guint8 *q = b + f[i].load.byte;
          guint64 w;
          memcpy (&w, q, 8);
          guint64 x = w & f[i].keep;
          v[i].v.u = ((x ^ f[i].sign_bit) - f[i].sign_bit) | ((guint64) (guintptr) q & f[i].text);
        }
      return (gint32) root;
    }
  for (guint32 i = 0; i < n; i++)
    {
      v[i] = f[i].node;
      ttv_flat_member_load (&f[i].load, b, &v[i]);
    }
  return (gint32) root;
}

/* The elements of array member @i of sequential struct @op, whose node
 * @array holds their view (ttv_seq_member_load), as run_array appends
 * them: after the nodes so far, each its element type's node and load;
 * FALSE when the node array would be too long. */
static inline gboolean
decode_seq_elements (const Op *op, guint32 i, TtvDecoder *d, guint32 array)
{
  const TtvSeqMember *sm = &op->seq->members[i];
  guint32 n = d->nodes[array].v.string.len;
  if (n > TTV_DECODER_MAX_NODES - d->n_nodes)
    return FALSE;
  ttv_decoder_reserve (d, n);
  guint32 first = d->n_nodes;
  const TtvValue *view = &d->nodes[array];
  TtvValue *v = &d->nodes[first];
  const TtvType *type = op->children[i].children[0].type;
  for (guint32 j = 0; j < n; j++)
    {
      /* Field by field, not a copy of a template node: GCC kept that on
       * the stack and rewrote its type there on every turn, then read it
       * back 16 bytes wide, a store that cannot forward to the load (a
       * third of decode_seq's samples on UST payloads). */
      v[j].type = type;
      v[j].name = NULL;
      v[j].first_child = 0;
      v[j].n_children = 0;
      memset (&v[j].v, 0, sizeof v[j].v);
      ttv_seq_element_load (sm, view, j, &v[j]);
    }
  d->n_nodes = first + n;
  /* The array's node as run_array leaves it: no value of its own. */
  TtvValue *a = &d->nodes[array];
  memset (&a->v, 0, sizeof a->v);
  a->first_child = first;
  a->n_children = n;
  return TRUE;
}

/* A struct of sequential layout (payloads with a string or a sequence
 * in them): its node and its members' from the templates, each member's
 * value by the layout's load where the one before ends, then the
 * elements of its arrays, in the interpreter's order of nodes; -1 where
 * the layout fails (the interpreter then decides: it takes longer
 * arrays). */
static G_NO_INLINE gint32
decode_seq (const Op *op, TtvDecoder *d, const guint8 *buf, guint64 buf_bits, guint64 *bit_pos)
{
  const TtvSeqMember *members = op->seq->members;
  guint32 root = d->n_nodes;
  guint32 n = op->n_children;
  if (G_UNLIKELY (n + 1 > TTV_DECODER_MAX_NODES - root))
    return -1;
  TtvValue *v = put_struct_node (op, d, root, n);
  const TtvValue *tmpl = op->tmpl;
  guint64 counts[TTV_SEQ_MAX_COUNTS];
  guint64 at = align_up (*bit_pos, op->align_mask);
  gboolean arrays = FALSE;
  for (guint32 i = 0; i < n; i++)
    {
      v[i + 1] = tmpl[i];
      if (G_UNLIKELY (!ttv_seq_member_load (&members[i], buf, buf_bits, &at, counts, &v[i + 1])))
        return -1;
      arrays |= members[i].array;
    }
  d->n_nodes = root + 1 + n;
  for (guint32 i = 0; i < n && arrays; i++)
    if (members[i].array && !decode_seq_elements (op, i, d, root + 1 + i))
      {
        d->n_nodes = root;
        return -1;
      }
  *bit_pos = at;
  return (gint32) root;
}

/* Any other value: the interpreter, from a new root node; -1 on failure
 * (the node array as before). */
static G_NO_INLINE gint32
decode_run (const TtvDecodePlan *plan, TtvDecoder *d, const guint8 *buf, guint64 buf_bits, guint64 *bit_pos)
{
  guint32 root = d->n_nodes;
  ttv_decoder_alloc (d, 1, NULL);
  d->nodes[root].type = plan->root.type;
  guint64 pos = *bit_pos;
  if (!ttv_decode_plan_run (plan, d, root, buf, buf_bits, &pos))
    {
      d->n_nodes = root;
      return -1;
    }
  *bit_pos = pos;
  return (gint32) root;
}

/* ttv_decode_plan_decode of a plan whose root is not a flat struct: the
 * sequential layout, else the interpreter, else the walk. */
static G_NO_INLINE gint32
decode_not_flat (const TtvDecodePlan *plan, TtvDecoder *d, const char *scope_name, const guint8 *buf,
                 guint64 buf_bits, guint64 *bit_pos, GError **error)
{
  const Op *op = &plan->root;
  gint32 root;
  if (op->seq == NULL || (root = decode_seq (op, d, buf, buf_bits, bit_pos)) < 0)
    root = decode_run (plan, d, buf, buf_bits, bit_pos);
  if (G_UNLIKELY (root < 0))
    return ttv_decoder_decode_walk (d, op->type, scope_name, buf, buf_bits, bit_pos, error);
  if (scope_name)
    ttv_decoder_add_scope (d, scope_name, (guint32) root);
  return root;
}

gint32
ttv_decode_plan_decode (const TtvDecodePlan *plan, TtvDecoder *d, const char *scope_name, const guint8 *buf,
                        guint64 buf_bits, guint64 *bit_pos, GError **error)
{
  if (G_LIKELY (plan->root.loads != NULL))
    return decode_flat (plan, d, scope_name, buf, buf_bits, bit_pos, error, FALSE);
  return decode_not_flat (plan, d, scope_name, buf, buf_bits, bit_pos, error);
}

/* decode_not_flat without an error, in six arguments (see
 * decode_flat_slow_quiet). */
static G_NO_INLINE gint32
decode_not_flat_quiet (const TtvDecodePlan *plan, TtvDecoder *d, const char *scope_name, const guint8 *buf,
                       guint64 buf_bits, guint64 *bit_pos)
{
  return decode_not_flat (plan, d, scope_name, buf, buf_bits, bit_pos, NULL);
}

gint32
ttv_decode_plan_decode_quiet (const TtvDecodePlan *plan, TtvDecoder *d, const char *scope_name, const guint8 *buf,
                              guint64 buf_bits, guint64 *bit_pos)
{
  if (G_LIKELY (plan->root.loads != NULL))
    return decode_flat (plan, d, scope_name, buf, buf_bits, bit_pos, NULL, TRUE);
  return decode_not_flat_quiet (plan, d, scope_name, buf, buf_bits, bit_pos);
}

gboolean
ttv_decode_plan_run (const TtvDecodePlan *plan, TtvDecoder *d, guint32 node, const guint8 *buf,
                     guint64 buf_bits, guint64 *bit_pos)
{
  Run r;
  r.d = d;
  r.buf = buf;
  r.bits = buf_bits;
  return run_op (&r, &plan->root, node, bit_pos);
}

gboolean
ttv_decode_plan_skip (const TtvDecodePlan *plan, const guint8 *buf, guint64 buf_bits, guint64 *bit_pos)
{
  Run r;
  r.d = NULL;
  r.buf = buf;
  r.bits = buf_bits;
  return run_op (&r, &plan->root, 0, bit_pos);
}
