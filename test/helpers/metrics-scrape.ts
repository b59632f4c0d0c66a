import { request, type Reply } from "./api";

// Reading GET /metrics as a monitoring system would: the Prometheus text format's samples, by
// name and labels.

export type Sample = { name: string; labels: Record<string, string>; value: number };

function parseSamples(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)$/.exec(line);
    if (!match) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[key!] = value!.replace(/\\(.)/g, "$1");
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The sum of the samples of `name` whose labels include `labels` (0 when there is none). */
export function total(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((n, s) => n + s.value, 0);
}

export async function scrape(
  baseUrl: string,
  headers: Record<string, string> = {},
): Promise<{ reply: Reply; samples: Sample[] }> {
  const reply = await request("GET", `${baseUrl}/metrics`, { headers });
  if (reply.status !== 200) throw new Error(`GET /metrics: ${reply.status} ${reply.text}`);
  return { reply, samples: parseSamples(reply.text) };
}
