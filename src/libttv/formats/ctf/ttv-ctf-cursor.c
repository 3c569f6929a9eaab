/* ttv-ctf-cursor.c: reading the events of one CTF stream file in time order.
 * Packets that overlap in time are merged (one lane per open packet). */
#include "ttv-ctf-private.h"
#include "ttv-ctf.h"
#include "ttv-error.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

/* Packets open at once; only traces whose packets overlap use more than one. */
#define MAX_LANES 16
/* Windows of the file: one per lane, and one for seek_position's own lane, and
 * one more so that the window of a packet read through stays held until
 * the call after the one that returned its last event. */
#define MAX_WINDOWS (MAX_LANES + 2)

typedef struct {
  guint64 packet;
  const guint8 *pdata;    /* weak: packet start in its window */
  guint64 pbits;          /* content size */
  guint64 bit;            /* head event's header position */
  guint64 index;          /* head event's index in the packet */
  guint64 clock;          /* clock value after the head event's header */
  guint64 clock_before;   /* clock value before it (to re-read it) */
  guint64 next_bit;       /* where the event after the head starts */
  guint64 end_clock;      /* the packet's end time (clock value), G_MAXUINT64 when it has none */
  /* The direct read's limit (lane_fits_fast): pbits, or less while the
   * cursor notes this packet's fine index, where it notes the next event.
   * Beside end_clock, which the same test reads.  Placed after pbits
   * (which moved next_bit past the lane's first 64 bytes), it made the
   * babeltrace text of a recorded UST trace 3-4 % slower for the same
   * instructions. */
  guint64 fast_bits;
  gboolean has_head;
  gboolean cut;           /* a truncated packet (CtfPacket.truncated) */
  guint window;           /* index in the cursor's windows */
  /* Only the first part of the packet's events from l->bit on is read
   * (a seek into a large packet: see lane_open_at); pbits and fast_bits
   * end where those bytes do.  Read through lane_read_partial. */
  gboolean partial;
  TtvEvent head;
} Lane;

typedef struct {
  TtvFileWindow w;
  guint users;            /* lanes reading through it; an unused window keeps its bytes */
} CursorWindow;

/* The LTTng event header of the stream class, for the fast path: little
 * endian, byte-aligned id, masks of alignments (alignment - 1). */
typedef struct {
  gboolean fast;
  guint64 align_mask, id_mask;
  guint id_bits;
  guint64 ext;
  /* The ids of the compact headers read at constant places: those whose
   * id - c_first <= c_span (unsigned, one comparison); none when
   * !compact_fixed (see compact_ids_set). */
  guint64 c_first, c_span;
  guint c_ts_bits;
  guint64 c_ts_value_mask;
  gboolean e_fast;                 /* extended headers of a 32-bit id, 64-bit timestamp */
  /* Compact headers whose id and timestamp are in their first 64 bits,
   * the timestamp at c_ts_at; extended headers whose id is at e_id_at,
   * timestamp at e_ts_at: each for a header starting at each byte of a
   * 64-bit word.  The one description of where a header's parts are, for
   * lane_read_constant and read_lttng_header alike. */
  gboolean compact_fixed, extended_fixed;
  guint8 c_ts_at[CTF_OFFSET_PLACES];
  guint16 e_id_at[CTF_OFFSET_PLACES], e_ts_at[CTF_OFFSET_PLACES], e_end[CTF_OFFSET_PLACES];
} HeaderFast;

/* An event ttv_ctf_cursor_next's frameless turn read up to its fields,
 * whose size varies: what cursor_next_varying needs to finish it. */
typedef struct {
  const CtfEventClass *ec;
  const CtfEventOffsets *o;
  guint64 p;              /* the header's aligned start */
  guint64 hdr_end;
  guint64 clock;          /* the clock after the header */
} VaryingEvent;

/* A fine index being noted (ttv-ctf-fine-index.c): packet @packet is read
 * from its first event by a lane, which notes @entries (CtfFineEntry)
 * while @live.  Published when the lane has read it through (fine_finish);
 * a seek stops every one (lanes_reset). */
typedef struct {
  guint64 packet;
  GArray *entries;        /* owned, reused */
  gboolean live;
} FineNotes;

typedef struct {
  TtvCursor parent;
  CtfStreamFile *sf;      /* weak */
  HeaderFast hf;
  const CtfClock *clock;  /* weak */
  gboolean ns_clock;      /* 1 GHz clock whose offset fits: time = base + value */
  gint64 ns_base;
  guint64 ns_count;       /* values below it convert so without overflow (0 for other clocks) */
  TtvDecoder *decoder;    /* owned */
  Lane lanes[MAX_LANES];  /* ordered by packet */
  guint n_lanes;
  guint64 next_packet;    /* first packet not opened yet */
  GError *error;          /* sticky: set once reading failed */
  CursorWindow windows[MAX_WINDOWS];
  guint64 failed_packet;  /* the packet @error is about (NO_PACKET: none) */
  VaryingEvent varying;   /* scratch, from lane_read_fixed to cursor_next_varying */
  /* sf->index_generation when the usual turn may read directly (no error,
   * one lane, packets that do not overlap), else DIRECT_NEVER: one test
   * a turn instead of three, decided again by direct_turn_decide after
   * everything that changes them but a re-index, which bumps the
   * stream file's count. */
  guint64 direct_generation;
  /* The classes by id whose events this cursor has read (their refs
   * worked out), NULL for the others: the usual turn's lookup, with no
   * walk through sf->sc and no test of the refs.  Weak pointers: a
   * stream class keeps its event classes as long as the trace, and a
   * followed trace's grown metadata adds classes but never gives an id
   * another one (ttv_ctf_stream_index_events keeps the first), so no
   * re-index of by_id makes an entry stale. */
  CtfEventClass **known;
  guint64 n_known;
  /* The fine indexes being noted, one per lane reading a packet that has
   * none yet from its first event (see fine_start). */
  FineNotes notes[MAX_LANES];
  /* A cursor for few events (ttv_ctf_cursor_new_few): every packet is
   * read in part from its first event on, as a seek reads one. */
  gboolean few;
} CtfCursor;

#define NO_PACKET G_MAXUINT64
#define DIRECT_NEVER G_MAXUINT64

/* A window holding @length bytes at @offset for a lane: one that already
 * holds them, else an unused one moved there, which reads the first @head
 * of them and those from @from up to @until (all of them when @from is
 * @offset: see lane_open_at).  The windows nobody uses keep their bytes
 * until needed, so that the event a call returned stays readable until
 * the next call. */
static const guint8 *
window_acquire (CtfCursor *c, guint64 offset, guint64 length, guint64 head, guint64 from, guint64 until,
                guint *index, GError **error)
{
  guint free_one = MAX_WINDOWS;
  for (guint i = 0; i < MAX_WINDOWS; i++)
    {
      CursorWindow *cw = &c->windows[i];
      if (ttv_file_window_get_available (&cw->w, offset) >= length)
        {
          cw->users++;
          *index = i;
          return ttv_file_window_get (&cw->w, offset, length, NULL);
        }
      /* Moving a window that holds bytes rather than filling another keeps one
       * buffer per lane. */
      if (cw->users == 0 && (free_one == MAX_WINDOWS || (c->windows[free_one].w.bytes == NULL && cw->w.bytes)))
        free_one = i;
    }
  g_assert (free_one < MAX_WINDOWS);
  CursorWindow *cw = &c->windows[free_one];
  const guint8 *p = from == offset
                       ? ttv_file_window_read (&cw->w, offset, length, error)
                       : ttv_file_window_read_ends_until (&cw->w, offset, length, head, from, until, error);
  if (p == NULL)
    return NULL;
  cw->users = 1;
  *index = free_one;
  return p;
}

static void
window_release (CtfCursor *c, guint index)
{
  g_assert (c->windows[index].users > 0);
  c->windows[index].users--;
}

/* Closes every lane. */
static void
lanes_reset (CtfCursor *c)
{
  for (guint i = 0; i < c->n_lanes; i++)
    window_release (c, c->lanes[i].window);
  c->n_lanes = 0;
  for (guint i = 0; i < MAX_LANES; i++)
    c->notes[i].live = FALSE;
}

static gboolean
event_error (GError **error, const CtfStreamFile *sf, const Lane *l, guint64 bit, const char *what)
{
  const CtfPacket *pk = &g_array_index (sf->packets, CtfPacket, l->packet);
  g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_CORRUPT,
               _("%s: packet %" PRIu64 ", event at byte offset %" PRIu64 ": %s"),
               sf->path, l->packet, pk->offset + bit / 8, what);
  return FALSE;
}

/* The clock after a timestamp of the bits of @mask (all ones for 64: the
 * wrap adds 0). */
static inline void
update_clock_masked (guint64 *clock, guint64 ts, guint64 mask)
{
  guint64 v = (*clock & ~mask) | ts;
  if (ts < (*clock & mask))
    v += mask + 1;
  *clock = v;
}

static inline void
update_clock (guint64 *clock, guint64 ts, guint bits)
{
  update_clock_masked (clock, ts, bits >= 64 ? G_MAXUINT64 : (G_GUINT64_CONSTANT (1) << bits) - 1);
}

typedef struct {
  gint32 packet_header, packet_ctx, header, stream_ctx, event_ctx, payload;
  guint64 payload_bit;
} Nodes;

static gboolean read_lttng_header_slow (CtfStreamFile *sf, const Lane *l, guint64 *pos, guint64 *id,
                                        guint64 *ts, guint *ts_bits, GError **error);

static guint64
mask_of (guint align)
{
  return align > 1 ? (guint64) align - 1 : 0;
}

static inline guint64
align_mask (guint64 pos, guint64 mask)
{
  return (pos + mask) & ~mask;
}

static gboolean
divides_word (guint align)
{
  return align <= 1 || (align <= 64 && (align & (align - 1)) == 0);
}

/* Whether the places of a @kind LTTng header's parts after its start
 * depend only on where the start is in a 64-bit word. */
static gboolean
header_in_word (const CtfStreamClass *sc, guint kind)
{
  guint64 start = MAX (sc->h_align, sc->h_id_align);
  if (sc->header_kind != CTF_HEADER_LTTNG || start < 8 || !divides_word (start))
    return FALSE;
  return kind == CTF_HEADER_COMPACT ? divides_word (sc->h_c_align) && divides_word (sc->h_c_ts_align)
                                    : divides_word (sc->h_e_align) && divides_word (sc->h_e_id_align)
                                        && divides_word (sc->h_e_ts_align);
}

/* Where the parts of a @kind LTTng header starting at @start are: its
 * class id (the extended one's second), its timestamp and its end. */
