// @module-tag embedded
import { describe, expect, inject, it } from "vitest";
import { api, clientToken, createDriver, request, testSql, uniqueName } from "@/test/helpers/api";
import { Browser, baseUrl } from "@/test/helpers/browser";
import { dataSet, waypoint } from "@/test/helpers/telemetry";

// Deletion you can check (docs/decisions/0104-account-deletion-leaves-no-trace.md): after an account is deleted, through
// the driver site or through the API, no row of any table of the schema names it or its vehicles.
// The walk reads the catalog, so a table added later is walked too: every integer column that is
// a foreign key to accounts or vehicles or is called account_id / vehicle_id is compared with the
// ids, every text column with the username and the device serial, and every
// text and jsonb column is searched for "accountId" / "vehicleId" members holding them. On both
// databases (the tag): the schema is the migrations', whichever database runs them.
//
// The one row allowed is the ACCOUNTDELETED app event itself (with its queue rows and delivery
// attempts), which carries the account id and nothing else, by design.

const apps = () => inject("apps");

type Traces = { accountId: number; vehicleIds: number[]; strings: string[] };

async function makeAccountWithData(): Promise<{
  traces: Traces;
  driver: Awaited<ReturnType<typeof createDriver>>;
  username: string;
}> {
  const creds = apps().main.sandbox;
  const username = uniqueName("walk");
  const driver = await createDriver("sandbox", creds, { username });
  const sandbox = api("sandbox");
  const serial = uniqueName("DEV").toUpperCase();
  const vin = "1HGCM82633A004352";
  const vehicle = await sandbox.post("/vehicle/", { label: "Walked car", deviceId: serial, vin }, driver.accessToken);
  expect(vehicle.status, vehicle.text).toBe(200);
  const vehicleId = vehicle.body.vehicle.vehicleId as number;
  // A subscription whose receiver is refused (a reserved name): notifications, deliveries and attempts.
  const sub = await sandbox.post(
    `/vehicle/${vehicleId}/eventSubscription/WAYPOINT/`,
    { postUrl: "https://receiver.example/hook" },
    driver.accessToken,
  );
  expect(sub.status, sub.text).toBe(200);
  const account = await sandbox.post(
    `/account/${driver.account.id}/eventSubscription/VEHICLECREATED/`,
    { postUrl: "https://receiver.example/account" },
    driver.clientToken,
  );
  expect(account.status, account.text).toBe(200);
  const start = Date.now() - 120_000;
  for (const [i, status] of (["ON", "RUNNING", "OFF"] as const).entries()) {
    const posted = await sandbox.post(
      `/vehicle/${vehicleId}/dataSet/`,
      dataSet(new Date(start + i * 30_000), status, [
        waypoint(39.96 + i / 100, -82.99),
        { key: "GEN_TRIP_MILEAGE", value: 2 },
      ]),
      driver.accessToken,
    );
    expect(posted.status, posted.text).toBe(200);
  }
  const second = await sandbox.post("/vehicle/", { label: "Second car" }, driver.accessToken);
  expect(second.status, second.text).toBe(200);
  // A place drawn on the driver site.
  const site = new Browser();
  expect((await site.signIn("sandbox", username, "correct-horse-1")).problem).toBeNull();
  const place = await site.request("POST", "/me/places", {
    json: {
      name: "Walked home",
      shape: { kind: "circle", center: { latitude: 39.96, longitude: -82.99 }, radius: 80 },
    },
  });
  expect(place.status, place.text).toBe(200);
  // The cursor of GET /account/data?sinceLastCall and a failed sign-in on the site.
  expect((await sandbox.get("/account/data/?sinceLastCall=true", driver.accessToken)).status).toBe(200);
  await new Browser().signIn("sandbox", username, "wrong-password-1");
  return {
    driver,
    username,
    traces: {
      accountId: driver.account.id as number,
      vehicleIds: [vehicleId, second.body.vehicle.vehicleId as number],
      strings: [username, username.toLowerCase(), serial],
    },
  };
}

type Column = { table: string; column: string; type: string; fk: string | null };

async function columns(): Promise<Column[]> {
  const sql = testSql();
  return sql<Column[]>`
    select c.table_name as table, c.column_name as column, c.data_type as type,
           (select ft.relname::text from pg_constraint k
              join pg_class t on t.oid = k.conrelid join pg_class ft on ft.oid = k.confrelid
              join pg_attribute a on a.attrelid = k.conrelid and a.attnum = any(k.conkey)
             where k.contype = 'f' and t.relname = c.table_name and a.attname = c.column_name
             limit 1) as fk
      from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
     where c.table_schema = 'public' and t.table_type = 'BASE TABLE'
       and c.table_name not like '\\_\\_drizzle%'
     order by c.table_name, c.ordinal_position`;
}

