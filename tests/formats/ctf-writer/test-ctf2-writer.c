/* test-ctf2-writer.c: ttv-gen --format ctf2 (CTF 2 as LTTng 2.15 writes it)
 * read back event for event against the CTF 1.8 writer's output of the same
 * simulation: times, event names, payloads and contexts, the state. */
#include "ttv-test-util.h"
#include "ttv-ctf-sim.h"
#include "ttv-ctf.h"
#include "ttv-decoder.h"
#include "ttv-error.h"
#include "ttv-trace.h"

#include <glib/gstdio.h>
#include <string.h>

static const char *tmp_root;   /* the program's temporary directory */

typedef struct {
  const char *name;
  TtvByteOrder order;
  guint long_bits;
  TtvCtfHeaderKind header;
  guint32 packet_size;
} Config;

static const Config configs[] = {
  { "le64-compact", TTV_BYTE_ORDER_LITTLE, 64, TTV_CTF_HEADER_COMPACT, 4096 },
  { "be32-large", TTV_BYTE_ORDER_BIG, 32, TTV_CTF_HEADER_LARGE, 8192 },
};

static char *
write_sim (const Config *c, TtvCtfMetadataFormat metadata)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *name = g_strdup_printf ("%s-%s", c->name, metadata == TTV_CTF_METADATA_CTF2 ? "ctf2" : "ctf");
  char *dir = g_build_filename (tmp_root, name, NULL);
  static const guint cpus[] = { 0, 1, 5 };
  TtvSimOptions so;
  ttv_sim_options_init (&so);
  so.seed = 7;
  so.cpu_ids = cpus;
  so.n_cpus = G_N_ELEMENTS (cpus);
  so.n_processes = 20;
  so.max_events = 20000;
  so.long_bits = so.pointer_bits = c->long_bits;
  g_autoptr (TtvSim) sim = ttv_sim_new (&so, &error);
  g_assert_no_error (error);
  TtvCtfWriterOptions wo = { .byte_order = c->order, .header = c->header, .packet_size = c->packet_size,
                             .long_bits = c->long_bits, .hostname = "rt-host", .metadata = metadata };
  TtvCtfSimStats stats;
  g_assert_true (ttv_ctf_write_simulation (dir, sim, &wo, NULL, NULL, &stats, &error));
  g_assert_no_error (error);
  /* The simulation's events, and the statedump's open files. */
  g_assert_cmpuint (stats.n_events, >=, 20000);
  g_assert_cmpuint (stats.n_events, <=, 20000 + 3 * so.n_processes);
  return dir;
}

/* The payload and the event's own contexts as JSON (the packet context
 * differs by design: CTF 2 packets also hold a sequence number, so they cut
 * the stream elsewhere). */
static char *
event_json (const TtvEvent *ev, TtvDecoder *d)
{
  g_autoptr (GError) error = NULL;
  gint32 scopes[TTV_EVENT_N_CONTEXTS];
  ttv_decoder_reset (d);
  gint32 root = ttv_event_decode_contexts (ev, d, scopes, &error);
  g_assert_no_error (error);
  GString *s = g_string_new (NULL);
  for (guint i = 0; i < TTV_EVENT_N_CONTEXTS; i++)
    if (scopes[i] >= 0 && i != TTV_EVENT_CONTEXT_PACKET)
      {
        ttv_decoder_append_value (d, (guint32) scopes[i], TTV_VALUE_STYLE_JSON, s);
        g_string_append_c (s, ' ');
      }
  ttv_decoder_append_value (d, (guint32) root, TTV_VALUE_STYLE_JSON, s);
  return g_string_free (s, FALSE);
}

