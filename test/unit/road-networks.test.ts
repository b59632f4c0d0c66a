import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { NETWORKS } from "@/server/simulator/networks";
import { readNetwork, roadsDir } from "@/server/simulator/routing";

// The simulator's road networks ship with the repository (a clone needs nothing beside it), and
// ROADS_DIR may point at a folder of other extracts, plain or gzipped.
describe("road networks", () => {
  it("ship in the repository, gzipped, and are read without ROADS_DIR", () => {
    expect(process.env.ROADS_DIR).toBeUndefined();
    expect(roadsDir()).toBe(path.resolve("server/simulator/road-networks"));
    for (const network of NETWORKS) {
      expect(fs.existsSync(path.join(roadsDir(), `${network.file}.gz`))).toBe(true);
      const data = JSON.parse(readNetwork(network)) as { type: string; features: { geometry: { type: string } }[] };
      expect(data.type).toBe("FeatureCollection");
      expect(data.features.length).toBeGreaterThan(3000);
      expect(data.features.every((f) => f.geometry.type === "LineString")).toBe(true);
    }
  });

  it("are read from a ROADS_DIR folder as plain GeoJSON, or gzipped", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wayline-roads-"));
    const [plain, gzipped] = NETWORKS;
    const tiny = (name: string) =>
      JSON.stringify({
        type: "FeatureCollection",
        features: [
          {
            type: "Feature",
            properties: { name },
            geometry: {
              type: "LineString",
              coordinates: [
                [0, 0],
                [0, 1],
              ],
            },
          },
        ],
      });
    fs.writeFileSync(path.join(dir, plain!.file), tiny("plain"));
    fs.writeFileSync(path.join(dir, `${gzipped!.file}.gz`), zlib.gzipSync(tiny("gzipped")));
    expect(JSON.parse(readNetwork(plain!, dir)).features[0].properties.name).toBe("plain");
    expect(JSON.parse(readNetwork(gzipped!, dir)).features[0].properties.name).toBe("gzipped");
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("missing from ROADS_DIR: the error names the file and the variable", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wayline-roads-"));
    expect(() => readNetwork(NETWORKS[0]!, dir)).toThrow(/columbus_oh_drive\.geojson.*ROADS_DIR/);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
