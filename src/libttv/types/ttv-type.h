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
  /* STRING only (CTF 2): the decoder hands out UTF-8 whatever the bytes were. */
  TTV_ENCODING_UTF16BE,
  TTV_ENCODING_UTF16LE,
  TTV_ENCODING_UTF32BE,
  TTV_ENCODING_UTF32LE,
} TtvEncoding;

/* What an INTEGER's bits are (CTF 2 field classes; plain numbers elsewhere). */
typedef enum {
  TTV_INT_NUMBER,
  TTV_INT_BOOLEAN,    /* false when every bit is 0 */
  TTV_INT_BIT_ARRAY,  /* bits without a number's meaning: shown in hexadecimal */
} TtvIntegerKind;

/* What a field means to the reader that decodes it: CTF 2's roles, which
 * the CTF 1.8 reader gives to the members its specification reserves by
 * name (magic, stream_id, timestamp_begin...).  A bit set of these. */
typedef enum {
  TTV_ROLE_PACKET_MAGIC = 1 << 0,
  TTV_ROLE_METADATA_UUID = 1 << 1,
  TTV_ROLE_STREAM_CLASS_ID = 1 << 2,
  TTV_ROLE_STREAM_ID = 1 << 3,
  TTV_ROLE_PACKET_TOTAL_BITS = 1 << 4,
  TTV_ROLE_PACKET_CONTENT_BITS = 1 << 5,
  TTV_ROLE_CLOCK_TIMESTAMP = 1 << 6,        /* default clock at packet begin / event */
  TTV_ROLE_PACKET_END_TIMESTAMP = 1 << 7,
  TTV_ROLE_DISCARDED_EVENTS = 1 << 8,       /* discarded event counter snapshot */
  TTV_ROLE_PACKET_SEQ_NUM = 1 << 9,
  TTV_ROLE_EVENT_CLASS_ID = 1 << 10,
} TtvFieldRole;

/* A range of selector values that chooses option @option of a VARIANT
 * (CTF 2), or enables an optional; bounds inclusive, compared as signed
 * numbers when the selector field is signed. */
typedef struct {
  guint option;
  guint64 start;
  guint64 end;
} TtvOptionRange;

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
  guint32 roles;         /* TtvFieldRole bits (CTF), 0 for a plain field */

  /* INTEGER (CTF 2): variable-length LEB128 (size_bits is then 64, the
   * bytes vary), bits in the order opposite to the byte order's, and what
   * the bits are. */
  gboolean leb128;
  gboolean reverse_bits;
  TtvIntegerKind int_kind;

  /* ENUM: the integer container and the labels */
  TtvType *container;    /* owned reference */
  GArray *mappings;      /* of TtvEnumMapping, owned */
  gboolean bit_flags;    /* ENUM (CTF 2 bit map): mappings are ranges of bit
                          * indexes, a label applies when one of its bits is set */
  gboolean mappings_ascending; /* ENUM: each mapping starts after the end of the one
                          * before (kept by ttv_type_add_mapping): a value is in at
                          * most one, found by bisection */

  /* ARRAY and SEQUENCE */
  TtvType *element;      /* owned reference */
  guint64 length;        /* ARRAY; STRING of static length: bytes */
  char *media_type;      /* owned, may be NULL: ARRAY/SEQUENCE of bytes that is a
                          * CTF 2 BLOB of this IANA media type */

  /* STRING: NUL-terminated unless static_length (length bytes, padding
   * after a NUL) or ref is set (the bytes are the value of that field);
   * encoding is UTF8 or one of the UTF-16/32 ones. */
  gboolean static_length;

  /* SEQUENCE length / VARIANT tag (and STRING length): exactly one of the
   * two is set.
   * prefix: an unsigned integer read right before the data (LTT style);
   * ref:    the name of an already decoded field (CTF style): a plain name is
   *         looked up in the enclosing structures, innermost first; a dotted
   *         path is looked up from a scope root such as "event.fields" or
   *         "stream.event.context" (see TtvDecoder); a path after N '^'
   *         (a CTF 2 field location that climbs N structures) is looked up
   *         in the Nth structure enclosing the innermost one only. */
  TtvType *prefix;       /* owned reference */
  char *ref;             /* owned */

  /* STRUCT and VARIANT */
  GPtrArray *fields;     /* of TtvField *, owned */

  /* VARIANT selected by ranges of an integer (CTF 2) rather than by the
   * label of an enum tag (CTF 1.8) or a prefix (LTT): of TtvOptionRange,
   * owned.  An optional is a VARIANT of one field (optional TRUE) that is
   * present when its selector, a boolean, is true or, an integer, falls in
   * option_ranges; absent, its value has no child. */
  GArray *option_ranges;
  gboolean optional;

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
/* CTF 2: a variant whose options are chosen by ranges of @selector_ref
 * (ttv_type_add_option_range), and an optional of @type. */
TtvType *ttv_type_new_variant_ranges   (const char *selector_ref);
TtvType *ttv_type_new_optional         (TtvType *type /* transfer full */, const char *selector_ref);
void     ttv_type_add_option_range     (TtvType *variant, guint option, guint64 start, guint64 end);
/* Index of the option @selector (a signed number when @selector_signed)
 * selects, -1 when none (optionals: 0 or -1). */
gint     ttv_type_select_option        (const TtvType *variant, guint64 selector, gboolean selector_signed);

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
/* The index of the one mapping of @enum_type that applies to @raw_value,
 * -1 for none, when its mappings are ascending and not bit flags; -2 when
 * they are not (the caller then tests each mapping). */
gint     ttv_type_enum_find_ascending (const TtvType *enum_type, guint64 raw_value);
/* Whether mapping @m of @enum_type applies to @raw_value (bit maps: one of
 * its bits is set). */
gboolean ttv_type_mapping_matches (const TtvType *enum_type, const TtvEnumMapping *m, guint64 raw_value);
/* The roles of @compound's members (and below) ORed together. */
guint32  ttv_type_collect_roles (const TtvType *type);
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
