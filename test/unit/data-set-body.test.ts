import { describe, expect, it } from "vitest";
import { dataSetPostBody, type DataSetInput } from "@/server/telemetry/schemas";

// The data set body as ingest gets it: a point whose time repeats its set's carries no time of its
// own (plan.ts answers and stores it with the set's), one at another time keeps its own.

const parse = (body: unknown) => dataSetPostBody.safeParse(body);
const set = (timestamp: string, datum: { timestamp?: string; key: string; value: string }[]) => ({
  timestamp,
  ignitionStatus: "RUNNING",
  datum,
});

describe("data set body", () => {
  it("drops a point's time where it is its set's, in any offset, and keeps one that differs", () => {
    const parsed = parse(
      set("20261128T120000+0000", [
        { timestamp: "20261128T120000+0000", key: "GEN_SPEED", value: "30" },
        { timestamp: "20261128T130000+0100", key: "GEN_HEADING", value: "90" },
        { timestamp: "20261128T115959+0000", key: "GEN_RPM", value: "900" },
        { key: "GEN_FUEL", value: "50" },
      ]),
    );
    expect(parsed.success).toBe(true);
    const { datum } = parsed.data as DataSetInput;
    expect(datum.map((d) => d.timestamp?.toISOString())).toEqual([
      undefined,
      undefined,
      "2026-11-28T11:59:59.000Z",
      undefined,
    ]);
    expect(datum.map((d) => d.key)).toEqual(["GEN_SPEED", "GEN_HEADING", "GEN_RPM", "GEN_FUEL"]);
  });

  it("does so for every set of a batch, against each set's own time", () => {
    const parsed = parse([
      set("20261128T120000+0000", [{ timestamp: "20261128T120001+0000", key: "GEN_SPEED", value: "1" }]),
      set("20261128T120001+0000", [{ timestamp: "20261128T120001+0000", key: "GEN_SPEED", value: "2" }]),
    ]);
    expect(parsed.success).toBe(true);
    const sets = parsed.data as DataSetInput[];
    expect(sets.map((s) => s.datum[0]!.timestamp?.toISOString())).toEqual(["2026-11-28T12:00:01.000Z", undefined]);
  });

  it("still reports a point's bad time at its own path", () => {
    const parsed = parse(set("20261128T120000+0000", [{ timestamp: "yesterday", key: "GEN_SPEED", value: "1" }]));
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((i) => i.path.join("."))).toEqual(["datum.0.timestamp"]);
  });
});
