// Speed limits of OpenStreetMap roads (maxspeed is set on few ways of the extracts, so it defaults
// by highway class).

const DEFAULT_MPH: Record<string, number> = {
  motorway: 65,
  trunk: 55,
  primary: 45,
  secondary: 40,
  tertiary: 35,
  unclassified: 25,
  residential: 25,
  living_street: 15,
};

/** Speed limit in mph: the way's maxspeed ("25 mph"; a bare number is km/h), else the class default. */
export function speedLimitMph(highway: string | undefined, maxspeed: string | undefined): number {
  if (maxspeed) {
    const mph = /^\s*(\d+(?:\.\d+)?)\s*mph\s*$/i.exec(maxspeed);
    if (mph) return Number(mph[1]);
    const kmh = /^\s*(\d+(?:\.\d+)?)\s*$/.exec(maxspeed);
    if (kmh) return Math.round(Number(kmh[1]) / 1.609344);
  }
  if (!highway) return 25;
  if (highway.endsWith("_link")) return 35;
  return DEFAULT_MPH[highway] ?? 25;
}

/** Chance that a driver stops at a junction entered on a road of this class (signals, stop signs). */
export function stopChance(highway: string | undefined): number {
  if (!highway) return 0.2;
  if (highway === "motorway" || highway === "trunk") return 0;
  if (highway.endsWith("_link")) return 0.15;
  if (highway === "primary" || highway === "secondary") return 0.3;
  return 0.35;
}

/** Ranks road classes so that the routing graph can prefer faster roads where limits are equal. */
export const isOneWay = (p: { oneway?: string; junction?: string; highway?: string }) =>
  ["yes", "true", "1"].includes(p.oneway ?? "") ||
  p.junction === "roundabout" ||
  (p.highway === "motorway" && p.oneway !== "no");
