/* ttv-test-edited-ctf.c: small generated CTF kernel traces edited to hold
 * what ttv-gen does not write (see ttv-test-util.h): packets that say the
 * tracer lost events or whole packets, for the tests of lost events in
 * ttv-report, its statistics and the viewer; event classes with LTTng log
 * levels and EMF URIs, for --list-events and the event details. */
#include "ttv-ctf-sim.h"
#include "ttv-test-util.h"

#include <glib/gstdio.h>

/* The writer's packets are all @packet_size bytes: packet i is at
 * i * packet_size.  Its packet context (little-endian, 64-bit longs) holds
 * packet_seq_num (CTF 2 only) and events_discarded at these offsets. */
#define PACKET_SIZE 4096
#define CTF2_SEQ_NUM 64
#define CTF2_DISCARDED 72
#define CTF1_DISCARDED 56

/* One CPU, 10 processes, 3000 events, seed 5, host "lost-host", 4 KiB
 * packets, at the test's temporary path @name. */
static char *
write_small_ctf (const char *name, gboolean ctf2)
{
  g_autoptr (GError) error = NULL;
  static const guint cpus[] = { 0 };
  char *dir = ttv_test_dup_tmp_path (name);
  TtvSimOptions so;

  ttv_sim_options_init (&so);
  so.seed = 5;
  so.cpu_ids = cpus;
  so.n_cpus = 1;
  so.n_processes = 10;
  so.max_events = 3000;
  {
    g_autoptr (TtvSim) sim = ttv_sim_new (&so, &error);
    TtvCtfWriterOptions wo = { .byte_order = TTV_BYTE_ORDER_LITTLE, .header = TTV_CTF_HEADER_COMPACT,
                               .packet_size = PACKET_SIZE, .long_bits = 64, .hostname = "lost-host",
                               .metadata = ctf2 ? TTV_CTF_METADATA_CTF2 : TTV_CTF_METADATA_TSDL };

    g_assert_no_error (error);
    g_assert_true (ttv_ctf_write_simulation (dir, sim, &wo, NULL, NULL, NULL, &error));
    g_assert_no_error (error);
  }
  return dir;
}

char *
ttv_test_write_lost_ctf (const char *name, const TtvTestLostOptions *lost)
{
  gboolean ctf2 = lost->ctf2;
  char *dir = write_small_ctf (name, ctf2);
  g_autofree char *stream = g_build_filename (dir, "channel0_0", NULL);
  GStatBuf st;

  g_assert_true (ctf2 || !lost->skip_packets);
  g_assert_cmpint (g_stat (stream, &st), ==, 0);
  g_assert_cmpint (st.st_size % PACKET_SIZE, ==, 0);
  g_assert_cmpint (st.st_size / PACKET_SIZE, >, 8);
  for (guint i = 0; i < st.st_size / PACKET_SIZE; i++)
    {
      gsize at = (gsize) i * PACKET_SIZE;
      guint64 discarded = GUINT64_TO_LE (lost->first_discarded + (i < 6 ? 0 : lost->later_discarded));

      ttv_test_patch_file (dir, "channel0_0", at + (ctf2 ? CTF2_DISCARDED : CTF1_DISCARDED), &discarded, 8);
      if (lost->skip_packets && i >= 3)
        {
          guint64 seq = GUINT64_TO_LE (i + 2);

          ttv_test_patch_file (dir, "channel0_0", at + CTF2_SEQ_NUM, &seq, 8);
        }
    }
  return dir;
}

/* Puts @attributes after the line `name = "@event";` of the TSDL @text. */
static void
add_to_event (GString *text, const char *event, const char *attributes)
{
  g_autofree char *line = g_strdup_printf ("\tname = \"%s\";\n", event);
  const char *at = strstr (text->str, line);

  g_assert_nonnull (at);
  g_string_insert (text, (at - text->str) + (gssize) strlen (line), attributes);
}

char *
ttv_test_write_ctf_log_levels (const char *name)
{
  char *dir = write_small_ctf (name, FALSE);
  g_autofree char *path = g_build_filename (dir, "metadata", NULL);
  g_autofree char *contents = NULL;
  g_autoptr (GString) text = NULL;

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  text = g_string_new (contents);
  add_to_event (text, "sched_switch", "\tloglevel = 4;\n\tmodel.emf.uri = \"http://example.org/sched\";\n");
  add_to_event (text, "irq_handler_entry", "\tloglevel = 13;\n");
  g_assert_true (g_file_set_contents (path, text->str, (gssize) text->len, NULL));
  return dir;
}
