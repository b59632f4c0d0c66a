import type { PlaceRow } from "./queries";
import type { PlaceOut, PlaceShape } from "./schemas";

// A stored place as the routes answer it: the shape's columns folded back into its kind's shape,
// the account id left out.

function shapeOf(row: PlaceRow): PlaceShape {
  if (row.kind === "circle")
    return {
      kind: "circle",
      center: { latitude: row.centerLatitude!, longitude: row.centerLongitude! },
      radius: row.radiusM!,
    };
  return { kind: "polygon", polygon: row.polygon ?? [] };
}

export function toPlaceOut(row: PlaceRow): PlaceOut {
  return {
    id: row.id,
    name: row.name,
    shape: shapeOf(row),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
