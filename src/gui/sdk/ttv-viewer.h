/* ttv-viewer.h: the plugin SDK of the ttv viewer, the one header a viewer
 * module includes (it includes the rest of the SDK).  A module sees the
 * host only through these headers, installed with ttv (pkg-config
 * ttv-viewer): no structure of the host's, no header of its toolkit.
 * The model part (ttv-viewer-model.h) needs GLib only; this header adds the
 * widget part (GTK, cairo).
 * Guide and example: docs/viewer-module.md; the boundary: docs/plugin-sdk.md. */
#pragma once

#include <gtk/gtk.h>

#include "ttv-viewer-model.h"     /* tab, events, requests, analyses, module entry point */
#include "ttv-viewer-widget.h"    /* registration, render, marker colours, export */
#include "ttv-palette.h"          /* the time lines' colours */
