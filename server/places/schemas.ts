import { z } from "zod";
import { selfIntersects, normaliseRing } from "@/common/geo/polygon";
import { CONTROL_CHARACTER, CONTROL_CHARACTER_MESSAGE } from "@/common/http/fields";
import { MAX_NAME, MAX_RADIUS_M, MAX_VERTICES, MIN_RADIUS_M, MIN_VERTICES } from "@/common/places/limits";

// What a place is on the way in (the driver site's forms, the map's drawing, an imported file)
// and on the way out. Contract: a circle of 25 m to 50 km, or a polygon of 3 to 100 points that
// does not cross or touch itself; a name of 1 to 60 characters (trimmed) on one line.

/** Places one account may keep: enough for every address a driver goes to, not a map of the world. */
export const MAX_PLACES_PER_ACCOUNT = 200;

const placeName = z
  .string("Give the place a name.")
  .trim()
  .min(1, "Give the place a name.")
  .max(MAX_NAME, `Must be at most ${MAX_NAME} characters.`)
  .refine((name) => !CONTROL_CHARACTER.test(name), CONTROL_CHARACTER_MESSAGE);

const latitude = z
  .number("Must be a number.")
  .min(-90, "Must be between -90 and 90.")
  .max(90, "Must be between -90 and 90.");
const longitude = z
  .number("Must be a number.")
  .min(-180, "Must be between -180 and 180.")
  .max(180, "Must be between -180 and 180.");
const point = z.object({ latitude, longitude }).strict();

const circle = z
  .object({
    kind: z.literal("circle"),
    center: point,
    radius: z
      .number("Must be a number of metres.")
      .min(MIN_RADIUS_M, `A circle's radius must be at least ${MIN_RADIUS_M} m.`)
      .max(MAX_RADIUS_M, `A circle's radius must be at most ${MAX_RADIUS_M / 1000} km.`),
  })
  .strict();

// The ring is kept open (a closing point equal to the first is dropped), and counted so.
const ring = z
  .array(point, "Must be a list of points.")
  .transform((points) => normaliseRing(points))
  .pipe(
    z
      .array(point)
      .min(MIN_VERTICES, { message: `A polygon needs at least ${MIN_VERTICES} points.`, abort: true })
      .max(MAX_VERTICES, { message: `A polygon may have at most ${MAX_VERTICES} points.`, abort: true })
      .refine((points) => !selfIntersects(points), "The polygon's edges must not cross or touch each other."),
  );

const polygon = z.object({ kind: z.literal("polygon"), polygon: ring }).strict();

const placeShape = z.discriminatedUnion("kind", [circle, polygon], "Must be a circle or a polygon.");

export type PlaceShape = z.infer<typeof placeShape>;

export const createPlaceBody = z.object({ name: placeName, shape: placeShape }).strict();

/** An edit: a new name, a new shape, or both (the map's edit sends the shape, the rename the name). */
export const updatePlaceBody = z
  .object({ name: placeName.optional(), shape: placeShape.optional() })
  .strict()
  .refine((b) => b.name !== undefined || b.shape !== undefined, "Send a name, a shape, or both.");

export type NewPlace = z.infer<typeof createPlaceBody>;

/** A place as the driver site's routes answer and its map draws it (times ISO 8601). */
export type PlaceOut = { id: number; name: string; shape: PlaceShape; createdAt: string; updatedAt: string };

export const importBody = z
  .object({
    /** The file's text: GeoJSON or KML, told apart by its first character. */
    content: z.string("Choose a GeoJSON or KML file.").min(1, "The file is empty."),
    filename: z.string().max(255).optional(),
  })
  .strict();

export const exportFormat = z.enum(["geojson", "kml"], "Must be geojson or kml.");
