/* ttv-viewer-position.c: the plugin API's positions (ttv-viewer.h), which
 * are the engine's TtvPosition under the API's name, so that modules need
 * no libttv symbol. */
#include "ttv-config.h"

#include "ttv-viewer-model.h"

#include "ttv-position.h"

#define ENGINE_POS(p) ((const TtvPosition *) (p))
#define VIEWER_POS(p) ((TtvViewerPosition *) (p))

TtvViewerPosition *
ttv_viewer_position_copy (const TtvViewerPosition *pos)
{
  return pos ? VIEWER_POS (ttv_position_copy (ENGINE_POS (pos))) : NULL;
}

void
ttv_viewer_position_free (TtvViewerPosition *pos)
{
  if (pos)
    ttv_position_free ((TtvPosition *) pos);
}

int
ttv_viewer_position_compare (const TtvViewerPosition *a, const TtvViewerPosition *b)
{
  return ttv_position_compare (ENGINE_POS (a), ENGINE_POS (b));
}

TtvTime
ttv_viewer_position_get_time (const TtvViewerPosition *pos)
{
  return ttv_position_get_time (ENGINE_POS (pos));
}
