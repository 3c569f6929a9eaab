/* ttv-ctf-meta.c: the resolution pass of the CTF reader: links event classes
 * to stream classes, finds clocks, prepares the event header fast path. */
#include "ttv-ctf-private.h"

#include <string.h>

#define DENSE_ID_LIMIT 65536

CtfMeta *
ttv_ctf_meta_new (void)
{
  CtfMeta *m = g_new0 (CtfMeta, 1);
  m->major = 1;
  m->minor = 8;
  m->byte_order = TTV_BYTE_ORDER_NATIVE;
  m->env_keys = g_ptr_array_new_with_free_func (g_free);
  m->env_values = g_ptr_array_new_with_free_func (g_free);
  m->env_is_string = g_ptr_array_new ();
  m->clocks = g_ptr_array_new ();
  m->streams = g_ptr_array_new ();
  m->events = g_ptr_array_new ();
  m->notes = g_ptr_array_new_with_free_func (g_free);
  return m;
}

static void
clock_free (CtfClock *c)
{
  g_free (c->name);
  g_free (c->description);
  g_free (c);
}

static void
stream_free (CtfStreamClass *s)
{
  g_clear_pointer (&s->packet_context, ttv_type_unref);
  g_clear_pointer (&s->event_header, ttv_type_unref);
  g_clear_pointer (&s->event_context, ttv_type_unref);
  g_ptr_array_unref (s->events);
  if (s->by_id)
    g_ptr_array_unref (s->by_id);
  if (s->by_id_hash)
    g_hash_table_unref (s->by_id_hash);
  g_free (s);
}

gpointer
ttv_ctf_event_class_install_plan (gpointer *slot, gpointer plan, GDestroyNotify free_plan)
{
  if (g_atomic_pointer_compare_and_exchange (slot, NULL, plan))
    return plan;
  free_plan (plan);
  return g_atomic_pointer_get (slot);
}

static void
event_free (CtfEventClass *e)
{
  g_free (e->name);
  g_free (e->emf_uri);
  g_clear_pointer (&e->context, ttv_type_unref);
  g_clear_pointer (&e->fields, ttv_type_unref);
  ttv_ctf_text_plan_free (e->text);
  ttv_ctf_jsonl_plan_free (e->jsonl);
  g_free (e);
}

void
ttv_ctf_meta_free (CtfMeta *m)
{
  if (m == NULL)
    return;
  g_clear_pointer (&m->packet_header, ttv_type_unref);
  g_ptr_array_unref (m->env_keys);
  g_ptr_array_unref (m->env_values);
  g_ptr_array_unref (m->env_is_string);
  g_ptr_array_foreach (m->clocks, (GFunc) (void (*) (void)) clock_free, NULL);
  g_ptr_array_unref (m->clocks);
  g_ptr_array_foreach (m->streams, (GFunc) (void (*) (void)) stream_free, NULL);
  g_ptr_array_unref (m->streams);
  g_ptr_array_foreach (m->events, (GFunc) (void (*) (void)) event_free, NULL);
  g_ptr_array_unref (m->events);
  g_ptr_array_unref (m->notes);
  g_free (m->path);
  g_free (m);
}

CtfStreamClass *
ttv_ctf_meta_find_stream (const CtfMeta *m, guint64 id)
{
  for (guint i = 0; i < m->streams->len; i++)
    {
      CtfStreamClass *s = g_ptr_array_index (m->streams, i);
      if (s->id == id)
        return s;
    }
  return NULL;
}

CtfEventClass *
ttv_ctf_stream_find_event (const CtfStreamClass *sc, guint64 id)
{
  if (sc->by_id)
    return id < sc->by_id->len ? g_ptr_array_index (sc->by_id, id) : NULL;
  return g_hash_table_lookup (sc->by_id_hash, &id);
}

CtfClock *
ttv_ctf_meta_find_clock (const CtfMeta *m, const char *name)
{
  for (guint i = 0; i < m->clocks->len; i++)
    {
      CtfClock *c = g_ptr_array_index (m->clocks, i);
      if (name == NULL || g_strcmp0 (c->name, name) == 0)
        return c;
    }
  return NULL;
}

static TtvTime
saturate (__int128 v)
{
  if (v > (__int128) TTV_TIME_MAX)
    return TTV_TIME_MAX;
  if (v < (__int128) TTV_TIME_MIN)
    return TTV_TIME_MIN;
  return (TtvTime) v;
}

TtvTime
ttv_ctf_clock_to_time (const CtfClock *c, guint64 value)
{
  if (c == NULL)
    return value > (guint64) TTV_TIME_MAX ? TTV_TIME_MAX : (TtvTime) value;
  if (c->freq == 1000000000u)
    return saturate (c->base_ns + (__int128) value);
  return saturate (c->base_ns + (__int128) value * 1000000000 / (__int128) c->freq);
}

