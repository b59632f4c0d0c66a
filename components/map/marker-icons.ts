import L from "leaflet";

// Markers are HTML (divIcon), not Leaflet's default images, whose URLs break under bundling.
// The attributes let tests and people (tooltips) tell the markers apart.

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

// Each function hands out the same icon object while the look is the same. react-leaflet calls
// setIcon whenever the icon prop is a new object, and Leaflet then rewrites the marker's HTML: a
// map that re-rendered for anything (one car's position, the live status, a tile failure) rebuilt
// every marker's elements. One entry per vehicle (its latest look).
const vehicleIcons = new Map<number, { look: string; icon: L.DivIcon }>();
const fixedIcons = new Map<string, L.DivIcon>();
const once = (name: string, make: () => L.DivIcon) => {
  let icon = fixedIcons.get(name);
  if (!icon) fixedIcons.set(name, (icon = make()));
  return icon;
};

// The vehicle's label is written beside its dot, so a driver with several cars tells them apart
// at a glance (the tooltip adds the details). It sits outside the dot's element, whose box the
// tests take for the marker's position.
type VehicleLook = {
  vehicleId: number;
  title: string;
  running: boolean;
  selected: boolean;
  latitude: number;
  longitude: number;
};

export function vehicleIcon(look: VehicleLook) {
  const key = JSON.stringify(look);
  const kept = vehicleIcons.get(look.vehicleId);
  if (kept?.look === key) return kept.icon;
  const icon = makeVehicleIcon(look);
  vehicleIcons.set(look.vehicleId, { look: key, icon });
  return icon;
}

function makeVehicleIcon({ vehicleId, title, running, selected, latitude, longitude }: VehicleLook) {
  const ring = selected ? "outline: 3px solid #1d4ed8; outline-offset: 2px;" : "";
  return L.divIcon({
    className: "wl-vehicle-marker",
    iconSize: [28, 28],
    iconAnchor: [14, 14],
    tooltipAnchor: [0, -16],
    html:
      `<span data-vehicle-id="${vehicleId}" data-latitude="${latitude}" data-longitude="${longitude}" data-running="${running}" ` +
      `style="display:flex;width:28px;height:28px;border-radius:9999px;align-items:center;justify-content:center;` +
      `background:${running ? "#047857" : "#334155"};border:3px solid #fff;box-shadow:0 1px 4px rgba(0,0,0,.5);${ring}">` +
      `<span style="width:8px;height:8px;border-radius:9999px;background:#fff" aria-hidden="true"></span></span>` +
      `<span data-vehicle-label="${vehicleId}" style="position:absolute;left:32px;top:50%;transform:translateY(-50%);max-width:11rem;overflow:hidden;` +
      `text-overflow:ellipsis;white-space:nowrap;padding:1px 6px;border-radius:4px;background:rgba(255,255,255,.92);color:#0f172a;` +
      `font:600 12px/1.4 system-ui,sans-serif;box-shadow:0 1px 3px rgba(0,0,0,.35)">${escape(title)}</span>`,
  });
}

export function pinIcon(kind: "start" | "end") {
  return once(`pin-${kind}`, () => makePinIcon(kind));
}

function makePinIcon(kind: "start" | "end") {
  const color = kind === "start" ? "#047857" : "#b91c1c";
  return L.divIcon({
    className: `wl-trip-${kind}`,
    iconSize: [22, 22],
    iconAnchor: [11, 11],
    html:
      `<span data-trip-marker="${kind}" style="display:flex;width:22px;height:22px;border-radius:4px;` +
      `align-items:center;justify-content:center;background:${color};color:#fff;font:700 11px/1 system-ui;` +
      `border:2px solid #fff;box-shadow:0 1px 4px rgba(0,0,0,.5)">${kind === "start" ? "A" : "B"}</span>`,
  });
}

export function replayIcon() {
  return once("replay", makeReplayIcon);
}

function makeReplayIcon() {
  return L.divIcon({
    className: "wl-replay-marker",
    iconSize: [20, 20],
    iconAnchor: [10, 10],
    html:
      '<span data-replay-marker style="display:block;width:20px;height:20px;border-radius:9999px;' +
      'background:#1d4ed8;border:3px solid #fff;box-shadow:0 1px 4px rgba(0,0,0,.6)"></span>',
  });
}