static void
header_places (const CtfStreamClass *sc, guint kind, guint64 start, guint64 *id_at, guint64 *ts_at,
               guint64 *end)
{
  guint64 p = start + sc->h_id_bits;
  if (kind == CTF_HEADER_COMPACT)
    {
      *id_at = start;
      *ts_at = ttv_align_up (ttv_align_up (p, sc->h_c_align), sc->h_c_ts_align);
      *end = *ts_at + sc->h_c_ts_bits;
      return;
    }
  *id_at = ttv_align_up (ttv_align_up (p, sc->h_e_align), sc->h_e_id_align);
  *ts_at = ttv_align_up (*id_at + sc->h_e_id_bits, sc->h_e_ts_align);
  *end = *ts_at + sc->h_e_ts_bits;
}

/* HeaderFast's places, for each byte a header may start at in a word. */
static void
header_places_init (HeaderFast *hf, const CtfStreamClass *sc)
{
  hf->compact_fixed = header_in_word (sc, CTF_HEADER_COMPACT);
  hf->extended_fixed = hf->e_fast && header_in_word (sc, CTF_HEADER_EXTENDED);
  for (guint i = 0; i < CTF_OFFSET_PLACES; i++)
    {
      guint64 id_at, ts_at, end;
      header_places (sc, CTF_HEADER_COMPACT, i * 8, &id_at, &ts_at, &end);
      hf->c_ts_at[i] = (guint8) (ts_at - i * 8);
      /* The id and timestamp from one 64-bit load. */
      if (end - i * 8 > 64)
        hf->compact_fixed = FALSE;
      header_places (sc, CTF_HEADER_EXTENDED, i * 8, &id_at, &ts_at, &end);
      hf->e_id_at[i] = (guint16) (id_at - i * 8);
      hf->e_ts_at[i] = (guint16) (ts_at - i * 8);
      hf->e_end[i] = (guint16) (end - i * 8);
    }
}

/* HeaderFast's compact ids, from @first to @last: none unless
 * compact_fixed (then a range above every id of id_mask's bits). */
static void
compact_ids_set (HeaderFast *hf, guint64 first, guint64 last)
{
  gboolean some = hf->compact_fixed && first <= last;
  hf->c_first = some ? first : hf->id_mask + 1;
  hf->c_span = some ? last - first : 0;
}

static void
header_fast_init (HeaderFast *hf, const CtfStreamClass *sc)
{
  memset (hf, 0, sizeof *hf);
  compact_ids_set (hf, 0, 0);
  if (sc == NULL || sc->header_kind != CTF_HEADER_LTTNG || sc->header_order != TTV_BYTE_ORDER_LITTLE
      || sc->h_id_bits >= 64 || sc->h_c_ts_bits >= 64)
    return;
  guint aligns[] = { sc->h_align, sc->h_id_align, sc->h_c_align, sc->h_c_ts_align, sc->h_e_align,
                     sc->h_e_id_align, sc->h_e_ts_align };
  for (guint i = 0; i < G_N_ELEMENTS (aligns); i++)
    if (aligns[i] > 1 && (aligns[i] & (aligns[i] - 1)) != 0)
      return;
  /* The id starts each header on a byte. */
  if (MAX (sc->h_align, sc->h_id_align) < 8)
    return;
  hf->align_mask = mask_of (MAX (sc->h_align, sc->h_id_align));
  hf->id_bits = sc->h_id_bits;
  hf->id_mask = (G_GUINT64_CONSTANT (1) << sc->h_id_bits) - 1;
  hf->ext = sc->h_ext_value;
  hf->c_ts_bits = sc->h_c_ts_bits;
  hf->c_ts_value_mask = (G_GUINT64_CONSTANT (1) << sc->h_c_ts_bits) - 1;
  hf->e_fast = sc->h_e_id_bits == 32 && sc->h_e_ts_bits == 64 && MAX (sc->h_e_align, sc->h_e_id_align) >= 8
               && sc->h_e_ts_align >= 8;
  hf->fast = TRUE;
  header_places_init (hf, sc);
  compact_ids_set (hf, sc->h_compact_start, sc->h_compact_end);
}

static gboolean read_lttng_header_slow (CtfStreamFile *sf, const Lane *l, guint64 *pos, guint64 *id,
                                        guint64 *ts, guint *ts_bits, GError **error);

/* The id, timestamp (with the mask of its bits), kind (CTF_HEADER_COMPACT
 * or _EXTENDED) and end of the LTTng header at @p, read at constant places
 * for its place in a word; FALSE when they are not known to be there. */
static G_ALWAYS_INLINE inline gboolean
header_at_constant_places (const HeaderFast *hf, const Lane *l, guint64 p, guint64 *id, guint64 *ts,
                           guint64 *ts_mask, guint *kind, guint64 *end)
{
  if (p + 64 > l->pbits)
    return FALSE;
  guint place = (guint) (p / 8) % CTF_OFFSET_PLACES;
  guint64 w;
  memcpy (&w, l->pdata + p / 8, 8);
  w = GUINT64_FROM_LE (w);
  guint64 v = w & hf->id_mask;
  if (G_LIKELY (v - hf->c_first <= hf->c_span))
    {
      *id = v;
      *ts_mask = hf->c_ts_value_mask;
      *ts = (w >> hf->c_ts_at[place]) & hf->c_ts_value_mask;
      *kind = CTF_HEADER_COMPACT;
      *end = p + hf->c_ts_at[place] + hf->c_ts_bits;
      return TRUE;
    }
  if (v != hf->ext || !hf->extended_fixed || p + hf->e_end[place] > l->pbits)
    return FALSE;
  guint32 x;
  memcpy (&x, l->pdata + (p + hf->e_id_at[place]) / 8, 4);
  memcpy (&w, l->pdata + (p + hf->e_ts_at[place]) / 8, 8);
  *id = GUINT32_FROM_LE (x);
  *ts = GUINT64_FROM_LE (w);
  *ts_mask = G_MAXUINT64;
  *kind = CTF_HEADER_EXTENDED;
  *end = p + hf->e_end[place];
  return TRUE;
}

/* The LTTng event header of almost every event, little endian, at the
 * places HeaderFast gives for its start's place in a word.  Anything else
 * (near the end of the content, big endian, odd layouts) goes the general
 * way. */
static G_ALWAYS_INLINE inline gboolean
read_lttng_header (CtfCursor *c, const Lane *l, guint64 *pos, guint64 *id, guint64 *ts, guint *ts_bits,
                   GError **error)
{
  const HeaderFast *hf = &c->hf;
  guint64 p = align_mask (*pos, hf->align_mask);
  guint64 ts_mask, end;
  guint kind;
  if (G_LIKELY (hf->fast && header_at_constant_places (hf, l, p, id, ts, &ts_mask, &kind, &end)))
    {
      *ts_bits = kind == CTF_HEADER_COMPACT ? hf->c_ts_bits : 64;
      *pos = end;
      return TRUE;
    }
  return read_lttng_header_slow (c->sf, l, pos, id, ts, ts_bits, error);
}

static gboolean
refers_to (const CtfStreamClass *sc, const CtfEventClass *ec, const char *prefix)
{
  return ttv_type_refers_to (sc->event_header, prefix) || ttv_type_refers_to (sc->event_context, prefix)
         || ttv_type_refers_to (ec->context, prefix) || ttv_type_refers_to (ec->fields, prefix);
}

/* The scopes that decoding @ec's events needs besides its own, and what
 * skipping them takes (worked out once; a race only computes the same
 * values twice; refs is set last). */
static G_NO_INLINE gint class_refs_compute (const CtfStreamFile *sf, CtfEventClass *ec);

static inline gint
class_refs (const CtfStreamFile *sf, CtfEventClass *ec)
{
  gint refs = g_atomic_int_get (&ec->refs);
  return G_LIKELY (refs != 0) ? refs : class_refs_compute (sf, ec);
}

gint
ttv_ctf_event_class_refs (const CtfStreamFile *sf, CtfEventClass *ec)
{
  return class_refs (sf, ec);
}

/* @ec's offsets after a header that starts at byte @place of a 64-bit
 * word and ends @header_end bits after the word's start. */
static CtfEventOffsets
offsets_after (const CtfEventClass *ec, guint place, guint64 header_end)
{
  CtfEventOffsets o = { -1, -1 };
  guint64 pos = header_end;
  for (guint i = 0; i < 3; i++)
    {
      if (ec->skip_bits[i] < 0 || ec->skip_mask[i] >= 64 || pos > G_MAXINT32)
        return o;
      pos = align_mask (pos, ec->skip_mask[i]) + (guint64) ec->skip_bits[i];
      if (i == 1)
        o.payload_bits = (gint32) (pos - place * 8);
    }
  if (pos - place * 8 <= G_MAXINT32)
    o.end_bits = (gint32) (pos - place * 8);
  return o;
}

/* The members of sequential layout @seq after its string @s, into
 * *@align and *@bits (see CtfEventClass.string_tail_bits); FALSE unless
 * each has a constant size (no string, sequence or empty array, whose
 * bytes to check vary) and none is aligned more than the first, so that
 * their places from the first's are constant. */
static gboolean
string_tail_members (const TtvSeqLayout *seq, guint s, guint *align, guint64 *bits)
{
  *align = s + 1 < seq->n_members ? seq->members[s + 1].align_bits : 8;
  *bits = 0;
  for (guint i = s + 1; i < seq->n_members; i++)
    {
      const TtvSeqMember *sm = &seq->members[i];
      if (sm->string || sm->align_bits > *align
          || (sm->array && (sm->count != TTV_SEQ_NO_COUNT || sm->length == 0)))
        return FALSE;
      *bits = ttv_align_up_pow2 (*bits, sm->align_bits) + (sm->array ? sm->length : 1) * sm->size_bits;
    }
  return *align <= 64;
}

/* Where the one string of sequential layout @seq starts, in bits from
 * the header's aligned start, for fields that start @payload_bits after a
 * header at byte @place of a 64-bit word; -1 unless every member before
 * it has a fixed size, those after it constant places
 * (string_tail_members: their alignment and size into *@tail_align and
 * *@tail_bits), and every alignment divides 64 bits (then the string's
 * place is as constant as the fields'). */
static gint32
string_tail_after (const TtvSeqLayout *seq, guint place, gint32 payload_bits, guint *tail_align,
                   guint64 *tail_bits)
{
  if (seq == NULL || payload_bits <= 0 || seq->n_members == 0 || seq->align_bits > 64)
    return -1;
  guint64 at = ttv_align_up_pow2 (place * 8 + (guint64) payload_bits, seq->align_bits);
  for (guint i = 0; i < seq->n_members; i++)
    {
      const TtvSeqMember *sm = &seq->members[i];
      if (sm->array || sm->align_bits > 64)
        return -1;
      at = ttv_align_up_pow2 (at, sm->align_bits);
      if (sm->string)
        {
          if (!string_tail_members (seq, i, tail_align, tail_bits))
            return -1;
          return at - place * 8 <= G_MAXINT32 ? (gint32) (at - place * 8) : -1;
        }
      at += sm->size_bits;
    }
  return -1;
}