static void
clock_prepare (CtfClock *c)
{
  /* offset cycles >= freq move into seconds (as babeltrace2 does), so that
   * the sub-second part alone is converted; 128 bits hold any offset. */
  __int128 secs = c->offset_s;
  __int128 cyc = c->offset;
  __int128 f = (__int128) c->freq;
  __int128 q = cyc / f, r = cyc % f;
  if (r < 0)
    {
      r += f;
      q--;
    }
  secs += q;
  c->base_ns = secs * 1000000000 + r * 1000000000 / f;
  /* Keep room for 2^62 ns (146 years) of clock values after the offset:
   * an offset beyond would saturate every time to one value and lose the
   * events' spacing. */
  c->relative = c->base_ns > (__int128) TTV_TIME_MAX / 2 || c->base_ns < (__int128) TTV_TIME_MIN / 2;
  if (c->relative)
    c->base_ns = 0;
}

static const TtvField *
field_at (const TtvType *t, guint i)
{
  return t && t->fields && i < t->fields->len ? g_ptr_array_index (t->fields, i) : NULL;
}

/* The integer of @t (or below, through structs and variants) with @role,
 * the last one when several have it. */
static const TtvType *
find_role_type (const TtvType *t, guint32 role)
{
  const TtvType *best = NULL;
  for (guint i = 0; t && t->fields && i < t->fields->len; i++)
    {
      const TtvType *f = field_at (t, i)->type;
      if ((f->kind == TTV_TYPE_INTEGER || f->kind == TTV_TYPE_ENUM) && (f->roles & role))
        best = f;
      else if (f->kind == TTV_TYPE_STRUCT || f->kind == TTV_TYPE_VARIANT)
        {
          const TtvType *below = find_role_type (f, role);
          if (below)
            best = below;
        }
    }
  return best;
}

static gboolean
role_field (const TtvType *t, guint i, guint32 role)
{
  const TtvField *f = field_at (t, i);
  return f && f->type->kind == TTV_TYPE_INTEGER && !f->type->is_signed && !f->type->leb128
         && (f->type->roles & role);
}

/* The selector values of the LTTng header's options: from the variant's
 * ranges (CTF 2) or the id enum's labels (CTF 1.8).  The compact option is
 * one range, the extended one a single value outside it. */
static gboolean
header_ranges (const TtvType *e, const TtvType *v, gint ic, gint ie, guint64 *cs, guint64 *ce, guint64 *xv)
{
  gboolean have_c = FALSE, have_x = FALSE;
  if (v->option_ranges)
    {
      for (guint i = 0; i < v->option_ranges->len; i++)
        {
          const TtvOptionRange *r = &g_array_index (v->option_ranges, TtvOptionRange, i);
          if ((gint) r->option == ic && !have_c)
            *cs = r->start, *ce = r->end, have_c = TRUE;
          else if ((gint) r->option == ie && !have_x && r->start == r->end)
            *xv = r->start, have_x = TRUE;
          else
            return FALSE;
        }
    }
  else
    {
      for (guint i = 0; i < e->mappings->len; i++)
        {
          const TtvEnumMapping *m = &g_array_index (e->mappings, TtvEnumMapping, i);
          if (!strcmp (m->label, "compact") && !have_c)
            *cs = m->start, *ce = m->end, have_c = TRUE;
          else if (!strcmp (m->label, "extended") && !have_x && m->start == m->end)
            *xv = m->start, have_x = TRUE;
          else
            return FALSE;
        }
    }
  return have_c && have_x && (*xv < *cs || *xv > *ce);
}

/* Recognises LTTng's event_header_compact / event_header_large (by roles,
 * so that CTF 1.8 and CTF 2 headers take the same fast path). */
