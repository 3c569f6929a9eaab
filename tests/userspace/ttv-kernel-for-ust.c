/* ttv-kernel-for-ust.c: writes the kernel trace that the machine would have
 * recorded beside a userspace trace (kernel tracing does not work where the
 * tests run): from the UST trace's own events, the scheduler switches that
 * put each thread on the CPU where it emitted them, its process in the
 * statedump or its fork, under kernel tids that differ from the vtids by
 * OFFSET (as in a PID namespace).  test-userspace.sh merges both and checks
 * that the call stacks attach to the kernel's threads.
 * Usage: ttv-kernel-for-ust UST_TRACE OUT_DIR OFFSET */
#include "ttv-context.h"
#include "ttv-ctf-writer.h"
#include "ttv-event-owner.h"

#include <stdlib.h>
#include <string.h>

#define COMM_LEN 16

enum { STATEDUMP, FORK, SWITCH, N_EVENTS };

typedef struct {
  TtvTime time;
  gint cpu;
  guint32 tid, pid;             /* kernel ids */
  char comm[COMM_LEN];
} Sighting;

static TtvType *
integer (guint bits, gboolean is_signed)
{
  return ttv_type_new_integer (bits, is_signed, TTV_BYTE_ORDER_LITTLE, bits);
}

static void
comm_field (TtvType *s, const char *name)
{
  TtvType *c = ttv_type_new_integer (8, FALSE, TTV_BYTE_ORDER_LITTLE, 8);
  c->encoding = TTV_ENCODING_UTF8;
  ttv_type_add_field (s, name, ttv_type_new_array (c, COMM_LEN), NULL);
}

static void
s32_fields (TtvType *s, const char *const *names)
{
  for (guint i = 0; names[i]; i++)
    ttv_type_add_field (s, names[i], integer (32, TRUE), NULL);
}

/* The LTTng 2.x kernel layouts the kernel model reads. */
static void
declare_events (TtvCtfWriter *w)
{
  TtvType *dump = ttv_type_new_struct ();
  s32_fields (dump, (const char *const[]) { "tid", "vtid", "pid", "vpid", "ppid", "vppid", NULL });
  comm_field (dump, "name");
  s32_fields (dump, (const char *const[]) { "type", "mode", "submode", "status", "ns_level", NULL });
  TtvType *fork = ttv_type_new_struct ();
  comm_field (fork, "parent_comm");
  s32_fields (fork, (const char *const[]) { "parent_tid", "parent_pid", NULL });
  comm_field (fork, "child_comm");
  s32_fields (fork, (const char *const[]) { "child_tid", "child_pid", NULL });
  TtvType *sw = ttv_type_new_struct ();
  comm_field (sw, "prev_comm");
  s32_fields (sw, (const char *const[]) { "prev_tid", "prev_prio", NULL });
  ttv_type_add_field (sw, "prev_state", integer (64, TRUE), NULL);
  comm_field (sw, "next_comm");
  s32_fields (sw, (const char *const[]) { "next_tid", "next_prio", NULL });
  const struct { const char *name; TtvType *type; } events[N_EVENTS] = {
    { "lttng_statedump_process_state", dump }, { "sched_process_fork", fork }, { "sched_switch", sw },
  };
  for (guint i = 0; i < N_EVENTS; i++)
    {
      g_autoptr (GError) error = NULL;
      if (ttv_ctf_writer_add_event (w, events[i].name, events[i].type, &error) != (gint) i)
        g_error ("%s", error ? error->message : "unexpected event id");
      ttv_type_unref (events[i].type);
    }
}

static GArray *
read_sightings (const char *path, guint32 offset, TtvTime *first, char *host, gsize host_len)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTraceset) ts = ttv_traceset_new ();
  if (!ttv_traceset_add_path (ts, path, &error))
    g_error ("%s", error->message);
  const char *h = ttv_trace_get_info (ttv_traceset_get_trace (ts, 0), "hostname");
  g_strlcpy (host, h ? h : "ttv", host_len);
  g_autoptr (TtvContext) ctx = ttv_context_new (ts, &error);
  if (ctx == NULL || !ttv_context_seek_begin (ctx, &error))
    g_error ("%s", error->message);
  g_autoptr (TtvDecoder) decoder = ttv_decoder_new ();
  GArray *seen = g_array_new (FALSE, FALSE, sizeof (Sighting));
  const TtvEvent *ev;
  *first = TTV_TIME_MAX;
  while ((ev = ttv_context_next (ctx, &error)) != NULL)
    {
      TtvEventOwner owner;
      if (!ttv_event_owner_from_context (ev, decoder, &owner) || owner.tid < 0 || owner.pid < 0
          || ev->tracefile->cpu < 0)
        continue;
      Sighting s = { ev->time, ev->tracefile->cpu, (guint32) owner.tid + offset, (guint32) owner.pid + offset, "" };
      g_strlcpy (s.comm, owner.name, sizeof s.comm);
      *first = MIN (*first, ev->time);
      g_array_append_val (seen, s);
    }
  if (error)
    g_error ("%s", error->message);
  return seen;
}

static void
write_event (TtvCtfWriter *w, gint cpu, TtvTime t, guint event, const TtvScalar *v, guint n)
{
  g_autoptr (GError) error = NULL;
  if (!ttv_ctf_writer_write_event (w, (guint) cpu, t, event, v, n, &error))
    g_error ("%s", error->message);
}

