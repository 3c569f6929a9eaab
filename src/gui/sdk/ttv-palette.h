/* ttv-palette.h: the named colours of the time-line views (control flow,
 * resources), which the user edits in Preferences: what modules draw with.
 * Part of the installed SDK: include ttv-viewer.h, not this file. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The palette: names are the keys of the GSettings dictionary
 * org.ttv.Viewer timeline-colors ("run-user" -> "#33a02c"); a name missing
 * from the dictionary keeps its default.  New entries are added at the end
 * only. */
typedef enum {
  TTV_PALETTE_RUN_USER,
  TTV_PALETTE_RUN_SYSCALL,
  TTV_PALETTE_RUN_TRAP,
  TTV_PALETTE_RUN_IRQ,
  TTV_PALETTE_RUN_SOFTIRQ,
  TTV_PALETTE_RUN_UNKNOWN,
  TTV_PALETTE_WAIT_CPU,
  TTV_PALETTE_WAIT_FORK,
  TTV_PALETTE_BLOCKED,
  TTV_PALETTE_ZOMBIE,
  TTV_PALETTE_EXITED,
  TTV_PALETTE_UNKNOWN,
  TTV_PALETTE_CPU_IDLE,
  TTV_PALETTE_IRQ_ACTIVE,
  TTV_PALETTE_BLOCKDEV_BUSY,
  /* Marks and overlays of the time lines (API version 2, added later). */
  TTV_PALETTE_MARK_FORK,
  TTV_PALETTE_MARK_EXEC,
  TTV_PALETTE_MARK_EXIT,
  TTV_PALETTE_WAKEUP,
  TTV_PALETTE_LOST_EVENTS,
  TTV_PALETTE_MIXED,
  TTV_PALETTE_N_COLORS
} TtvPaletteColor;

/* The settings key holding the palette. */
#define TTV_PALETTE_SETTINGS_KEY "timeline-colors"

/* Translated: "Running, user" (legends, tooltips). */
const char *ttv_palette_get_label (TtvPaletteColor color);
/* The colour @settings holds for @color (its default when absent or not a
 * colour).  @settings may be NULL (ttv_viewer_dup_settings() found no
 * schema): the default. */
void        ttv_palette_get_rgba (GSettings *settings, TtvPaletteColor color, GdkRGBA *rgba);

G_END_DECLS