static void
prepare_header (CtfStreamClass *sc)
{
  const TtvType *h = sc->event_header;
  sc->header_kind = CTF_HEADER_GENERIC;
  if (!h || h->fields->len != 2)
    return;
  const TtvField *fid = field_at (h, 0), *fv = field_at (h, 1);
  if (fid->type->kind != TTV_TYPE_ENUM || fid->type->is_signed || fid->type->container->leb128
      || fid->type->container->reverse_bits || !(fid->type->roles & TTV_ROLE_EVENT_CLASS_ID)
      || fv->type->kind != TTV_TYPE_VARIANT || fv->type->optional || fv->type->fields->len != 2
      || !fv->type->ref)
    return;
  g_autofree char *id_path = g_strconcat ("stream.event.header.", fid->name, NULL);
  if (strcmp (fv->type->ref, fid->name) && strcmp (fv->type->ref, id_path))
    return;
  const TtvType *e = fid->type;
  const TtvType *v = fv->type;
  gint ic = ttv_type_find_field (v, "compact"), ie = ttv_type_find_field (v, "extended");
  if (ic < 0 || ie < 0)
    return;
  const TtvType *c = field_at (v, (guint) ic)->type, *x = field_at (v, (guint) ie)->type;
  if (c->kind != TTV_TYPE_STRUCT || x->kind != TTV_TYPE_STRUCT || c->fields->len != 1
      || x->fields->len != 2 || !role_field (c, 0, TTV_ROLE_CLOCK_TIMESTAMP)
      || !role_field (x, 0, TTV_ROLE_EVENT_CLASS_ID) || !role_field (x, 1, TTV_ROLE_CLOCK_TIMESTAMP))
    return;
  guint64 cs = 0, ce = 0, xv = 0;
  if (!header_ranges (e, v, ic, ie, &cs, &ce, &xv))
    return;
  const TtvType *cts = field_at (c, 0)->type, *xid = field_at (x, 0)->type, *xts = field_at (x, 1)->type;
  TtvByteOrder o = e->byte_order;
  if (cts->byte_order != o || xid->byte_order != o || xts->byte_order != o || cts->reverse_bits
      || xid->reverse_bits || xts->reverse_bits)
    return;
  sc->header_order = o;
  sc->h_align = h->align_bits;
  sc->h_id_bits = e->size_bits;
  sc->h_id_align = e->align_bits;
  sc->h_ext_value = (guint) xv;
  sc->h_c_align = c->align_bits;
  sc->h_c_ts_bits = cts->size_bits;
  sc->h_c_ts_align = cts->align_bits;
  sc->h_e_align = x->align_bits;
  sc->h_e_id_bits = xid->size_bits;
  sc->h_e_id_align = xid->align_bits;
  sc->h_e_ts_bits = xts->size_bits;
  sc->h_e_ts_align = xts->align_bits;
  sc->h_compact_start = cs;
  sc->h_compact_end = ce;
  if (xv > G_MAXUINT)
    return;
  sc->header_kind = CTF_HEADER_LTTNG;
}

/* --- CTF 1.8's reserved names as roles ------------------------------------ */

/* Gives @role to the integer member @name of @compound, on a copy of its
 * type: typealiases share one type between members (timestamp_begin and
 * timestamp_end are often the same uint64_clock_monotonic_t). */
static void
give_role (TtvType *compound, const char *name, guint32 role)
{
  gint i = ttv_type_find_field (compound, name);
  if (i < 0)
    return;
  TtvField *f = g_ptr_array_index (compound->fields, (guint) i);
  gboolean integer = f->type->kind == TTV_TYPE_INTEGER || f->type->kind == TTV_TYPE_ENUM;
  gboolean bytes = f->type->kind == TTV_TYPE_ARRAY && f->type->length == 16;
  if (!(role == TTV_ROLE_METADATA_UUID ? bytes : integer) || (f->type->roles & role) == role)
    return;
  TtvType *copy = ttv_type_copy (f->type);
  copy->roles |= role;
  ttv_type_unref (f->type);
  f->type = copy;
}

/* Every integer named @name in @t (through structs, variants and arrays),
 * as babeltrace2 finds the event header's "id"; and integers mapped to a
 * clock, which update it. */
static void
give_role_below (TtvType *t, const char *name, guint32 role, gboolean clocked)
{
  for (guint i = 0; t->fields && i < t->fields->len; i++)
    {
      TtvField *f = g_ptr_array_index (t->fields, i);
      TtvType *ft = f->type;
      if ((ft->kind == TTV_TYPE_INTEGER || ft->kind == TTV_TYPE_ENUM)
          && (g_strcmp0 (f->name, name) == 0 || (clocked && ft->clock_name)))
        give_role (t, f->name, role);
      else if (ft->kind == TTV_TYPE_STRUCT || ft->kind == TTV_TYPE_VARIANT)
        {
          /* Shared struct types get their own copy before a member changes. */
          if (ft->ref_count > 1)
            {
              f->type = ttv_type_copy (ft);
              ttv_type_unref (ft);
            }
          give_role_below (f->type, name, role, clocked);
        }
    }
}

