import fs from "node:fs";
import path from "node:path";

// The routes a request path may be counted under (http-requests.ts): Next.js's own route table
// from the production build (routes-manifest.json: each page's pattern, such as
// /[env]/api/vehicle/[vehicleId], and the regular expression Next.js matches it with), the files
// of public/, and the paths the server entry point answers itself. A label is always one of these
// patterns, never a value taken from the path: a made-up segment, an id or a device serial in the
// path cannot make a series of its own or show up in a scrape.

type Route = { page: string; regex: RegExp };
export type RouteTable = { exact: Set<string>; routes: Route[] };

type Manifest = { staticRoutes?: { page: string; regex: string }[]; dynamicRoutes?: { page: string; regex: string }[] };

/** The table of a build (`distDir`) and a public/ folder; parts that are missing (no build yet, `npm run dev`) are left out. */
export function loadRouteTable({
  distDir,
  publicDir,
  own,
}: {
  distDir: string;
  publicDir: string;
  own: string[];
}): RouteTable {
  const manifest = readJson(path.join(distDir, "routes-manifest.json"));
  // Next.js's order: static routes first, then dynamic ones from the most specific.
  const routes = [...(manifest?.staticRoutes ?? []), ...(manifest?.dynamicRoutes ?? [])].map((r) => ({
    page: r.page,
    regex: new RegExp(r.regex),
  }));
  return { exact: new Set([...own, ...publicFiles(publicDir)]), routes };
}

/** The pattern a path is served by, or null when no route of the table has it. */
export function routePattern(table: RouteTable, pathname: string): string | null {
  if (table.exact.has(pathname)) return pathname;
  for (const route of table.routes) if (route.regex.test(pathname)) return route.page;
  return null;
}

function readJson(file: string): Manifest | null {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as Manifest;
  } catch {
    return null;
  }
}

function publicFiles(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => `/${path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join("/")}`);
  } catch {
    return [];
  }
}
