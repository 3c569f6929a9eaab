/* ttv-damage-gen.h: the damaged-trace generator: from one good trace (LTT,
 * LTTng 0.x or CTF), the list of its damaged variants (truncations, bit
 * flips, sizes of zero, files that are not files) and the copies that show
 * them.  Used by test-damage-promise and by the ttv-damage-gen program. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  TTV_DAMAGE_TRUNCATE,          /* the file cut at @offset (never at a block boundary) */
  TTV_DAMAGE_FLIP,              /* bit @bit of the byte at @offset flipped */
  TTV_DAMAGE_ZERO,              /* @width bytes at @offset (a size field) set to 0 */
  TTV_DAMAGE_FOLDER,            /* the file replaced by: an empty folder, */
  TTV_DAMAGE_FIFO,              /* a FIFO, */
  TTV_DAMAGE_LINK_LOOP,         /* a symbolic link to itself, */
  TTV_DAMAGE_LINK_DEVICE,       /* a symbolic link to /dev/zero, */
  TTV_DAMAGE_EMPTY,             /* an empty file, */
  TTV_DAMAGE_COPY,              /* a copy of the file @source (a control file over a CPU's) */
  TTV_DAMAGE_EQUAL_TIMES,       /* CTF metadata: the clock at 1 Hz, so that every time is past the
                                 * range and all are the same, the last one, and an event class
                                 * (@source, else the second declared) made to run past its packet,
                                 * so that reading fails after other events of the packet */
  TTV_DAMAGE_MISSING,           /* the file removed (where the trace says it should be there) */
  TTV_DAMAGE_EMPTIED,           /* every file of the folder @file removed (LTT cpu/) */
  TTV_DAMAGE_N_KINDS
} TtvDamageKind;

typedef struct {
  char *name;                   /* owned: what is done, for messages: "cpu/1: truncated at 1543" */
  TtvDamageKind kind;
  char *file;                   /* owned: the damaged file, relative to the trace */
  char *source;                 /* owned: COPY: the file copied over @file, relative to the trace;
                                 * EQUAL_TIMES: the event class to damage */
  guint64 offset, offset2;
  guint bit;                    /* FLIP */
  guint width;                  /* ZERO */
  /* The damage certainly loses events (or adds some): the trace's reading
   * must fail or call it damaged.  Otherwise (a flipped bit that may land
   * in a value) a reading that succeeds must deliver as many events as the
   * intact trace. */
  gboolean loses_events;
  /* Loses events that the format cannot tell from none (an empty CTF
   * stream file, which LTTng leaves for a stream that recorded nothing):
   * the trace's warnings must name @file. */
  gboolean only_warned;
} TtvDamageVariant;

void ttv_damage_variant_free (TtvDamageVariant *v);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvDamageVariant, ttv_damage_variant_free)

/* The damaged variants of the good trace @trace_dir of format @format
 * ("ltt", "lttng", "ctf": CTF 1.8 or 2, metadata plain or in packets),
 * @n_flips bit flips per tracefile chosen from @seed: for the first and the
 * last tracefile, three cuts, the flips, the format's sizes set to 0 (CTF
 * packet_size and content_size; LTT the last-event offset; LTTng 0.x
 * buf_size and lost_size), and for the last one the five things that are
 * not its file (a folder, a FIFO, two links, an empty file); an LTT control
 * file over a CPU's file; a CTF packet whose events all fall at one time,
 * damaged; a missing tracefile where the trace says it should be there
 * (LTT: a CPU below system.xml's cpu= count, and the cpu/ folder emptied;
 * LTTng 0.x: a cpu_N whose control/facilities_N is there; CTF: a stream
 * whose index/NAME.idx lists packets).  Of TtvDamageVariant *. */
GPtrArray *ttv_damage_list (const char *trace_dir, const char *format, guint32 seed, guint n_flips);

/* Copies @trace_dir to the new folder @out_dir and damages the copy as @v
 * says.  FALSE with @error when something cannot be written. */
gboolean   ttv_damage_write (const char *trace_dir, const TtvDamageVariant *v, const char *out_dir,
                             GError **error);

/* Copies the CTF trace @trace_dir to the new folder @out_dir keeping of
 * each stream at most @max_stream_bytes (whole packets, at least one) and
 * of its LTTng index the entries of those packets: a small good trace cut
 * from a large one.  FALSE with @error when something cannot be written. */
gboolean   ttv_damage_copy_short (const char *trace_dir, const char *out_dir, gsize max_stream_bytes,
                                  GError **error);

G_END_DECLS