static void
assign_tsdl_roles (CtfMeta *m)
{
  if (m->packet_header && m->packet_header->kind == TTV_TYPE_STRUCT)
    {
      give_role (m->packet_header, "magic", TTV_ROLE_PACKET_MAGIC);
      give_role (m->packet_header, "uuid", TTV_ROLE_METADATA_UUID);
      give_role (m->packet_header, "stream_id", TTV_ROLE_STREAM_CLASS_ID);
      give_role (m->packet_header, "stream_instance_id", TTV_ROLE_STREAM_ID);
    }
  for (guint i = 0; i < m->streams->len; i++)
    {
      CtfStreamClass *s = g_ptr_array_index (m->streams, i);
      TtvType *pc = s->packet_context;
      if (pc && pc->kind == TTV_TYPE_STRUCT)
        {
          give_role (pc, "timestamp_begin", TTV_ROLE_CLOCK_TIMESTAMP);
          give_role (pc, "timestamp_end", TTV_ROLE_PACKET_END_TIMESTAMP);
          give_role (pc, "events_discarded", TTV_ROLE_DISCARDED_EVENTS);
          give_role (pc, "packet_seq_num", TTV_ROLE_PACKET_SEQ_NUM);
          give_role (pc, "packet_size", TTV_ROLE_PACKET_TOTAL_BITS);
          give_role (pc, "content_size", TTV_ROLE_PACKET_CONTENT_BITS);
        }
      if (s->event_header && s->event_header->kind == TTV_TYPE_STRUCT)
        {
          give_role_below (s->event_header, "id", TTV_ROLE_EVENT_CLASS_ID, FALSE);
          give_role_below (s->event_header, "timestamp", TTV_ROLE_CLOCK_TIMESTAMP, TRUE);
        }
    }
}

static void
finish_type (TtvType *t)
{
  if (t)
    ttv_type_finish (t);
}

void
ttv_ctf_meta_finish (CtfMeta *m)
{
  for (guint i = 0; i < m->clocks->len; i++)
    clock_prepare (g_ptr_array_index (m->clocks, i));
  if (m->major < 2)
    assign_tsdl_roles (m);
  finish_type (m->packet_header);
  /* Traces with events but no stream block have one implicit stream class. */
  if (m->streams->len == 0)
    {
      CtfStreamClass *s = g_new0 (CtfStreamClass, 1);
      s->events = g_ptr_array_new ();
      g_ptr_array_add (m->streams, s);
    }
  for (guint i = 0; i < m->streams->len; i++)
    {
      CtfStreamClass *s = g_ptr_array_index (m->streams, i);
      finish_type (s->packet_context);
      finish_type (s->event_header);
      finish_type (s->event_context);
      prepare_header (s);
      /* The clock of the timestamps: the header's, the packet context's,
       * or the only one (CTF 2 names it, the converter set clock_name). */
      const TtvType *ts = find_role_type (s->event_header, TTV_ROLE_CLOCK_TIMESTAMP);
      if (!ts)
        ts = find_role_type (s->packet_context, TTV_ROLE_CLOCK_TIMESTAMP);
      if (!s->clock && ts && ts->clock_name)
        s->clock = ttv_ctf_meta_find_clock (m, ts->clock_name);
      /* Events have a time when the stream class has a default clock: in
       * CTF 2 when it names one, in CTF 1.8 when a timestamp field exists
       * (mapped to a clock, or babeltrace2's implicit 1 GHz one). */
      if (m->major < 2)
        {
          if (!s->clock && m->clocks->len == 1)
            s->clock = g_ptr_array_index (m->clocks, 0);
          s->has_time = ts != NULL;
        }
      else
        s->has_time = s->clock != NULL;
    }
  for (guint i = 0; i < m->events->len; i++)
    {
      CtfEventClass *e = g_ptr_array_index (m->events, i);
      finish_type (e->context);
      finish_type (e->fields);
      CtfStreamClass *s = e->has_stream_id ? ttv_ctf_meta_find_stream (m, e->stream_id)
                          : m->streams->len == 1 ? g_ptr_array_index (m->streams, 0) : NULL;
      if (s == NULL)
        continue;  /* an event of an undeclared stream class cannot appear */
      e->stream = s;
      g_ptr_array_add (s->events, e);
    }
  for (guint i = 0; i < m->streams->len; i++)
    ttv_ctf_stream_index_events (g_ptr_array_index (m->streams, i));
}

void
ttv_ctf_stream_index_events (CtfStreamClass *s)
{
  g_clear_pointer (&s->by_id, g_ptr_array_unref);
  g_clear_pointer (&s->by_id_hash, g_hash_table_unref);
  guint64 max_id = 0;
  for (guint j = 0; j < s->events->len; j++)
    max_id = MAX (max_id, ((CtfEventClass *) g_ptr_array_index (s->events, j))->id);
  if (max_id < DENSE_ID_LIMIT)
    {
      s->by_id = g_ptr_array_new ();
      g_ptr_array_set_size (s->by_id, s->events->len ? (guint) max_id + 1 : 0);
    }
  else
    s->by_id_hash = g_hash_table_new (g_int64_hash, g_int64_equal);
  for (guint j = 0; j < s->events->len; j++)
    {
      CtfEventClass *e = g_ptr_array_index (s->events, j);
      if (s->by_id)
        {
          if (g_ptr_array_index (s->by_id, e->id) == NULL)
            g_ptr_array_index (s->by_id, e->id) = e;
        }
      else if (!g_hash_table_contains (s->by_id_hash, &e->id))
        g_hash_table_insert (s->by_id_hash, &e->id, e);
    }
}
