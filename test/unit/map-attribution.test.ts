import { describe, expect, it } from "vitest";
import { ROAD_DATA_CREDIT, withRoadDataCredit } from "@/components/map/attribution";

describe("withRoadDataCredit (ODbL credit of the simulator's road data)", () => {
  it("leaves OpenStreetMap's own tile attribution alone: it credits the same contributors with the same link", () => {
    const osm = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';
    expect(withRoadDataCredit(osm)).toBe(osm);
  });

  it("leaves a provider's attribution that already credits OpenStreetMap contributors alone", () => {
    expect(withRoadDataCredit("&copy; MapTiler &copy; OpenStreetMap contributors")).toBe(
      "&copy; MapTiler &copy; OpenStreetMap contributors",
    );
  });

  it("adds the road data's credit, with its link, after tiles that do not credit OpenStreetMap", () => {
    const credit = withRoadDataCredit("Tiles &copy; Example Maps");
    expect(credit).toBe(`Tiles &copy; Example Maps, ${ROAD_DATA_CREDIT}`);
    expect(credit).toContain('href="https://www.openstreetmap.org/copyright"');
    expect(credit).toContain("(ODbL)");
  });

  it("is the road data's credit alone when the tiles have no attribution", () => {
    expect(withRoadDataCredit("")).toBe(ROAD_DATA_CREDIT);
  });
});