static void
switch_to (TtvCtfWriter *w, gint cpu, TtvTime t, const Sighting *prev, const Sighting *next)
{
  TtvScalar v[] = {
    TTV_SCALAR_STRING (prev ? prev->comm : "swapper/0"), TTV_SCALAR_INT (prev ? prev->tid : 0), TTV_SCALAR_INT (20),
    TTV_SCALAR_INT (1), TTV_SCALAR_STRING (next ? next->comm : "swapper/0"), TTV_SCALAR_INT (next ? next->tid : 0),
    TTV_SCALAR_INT (20),
  };
  write_event (w, cpu, t, SWITCH, v, G_N_ELEMENTS (v));
}

int
main (int argc, char **argv)
{
  if (argc != 4)
    {
      g_printerr ("usage: %s UST_TRACE OUT_DIR OFFSET\n", argv[0]);
      return 2;
    }
  guint32 offset = (guint32) strtoul (argv[3], NULL, 10);
  char host[256];
  TtvTime first;
  g_autoptr (GArray) seen = read_sightings (argv[1], offset, &first, host, sizeof host);
  if (seen->len == 0)
    g_error ("%s: no event with vtid and vpid contexts", argv[1]);

  TtvCtfWriterOptions o = { 0 };
  o.byte_order = TTV_BYTE_ORDER_LITTLE;
  o.clock_offset = first - TTV_NSEC_PER_SEC;
  o.hostname = host;
  g_autoptr (GError) error = NULL;
  TtvCtfWriter *w = ttv_ctf_writer_new (argv[2], &o, &error);
  if (w == NULL)
    g_error ("%s", error->message);
  declare_events (w);

  /* The process's main thread (tid = pid) is there at the start
   * (statedump); the others are forked by it just before they first run. */
  const Sighting *main_thread = &g_array_index (seen, Sighting, 0);
  for (guint i = 0; i < seen->len; i++)
    if (g_array_index (seen, Sighting, i).tid == g_array_index (seen, Sighting, i).pid)
      {
        main_thread = &g_array_index (seen, Sighting, i);
        break;
      }
  TtvScalar dump[] = {
    TTV_SCALAR_INT (main_thread->tid), TTV_SCALAR_INT (main_thread->tid - offset),
    TTV_SCALAR_INT (main_thread->pid), TTV_SCALAR_INT (main_thread->pid - offset), TTV_SCALAR_INT (1),
    TTV_SCALAR_INT (1), TTV_SCALAR_STRING (main_thread->comm), TTV_SCALAR_INT (0), TTV_SCALAR_INT (0),
    TTV_SCALAR_INT (0), TTV_SCALAR_INT (5), TTV_SCALAR_INT (1),
  };
  write_event (w, g_array_index (seen, Sighting, 0).cpu, first - 1000000, STATEDUMP, dump, G_N_ELEMENTS (dump));

  g_autoptr (GHashTable) known = g_hash_table_new (NULL, NULL);        /* tid -> its CPU + 1 */
  g_autoptr (GHashTable) running = g_hash_table_new (NULL, NULL);      /* CPU + 1 -> Sighting * */
  g_hash_table_insert (known, GUINT_TO_POINTER (main_thread->tid), GINT_TO_POINTER (0));
  for (guint i = 0; i < seen->len; i++)
    {
      const Sighting *s = &g_array_index (seen, Sighting, i);
      const Sighting *on_cpu = g_hash_table_lookup (running, GINT_TO_POINTER (s->cpu + 1));
      if (on_cpu && on_cpu->tid == s->tid)
        continue;
      gpointer where;
      if (!g_hash_table_lookup_extended (known, GUINT_TO_POINTER (s->tid), NULL, &where))
        {
          TtvScalar fork[] = {
            TTV_SCALAR_STRING (main_thread->comm), TTV_SCALAR_INT (main_thread->tid), TTV_SCALAR_INT (main_thread->pid),
            TTV_SCALAR_STRING (s->comm), TTV_SCALAR_INT (s->tid), TTV_SCALAR_INT (s->pid),
          };
          write_event (w, s->cpu, s->time, FORK, fork, G_N_ELEMENTS (fork));
        }
      else if (GPOINTER_TO_INT (where) > 0 && GPOINTER_TO_INT (where) - 1 != s->cpu)
        {
          /* It moved: it left the other CPU first. */
          gint old = GPOINTER_TO_INT (where) - 1;
          const Sighting *there = g_hash_table_lookup (running, GINT_TO_POINTER (old + 1));
          if (there && there->tid == s->tid)
            {
              switch_to (w, old, s->time, there, NULL);
              g_hash_table_remove (running, GINT_TO_POINTER (old + 1));
            }
        }
      switch_to (w, s->cpu, s->time, on_cpu, s);
      g_hash_table_insert (running, GINT_TO_POINTER (s->cpu + 1), (gpointer) s);
      g_hash_table_insert (known, GUINT_TO_POINTER (s->tid), GINT_TO_POINTER (s->cpu + 1));
    }
  if (!ttv_ctf_writer_close (w, &error))
    g_error ("%s", error->message);
  return 0;
}
