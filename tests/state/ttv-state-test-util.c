/* ttv-state-test-util.c: see the header. */
#include "ttv-state-test-util.h"
#include "ttv-ctf-sim.h"
#include "ttv-lttng-sim.h"

void
ttv_state_test_write_sim (const char *dir, TtvTestFormat format, const TtvSimOptions *so,
                          TtvByteOrder order, guint32 block_size)
{
  g_autoptr (GError) error = NULL;
  if (format == TTV_TEST_FORMAT_LTTNG)
    {
      TtvLttngWriterOptions wo = { .byte_order = order, .arch_size = 8, .alignment = 8, .tsc64 = TRUE,
                                   .buf_size = block_size };
      g_assert_true (ttv_lttng_write_simulation (dir, so, &wo, NULL, &error));
      g_assert_no_error (error);
      return;
    }
  g_autoptr (TtvSim) sim = ttv_sim_new (so, &error);
  g_assert_no_error (error);
  if (format == TTV_TEST_FORMAT_LTT)
    {
      guint n_slots = so->cpu_ids ? so->cpu_ids[so->n_cpus - 1] + 1 : so->n_cpus;
      ttv_test_write_ltt_simulation (dir, sim, block_size, n_slots, NULL, NULL);
      return;
    }
  TtvCtfWriterOptions wo = { .byte_order = order, .packet_size = block_size };
  g_assert_true (ttv_ctf_write_simulation (dir, sim, &wo, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
}
