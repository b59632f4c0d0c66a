import { rawSql } from "@/db/client";
import { parseDateTime } from "@/common/http/datetime";

// POST /bench/ingest?vehicle=ID — the baseline of `npm run bench:ingest` (a): the same data set
// body as POST /v1/api/vehicle/{id}/dataSet/, stored as one INSERT of its data_sets row, in a bare
// route handler without our wrapper, auth, validation, trips, state or data points. A route of the
// baseline app (bench/baseline/), never of the product.
export async function POST(request: Request) {
  const vehicleId = Number(new URL(request.url).searchParams.get("vehicle"));
  const body = (await request.json()) as { timestamp?: string; ignitionStatus?: string };
  const at = parseDateTime(body.timestamp ?? "");
  if (!Number.isInteger(vehicleId) || !at || !body.ignitionStatus) return new Response("Bad request", { status: 400 });
  const [row] = await rawSql()`insert into data_sets (environment, vehicle_id, recorded_at, ignition_status)
    values ('production', ${vehicleId}, ${at.toISOString()}::timestamptz, ${body.ignitionStatus}) returning id`;
  return Response.json({ dataSet: { id: Number(row!.id) }, totalRecords: 1, actions: [] });
}
