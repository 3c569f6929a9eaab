/* ttv-viewer-stats.c: the SDK's statistics nodes (sdk/ttv-viewer-analysis.h):
 * the analysis layer's immutable tree (TtvStatsNode, ttv-stats-tree.h) read
 * through accessors, so that its layout is not the modules' ABI. */
#include "ttv-config.h"

#include "ttv-viewer-model.h"

#include "ttv-stats-tree.h"

#define NODE(n) ((const TtvStatsNode *) (n))

TtvViewerStatsNode *
ttv_viewer_stats_node_ref (TtvViewerStatsNode *node)
{
  g_return_val_if_fail (node != NULL, NULL);
  return (TtvViewerStatsNode *) ttv_stats_node_ref ((TtvStatsNode *) node);
}

void
ttv_viewer_stats_node_unref (TtvViewerStatsNode *node)
{
  if (node)
    ttv_stats_node_unref ((TtvStatsNode *) node);
}

const char *
ttv_viewer_stats_node_get_name (const TtvViewerStatsNode *node)
{
  g_return_val_if_fail (node != NULL, "");
  return NODE (node)->name;
}

const char *
ttv_viewer_stats_node_get_key (const TtvViewerStatsNode *node)
{
  g_return_val_if_fail (node != NULL, "");
  return NODE (node)->key;
}

guint64
ttv_viewer_stats_node_get_count (const TtvViewerStatsNode *node)
{
  g_return_val_if_fail (node != NULL, 0);
  return NODE (node)->count;
}

TtvTime
ttv_viewer_stats_node_get_total (const TtvViewerStatsNode *node)
{
  g_return_val_if_fail (node != NULL, -1);
  return NODE (node)->total;
}

TtvTime
ttv_viewer_stats_node_get_min (const TtvViewerStatsNode *node)
{
  g_return_val_if_fail (node != NULL, -1);
  return NODE (node)->min;
}

TtvTime
ttv_viewer_stats_node_get_max (const TtvViewerStatsNode *node)
{
  g_return_val_if_fail (node != NULL, -1);
  return NODE (node)->max;
}

guint
ttv_viewer_stats_node_get_n_children (const TtvViewerStatsNode *node)
{
  g_return_val_if_fail (node != NULL, 0);
  return NODE (node)->children->len;
}

TtvViewerStatsNode *
ttv_viewer_stats_node_get_child (const TtvViewerStatsNode *node, guint index)
{
  g_return_val_if_fail (node != NULL, NULL);
  g_return_val_if_fail (index < NODE (node)->children->len, NULL);
  return NODE (node)->children->pdata[index];
}
