/* ttv-viewer-widget.h: the widget part of the plugin SDK (GTK and cairo):
 * what a viewer module gives the host to show a view (its registration:
 * name, titles, constructor, the display-free render) and what the host
 * gives every view besides the tab (marker colours, image files, the
 * Export… dialog, the first paint).
 * Part of the installed SDK: include ttv-viewer.h, not this file. */
#pragma once

#include <cairo.h>
#include <gtk/gtk.h>

#include "ttv-viewer-time-scale.h"
#include "ttv-viewer-types.h"

G_BEGIN_DECLS

/* --- Registration ------------------------------------------------------------ */

/* A new viewer widget for a tab (the tab shows it in its notebook). */
typedef GtkWidget *(*TtvViewerNewFunc) (TtvTabState *state);
/* Draws the view of @state on @cr, @width x @height pixels, as a new
 * viewer of the tab would show it, from the tab's data alone: no widget,
 * no display, no main loop (what `ttv --render` writes to PNG or SVG).
 * FALSE with @error when it cannot (a size too small for the view). */
typedef gboolean (*TtvViewerRenderFunc) (TtvTabState *state, cairo_t *cr, int width, int height,
                                         GError **error);
/* Writes that view to the SVG file @path itself (a view whose SVG is best
 * as text, such as a table, keeps it searchable). */
typedef gboolean (*TtvViewerWriteFunc) (TtvTabState *state, const char *path, int width, int height,
                                        GError **error);

typedef struct {
  const char *name;          /* unique, [a-z0-9-]+: "events" (also `ttv --render NAME`) */
  /* The tab's title and the View menu's label (with a mnemonic), as
   * written in the source (marked for xgettext): the host translates them in
   * @translation_domain. */
  const char *title;         /* "Events" */
  const char *icon_name;     /* themed icon, may be NULL */
  const char *menu_label;    /* "_Detailed Event List" */
  TtvViewerNewFunc new_viewer;
  /* Optional: start a text search in this viewer (Ctrl+F). */
  void (*find) (GtkWidget *viewer);
  /* Shown when a tab opens (else only from the View menu). */
  gboolean show_by_default;
  /* The gettext domain of @title and @menu_label (the module binds it,
   * bindtextdomain(), before it registers); NULL: shown as written. */
  const char *translation_domain;
  /* Optional: the display-free render (`ttv --render NAME`); NULL: the
   * view cannot be rendered headless. */
  TtvViewerRenderFunc render;
  /* Optional, with @render: writes an SVG file instead of the host's
   * drawing of @render on a cairo SVG surface. */
  TtvViewerWriteFunc write_svg;
  /* Zero: fields later versions of this header may add. */
  gpointer reserved[8];
} TtvViewerInfo;

/* Copies @info (the strings must stay valid: they are usually static). */
void        ttv_viewer_register (const TtvViewerInfo *info);

/* --- Marker colours ----------------------------------------------------------------
 * The colours of the current time, the selected interval and bookmark marks,
 * as chosen in Preferences, or their defaults. */
typedef enum {
  TTV_VIEWER_MARKER_CURRENT_TIME,
  TTV_VIEWER_MARKER_SELECTION,
  TTV_VIEWER_MARKER_BOOKMARK,
} TtvViewerMarker;

void        ttv_viewer_get_marker_rgba (TtvViewerMarker marker, GdkRGBA *rgba);
/* Redraws @widget whenever one of these colours changes (until it is
 * destroyed). */
void        ttv_viewer_watch_marker_colors (GtkWidget *widget);

/* --- Time gaps ------------------------------------------------------------------------
 * The marks of @scale's compressed idle gaps (ttv-viewer-time-scale.h)
 * across the band (@y, @height): a grey ground between two zigzag lines,
 * the idle time written down it where it fits, so that nobody reads the
 * gap as time.  What the time bar and ttv's views draw (SDK 15). */
void        ttv_viewer_draw_time_gaps (cairo_t *cr, const TtvTimeScale *scale, double y, double height);

/* --- Images and export ---------------------------------------------------------------- */

/* Draws a view of @width x @height pixels on @cr. */
typedef void (*TtvViewerDrawFunc) (gpointer data, cairo_t *cr, int width, int height);

/* Writes what @draw draws to @path: SVG when it ends in .svg, else PNG.
 * FALSE with @error (naming @path) when the size is not from 1x1 to
 * 32767x32767 or the file cannot be written.  No display needed. */
gboolean    ttv_viewer_write_image (const char *path, int width, int height, TtvViewerDrawFunc draw,
                                    gpointer data, GError **error);

/* The same as PNG, drawn on @surface (an image surface, cleared first: the
 * pixels are a new surface's), which the caller may draw on again: the
 * frames of `ttv --render --repeat`, drawn as a widget draws, on a surface
 * whose pages are already there. */
gboolean    ttv_viewer_write_png_on (cairo_surface_t *surface, const char *path, TtvViewerDrawFunc draw,
                                     gpointer data, GError **error);

/* Writes the file the user chose; FALSE with @error, which the dialog shows. */
typedef gboolean (*TtvViewerSaveFunc) (GtkWidget *viewer, const char *path, GError **error);

/* A save dialog over @viewer's window proposing @file_name, calling @save
 * with the chosen path; @viewer is kept alive until it closes. */
void        ttv_viewer_export_dialog (GtkWidget *viewer, const char *title, const char *file_name,
                                      TtvViewerSaveFunc save);

/* --- Benchmarks ----------------------------------------------------------------------- */

/* A viewer drew its first content (@n_items rows, bars...): the host's
 * open benchmark (bench/gui-open) measures the time to it.  Cheap, and
 * nothing happens outside a benchmark: call it once. */
void        ttv_viewer_notify_first_paint (GtkWidget *viewer, guint n_items);

G_END_DECLS
