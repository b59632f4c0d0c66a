import { allOperations } from "./document";

// The methods the API serves at a concrete path, for the Allow header of a 405 that npm start's
// server answers before Next.js (server/http/before-next.ts), worked out from the same operations
// the routes serve. A segment fits a template's parameter when the operation's own params schema
// accepts it, so /eventSubscription/123 (an id) and /eventSubscription/TRIPSTART/ (a type) part
// the way the router parts them.

const segmentsOf = (path: string) => path.split("/").filter(Boolean);

const templates = allOperations.map((op) => ({ op, segments: segmentsOf(op.path) }));

/** The methods served at `path` below an environment's API base ("/vehicle/7/trip/"), or null when no operation's path fits it. */
export function methodsAt(path: string): string[] | null {
  let segments: string[];
  try {
    segments = segmentsOf(path).map((s) => decodeURIComponent(s));
  } catch {
    return null;
  }
  const methods = new Set<string>();
  for (const { op, segments: template } of templates) {
    if (template.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const literalsMatch = template.every((t, i) => {
      const name = /^\{(\w+)\}$/.exec(t)?.[1];
      if (name) params[name] = segments[i]!;
      return name !== undefined || t === segments[i];
    });
    if (literalsMatch && (!op.params || op.params.safeParse(params).success)) methods.add(op.method);
  }
  return methods.size > 0 ? [...methods] : null;
}