/* @ec's offsets after each kind of LTTng header (ec->offsets): the
 * cursor's lane_read_constant then reads an event with no arithmetic on
 * alignments. */
static void
offsets_compute (const CtfStreamClass *sc, CtfEventClass *ec)
{
  for (guint kind = CTF_HEADER_COMPACT; kind <= CTF_HEADER_EXTENDED; kind++)
    for (guint i = 0; i < CTF_OFFSET_PLACES; i++)
      {
        ec->offsets[kind][i] = (CtfEventOffsets) { -1, -1 };
        if (!header_in_word (sc, kind))
          continue;
        guint64 id_at, ts_at, end;
        header_places (sc, kind, i * 8, &id_at, &ts_at, &end);
        CtfEventOffsets *o = &ec->offsets[kind][i];
        *o = offsets_after (ec, i, end);
        guint tail_align;
        guint64 tail_bits;
        gint32 string = o->end_bits < 0 ? string_tail_after (ec->payload_seq, i, o->payload_bits, &tail_align,
                                                             &tail_bits)
                                        : -1;
        if (string > 1)
          {
            /* The same for every place: the layout's. */
            o->end_bits = -string;
            ec->string_tail_align = tail_align;
            ec->string_tail_bits = tail_bits;
          }
      }
}

/* @ec's chain (see CtfEventClass): its packet's context where the
 * packet header ends, then its contexts and fields where its header
 * ends, the nodes' order and scope names of decode_all's. */
static void
chain_compute (const CtfStreamClass *sc, CtfEventClass *ec, gint refs)
{
  ec->chain = (TtvDecoderChain) {
    .memo = sc->packet_context,
    .memo_name = "stream.packet.context",
    .memo_start = (guint64) MAX (ec->packet_context_bit, 0),
    .contexts = { sc->event_context, ec->context },
    .context_names = { "stream.event.context", "event.context" },
    .payload = ec->fields,
    .payload_name = "event.fields",
    .slots = { TTV_EVENT_CONTEXT_PACKET, TTV_EVENT_CONTEXT_STREAM_EVENT, TTV_EVENT_CONTEXT_EVENT },
  };
  ttv_decoder_chain_prepare (&ec->chain);
  /* Set last, as refs: decode_chain reads it before the chain. */
  g_atomic_int_set (&ec->chain_ok, (refs & CTF_REFS_FIELDS_ALONE)
                                   && (sc->packet_context == NULL || ec->packet_context_bit >= 0));
}

static gint
class_refs_compute (const CtfStreamFile *sf, CtfEventClass *ec)
{
  const CtfStreamClass *sc = sf->sc;
  const TtvType *ph = sf->meta->packet_header;
  ec->packet_context_bit = ph == NULL ? 0 : ph->fixed_size_bits >= 0 ? ph->fixed_size_bits : -1;
  gint refs;
  const TtvType *scopes[3] = { sc->event_context, ec->context, ec->fields };
  for (guint i = 0; i < 3; i++)
    {
      const TtvType *t = scopes[i];
      gboolean pow2 = t && t->align_bits > 1 && (t->align_bits & (t->align_bits - 1)) == 0;
      ec->skip_mask[i] = pow2 ? t->align_bits - 1 : 0;
      ec->skip_bits[i] = t == NULL ? 0 : t->align_bits > 1 && !pow2 ? -1 : t->fixed_size_bits;
    }
  refs = CTF_REFS_KNOWN;
  if (refers_to (sc, ec, "trace.packet."))
    refs |= CTF_REFS_TRACE_PACKET | CTF_REFS_STREAM_PACKET;
  if (refers_to (sc, ec, "stream.packet."))
    refs |= CTF_REFS_STREAM_PACKET;
  if (refers_to (sc, ec, "stream.event.header."))
    refs |= CTF_REFS_HEADER;
  if (ttv_type_refers_to (sc->packet_context, "trace.packet."))
    refs |= CTF_REFS_PACKET_CONTEXT_NEEDS_HEADER;
  if ((refs & ~CTF_REFS_PACKET_CONTEXT_NEEDS_HEADER) == CTF_REFS_KNOWN && ec->fields
      && ttv_decoder_has_plan (ec->fields)
      && (!sc->event_context || ttv_decoder_has_plan (sc->event_context))
      && (!ec->context || ttv_decoder_has_plan (ec->context)))
    refs |= CTF_REFS_FIELDS_ALONE;
  ec->payload_seq = ec->fields && ec->skip_bits[2] < 0 ? ttv_type_get_seq_layout (ec->fields) : NULL;
  offsets_compute (sc, ec);
  ec->payload_by_plan = ec->fields && ec->skip_bits[2] < 0 && ec->payload_seq == NULL
                        && ttv_decoder_has_plan (ec->fields);
  chain_compute (sc, ec, refs);
  g_atomic_int_set (&ec->refs, refs);
  return refs;
}

/* Decodes everything an event depends on, with the scopes registered, into
 * @d.  When *ec is NULL the event class comes from the header; when @clock
 * is set it is updated with the header's timestamp.  With @with_packet the
 * packet context is decoded too; the packet header and the event header
 * only when something refers to them (or to find the class). */
static gboolean
decode_all (CtfStreamFile *sf, const Lane *l, guint64 hdr_bit, guint64 hdr_end, TtvDecoder *d,
            CtfEventClass **ec, guint64 *clock, guint64 *end_bit, Nodes *n, gboolean with_packet,
            GError **error)
{
  CtfMeta *m = sf->meta;
  CtfStreamClass *sc = sf->sc;
  g_autoptr (GError) local = NULL;
  guint64 pos = 0;
  Nodes none = { -1, -1, -1, -1, -1, -1, 0 };
  *n = none;
  ttv_decoder_reset (d);
  gint refs = *ec ? class_refs (sf, *ec) & ~CTF_REFS_FIELDS_ALONE
                  : CTF_REFS_TRACE_PACKET | CTF_REFS_STREAM_PACKET | CTF_REFS_HEADER;
  if (with_packet && (refs & CTF_REFS_PACKET_CONTEXT_NEEDS_HEADER))
    refs |= CTF_REFS_TRACE_PACKET;
  if ((refs & CTF_REFS_TRACE_PACKET) && m->packet_header
      && (n->packet_header = ttv_decoder_decode (d, m->packet_header, "trace.packet.header",
                                                 l->pdata, l->pbits, &pos, &local)) < 0)
    return event_error (error, sf, l, 0, local->message);
  if ((with_packet || (refs & CTF_REFS_STREAM_PACKET)) && sc->packet_context)
    {
      if (n->packet_header < 0 && *ec && (*ec)->packet_context_bit >= 0)
        pos = (guint64) (*ec)->packet_context_bit;
      else if (n->packet_header < 0 && m->packet_header
               && !ttv_decoder_skip (d, m->packet_header, l->pdata, l->pbits, &pos, &local))
        return event_error (error, sf, l, 0, local->message);
      n->packet_ctx = ttv_decoder_decode (d, sc->packet_context, "stream.packet.context", l->pdata, l->pbits,
                                          &pos, &local);
      if (n->packet_ctx < 0)
        return event_error (error, sf, l, 0, local->message);
    }
  pos = hdr_bit;
  if (sc->header_kind == CTF_HEADER_LTTNG && !(refs & CTF_REFS_HEADER))
    {
      /* Where the header ends is all that is needed from it. */
      guint64 id, ts;
      guint ts_bits;
      if (hdr_end > hdr_bit)
        pos = hdr_end;
      else if (!read_lttng_header_slow (sf, l, &pos, &id, &ts, &ts_bits, error))
        return FALSE;
    }
  else if (sc->event_header)
    {
      n->header = ttv_decoder_decode (d, sc->event_header, "stream.event.header", l->pdata, l->pbits,
                                      &pos, &local);
      if (n->header < 0)
        return event_error (error, sf, l, hdr_bit, local->message);
    }
  if (*ec == NULL)
    {
      guint64 id = 0;
      if (n->header >= 0)
        {
          const TtvValue *root = ttv_decoder_get (d, (guint32) n->header);
          const TtvValue *idv = ttv_ctf_find_role (d, root, TTV_ROLE_EVENT_CLASS_ID);
          if (idv)
            ttv_value_get_uint (idv, &id);
          const TtvValue *ts = ttv_ctf_find_role (d, root, TTV_ROLE_CLOCK_TIMESTAMP);
          if (clock && ts && ts->type->kind == TTV_TYPE_INTEGER)
            update_clock (clock, ts->v.u, ts->type->size_bits);
        }
      *ec = ttv_ctf_stream_find_event (sc, id);
      if (*ec == NULL)
        {
          g_autofree char *msg = g_strdup_printf (_("unknown event id %" PRIu64), id);
          return event_error (error, sf, l, hdr_bit, msg);
        }
    }
  if (sc->event_context
      && (n->stream_ctx = ttv_decoder_decode (d, sc->event_context, "stream.event.context",
                                              l->pdata, l->pbits, &pos, &local)) < 0)
    return event_error (error, sf, l, hdr_bit, local->message);
  if ((*ec)->context
      && (n->event_ctx = ttv_decoder_decode (d, (*ec)->context, "event.context", l->pdata, l->pbits,
                                             &pos, &local)) < 0)
    return event_error (error, sf, l, hdr_bit, local->message);
  n->payload_bit = pos;
  if ((*ec)->fields
      && (n->payload = ttv_decoder_decode (d, (*ec)->fields, "event.fields", l->pdata, l->pbits,
                                           &pos, &local)) < 0)
    return event_error (error, sf, l, hdr_bit, local->message);
  if (end_bit)
    *end_bit = pos;
  return TRUE;
}

/* LTTng event header: id (enum), then variant compact { timestamp } or
 * extended { id; timestamp }. */
