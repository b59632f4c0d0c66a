import { rawSql } from "@/db/client";
import { sha256 } from "@/server/platform/security/secrets";

// GET /v1/bench/vehicles — the baseline of `npm run bench:api`: the same token lookup and vehicle
// query as GET /v1/api/vehicle/, as a bare route handler without our wrapper, validation or
// serialization. Under a dynamic segment as ours is, so that Next.js routes both alike and the
// ratio measures the wrapper. A route of the baseline app (bench/baseline/), never of the product.
export async function GET(request: Request, { params }: { params: Promise<{ env: string }> }) {
  const environment = (await params).env === "sandbox" ? "sandbox" : "production";
  const token = request.headers.get("authorization")?.slice(7) ?? "";
  const sql = rawSql();
  const [row] = await sql`select t.account_id, t.environment, t.revoked_at, t.access_expires_at from oauth_tokens t
    join app_credentials c on c.id = t.credential_id join partner_apps a on a.id = c.app_id where t.access_hash = ${sha256(token)}`;
  if (!row || row.revoked_at || row.environment !== environment) return new Response("Unauthorized", { status: 401 });
  const [vehicles, count] = await Promise.all([
    sql`select v.*, d.serial as device_serial from vehicles v left join devices d on d.vehicle_id = v.id
      where v.environment = ${environment} and v.account_id = ${row.account_id} order by v.id limit 50 offset 0`,
    sql`select count(*)::int as n from vehicles v where v.environment = ${environment} and v.account_id = ${row.account_id}`,
  ]);
  return Response.json({ vehicle: vehicles, totalRecords: count[0]?.n ?? 0, actions: [] });
}
