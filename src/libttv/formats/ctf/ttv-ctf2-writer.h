/* ttv-ctf2-writer.h: the CTF 2 metadata of the CTF writer (ttv-ctf-writer.c),
 * shaped as lttng-modules' CTF 2 serializer (LTTng 2.15) writes it. */
#pragma once

#include "ttv-ctf-writer.h"

G_BEGIN_DECLS

/* What the metadata describes; strings and types are borrowed. */
typedef struct {
  TtvByteOrder byte_order;
  TtvCtfHeaderKind header;
  guint long_bits;                /* 32 or 64: events_discarded */
  const guint8 *uuid;             /* 16 bytes */
  const char *clock_name;
  TtvTime clock_offset;           /* ns since the epoch of the clock's 0 */
  const char *hostname, *domain, *tracer_name, *sysname, *kernel_release, *kernel_version;
  guint n_events;
  const char *const *event_names; /* n_events, ids in order */
  TtvType *const *event_fields;   /* n_events structs */
} TtvCtf2MetadataInfo;

/* The metadata file: metadata packets of 4096 bytes (CTF 2 packetized
 * metadata, major 2) holding the JSON text sequence. */
GByteArray *ttv_ctf2_writer_metadata (const TtvCtf2MetadataInfo *info);

G_END_DECLS
