// Example values and curl lines built from an OpenAPI operation's JSON schemas (pure functions,
// used by the /docs page at render time).

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  description?: string;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  default?: unknown;
  examples?: unknown[];
};

export const typeOf = (s: JsonSchema): string => {
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(" | ");
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) return [...new Set(alternatives.map(typeOf))].join(" | ");
  const t = Array.isArray(s.type) ? s.type.join(" | ") : (s.type ?? "any");
  if (t === "array" && s.items) return `${typeOf(s.items)}[]`;
  return s.format ? `${t} (${s.format})` : t;
};

const SAMPLE_STRINGS: Record<string, string> = {
  firstName: "Ada",
  lastName: "Lovelace",
  username: "ada.lovelace",
  password: "s3cret-pass",
  email: "ada@example.com",
  label: "Blue car",
  deviceId: "ABC123",
  postUrl: "https://partner.example/webhook",
  timeZone: "America/New_York",
  timestamp: "20260101T120000+0000",
};

/** A small example value: required members only (or the first two when none are required). */
export function sample(schema: JsonSchema, name = "", depth = 0): unknown {
  if (schema.examples?.length) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return sample(alternatives.find((a) => a.type !== "null") ?? alternatives[0]!, name, depth);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  if (type === "object" || schema.properties) {
    if (depth > 3) return {};
    const props = Object.entries(schema.properties ?? {});
    const chosen = schema.required?.length ? props.filter(([k]) => schema.required!.includes(k)) : props.slice(0, 2);
    return Object.fromEntries(chosen.map(([k, s]) => [k, sample(s, k, depth + 1)]));
  }
  if (type === "array") return schema.items ? [sample(schema.items, name, depth + 1)] : [];
  if (type === "integer") return schema.minimum !== undefined && schema.minimum > 1 ? schema.minimum : 1;
  if (type === "number") return name.toLowerCase().includes("lat") ? 39.96 : name.toLowerCase().includes("lon") ? -82.99 : 1.5;
  if (type === "boolean") return true;
  return SAMPLE_STRINGS[name] ?? (schema.format === "uri" ? "https://partner.example/" : "text");
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function curlFor({ method, base, path, body }: { method: string; base: string; path: string; body?: unknown }): string {
  const url = base + path.replace(/\{(\w+)\}/g, (_, p: string) => `$${p.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`);
  const parts = [`curl -s${method === "GET" ? "" : ` -X ${method}`}`, `-H "Authorization: Bearer $TOKEN"`];
  if (body !== undefined) parts.push(`-H 'Content-Type: application/json'`, `-d ${shellQuote(JSON.stringify(body))}`);
  parts.push(`"${url}"`);
  return parts.join(" ");
}
