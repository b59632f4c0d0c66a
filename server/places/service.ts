import { ApiError, notFound, validationError } from "@/common/http/errors";
import { parseOrThrow } from "@/common/http/zod-errors";
import { db } from "@/db/client";
import { parsePlacesFile } from "./files";
import {
  countPlaces,
  deletePlace as deletePlaceRow,
  insertPlaces,
  listPlacesOfAccount,
  lockAccount,
  updatePlace as updatePlaceRow,
} from "./queries";
import {
  createPlaceBody,
  importBody,
  MAX_PLACES_PER_ACCOUNT,
  updatePlaceBody,
  type NewPlace,
  type PlaceOut,
} from "./schemas";
import { toPlaceOut } from "./view";

// A driver's places (docs/driver-site.md#places): every read and write is scoped by the account,
// so another account's place is a 404 like an unknown id. Creating and importing count against
// the account's limit under a lock of its row, in the transaction that inserts.

export async function listPlaces(accountId: number): Promise<PlaceOut[]> {
  return (await listPlacesOfAccount({ accountId })).map(toPlaceOut);
}

const tooMany = (adding: number, kept: number) =>
  new ApiError(
    "CANNOTPERSIST",
    adding === 1
      ? `You can keep at most ${MAX_PLACES_PER_ACCOUNT} places. Delete one before adding another.`
      : `You can keep at most ${MAX_PLACES_PER_ACCOUNT} places: you have ${kept}, and the file holds ${adding}.`,
  );

/** Inserts all or none: the account's limit is checked in the same transaction. */
async function addPlaces(accountId: number, items: NewPlace[]): Promise<PlaceOut[]> {
  return db().transaction(async (tx) => {
    if (!(await lockAccount(tx, { accountId }))) throw notFound("account");
    const kept = await countPlaces(tx, { accountId });
    if (kept + items.length > MAX_PLACES_PER_ACCOUNT) throw tooMany(items.length, kept);
    return (await insertPlaces(tx, { accountId, items })).map(toPlaceOut);
  });
}

export async function createPlace(accountId: number, body: unknown): Promise<PlaceOut> {
  const input = parseOrThrow(createPlaceBody, body, "place");
  const [created] = await addPlaces(accountId, [input]);
  return created!;
}

export async function updatePlace(accountId: number, id: number, body: unknown): Promise<PlaceOut> {
  const { name, shape } = parseOrThrow(updatePlaceBody, body, "place");
  const row = await updatePlaceRow({ accountId, id, name, shape });
  if (!row) throw notFound("place");
  return toPlaceOut(row);
}

export async function deletePlace(accountId: number, id: number): Promise<void> {
  if (!(await deletePlaceRow({ accountId, id }))) throw notFound("place");
}

/**
 * A GeoJSON or KML file's places, added all or none: a file with any feature that is not a valid
 * place is refused whole, with one field error per such feature (`features.<n>` from 0).
 */
export async function importPlaces(accountId: number, body: unknown): Promise<PlaceOut[]> {
  const { content } = parseOrThrow(importBody, body, "import");
  const parsed = parsePlacesFile(content);
  if (parsed.errors.length > 0)
    throw validationError(
      parsed.errors,
      `The file was not imported: ${parsed.errors.length === 1 ? "one feature is" : `${parsed.errors.length} features are`} not a valid place.`,
    );
  if (parsed.places.length === 0)
    throw validationError(
      [{ fieldName: "content", errorCode: "INVALID", errorDisplay: "The file holds no places." }],
      "The file holds no places.",
    );
  return addPlaces(accountId, parsed.places);
}