static G_NO_INLINE gboolean
read_lttng_header_slow (CtfStreamFile *sf, const Lane *l, guint64 *pos, guint64 *id, guint64 *ts,
                   guint *ts_bits, GError **error)
{
  const CtfStreamClass *sc = sf->sc;
  guint64 p = ttv_align_up (ttv_align_up (*pos, sc->h_align), sc->h_id_align);
  if (p + sc->h_id_bits > l->pbits)
    return event_error (error, sf, l, p, _("data ends inside an event header"));
  guint64 v = ttv_read_bits (l->pdata, p, sc->h_id_bits, sc->header_order);
  p += sc->h_id_bits;
  if (v >= sc->h_compact_start && v <= sc->h_compact_end)
    {
      p = ttv_align_up (ttv_align_up (p, sc->h_c_align), sc->h_c_ts_align);
      if (p + sc->h_c_ts_bits > l->pbits)
        return event_error (error, sf, l, p, _("data ends inside an event header"));
      *ts = ttv_read_bits (l->pdata, p, sc->h_c_ts_bits, sc->header_order);
      *ts_bits = sc->h_c_ts_bits;
      *id = v;
      p += sc->h_c_ts_bits;
    }
  else if (v == sc->h_ext_value)
    {
      p = ttv_align_up (ttv_align_up (p, sc->h_e_align), sc->h_e_id_align);
      if (p + sc->h_e_id_bits > l->pbits)
        return event_error (error, sf, l, p, _("data ends inside an event header"));
      *id = ttv_read_bits (l->pdata, p, sc->h_e_id_bits, sc->header_order);
      p = ttv_align_up (p + sc->h_e_id_bits, sc->h_e_ts_align);
      if (p + sc->h_e_ts_bits > l->pbits)
        return event_error (error, sf, l, p, _("data ends inside an event header"));
      *ts = ttv_read_bits (l->pdata, p, sc->h_e_ts_bits, sc->header_order);
      *ts_bits = sc->h_e_ts_bits;
      p += sc->h_e_ts_bits;
    }
  else
    {
      g_autofree char *msg = g_strdup_printf (_("event header variant tag %" PRIu64
                                                " selects no option"), v);
      return event_error (error, sf, l, p, msg);
    }
  *pos = p;
  return TRUE;
}

static G_NO_INLINE gboolean
unknown_id_error (GError **error, const CtfStreamFile *sf, const Lane *l, guint64 id)
{
  g_autofree char *msg = g_strdup_printf (_("unknown event id %" PRIu64), id);
  return event_error (error, sf, l, l->bit, msg);
}

/* Sizes that vary, or damage: skips each scope of the event in turn from
 * *pos (the end of its header), with the messages of the decoder. */
static G_NO_INLINE gboolean
lane_skip_scopes (CtfCursor *c, Lane *l, CtfEventClass **ec, guint64 *pos, guint64 *payload, guint64 hdr_end,
                  GError **error)
{
  CtfStreamFile *sf = c->sf;
  CtfStreamClass *sc = sf->sc;
  g_autoptr (GError) local = NULL;
  gboolean ok = TRUE;
  /* A skip that walks the types resolves a sequence length or variant tag
   * in another scope from what the decoder holds: left over from another
   * event, it would give this one a wrong size.  Emptied, such a reference
   * is INVALID and the event is decoded with its scopes below. */
  ttv_decoder_reset (c->decoder);
  if (sc->event_context)
    ok = ttv_decoder_skip (c->decoder, sc->event_context, l->pdata, l->pbits, pos, &local);
  if (ok && (*ec)->context)
    ok = ttv_decoder_skip (c->decoder, (*ec)->context, l->pdata, l->pbits, pos, &local);
  *payload = *pos;
  if (ok && (*ec)->fields)
    ok = ttv_decoder_skip (c->decoder, (*ec)->fields, l->pdata, l->pbits, pos, &local);
  if (!ok && local->code != TTV_FORMAT_ERROR_INVALID)
    return event_error (error, sf, l, l->bit, local->message);
  if (!ok)
    {
      /* A reference to another scope: decode with the scopes. */
      Nodes n;
      if (!decode_all (sf, l, l->bit, hdr_end, c->decoder, ec, NULL, pos, &n, FALSE, error))
        return FALSE;
    }
  return TRUE;
}

/* A clock value of the cursor's stream as a time: most clocks count
 * nanoseconds from a base, added without a call. */
static G_ALWAYS_INLINE inline TtvTime
cursor_clock_time (const CtfCursor *c, guint64 clock)
{
  return G_LIKELY (clock < c->ns_count) ? c->ns_base + (gint64) clock : ttv_ctf_clock_to_time (c->clock, clock);
}

/* The event at l->bit, read and checked, into @ev (all but payload_bit),
 * and where the next one starts and its clock before it into the lane. */
static G_ALWAYS_INLINE inline void
lane_deliver (CtfCursor *c, Lane *l, TtvEvent *ev, const CtfEventClass *ec, guint64 clock, guint64 next_bit,
              guint64 hdr_end)
{
  l->clock = clock;
  l->next_bit = next_bit;
  ev->time = cursor_clock_time (c, clock);
  ev->cycles = clock;
  ev->type = ec->type;
  ev->tracefile = c->sf->tracefile;
  ev->pos.block = l->packet;
  ev->pos.offset = l->bit / 8;
  ev->pos.index = l->index;
  ev->data = l->pdata;
  ev->data_bits = l->pbits;
  ev->priv = CTF_EVENT_PRIV (l->bit, hdr_end);
}

/* Where an event at @p whose fields vary in size ends, after contexts at
 * constant offsets, into *@end: by the fields' sequential layout (a
 * payload with a string), else by their decode plan (arrays, sequences);
 * the steps the general path takes, without its decoder.  FALSE when that
 * does not apply or the fields do not fit in the packet (the general path
 * then reports it).  Not inline: the usual turn's frame stays small (see
 * ttv_ctf_cursor_next). */
static G_NO_INLINE gboolean
lane_skip_payload (const Lane *l, const CtfEventClass *ec, const CtfEventOffsets *o, guint64 p, guint64 *end)
{
  if (o->payload_bits <= 0)
    return FALSE;
  if (CTF_STRING_TAIL_BITS (o) > 1)
    {
      /* What ttv_seq_layout_skip finds, without its walk: the members
       * before the string fit when the string starts inside the data,
       * those after it when the fields' end does. */
      guint64 s = p + (guint64) CTF_STRING_TAIL_BITS (o);
      if (s > l->pbits)
        return FALSE;
      const guint8 *base = l->pdata + s / 8;
      const guint8 *nul = memchr (base, '\0', (l->pbits - s) / 8);
      if (nul == NULL)
        return FALSE;
      guint64 string_end = s + ((guint64) (nul - base) + 1) * 8;
      *end = ttv_align_up_pow2 (string_end, ec->string_tail_align) + ec->string_tail_bits;
      return *end <= l->pbits;
    }
  guint64 at = p + (guint64) o->payload_bits;
  if (ec->payload_seq != NULL)
    return ttv_seq_layout_skip (ec->payload_seq, l->pdata, l->pbits, at, end);
  if (!ec->payload_by_plan || !ttv_type_skip_by_plan (ec->fields, l->pdata, l->pbits, &at))
    return FALSE;
  *end = at;
  return TRUE;
}

/* The part of an event both direct reads share (lane_read_constant,
 * lane_read_fixed): its header read at constant places from @p (l->bit
 * aligned), its id, its class in @classes (@n_classes of them, by id) and
 * the constant offsets of the class after that header.  NULL when any of
 * it is not known there.  Inline, so that ttv_ctf_cursor_next's usual
 * turn still calls nothing. */
static G_ALWAYS_INLINE inline CtfEventClass *
lane_class_at_constant_places (const CtfCursor *c, const Lane *l, guint64 p, CtfEventClass *const *classes,
                               guint64 n_classes, guint64 *id, guint64 *clock, guint64 *hdr_end,
                               const CtfEventOffsets **o)
{
  guint64 ts, ts_mask;
  guint kind;
  if (!header_at_constant_places (&c->hf, l, p, id, &ts, &ts_mask, &kind, hdr_end))
    return NULL;
  if (*id >= n_classes)
    return NULL;
  CtfEventClass *ec = classes[*id];
  if (ec == NULL)
    return NULL;
  *o = &ec->offsets[kind][(p / 8) % CTF_OFFSET_PLACES];
  *clock = l->clock_before;
  update_clock_masked (clock, ts, ts_mask);
  return ec;
}

static G_NO_INLINE void
cursor_grow_known (CtfCursor *c, guint64 id)
{
  guint64 n = MAX (c->n_known, 64);
  while (n <= id)
    n *= 2;
  c->known = g_renew (CtfEventClass *, c->known, n);
  memset (c->known + c->n_known, 0, (n - c->n_known) * sizeof *c->known);
  c->n_known = n;
}

/* @ec, the class of id @id with its refs worked out, read by this cursor:
 * the usual turn may read its next events (see CtfCursor.known). */
static inline void
cursor_learn_class (CtfCursor *c, guint64 id, CtfEventClass *ec)
{
  if (G_UNLIKELY (id >= c->n_known))
    cursor_grow_known (c, id);
  c->known[id] = ec;
}

/* An event ending at @pos, at @clock, fits its packet: inside its
 * content, and not after the packet's end time unless it is the last
 * one (see lane_read, which reports what does not fit). */
static G_ALWAYS_INLINE inline gboolean
lane_event_fits (const Lane *l, guint64 pos, guint64 clock)
{
  return pos <= l->pbits && (clock <= l->end_clock || pos >= l->pbits);
}

/* The same for the direct read, which also leaves to the general path
 * the event that ends past l->fast_bits: the one a fine index being noted
 * notes (fine_note).  No test more than lane_event_fits. */
static G_ALWAYS_INLINE inline gboolean
lane_fits_fast (const Lane *l, guint64 pos, guint64 clock)
{
  return pos <= l->fast_bits && (clock <= l->end_clock || pos >= l->pbits);
}

/* Almost every event of an LTTng trace: a header read at constant places,
 * then the constant offsets of its class after it (CtfEventClass.offsets;
 * fields of varying size stepped over by lane_skip_payload), an end
 * inside the packet and a time inside it.  It writes nothing but @ev and
 * the lane, and only on success: when it does not apply (FALSE),
 * lane_read reads the event from the start and finds any damage. */
static G_ALWAYS_INLINE inline gboolean
lane_read_constant (CtfCursor *c, Lane *l, TtvEvent *ev)
{
  const GPtrArray *by_id = c->sf->sc->by_id;
  if (by_id == NULL)
    return FALSE;
  guint64 p = align_mask (l->bit, c->hf.align_mask);
  guint64 id, clock, hdr_end;
  const CtfEventOffsets *o;
  CtfEventClass *ec = lane_class_at_constant_places (c, l, p, (CtfEventClass *const *) by_id->pdata, by_id->len,
                                                     &id, &clock, &hdr_end, &o);
  if (ec == NULL)
    return FALSE;
  class_refs (c->sf, ec);
  cursor_learn_class (c, id, ec);
  guint64 pos;
  if (G_LIKELY (o->end_bits > 0))
    pos = p + (guint64) o->end_bits;
  else if (!lane_skip_payload (l, ec, o, p, &pos))
    return FALSE;
  if (!lane_event_fits (l, pos, clock))
    return FALSE;
  ev->payload_bit = p + (guint64) o->payload_bits;
  lane_deliver (c, l, ev, ec, clock, pos, hdr_end);
  return TRUE;
}

/* What lane_read_fixed did with the event at l->bit. */
typedef enum {
  FIXED_NOT_TAKEN,        /* nothing: the general path reads it */
  FIXED_READ,             /* read into the event, the lane stepped past it */
  FIXED_FIELDS_VARY,      /* read up to its fields into c->varying */
} FixedRead;

