/* ttv-latency-module.c: the latency module's entry point: one view per
 * kernel analysis of latencies (system calls; scheduling: wakeups and
 * blocked intervals; IRQs: hard, soft and raise latency; block I/O; futex
 * waits), each the same widget (ttv-latency-viewer.c) over its tables, and
 * each with its display-free render (ttv --render syscall-latency...). */
#include "ttv-latency-viewer.h"

#include <glib/gi18n-lib.h>

static const char *const syscall_tables[] = { "calls", NULL };
static const char *const sched_tables[] = { "wakeups", "blocked", NULL };
static const char *const irq_tables[] = { "irqs", "softirqs", "raises", NULL };
static const char *const block_tables[] = { "requests", NULL };
static const char *const futex_tables[] = { "waits", NULL };

static const TtvLatencyKind kinds[] = {
  { "syscall-latency", TTV_VIEWER_KERNEL_SYSCALLS, syscall_tables, N_("calls"), FALSE, TRUE },
  { "sched-latency", TTV_VIEWER_KERNEL_SCHED, sched_tables, N_("intervals"), FALSE, FALSE },
  { "irq-latency", TTV_VIEWER_KERNEL_IRQ, irq_tables, N_("interrupts"), FALSE, FALSE },
  { "block-latency", TTV_VIEWER_KERNEL_BLOCK, block_tables, N_("requests"), TRUE, FALSE },
  { "futex-latency", TTV_VIEWER_KERNEL_FUTEX, futex_tables, N_("waits"), FALSE, FALSE },
};

/* A viewer and a render per kind (the SDK's entries take no data). */
#define KIND_ENTRIES(fn, i)                                                                        \
  static GtkWidget *fn##_new (TtvTabState *state) { return ttv_latency_viewer_new (state, &kinds[i]); } \
  static gboolean fn##_render (TtvTabState *state, cairo_t *cr, int width, int height, GError **error) \
  { return ttv_latency_render (state, &kinds[i], cr, width, height, error); }

KIND_ENTRIES (syscalls, 0)
KIND_ENTRIES (sched, 1)
KIND_ENTRIES (irq, 2)
KIND_ENTRIES (block, 3)
KIND_ENTRIES (futex, 4)

static const TtvViewerInfo infos[] = {
  { .name = "syscall-latency", .title = N_("System Calls"), .icon_name = "alarm-symbolic",
    .menu_label = N_("S_ystem Call Latency"), .new_viewer = syscalls_new, .render = syscalls_render,
    .translation_domain = GETTEXT_PACKAGE },
  { .name = "sched-latency", .title = N_("Scheduling"), .icon_name = "alarm-symbolic",
    .menu_label = N_("Sc_heduling Latency"), .new_viewer = sched_new, .render = sched_render,
    .translation_domain = GETTEXT_PACKAGE },
  { .name = "irq-latency", .title = N_("IRQs"), .icon_name = "alarm-symbolic",
    .menu_label = N_("_IRQ Latency"), .new_viewer = irq_new, .render = irq_render,
    .translation_domain = GETTEXT_PACKAGE },
  { .name = "block-latency", .title = N_("Block I/O"), .icon_name = "drive-harddisk-symbolic",
    .menu_label = N_("_Block I/O Latency"), .new_viewer = block_new, .render = block_render,
    .translation_domain = GETTEXT_PACKAGE },
  { .name = "futex-latency", .title = N_("Futex Waits"), .icon_name = "alarm-symbolic",
    .menu_label = N_("_Futex Waits"), .new_viewer = futex_new, .render = futex_render,
    .translation_domain = GETTEXT_PACKAGE },
};

TTV_VIEWER_MODULE (latency_init)

static void
latency_init (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (infos); i++)
    ttv_viewer_register (&infos[i]);
}
