/* ttv-type.h: the one field type system of ttv.
 * LTT XML eventdefs, LTTng 0.x marker formats and CTF TSDL all compile to this
 * tree; ttv-decoder.c decodes bytes described by it for every format. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  TTV_TYPE_INTEGER,   /* signed or unsigned, 1..64 bits */
  TTV_TYPE_FLOAT,     /* 32 or 64 bits IEEE 754 */
  TTV_TYPE_STRING,    /* NUL-terminated */
  TTV_TYPE_ENUM,      /* integer container + labelled ranges */
  TTV_TYPE_ARRAY,     /* fixed length */
  TTV_TYPE_SEQUENCE,  /* length prefix (LTT) or length field reference (CTF) */
  TTV_TYPE_STRUCT,
  TTV_TYPE_VARIANT,   /* LTT union (typecode prefix) or CTF variant (tag reference) */
} TtvTypeKind;

typedef enum {
  TTV_BYTE_ORDER_LITTLE,
  TTV_BYTE_ORDER_BIG,
} TtvByteOrder;

#if G_BYTE_ORDER == G_LITTLE_ENDIAN
#define TTV_BYTE_ORDER_NATIVE TTV_BYTE_ORDER_LITTLE
#else
#define TTV_BYTE_ORDER_NATIVE TTV_BYTE_ORDER_BIG
#endif

typedef enum {
  TTV_ENCODING_NONE,
  TTV_ENCODING_UTF8,  /* integers of 8 bits in arrays/sequences print as text */
} TtvEncoding;

/* Integers whose size depends on the traced machine (LTT "short", "medium",
 * "long"; LTTng 0.x "%ld", "%p").  Writers and readers resolve them for an
 * architecture with ttv_type_resolve_native(); NONE means size_bits is exact. */
typedef enum {
  TTV_NATIVE_NONE,
  TTV_NATIVE_SHORT,
  TTV_NATIVE_INT,      /* LTT "medium" */
  TTV_NATIVE_LONG,
  TTV_NATIVE_POINTER,
} TtvNativeSize;

typedef struct _TtvType TtvType;

typedef struct {
  char *name;           /* owned */
  TtvType *type;        /* owned reference */
  char *description;    /* owned, may be NULL */
} TtvField;

typedef struct {
  char *label;          /* owned */
  /* Inclusive range; for signed containers read the bits as gint64. */
  guint64 start;
  guint64 end;
} TtvEnumMapping;

struct _TtvType {
  TtvTypeKind kind;
  gint ref_count;

  guint align_bits;      /* alignment of the first bit (8 = byte aligned; 1 = bit-packed) */
  char *description;     /* owned, may be NULL: shown to users */
  char *format;          /* owned, may be NULL: printf-like display hint */
  char *name;            /* owned, may be NULL: named type (typedef, <type name=>) */

  /* INTEGER, FLOAT, and the container of ENUM */
  guint size_bits;
  gboolean is_signed;
  TtvByteOrder byte_order;
  guint base;            /* display base: 10, 16, 8 or 2 */
  TtvNativeSize native_size; /* INTEGER/ENUM: size set by the architecture */
  TtvEncoding encoding;
  char *clock_name;      /* owned, may be NULL: integer maps to this clock (CTF) */
  guint mant_dig, exp_dig; /* FLOAT */

  /* ENUM: the integer container and the labels */
  TtvType *container;    /* owned reference */
  GArray *mappings;      /* of TtvEnumMapping, owned */

  /* ARRAY and SEQUENCE */
  TtvType *element;      /* owned reference */
  guint64 length;        /* ARRAY */

  /* SEQUENCE length / VARIANT tag: exactly one of the two is set.
   * prefix: an unsigned integer read right before the data (LTT style);
   * ref:    the name of an already decoded field (CTF style): a plain name is
   *         looked up in the enclosing structures, innermost first; a dotted
   *         path is looked up from a scope root such as "event.fields" or
   *         "stream.event.context" (see TtvDecoder). */
  TtvType *prefix;       /* owned reference */
  char *ref;             /* owned */

  /* STRUCT and VARIANT */
  GPtrArray *fields;     /* of TtvField *, owned */

  /* Filled by ttv_type_finish(): size of the type in bits when it never
   * varies (no string, sequence or variant inside), else -1; fixed-size
   * structs can then be skipped without decoding. */
  gint64 fixed_size_bits;

  /* The decoder's plan for values of this type (ttv-decode-plan.c),
   * compiled on first use once the type is finished; owned. */
  gpointer plan;
};

TtvType *ttv_type_new_integer (guint size_bits, gboolean is_signed, TtvByteOrder order, guint align_bits);
TtvType *ttv_type_new_float   (guint size_bits, TtvByteOrder order, guint align_bits);
TtvType *ttv_type_new_string  (void);
TtvType *ttv_type_new_enum    (TtvType *container /* transfer full */);
TtvType *ttv_type_new_array   (TtvType *element /* transfer full */, guint64 length);
TtvType *ttv_type_new_sequence_prefixed (TtvType *element, TtvType *length_prefix);
TtvType *ttv_type_new_sequence_ref      (TtvType *element, const char *length_ref);
TtvType *ttv_type_new_struct  (void);
TtvType *ttv_type_new_variant_prefixed (TtvType *tag_prefix);
TtvType *ttv_type_new_variant_ref      (const char *tag_ref);

TtvType *ttv_type_ref   (TtvType *type);
void     ttv_type_unref (TtvType *type);
/* Deep copy, for CTF typedefs that are then modified (e.g. align). */
TtvType *ttv_type_copy  (const TtvType *type);

void     ttv_type_add_field (TtvType *compound, const char *name, TtvType *type /* transfer full */,
                             const char *description);
void     ttv_type_add_mapping (TtvType *enum_type, const char *label, guint64 start, guint64 end);
/* Index of the field named @name, or -1. */
gint     ttv_type_find_field (const TtvType *compound, const char *name);
const char *ttv_type_enum_label (const TtvType *enum_type, guint64 raw_value);
/* TRUE when a sequence length or variant tag in the tree names a field
 * through a path starting with @prefix (such as "stream.packet."). */
gboolean ttv_type_refers_to (const TtvType *type, const char *prefix);
/* Sets the size (and natural alignment) of every native-size integer in the
 * tree for an architecture; size arguments in bits. */
void     ttv_type_resolve_native (TtvType *type, guint short_bits, guint int_bits,
                                  guint long_bits, guint pointer_bits);
/* Computes fixed_size_bits recursively; call once the tree is complete. */
void     ttv_type_finish (TtvType *type);
/* Arrays and sequences of text: 8-bit, byte-aligned, UTF-8 integers (CTF
 * "char comm[16]", LTTng's procname).  The decoder gives them one node
 * holding a view of their bytes (see TtvValue) rather than one per byte. */
gboolean ttv_type_is_text_array (const TtvType *type);
/* A one-line description for --list-events and the info dialog, such as
 * "struct { uint32 pid; string name; }". */
char    *ttv_type_dup_signature (const TtvType *type);
const char *ttv_type_kind_name (TtvTypeKind kind);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvType, ttv_type_unref)

G_END_DECLS
