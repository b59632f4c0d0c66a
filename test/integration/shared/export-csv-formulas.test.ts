// @module-tag embedded
import { strFromU8, unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { api } from "@/test/helpers/api";
import { downloadBytes, signedIn } from "@/test/helpers/driver-download";
import { driverWithVehicle } from "@/test/helpers/telemetry";
import { csvLine } from "@/server/access-log/csv";

// The data export's data-points.csv (written by PostgreSQL, server/surfaces/driver/export/point-batches.ts)
// guards formulas as csvLine does, also where a spreadsheet that splits on ";" or tab would start
// a cell: after each ";", tab or line break in a value. Tagged embedded: the same SQL runs on both.

describe("GET /me/export: data-points.csv's formula guard", () => {
  it('values with ";=", tab or a line break before a formula get an apostrophe there, as csvLine writes them', async () => {
    const driver = await driverWithVehicle();
    const values = ["a;=1+1", "x; @SUM(A1)", "n\t-2", "two\n=lines", "=HYPERLINK(1)", "a;b", "-82.99", "plain"];
    const at = "20260101T120000+0000";
    const posted = await api("sandbox").post(
      `/vehicle/${driver.vehicleId}/dataSet/`,
      { timestamp: at, ignitionStatus: "RUNNING", datum: values.map((value) => ({ key: "GEN_NOTE", value })) },
      driver.accessToken,
    );
    expect(posted.status, posted.text).toBe(200);

    const zip = await downloadBytes(await signedIn(driver.account.username), "/me/export");
    expect(zip.status).toBe(200);
    const csv = strFromU8(unzipSync(zip.bytes)["data-points.csv"]!);
    const notes = csv.split(/\r\n(?=\d)/).filter((line) => line.includes(",GEN_NOTE,"));
    const cells = notes.map((line) =>
      line.slice(line.indexOf(",GEN_NOTE,") + ",GEN_NOTE,".length).replace(/\r\n$/, ""),
    );
    expect(cells.sort()).toEqual(values.map((v) => csvLine([v]).slice(0, -2)).sort());
    expect(cells).toContain("a;'=1+1");
    expect(cells).toContain("x; '@SUM(A1)");
    expect(cells).toContain("n\t'-2");
    expect(cells).toContain(`"two\n'=lines"`);
    expect(cells).toContain("a;b");
  });
});
