/* ttv-state-test-util.h: what the state tests share: a simulated machine
 * written as a trace in any of the formats ttv reads. */
#pragma once

#include "ttv-test-util.h"

G_BEGIN_DECLS

typedef enum { TTV_TEST_FORMAT_LTT, TTV_TEST_FORMAT_LTTNG, TTV_TEST_FORMAT_CTF } TtvTestFormat;

/* Runs the simulation of @so and writes it to @dir in @format (LP64, @order;
 * LTT always little-endian) with blocks or packets of @block_size bytes.
 * Fails the test on error. */
void ttv_state_test_write_sim (const char *dir, TtvTestFormat format, const TtvSimOptions *so,
                               TtvByteOrder order, guint32 block_size);

G_END_DECLS
