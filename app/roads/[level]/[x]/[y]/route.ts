import { z } from "zod";
import { notFound } from "@/common/http/errors";
import { cachedJson } from "@/server/http/cached-json";
import { withApiErrors } from "@/server/http/with-api-errors";
import { roadCell } from "@/server/simulator/road-cells";

const cell = z.object({
  level: z.enum(["0", "1"]).transform(Number),
  x: z
    .string()
    .regex(/^-?\d{1,5}$/)
    .transform(Number),
  y: z
    .string()
    .regex(/^-?\d{1,5}$/)
    .transform(Number),
});

// GET /roads/{level}/{x}/{y} — the shipped road networks' roads in one grid cell, as GeoJSON: the
// maps' background when tiles cannot load. Public (the data ships with the repository), cacheable.
export const GET = withApiErrors(async (_request, params: { level: string; x: string; y: string }) => {
  const parsed = cell.safeParse(params);
  if (!parsed.success) throw notFound("road cell");
  return cachedJson(roadCell(parsed.data.level, parsed.data.x, parsed.data.y));
});