/* The usual event of an LTTng trace, on ttv_ctf_cursor_next's turn that
 * needs no stack frame: lane_read_constant's event, of a class this
 * cursor has read (CtfCursor.known), at a time that converts by one addition.
 * It calls nothing, so that the turn saves few registers, and reads every
 * lane field before it writes @ev (which the compiler cannot tell apart
 * from the lane).  An event of constant size is read whole (the lane
 * stepped past it); one whose fields vary in size is left to
 * cursor_next_varying; anything else to the general path, with nothing
 * written. */
static G_ALWAYS_INLINE inline FixedRead
lane_read_fixed (CtfCursor *c, Lane *l, TtvEvent *ev)
{
  guint64 bit = l->bit;
  guint64 p = align_mask (bit, c->hf.align_mask);
  guint64 id, clock, hdr_end;
  const CtfEventOffsets *o;
  const CtfEventClass *ec = lane_class_at_constant_places (c, l, p, c->known, c->n_known, &id, &clock, &hdr_end, &o);
  if (ec == NULL)
    return FIXED_NOT_TAKEN;
  if (o->end_bits <= 0)
    {
      c->varying = (VaryingEvent) { ec, o, p, hdr_end, clock };
      return FIXED_FIELDS_VARY;
    }
  guint64 pos = p + (guint64) o->end_bits;
  if (!lane_fits_fast (l, pos, clock) || clock >= c->ns_count)
    return FIXED_NOT_TAKEN;
  guint64 pbits = l->pbits, packet = l->packet, index = l->index;
  const guint8 *pdata = l->pdata;
  ev->time = c->ns_base + (gint64) clock;
  ev->cycles = clock;
  ev->type = ec->type;
  ev->tracefile = c->sf->tracefile;
  ev->pos.block = packet;
  ev->pos.offset = bit / 8;
  ev->pos.index = index;
  ev->data = pdata;
  ev->data_bits = pbits;
  ev->payload_bit = p + (guint64) o->payload_bits;
  /* CTF_EVENT_PRIV without its test: a header read at constant places
   * ends less than 2^16 bits after its start. */
  ev->priv = GSIZE_TO_POINTER (((gsize) bit << 16) | (gsize) (hdr_end - bit));
  /* l->clock and l->next_bit describe a head read and not stepped past
   * yet (a lane_peek's): a direct read reads them nowhere. */
  l->clock_before = clock;
  l->bit = pos;
  l->index = index + 1;
  l->has_head = FALSE;
  ttv_file_window_prefetch (pdata, pos >> 3);
  return FIXED_READ;
}

/* Decodes the event at l->bit (before the end of the packet's content)
 * into @ev, and where the next one starts and its clock before it into
 * l->next_bit and l->clock. */
static G_ALWAYS_INLINE inline gboolean
lane_read (CtfCursor *c, Lane *l, TtvEvent *ev, GError **error)
{
  CtfStreamFile *sf = c->sf;
  CtfStreamClass *sc = sf->sc;
  guint64 pos = l->bit;
  guint64 clock = l->clock_before;
  CtfEventClass *ec = NULL;
  guint64 hdr_end = 0;
  if (sc->header_kind == CTF_HEADER_LTTNG)
    {
      guint64 id = 0, ts = 0;
      guint ts_bits = 64;
      if (!read_lttng_header (c, l, &pos, &id, &ts, &ts_bits, error))
        return FALSE;
      hdr_end = pos;
      update_clock (&clock, ts, ts_bits);
      ec = G_LIKELY (sc->by_id && id < sc->by_id->len) ? g_ptr_array_index (sc->by_id, id)
                                                        : ttv_ctf_stream_find_event (sc, id);
      if (G_UNLIKELY (ec == NULL))
        return unknown_id_error (error, sf, l, id);
      class_refs (sf, ec);
      guint64 payload = 0;
      gboolean fixed = (ec->skip_bits[0] | ec->skip_bits[1] | ec->skip_bits[2]) >= 0;
      if (G_LIKELY (fixed))
        {
          pos = align_mask (pos, ec->skip_mask[0]) + (guint64) ec->skip_bits[0];
          pos = align_mask (pos, ec->skip_mask[1]) + (guint64) ec->skip_bits[1];
          payload = pos;
          pos = align_mask (pos, ec->skip_mask[2]) + (guint64) ec->skip_bits[2];
        }
      if (!fixed || G_UNLIKELY (pos > l->pbits))
        {
          pos = hdr_end;
          if (!lane_skip_scopes (c, l, &ec, &pos, &payload, hdr_end, error))
            return FALSE;
        }
      ev->payload_bit = payload;
    }
  else
    {
      Nodes n;
      if (!decode_all (sf, l, l->bit, 0, c->decoder, &ec, &clock, &pos, &n, FALSE, error))
        return FALSE;
      ev->payload_bit = n.payload_bit;
    }
  if (pos > l->pbits || pos == l->bit)
    return event_error (error, sf, l, l->bit, _("event of no size or past the packet content"));
  /* An event after its packet's end time, with more events after it, is
   * garbage: a damaged length or id read the bytes out of step.  (LTTng
   * may write the last event of a packet after its end time: babeltrace2's
   * "event after packet" quirk, which a packet's last event keeps.) */
  if (G_UNLIKELY (clock > l->end_clock) && pos < l->pbits)
    return event_error (error, sf, l, l->bit, _("event time past its packet's end time (timestamp_end), "
                                                 "with events after it"));
  lane_deliver (c, l, ev, ec, clock, pos, hdr_end);
  return TRUE;
}

/* lane_read_whole when lane_read failed with @local (taken). */
static G_NO_INLINE gboolean
lane_read_failed (Lane *l, GError *local, GError **error)
{
  if (!l->cut)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  g_error_free (local);
  l->pbits = l->fast_bits = l->bit;
  return TRUE;
}

/* lane_read(), where an event that cannot be read in a truncated packet
 * (the file ends inside it) ends the packet instead: its events are read
 * up to the last whole one, and the damage was reported when the trace
 * was opened.  *@got tells whether @ev was read.  (Inline: it reads every
 * event, and a frame of its own cost a tenth of the read.) */
static G_ALWAYS_INLINE inline gboolean
lane_read_whole (CtfCursor *c, Lane *l, TtvEvent *ev, gboolean *got, GError **error)
{
  GError *local = NULL;
  *got = lane_read (c, l, ev, &local);
  if (G_LIKELY (*got))
    return TRUE;
  return lane_read_failed (l, local, error);
}

/* A seek into a packet reads this much of its events from the one it
 * starts at, then twice as much each time it reads past them
 * (lane_read_more): most seeks read a few events. */
#define PARTIAL_FIRST_BYTES (16u * 1024)

/* Where the bytes a lane reads of packet @pk end (a file offset), the
 * events from byte @tail of the packet on and @held bytes of them read so
 * far: PARTIAL_FIRST_BYTES more, or as many as were read, up to the
 * packet's content. */
static guint64
partial_until (const CtfPacket *pk, guint64 tail, guint64 held)
{
  guint64 end = pk->offset + (pk->content_bits + 7) / 8;
  guint64 more = MAX ((guint64) PARTIAL_FIRST_BYTES, held);
  return end - (pk->offset + tail) - held > more ? pk->offset + tail + held + more : end;
}

/* Lane @l holds packet @pk's bytes up to file offset @until: all its
 * content, or part of it (Lane.partial), where its reads then end. */
static void
lane_hold_until (Lane *l, const CtfPacket *pk, guint64 until)
{
  l->partial = until < pk->offset + (pk->content_bits + 7) / 8;
  l->pbits = l->fast_bits = l->partial ? (until - pk->offset) * 8 : pk->content_bits;
}

/* Lane @l, which holds part of its packet (Lane.partial), reads more of
 * it: as much again as it holds, up to the whole packet. */
static G_NO_INLINE gboolean
lane_read_more (CtfCursor *c, Lane *l, GError **error)
{
  const CtfPacket *pk = &g_array_index (c->sf->packets, CtfPacket, l->packet);
  TtvFileWindow *w = &c->windows[l->window].w;
  guint64 tail = w->read_offset - pk->offset;
  guint64 until = partial_until (pk, tail, pk->offset + l->pbits / 8 - w->read_offset);
  if (!ttv_file_window_extend (w, until, error))
    return FALSE;
  lane_hold_until (l, pk, until);
  return TRUE;
}

/* The event at l->bit of a lane that holds part of its packet, into @ev
 * (*@got: whether there was one), as lane_read_constant or else
 * lane_read read it from the whole packet: every read of theirs is
 * bounded by l->pbits, so an event that ends before the bytes held reads
 * the same there, and any other (one that ends at them or past them, or
 * damage) is read again once the lane holds more, at last all the packet. */
static G_NO_INLINE gboolean
lane_read_partial (CtfCursor *c, Lane *l, TtvEvent *ev, gboolean *got, GError **error)
{
  while (l->partial)
    {
      if (l->bit < l->pbits)
        {
          GError *local = NULL;
          gboolean read = lane_read_constant (c, l, ev) || lane_read (c, l, ev, &local);
          g_clear_error (&local);
          if (read && l->next_bit < l->pbits)
            {
              *got = TRUE;
              return TRUE;
            }
        }
      if (!lane_read_more (c, l, error))
        return FALSE;
    }
  *got = FALSE;
  if (l->bit >= l->pbits)
    return TRUE;
  *got = lane_read_constant (c, l, ev);
  return *got || lane_read_whole (c, l, ev, got, error);
}

/* The event at l->bit (before l->pbits unless the lane is partial) into
 * @ev, by the general path: *@got tells whether there was one.  Inline, as
 * the two calls it makes were before partial lanes. */
static G_ALWAYS_INLINE inline gboolean
lane_read_next (CtfCursor *c, Lane *l, TtvEvent *ev, gboolean *got, GError **error)
{
  if (G_UNLIKELY (l->partial))
    return lane_read_partial (c, l, ev, got, error);
  *got = lane_read_constant (c, l, ev);
  return *got || lane_read_whole (c, l, ev, got, error);
}

/* The notes of the packet lane @l reads, NULL when it notes none. */
static FineNotes *
fine_notes_of (CtfCursor *c, const Lane *l)
{
  for (guint i = 0; i < MAX_LANES; i++)
    if (c->notes[i].live && c->notes[i].packet == l->packet)
      return &c->notes[i];
  return NULL;
}

/* Notes that no lane reads any more (a lane closed by damage or a seek). */
static FineNotes *
fine_notes_unused (CtfCursor *c)
{
  for (guint i = 0; i < MAX_LANES; i++)
    {
      FineNotes *n = &c->notes[i];
      gboolean read = FALSE;
      for (guint k = 0; n->live && k < c->n_lanes; k++)
        read |= c->lanes[k].packet == n->packet;
      if (!read)
        return n;
    }
  return NULL;
}

