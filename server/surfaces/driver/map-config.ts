import { env } from "@/server/platform/env";

export type TileConfig = { url: string; attribution: string };

/** The map tiles the driver site's maps load (MAP_TILE_URL, MAP_TILE_ATTRIBUTION). */
export function tileConfig(): TileConfig {
  const { MAP_TILE_URL, MAP_TILE_ATTRIBUTION } = env();
  return { url: MAP_TILE_URL, attribution: MAP_TILE_ATTRIBUTION };
}