static void
test_round_trip (gconstpointer data)
{
  const Config *c = data;
  g_autofree char *d1 = write_sim (c, TTV_CTF_METADATA_TSDL);
  g_autofree char *d2 = write_sim (c, TTV_CTF_METADATA_CTF2);

  /* LTTng 2.15's metadata: packets of CTF major 2 holding JSON fragments. */
  g_autofree char *meta = g_build_filename (d2, "metadata", NULL);
  g_autofree char *bytes = NULL;
  gsize len = 0;
  g_assert_true (g_file_get_contents (meta, &bytes, &len, NULL));
  g_assert_cmpuint (len % 4096, ==, 0);
  g_assert_cmpuint ((guint8) bytes[35], ==, 2);
  g_assert_cmpuint ((guint8) bytes[37], ==, 0x1e);

  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTrace) t1 = ttv_trace_open (d1, &error);
  g_assert_no_error (error);
  g_autoptr (TtvTrace) t2 = ttv_trace_open (d2, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (ttv_trace_get_info (t2, "ctf_version"), ==, "2");
  g_assert_cmpstr (ttv_trace_get_info (t2, "hostname"), ==, "rt-host");
  g_assert_cmpuint (t1->event_types->len, ==, t2->event_types->len);
  for (guint i = 0; i < t1->event_types->len; i++)
    {
      const TtvEventType *a = g_ptr_array_index (t1->event_types, i), *b = g_ptr_array_index (t2->event_types, i);
      g_assert_cmpstr (a->full_name, ==, b->full_name);
      g_assert_cmpuint (a->format_id, ==, b->format_id);
    }
  g_assert_cmpuint (t1->tracefiles->len, ==, t2->tracefiles->len);
  g_assert_cmpint (t1->start, ==, t2->start);
  g_assert_cmpint (t1->end, ==, t2->end);

  g_autoptr (TtvDecoder) dec = ttv_decoder_new ();
  guint64 n = 0;
  for (guint f = 0; f < t1->tracefiles->len; f++)
    {
      TtvTracefile *f1 = g_ptr_array_index (t1->tracefiles, f), *f2 = g_ptr_array_index (t2->tracefiles, f);
      g_assert_cmpstr (f1->name, ==, f2->name);
      g_assert_cmpint (f1->cpu, ==, f2->cpu);
      g_autoptr (TtvCursor) c1 = ttv_cursor_new (f1, &error);
      g_assert_no_error (error);
      g_autoptr (TtvCursor) c2 = ttv_cursor_new (f2, &error);
      g_assert_no_error (error);
      for (;;)
        {
          TtvEvent e1, e2;
          gboolean h1 = ttv_cursor_next (c1, &e1, &error);
          g_assert_no_error (error);
          gboolean h2 = ttv_cursor_next (c2, &e2, &error);
          g_assert_no_error (error);
          g_assert_cmpint (h1, ==, h2);
          if (!h1)
            break;
          g_assert_cmpint (e1.time, ==, e2.time);
          g_assert_cmpstr (e1.type->full_name, ==, e2.type->full_name);
          g_autofree char *j1 = event_json (&e1, dec);
          g_autofree char *j2 = event_json (&e2, dec);
          g_assert_cmpstr (j1, ==, j2);
          n++;
        }
    }
  g_assert_cmpuint (n, >=, 20000);

  /* The state the kernel model builds is the same. */
  const char *argv1[] = { TTV_REPORT_PATH, "--state", d1, NULL };
  const char *argv2[] = { TTV_REPORT_PATH, "--state", d2, NULL };
  g_autofree char *s1 = ttv_test_run_ok (argv1);
  g_autofree char *s2 = ttv_test_run_ok (argv2);
  g_assert_cmpstr (s1, ==, s2);
  ttv_test_remove_tree (d1);
  ttv_test_remove_tree (d2);
}

/* The command line: ttv-gen -f ctf2 (a folder and a .tar.gz), then the
 * babeltrace2 text of each. */
static void
test_ttv_gen (void)
{
  g_autofree char *d1 = g_build_filename (tmp_root, "gen-ctf", NULL);
  g_autofree char *d2 = g_build_filename (tmp_root, "gen-ctf2", NULL);
  const char *gen1[] = { TTV_GEN_PATH, "-q", "-f", "ctf", "-n", "30000", "-o", d1, NULL };
  const char *gen2[] = { TTV_GEN_PATH, "-q", "-f", "ctf2", "-n", "30000", "-o", d2, NULL };
  g_free (ttv_test_run_ok (gen1));
  g_free (ttv_test_run_ok (gen2));
  const char *r1[] = { TTV_REPORT_PATH, "--format=babeltrace", d1, NULL };
  const char *r2[] = { TTV_REPORT_PATH, "--format=babeltrace", d2, NULL };
  g_autofree char *o1 = ttv_test_run_ok (r1);
  g_autofree char *o2 = ttv_test_run_ok (r2);
  g_assert_cmpuint (strlen (o1), >, 1000);
  g_assert_cmpstr (o1, ==, o2);
  const char *i2[] = { TTV_REPORT_PATH, "--info", d2, NULL };
  g_autofree char *info = ttv_test_run_ok (i2);
  g_assert_nonnull (strstr (info, "ctf_version  2"));
  /* Written straight into a .tar.gz, read from it: the same events. */
  g_autofree char *a2 = g_build_filename (tmp_root, "gen-ctf2.tar.gz", NULL);
  const char *gen3[] = { TTV_GEN_PATH, "-q", "-f", "ctf2", "-n", "30000", "-o", a2, NULL };
  g_free (ttv_test_run_ok (gen3));
  const char *r3[] = { TTV_REPORT_PATH, "--format=babeltrace", a2, NULL };
  g_autofree char *o3 = ttv_test_run_ok (r3);
  g_assert_cmpstr (o3, ==, o2);
  ttv_test_remove_tree (d1);
  ttv_test_remove_tree (d2);
  g_unlink (a2);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  tmp_root = ttv_test_get_tmp_dir ();
  for (guint i = 0; i < G_N_ELEMENTS (configs); i++)
    {
      g_autofree char *path = g_strdup_printf ("/ctf2-writer/round-trip/%s", configs[i].name);
      g_test_add_data_func (path, &configs[i], test_round_trip);
    }
  g_test_add_func ("/ctf2-writer/ttv-gen", test_ttv_gen);
  int r = g_test_run ();
  return r;
}