/* Lane @l stands at its next event: when that is its packet's first event,
 * and the packet has no fine index yet (and is whole), the cursor notes
 * one while the lane reads it. */
static void
fine_start (CtfCursor *c, Lane *l)
{
  /* A cursor for few events reads its packets in part (Lane.partial),
   * whose reads do not note: the next whole read will. */
  if (c->few || l->index != 0 || l->cut || l->pbits - l->bit <= CTF_FINE_STEP_BITS || l->pbits > G_MAXUINT32
      || fine_notes_of (c, l) || ttv_ctf_fine_index_lookup (c->sf, l->packet))
    return;
  FineNotes *n = fine_notes_unused (c);
  if (n == NULL)
    return;
  if (n->entries == NULL)
    n->entries = g_array_new (FALSE, FALSE, sizeof (CtfFineEntry));
  g_array_set_size (n->entries, 0);
  n->packet = l->packet;
  n->live = TRUE;
  l->fast_bits = l->bit + CTF_FINE_STEP_BITS;
}

/* Lane @l read the event at l->bit, which ends past l->fast_bits: it is
 * noted, and the next one a step further on.  Clocks that go back (a
 * damaged packet) end the noting: a seek must be able to skip every event
 * before an entry whose clock is before the time it seeks. */
static G_NO_INLINE void
fine_note (CtfCursor *c, Lane *l)
{
  FineNotes *n = fine_notes_of (c, l);
  if (n != NULL)
    {
      GArray *entries = n->entries;
      const CtfFineEntry *last = entries->len ? &g_array_index (entries, CtfFineEntry, entries->len - 1) : NULL;
      if (last == NULL || l->clock_before >= last->clock_before)
        {
          /* Both fit: bit < pbits <= G_MAXUINT32 (fine_start), index < bit. */
          CtfFineEntry e = { (guint32) l->bit, (guint32) l->index, l->clock_before };
          g_array_append_val (entries, e);
          l->fast_bits = MIN (l->pbits, l->next_bit + CTF_FINE_STEP_BITS);
          return;
        }
      n->live = FALSE;
    }
  l->fast_bits = l->pbits;
}

/* Lane @l is closed: the fine index it noted is published when it read
 * its packet through. */
static void
fine_finish (CtfCursor *c, const Lane *l)
{
  FineNotes *n = fine_notes_of (c, l);
  if (n == NULL)
    return;
  if (l->bit >= l->pbits)
    ttv_ctf_fine_index_publish (c->sf, n->packet, n->entries);
  n->live = FALSE;
}

/* Decodes the event at l->bit into l->head (or clears has_head at the end
 * of the packet). */
static gboolean
lane_peek (CtfCursor *c, Lane *l, GError **error)
{
  l->has_head = FALSE;
  if (l->bit >= l->pbits && !l->partial)
    return TRUE;
  return lane_read_next (c, l, &l->head, &l->has_head, error);
}

static gboolean
lane_advance (CtfCursor *c, Lane *l, GError **error)
{
  if (G_UNLIKELY (l->next_bit > l->fast_bits))
    fine_note (c, l);
  l->bit = l->next_bit;
  l->clock_before = l->clock;
  l->index++;
  return lane_peek (c, l, error);
}

/* Opens packet @index on a lane standing before its first event; the lane
 * holds a window (window_release gives it back), unless this fails.  Of
 * the packet's bytes, those of its header and context are read, and those
 * of its events from the one @from (NULL: the first) on: a seek that
 * starts at an event its fine index notes reads no more, and of a large
 * packet only the first PARTIAL_FIRST_BYTES of them (Lane.partial). */
static gboolean
lane_open_at (CtfCursor *c, Lane *l, guint64 index, const CtfFineEntry *from, GError **error)
{
  CtfStreamFile *sf = c->sf;
  memset (l, 0, sizeof *l);
  l->packet = index;
  const CtfPacket *pk = &g_array_index (sf->packets, CtfPacket, index);
  /* A cursor for few events reads from the packet's first event on, in
   * part: where the events start must be known (an index file does not
   * say). */
  gboolean first_in_part = from == NULL && c->few;
  if (first_in_part && pk->events_bit == 0 && !pk->truncated
      && !ttv_ctf_packet_read_head_pages (sf, index, c->decoder, error))
    return FALSE;
  guint64 head = (pk->events_bit + 7) / 8;
  guint64 tail = 0;   /* where the events read start in the packet (0: all of it read) */
  if (first_in_part)
    tail = head;
  else if (from && pk->events_bit > 0 && from->bit / 8 >= head)
    tail = from->bit / 8;
  guint64 length = (pk->content_bits + 7) / 8;
  guint64 until = tail > 0 && !pk->truncated ? partial_until (pk, tail, 0) : pk->offset + length;
  l->pdata = window_acquire (c, pk->offset, length, head, pk->offset + tail, until, &l->window, error);
  if (l->pdata == NULL)
    return FALSE;
  if (!ttv_ctf_packet_read_context (sf, index, l->pdata, c->decoder, NULL, NULL, error))
    {
      window_release (c, l->window);
      return FALSE;
    }
  pk = &g_array_index (sf->packets, CtfPacket, index);
  l->end_clock = pk->has_ts_end && pk->ts_end >= pk->ts_begin ? pk->ts_end : G_MAXUINT64;
  lane_hold_until (l, pk, until);
  l->cut = pk->truncated;
  l->bit = pk->events_bit;
  l->clock_before = pk->ts_begin;
  return TRUE;
}

/* The same, with the lane's head decoded: the packet's first event, or
 * the one @from (may be NULL) of its fine index notes. */
static gboolean
lane_open_from (CtfCursor *c, Lane *l, guint64 index, const CtfFineEntry *from, GError **error)
{
  if (!lane_open_at (c, l, index, from, error))
    return FALSE;
  if (from != NULL)
    {
      l->bit = from->bit;
      l->index = from->index;
      l->clock_before = from->clock_before;
    }
  if (lane_peek (c, l, error))
    return TRUE;
  window_release (c, l->window);
  return FALSE;
}

static gboolean
lane_open (CtfCursor *c, Lane *l, guint64 index, GError **error)
{
  return lane_open_from (c, l, index, NULL, error);
}

/* Lanes whose packet is read through are closed (their window stays held
 * until another packet needs it: the event just returned lies in it). */
static void
lanes_drop_empty (CtfCursor *c)
{
  guint j = 0;
  for (guint i = 0; i < c->n_lanes; i++)
    if (c->lanes[i].has_head)
      {
        if (i != j)
          c->lanes[j] = c->lanes[i];
        j++;
      }
    else
      {
        fine_finish (c, &c->lanes[i]);
        window_release (c, c->lanes[i].window);
      }
  c->n_lanes = j;
}

/* Opens the next packets while they may hold an event not later than the
 * earliest head (all of them when no lane is open). */
static gboolean
lanes_fill (CtfCursor *c, GError **error)
{
  CtfStreamFile *sf = c->sf;
  for (;;)
    {
      lanes_drop_empty (c);
      if (c->next_packet >= sf->packets->len || c->n_lanes == MAX_LANES)
        return TRUE;
      const CtfPacket *pk = &g_array_index (sf->packets, CtfPacket, c->next_packet);
      if (c->n_lanes > 0)
        {
          TtvTime min = TTV_TIME_MAX;
          for (guint i = 0; i < c->n_lanes; i++)
            min = MIN (min, c->lanes[i].head.time);
          if (!sf->overlapping || pk->t_begin > min)
            return TRUE;
        }
      Lane *l = &c->lanes[c->n_lanes];
      if (!lane_open (c, l, c->next_packet, error))
        {
          c->failed_packet = c->next_packet;
          return FALSE;
        }
      c->next_packet++;
      c->n_lanes++;
      fine_start (c, l);
      /* A packet without event is closed by the next turn. */
    }
}

static gboolean
fail_sticky (CtfCursor *c, GError *e, GError **error)
{
  if (c->error == NULL)
    c->error = e;
  else if (e)
    g_error_free (e);
  g_propagate_error (error, g_error_copy (c->error));
  return FALSE;
}

/* A stream file whose packets do not overlap is read without looking
 * ahead: its one lane stands at the next event (l->bit, before its clock
 * l->clock_before), decoded straight into the caller's event.  Opens the
 * next packet when the lane is read through (its window stays held until
 * another packet needs it: the event returned before lies in it). */
static gboolean
direct_next_packet (CtfCursor *c, GError **error)
{
  if (c->n_lanes == 1)
    fine_finish (c, &c->lanes[0]);
  lanes_reset (c);
  CtfStreamFile *sf = c->sf;
  while (c->next_packet < sf->packets->len)
    {
      Lane *l = &c->lanes[0];
      if (!lane_open_at (c, l, c->next_packet, NULL, error))
        return FALSE;
      c->next_packet++;
      c->n_lanes = 1;
      if (l->bit < l->pbits)
        {
          fine_start (c, l);
          return TRUE;
        }
      lanes_reset (c);
    }
  return TRUE;
}

/* The direct read's step past the event it just read. */
static inline void
lane_step (Lane *l)
{
  l->bit = l->next_bit;
  l->clock_before = l->clock;
  l->index++;
  l->has_head = FALSE;
}

/* The general turn and every call that moves the cursor (seeks, skips)
 * end with this call, which keeps the usual turn's one test
 * (c->direct_generation) true to the three it stands for.  A stale
 * DIRECT_NEVER would only be slow; a stale generation would read one lane
 * straight on where the cursor merges lanes, or has none. */
static void
direct_turn_decide (CtfCursor *c)
{
  /* A lane holding part of its packet is read by the general path. */
  gboolean direct = c->error == NULL && c->n_lanes == 1 && !c->sf->overlapping && !c->lanes[0].partial;
  c->direct_generation = direct ? c->sf->index_generation : DIRECT_NEVER;
}

/* A stream file whose packets came to overlap while its one lane was read
 * directly (a followed trace re-indexed): the lane stands before its next
 * event, with no head, and the merge needs the head. */
static gboolean
direct_lane_to_merge (CtfCursor *c, GError **error)
{
  Lane *l = &c->lanes[0];
  if (c->n_lanes != 1 || l->has_head || lane_peek (c, l, error))
    return TRUE;
  c->failed_packet = l->packet;
  return FALSE;
}

/* ttv_ctf_cursor_next for all but its usual turn: events lane_read_fixed
 * does not take (sizes that vary, stepped over by lane_read_constant; a
 * class met for the first time; a clock converted by a call; damage),
 * packets read through, packets that overlap. */
