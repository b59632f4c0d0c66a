import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { env } from "@/server/platform/env";
import { clientAddress } from "@/server/platform/request/client-address";

// Who may read /metrics: loopback clients (a Prometheus or an agent on the same machine), and
// others only with `Authorization: Bearer <METRICS_TOKEN>`. The address is the one the server
// stamped on the request (client-address.ts): behind a trusted proxy (TRUST_PROXY=1) the
// forwarded client's, so a proxy on loopback does not make the whole internet "local".

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1)$/;

export function metricsAllowed(req: IncomingMessage): boolean {
  if (LOOPBACK.test(clientAddress(req.headers))) return true;
  const token = env().METRICS_TOKEN;
  const header = req.headers.authorization ?? "";
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!token || !match) return false;
  const given = Buffer.from(match[1]!);
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
