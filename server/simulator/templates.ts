import type { LonLat } from "./geo";
import type { NetworkId } from "./networks";

// Shared route templates in the covered areas, routed on first use (server/simulator/geometry.ts).
// Each is a list of stops driven in order; a loop ends at its first stop.

export type Template = { id: string; name: string; description: string; network: NetworkId; stops: LonLat[] };

export const TEMPLATES: Template[] = [
  {
    id: "columbus-downtown-loop",
    name: "Columbus: Downtown – Short North loop",
    description:
      "From Broad & High up North High Street to the Short North, west to Victorian Village and back downtown. About 10 minutes.",
    network: "columbus_oh",
    stops: [
      [-83.0007, 39.9612],
      [-83.0035, 39.979],
      [-83.0165, 39.9765],
      [-83.0007, 39.9612],
    ],
  },
  {
    id: "columbus-osu-worthington",
    name: "Columbus: Ohio State to Worthington",
    description: "From the Ohio State campus north through Clintonville to Old Worthington.",
    network: "columbus_oh",
    stops: [
      [-83.0145, 40.0015],
      [-83.0178, 40.0892],
    ],
  },
  {
    id: "columbus-south-to-north",
    name: "Columbus: South side to Clintonville",
    description: "A longer cross-town drive from south Columbus to Clintonville, mostly on the faster roads.",
    network: "columbus_oh",
    stops: [
      [-82.995, 39.91],
      [-83.02, 40.04],
    ],
  },
  {
    id: "dc-mall-loop",
    name: "Washington, DC: White House – Capitol loop",
    description: "From Lafayette Square along Pennsylvania Avenue to the Capitol and back along Constitution Avenue.",
    network: "washington_dc",
    stops: [
      [-77.0365, 38.8995],
      [-77.0095, 38.8925],
      [-77.0365, 38.8995],
    ],
  },
  {
    id: "dc-georgetown-capitol-hill",
    name: "Washington, DC: Georgetown to Capitol Hill",
    description: "From M Street in Georgetown across downtown to Capitol Hill.",
    network: "washington_dc",
    stops: [
      [-77.0625, 38.905],
      [-76.995, 38.8895],
    ],
  },
];

export const DEMO_TEMPLATE = "columbus-downtown-loop";