static inline gboolean
next_general_turn (CtfCursor *c, TtvEvent *event, GError **error)
{
  GError *e = NULL;
  if (G_UNLIKELY (c->error))
    return fail_sticky (c, NULL, error);
  if (G_LIKELY (!c->sf->overlapping))
    {
      Lane *l = &c->lanes[0];
      gboolean got = FALSE;
      while (!got)
        {
          if (G_UNLIKELY (c->n_lanes != 1 || (l->bit >= l->pbits && !l->partial)))
            {
              if (!direct_next_packet (c, &e))
                return fail_sticky (c, e, error);
              if (c->n_lanes == 0)
                return FALSE;
            }
          if (G_UNLIKELY (!lane_read_next (c, l, event, &got, &e)))
            return fail_sticky (c, e, error);
        }
      if (G_UNLIKELY (l->next_bit > l->fast_bits))
        fine_note (c, l);
      lane_step (l);
      return TRUE;
    }
  if (G_UNLIKELY (c->n_lanes != 1 || c->sf->overlapping))
    {
      if (!direct_lane_to_merge (c, &e) || !lanes_fill (c, &e))
        return fail_sticky (c, e, error);
      if (c->n_lanes == 0)
        return FALSE;
    }
  Lane *best = &c->lanes[0];
  for (guint i = 1; i < c->n_lanes; i++)
    if (c->lanes[i].head.time < best->head.time)
      best = &c->lanes[i];
  *event = best->head;
  /* A bad event after this one is reported by the next call. */
  if (!lane_advance (c, best, &c->error))
    {
      best->has_head = FALSE;
      c->failed_packet = best->packet;
    }
  if (!best->has_head)
    lanes_drop_empty (c);
  return TRUE;
}

static G_NO_INLINE gboolean
cursor_next_general (CtfCursor *c, TtvEvent *event, GError **error)
{
  gboolean got = next_general_turn (c, event, error);
  direct_turn_decide (c);
  return got;
}

/* ttv_ctf_cursor_next's turn for an event lane_read_fixed read up to its
 * fields (c->varying), whose size varies: they are stepped over as
 * lane_read_constant steps over them, else the general path reads it. */
static G_NO_INLINE gboolean
cursor_next_varying (CtfCursor *c, TtvEvent *event, GError **error)
{
  Lane *l = &c->lanes[0];
  const VaryingEvent *v = &c->varying;
  guint64 pos;
  if (!lane_skip_payload (l, v->ec, v->o, v->p, &pos) || !lane_fits_fast (l, pos, v->clock))
    return cursor_next_general (c, event, error);
  event->payload_bit = v->p + (guint64) v->o->payload_bits;
  lane_deliver (c, l, event, v->ec, v->clock, pos, v->hdr_end);
  lane_step (l);
  ttv_file_window_prefetch (l->pdata, pos >> 3);
  return TRUE;
}

gboolean
ttv_ctf_cursor_next (TtvCursor *cursor, TtvEvent *event, GError **error)
{
  CtfCursor *c = (CtfCursor *) cursor;
  Lane *l = &c->lanes[0];
  /* The usual turn, kept apart so that it needs no frame: a stream file
   * read directly, an event of constant size at constant places (its
   * header's test that it lies inside the packet is the lane's). */
  if (G_LIKELY (c->direct_generation == c->sf->index_generation))
    {
      FixedRead r = lane_read_fixed (c, l, event);
      if (G_LIKELY (r == FIXED_READ))
        return TRUE;
      if (r == FIXED_FIELDS_VARY)
        return cursor_next_varying (c, event, error);
    }
  return cursor_next_general (c, event, error);
}