/** Every row of the schema that names the account or its vehicles, as "table.column = value". */
async function findTraces(t: Traces): Promise<string[]> {
  const sql = testSql();
  const found: string[] = [];
  // Bare numbers in text columns are other things' ids (a rate limit's token id): ids count in
  // integer columns, and in text and JSON only as an "accountId" or "vehicleId" member.
  const texts = t.strings;
  const member = `"(accountId|vehicleId)": ?(${[t.accountId, ...t.vehicleIds].join("|")})[,}]`;
  // The ACCOUNTDELETED app event and what delivering it left are the allowed exception.
  const eventIds = (
    await sql<
      { id: string }[]
    >`select id::text from notifications where type = 'ACCOUNTDELETED' and account_id = ${t.accountId}`
  ).map((r) => r.id);
  const exempt: Record<string, string> = {
    notifications: "id",
    notification_deliveries: "notification_id",
    delivery_attempts: "notification_id",
  };
  for (const c of await columns()) {
    const table = sql(c.table);
    const column = sql(c.column);
    const skip = exempt[c.table] ? sql`and not (${sql(exempt[c.table]!)}::text = any(${eventIds}::text[]))` : sql``;
    let hits: { v: string }[] = [];
    const integer = ["integer", "bigint", "smallint"].includes(c.type);
    if (integer && (c.fk === "accounts" || c.column === "account_id")) {
      hits = await sql`select ${column}::text as v from ${table} where ${column} = ${t.accountId} ${skip} limit 3`;
    } else if (integer && (c.fk === "vehicles" || c.column === "vehicle_id")) {
      hits =
        await sql`select ${column}::text as v from ${table} where ${column} = any(${t.vehicleIds}::int[]) ${skip} limit 3`;
    } else if (integer && c.column === "id" && (c.table === "accounts" || c.table === "vehicles")) {
      const ids = c.table === "accounts" ? [t.accountId] : t.vehicleIds;
      hits = await sql`select id::text as v from ${table} where id = any(${ids}::int[]) limit 3`;
    } else if (c.type === "text" || c.type === "character varying") {
      hits = await sql`select left(${column}, 200) as v from ${table}
        where (${column} = any(${texts}::text[]) or ${column} ~ ${member}
               or position(${t.strings[0]!} in ${column}) > 0 or position(${t.strings[2]!} in ${column}) > 0) ${skip} limit 3`;
    } else if (c.type === "jsonb" || c.type === "json") {
      hits = await sql`select left(${column}::text, 200) as v from ${table}
        where (${column}::text ~ ${member} or position(${t.strings[0]!} in ${column}::text) > 0
               or position(${t.strings[2]!} in ${column}::text) > 0) ${skip} limit 3`;
    }
    for (const h of hits) found.push(`${c.table}.${c.column} = ${h.v}`);
  }
  return found;
}

describe("deleting an account leaves no row that names it or its vehicles", () => {
  it("the walk finds the account's rows before the deletion (it can see them)", async () => {
    const { traces } = await makeAccountWithData();
    const found = await findTraces(traces);
    for (const table of [
      "accounts.id",
      "vehicles.account_id",
      "data_sets.vehicle_id",
      "notifications.account_id",
      "places.account_id",
    ])
      expect(
        found.some((f) => f.startsWith(table)),
        `${table} in ${found.join("\n")}`,
      ).toBe(true);
  });

  it("through the driver site (DELETE /me/account): no row is left", async () => {
    const { traces, username } = await makeAccountWithData();
    const browser = new Browser();
    const signIn = await browser.signIn("sandbox", username, "correct-horse-1");
    expect(signIn.problem).toBeNull();
    const cookie = [...browser.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const deleted = await request("DELETE", `${baseUrl()}/me/account`, {
      json: { confirmUsername: username },
      headers: { Cookie: cookie, "X-Forwarded-For": browser.address, Origin: baseUrl() },
    });
    expect(deleted.status, deleted.text).toBeLessThan(300);
    expect(await findTraces(traces)).toEqual([]);
  });

  it("through the API (DELETE /account/{id} with the app's client token): no row is left", async () => {
    const { traces, driver } = await makeAccountWithData();
    const token = await clientToken(apps().main.sandbox);
    const deleted = await api("sandbox").del(`/account/${traces.accountId}`, token);
    expect(deleted.status, deleted.text).toBe(200);
    expect((await api("sandbox").get("/account/", driver.accessToken)).status).toBe(401);
    expect(await findTraces(traces)).toEqual([]);
  });
});