/* First packet whose end is not before @t (packets in file order). */
static guint64
first_packet_ending_after (const CtfStreamFile *sf, TtvTime t)
{
  guint64 lo = 0, hi = sf->packets->len;
  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;
      if (g_array_index (sf->packets, CtfPacket, mid).t_end < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* What a seek skips in packet @packet (reposition's "before"): events
 * before @time (up to it when @to_time), or those before @index. */
typedef struct {
  const CtfCursor *c;
  TtvTime time;
  gboolean to_time;
  gboolean by_index;
  guint64 index;
} SeekSkip;

/* Every event before @e is skipped: those before index @index, or those
 * whose time is before the seek's, of which the last is at clock
 * e->clock_before (a packet's clock does not go back: see fine_note). */
static gboolean
seek_skips_before (const CtfFineEntry *e, gconstpointer data)
{
  const SeekSkip *k = data;
  if (k->by_index)
    return e->index <= k->index;
  TtvTime t = cursor_clock_time (k->c, e->clock_before);
  return k->to_time ? t <= k->time : t < k->time;
}

/* Where a seek that skips @skip's events starts reading packet @packet:
 * NULL for its first event (no fine index, or none to skip). */
static const CtfFineEntry *
seek_start_in (CtfCursor *c, guint64 packet, const SeekSkip *skip)
{
  const CtfFineIndex *fi = ttv_ctf_fine_index_lookup (c->sf, packet);
  return fi ? ttv_ctf_fine_index_find (fi, seek_skips_before, skip) : NULL;
}

/* Rebuilds the merge state in which the next event is the first with
 * (time, packet, index) after (t, packet b, index k) in delivery order;
 * b = -1 means "the first event at or after t". */
static gboolean
reposition (CtfCursor *c, TtvTime t, gint64 b, guint64 k, GError **error)
{
  CtfStreamFile *sf = c->sf;
  lanes_reset (c);
  guint64 q = first_packet_ending_after (sf, t);
  if (b >= 0 && (guint64) b < q)
    q = (guint64) b;
  c->next_packet = q;
  while (c->next_packet < sf->packets->len && c->n_lanes < MAX_LANES)
    {
      guint64 p = c->next_packet;
      const CtfPacket *pk = &g_array_index (sf->packets, CtfPacket, p);
      if (p > q && pk->t_begin > t && (b < 0 || p > (guint64) b))
        break;
      Lane *l = &c->lanes[c->n_lanes];
      c->failed_packet = p;
      SeekSkip skip = { c, t, b >= 0 && (gint64) p < b, (gint64) p == b, k };
      if (!lane_open_from (c, l, p, seek_start_in (c, p, &skip), error))
        return FALSE;
      c->next_packet++;
      c->n_lanes++;
      while (l->has_head)
        {
          gboolean before;
          if ((gint64) p == b)
            before = l->index < k;
          else if (b >= 0 && (gint64) p < b)
            before = l->head.time <= t;
          else
            before = l->head.time < t;
          if (!before)
            break;
          if (!lane_advance (c, l, error))
            return FALSE;
        }
      c->failed_packet = NO_PACKET;
      if (!sf->overlapping && l->has_head)
        break;
      if (!l->has_head && b < 0)
        window_release (c, c->lanes[--c->n_lanes].window);
    }
  lanes_drop_empty (c);
  /* Reads from the start of a packet, the first one above all. */
  for (guint i = 0; i < c->n_lanes; i++)
    fine_start (c, &c->lanes[i]);
  return TRUE;
}

/* After damage (a failed next or seek): the packet that failed is dropped,
 * the others read on.  Always moves forward, so that reading on past
 * damage ends even where every event has the same time. */
static void
skip_block (CtfCursor *c)
{
  guint64 failed = c->failed_packet;

  g_clear_error (&c->error);
  c->failed_packet = NO_PACKET;
  if (failed == NO_PACKET)
    {
      /* Nothing to point at: the rest of the stream is lost. */
      lanes_reset (c);
      c->next_packet = c->sf->packets->len;
      return;
    }
  for (guint i = 0; i < c->n_lanes; i++)
    if (c->lanes[i].packet == failed)
      c->lanes[i].has_head = FALSE;
  lanes_drop_empty (c);
  if (c->next_packet <= failed)
    c->next_packet = failed + 1;
}

gboolean
ttv_ctf_cursor_skip_block (TtvCursor *cursor, GError **error)
{
  CtfCursor *c = (CtfCursor *) cursor;
  skip_block (c);
  direct_turn_decide (c);
  return TRUE;
}

static gboolean
seek_time (CtfCursor *c, TtvTime time, GError **error)
{
  g_clear_error (&c->error);
  GError *e = NULL;
  if (!reposition (c, time, -1, 0, &e))
    return fail_sticky (c, e, error);
  return TRUE;
}

gboolean
ttv_ctf_cursor_seek_time (TtvCursor *cursor, TtvTime time, GError **error)
{
  CtfCursor *c = (CtfCursor *) cursor;
  gboolean ok = seek_time (c, time, error);
  direct_turn_decide (c);
  return ok;
}

static gboolean
seek_position (CtfCursor *c, const TtvTracefilePosition *pos, GError **error)
{
  CtfStreamFile *sf = c->sf;
  g_clear_error (&c->error);
  c->failed_packet = NO_PACKET;
  lanes_reset (c);
  if (pos->block >= sf->packets->len)
    {
      g_set_error (error, TTV_ENGINE_ERROR, TTV_ENGINE_ERROR_BAD_POSITION,
                   _("%s: no packet %" PRIu64), sf->path, pos->block);
      return FALSE;
    }
  /* Find the event's time, then rebuild the merge state around it. */
  Lane l;
  GError *e = NULL;
  SeekSkip skip = { .by_index = TRUE, .index = pos->index };
  if (!lane_open_from (c, &l, pos->block, seek_start_in (c, pos->block, &skip), &e))
    return fail_sticky (c, e, error);
  while (l.has_head && l.index < pos->index)
    if (!lane_advance (c, &l, &e))
      {
        window_release (c, l.window);
        return fail_sticky (c, e, error);
      }
  if (!l.has_head || l.bit / 8 != pos->offset)
    {
      window_release (c, l.window);
      g_set_error (error, TTV_ENGINE_ERROR, TTV_ENGINE_ERROR_BAD_POSITION,
                   _("%s: packet %" PRIu64 " has no event %" PRIu64
                     " at byte offset %" PRIu64),
                   sf->path, pos->block, pos->index, pos->offset);
      return FALSE;
    }
  if (!sf->overlapping)
    {
      c->lanes[0] = l;
      c->n_lanes = 1;
      c->next_packet = pos->block + 1;
      fine_start (c, &c->lanes[0]);
      return TRUE;
    }
  window_release (c, l.window);
  if (!reposition (c, l.head.time, (gint64) pos->block, pos->index, &e))
    return fail_sticky (c, e, error);
  return TRUE;
}

gboolean
ttv_ctf_cursor_seek_position (TtvCursor *cursor, const TtvTracefilePosition *pos, GError **error)
{
  CtfCursor *c = (CtfCursor *) cursor;
  gboolean ok = seek_position (c, pos, error);
  direct_turn_decide (c);
  return ok;
}

/* The scopes of an event of a class that refers to no other scope and whose
 * scopes all have plans, each decoded where it is known to start, but
 * the packet context (decode_chain's): the same nodes as decode_all, the
 * contexts' in @scopes (by TtvEventContext), the payload's returned.  -1
 * when that does not apply or fails (the caller then takes decode_all,
 * which reports the error). */
static inline gint32
decode_scopes_alone (const TtvEvent *event, TtvDecoder *d, gint32 scopes[TTV_EVENT_N_CONTEXTS])
{
  const CtfStreamFile *sf = event->tracefile->priv;
  const CtfStreamClass *sc = sf->sc;
  CtfEventClass *ec = event->type->priv;
  guint64 hdr_end = CTF_EVENT_HEADER_END (event);
  if (!(class_refs (sf, ec) & CTF_REFS_FIELDS_ALONE) || hdr_end == 0)
    return -1;
  const guint8 *data = event->data;
  guint64 bits = event->data_bits;
  guint64 pos = hdr_end;
  ttv_decoder_reset (d);
  scopes[TTV_EVENT_CONTEXT_PACKET] = -1;
  scopes[TTV_EVENT_CONTEXT_STREAM_EVENT] = -1;
  if (sc->event_context
      && (scopes[TTV_EVENT_CONTEXT_STREAM_EVENT]
          = ttv_decoder_decode (d, sc->event_context, "stream.event.context", data, bits, &pos, NULL)) < 0)
    return -1;
  scopes[TTV_EVENT_CONTEXT_EVENT] = -1;
  if (ec->context
      && (scopes[TTV_EVENT_CONTEXT_EVENT] = ttv_decoder_decode (d, ec->context, "event.context", data, bits, &pos,
                                                                NULL)) < 0)
    return -1;
  return ttv_decoder_decode (d, ec->fields, "event.fields", data, bits, &pos, NULL);
}

/* decode_scopes_alone with the packet context first, in one call of the
 * decoder's (the class's chain, see chain_compute): the memo's reuse and
 * the calls of the scopes without the cursor's. */
static inline gint32
decode_chain (const TtvEvent *event, TtvDecoder *d, gint32 scopes[TTV_EVENT_N_CONTEXTS])
{
  CtfEventClass *ec = event->type->priv;
  guint64 hdr_end = CTF_EVENT_HEADER_END (event);
  /* A class's first event takes decode_all's way, which works out its
   * refs and chain (chain_ok is FALSE until then). */
  if (!g_atomic_int_get (&ec->chain_ok) || hdr_end == 0)
    return -1;
  /* The bytes in the decoder, not on the stack: nothing to keep once the
   * decoder is called, so its call can be the last. */
  TtvDecoderChainBytes *bytes = ttv_decoder_chain_bytes (d);
  *bytes = (TtvDecoderChainBytes) { event->pos.block, event->tracefile->serial, event->data, event->data_bits,
                                    hdr_end };
  return ttv_decoder_decode_chain (d, &ec->chain, bytes, scopes);
}

/* decode_event where the chain or decode_scopes_alone does not apply or
 * fails (and the trace's decode_contexts, after its quick way returned
 * -1): every scope the event depends on, by decode_all, which reports
 * errors. */
static G_NO_INLINE gint32
decode_event_slow (const TtvEvent *event, TtvDecoder *decoder, gboolean with_packet,
                   gint32 scopes[TTV_EVENT_N_CONTEXTS], GError **error)
{
  CtfStreamFile *sf = event->tracefile->priv;
  /* Only what decode_all reads of a lane. */
  Lane l;
  l.packet = event->pos.block;
  l.pdata = event->data;
  l.pbits = event->data_bits;
  CtfEventClass *ec = event->type->priv;
  Nodes n;
  gboolean ok = decode_all (sf, &l, CTF_EVENT_HEADER_BIT (event), CTF_EVENT_HEADER_END (event), decoder, &ec, NULL,
                            NULL, &n, with_packet, error);
  scopes[TTV_EVENT_CONTEXT_STREAM_EVENT] = n.stream_ctx;
  scopes[TTV_EVENT_CONTEXT_EVENT] = n.event_ctx;
  scopes[TTV_EVENT_CONTEXT_PACKET] = n.packet_ctx;
  if (!ok)
    return -1;
  if (n.payload < 0)
    {
      /* An event class without fields: an empty struct. */
      static TtvType *empty;
      if (g_once_init_enter (&empty))
        {
          TtvType *t = ttv_type_new_struct ();
          ttv_type_finish (t);
          g_once_init_leave (&empty, t);
        }
      guint64 pos = 0;
      n.payload = ttv_decoder_decode (decoder, empty, NULL, event->data, 0, &pos, NULL);
    }
  return n.payload;
}

/* The event's scopes (the packet context only @with_packet) and payload,
 * whose node it returns; the contexts' nodes in @scopes. */
static inline gint32
decode_event (const TtvEvent *event, TtvDecoder *decoder, gboolean with_packet,
              gint32 scopes[TTV_EVENT_N_CONTEXTS], GError **error)
{
  gint32 r = with_packet ? decode_chain (event, decoder, scopes) : decode_scopes_alone (event, decoder, scopes);
  if (G_LIKELY (r >= 0))
    return r;
  return decode_event_slow (event, decoder, with_packet, scopes, error);
}

gint32
ttv_ctf_cursor_decode_fields (const TtvEvent *event, TtvDecoder *decoder, GError **error)
{
  CtfEventClass *ec = event->type->priv;
  const CtfStreamFile *sf = event->tracefile->priv;
  if (G_LIKELY (class_refs (sf, ec) & CTF_REFS_FIELDS_ALONE))
    {
      /* The fields alone, where the cursor found them (the same nodes as
       * with the other scopes decoded first: their plan needs none). */
      ttv_decoder_reset (decoder);
      guint64 pos = event->payload_bit;
      gint32 r = ttv_decoder_decode (decoder, ec->fields, "event.fields", event->data, event->data_bits, &pos, NULL);
      if (G_LIKELY (r >= 0))
        return r;
    }
  gint32 scopes[TTV_EVENT_N_CONTEXTS];
  return decode_event (event, decoder, FALSE, scopes, error);
}

gint32
ttv_ctf_cursor_decode_contexts (const TtvEvent *event, TtvDecoder *decoder, gint32 scopes[TTV_EVENT_N_CONTEXTS],
                                GError **error)
{
  /* Called once decode_contexts_quick (the chain) returned -1: the slow
   * way at once, not the chain a second time. */
  return decode_event_slow (event, decoder, TRUE, scopes, error);
}

/* decode_chain alone (the format's decode_contexts_quick): -1 where the
 * slow way must decode the event; a call in tail position, no frame. */
gint32
ttv_ctf_cursor_decode_contexts_quick (const TtvEvent *event, TtvDecoder *decoder,
                                      gint32 scopes[TTV_EVENT_N_CONTEXTS])
{
  return decode_chain (event, decoder, scopes);
}

gint32
ttv_ctf_event_decode_contexts (const TtvEvent *event, TtvDecoder *decoder, gint32 *stream_ctx,
                               gint32 *event_ctx, gint32 *packet_ctx, GError **error)
{
  g_return_val_if_fail (event != NULL && decoder != NULL, -1);
  g_return_val_if_fail (event->tracefile->trace->format == &ttv_ctf_format_class, -1);
  gint32 scopes[TTV_EVENT_N_CONTEXTS];
  gint32 r = decode_event (event, decoder, TRUE, scopes, error);
  if (stream_ctx)
    *stream_ctx = scopes[TTV_EVENT_CONTEXT_STREAM_EVENT];
  if (event_ctx)
    *event_ctx = scopes[TTV_EVENT_CONTEXT_EVENT];
  if (packet_ctx)
    *packet_ctx = scopes[TTV_EVENT_CONTEXT_PACKET];
  return r;
}

void
ttv_ctf_cursor_use_general_path (TtvCursor *cursor)
{
  ((CtfCursor *) cursor)->hf.compact_fixed = FALSE;
  compact_ids_set (&((CtfCursor *) cursor)->hf, 0, 0);
  ((CtfCursor *) cursor)->hf.extended_fixed = FALSE;
}

static CtfCursor *
cursor_alloc (TtvTracefile *tf)
{
  CtfCursor *c = g_new0 (CtfCursor, 1);
  c->sf = tf->priv;
  header_fast_init (&c->hf, c->sf->sc);
  c->clock = c->sf->sc ? c->sf->sc->clock : NULL;
  /* Nanosecond clocks whose offset fits 64 bits convert by one addition. */
  if (c->clock && c->clock->freq == 1000000000u && c->clock->base_ns >= (__int128) TTV_TIME_MIN
      && c->clock->base_ns <= (__int128) TTV_TIME_MAX)
    {
      c->ns_clock = TRUE;
      c->ns_base = (gint64) c->clock->base_ns;
      c->ns_count = (c->ns_base >= 0 ? (guint64) (TTV_TIME_MAX - c->ns_base) : (guint64) TTV_TIME_MAX) + 1;
    }
  for (guint i = 0; i < MAX_WINDOWS; i++)
    c->windows[i].w = (TtvFileWindow) TTV_FILE_WINDOW_INIT (c->sf->file);
  c->decoder = ttv_decoder_new ();
  c->failed_packet = NO_PACKET;
  /* The first turn goes the general way, which decides. */
  c->direct_generation = DIRECT_NEVER;
  return c;
}

static TtvCursor *
cursor_new (TtvTracefile *tf, gboolean few)
{
  CtfCursor *c = cursor_alloc (tf);
  c->few = few;
  /* When the first packet cannot be read, next() reports it. */
  reposition (c, TTV_TIME_MIN, -1, 0, &c->error);
  return (TtvCursor *) c;
}

TtvCursor *
ttv_ctf_cursor_new (TtvTracefile *tf, GError **error)
{
  return cursor_new (tf, FALSE);
}

TtvCursor *
ttv_ctf_cursor_new_few (TtvTracefile *tf, GError **error)
{
  return cursor_new (tf, TRUE);
}

guint64
ttv_ctf_packet_last_clock (TtvTracefile *tf, guint64 index)
{
  CtfCursor *c = cursor_alloc (tf);
  const CtfPacket *pk = &g_array_index (c->sf->packets, CtfPacket, index);
  guint64 last = pk->ts_begin;
  Lane *l = &c->lanes[0];
  if (lane_open (c, l, index, NULL))
    {
      c->n_lanes = 1;
      while (l->has_head)
        {
          last = l->clock;
          if (!lane_advance (c, l, NULL))
            break;
        }
    }
  ttv_ctf_cursor_free ((TtvCursor *) c);
  return last;
}

void
ttv_ctf_cursor_free (TtvCursor *cursor)
{
  CtfCursor *c = (CtfCursor *) cursor;
  ttv_decoder_free (c->decoder);
  g_free (c->known);
  for (guint i = 0; i < MAX_LANES; i++)
    if (c->notes[i].entries)
      g_array_unref (c->notes[i].entries);
  g_clear_error (&c->error);
  for (guint i = 0; i < MAX_WINDOWS; i++)
    ttv_file_window_clear (&c->windows[i].w);
  g_free (c);
}
