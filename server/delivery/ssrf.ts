import dns from "node:dns";
import net from "node:net";
import { CONTROL_CHARACTER } from "@/common/http/fields";

// Where deliveries may go (docs/delivery.md#ssrf-guard). Two gates:
// 1. checkTarget(): the URL itself — https only, no credentials, no odd IPv4 spellings
//    (2130706433, 0x7f.1, 0177.0.0.1: the URL parser would quietly turn them into addresses),
//    no metadata host names, no literal address in a forbidden range. Also usable as the
//    syntactic pre-check when a subscription is created.
// 2. guardedLookup(): the agent's DNS lookup, run at connect time for every connection, so each
//    address a name resolves to is checked right before it is used (DNS rebinding can't swap a
//    public answer for a private one after the check).
// The operator's allow-list (DELIVERY_ALLOWED_HOSTS) names hosts or addresses let through anyway.

export class TargetRefused extends Error {
  override name = "TargetRefused";
}

export type TargetPolicy = { allowedHosts: string[] };

export function parseAllowedHosts(list: string | undefined): string[] {
  return (list ?? "")
    .split(",")
    .map((h) => normalizeHost(h.trim()))
    .filter((h) => h.length > 0);
}

function normalizeHost(host: string): string {
  let h = host.toLowerCase();
  if (h.startsWith("[") && h.endsWith("]")) h = h.slice(1, -1);
  if (h.endsWith(".")) h = h.slice(0, -1);
  return h;
}

// Two lists: one BlockList checks IPv4 addresses against its IPv6 rules too (as IPv4-mapped), so
// ::ffff:0:0/96 would block every IPv4 address.
const blocked4 = new net.BlockList();
const blocked6 = new net.BlockList();
for (const [prefix, bits] of [
  ["0.0.0.0", 8], // "this network"; 0.0.0.0 reaches the local host
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // CGNAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, cloud metadata (169.254.169.254)
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const)
  blocked4.addSubnet(prefix, bits, "ipv4");
for (const [prefix, bits] of [
  ["::", 96], // unspecified, loopback (::1) and IPv4-compatible
  ["::ffff:0:0", 96], // IPv4-mapped
  ["64:ff9b::", 96], // NAT64 (embeds IPv4)
  ["64:ff9b:1::", 48],
  ["100::", 64], // discard
  ["2001::", 32], // Teredo (embeds IPv4)
  ["2001:db8::", 32],
  ["2002::", 16], // 6to4 (embeds IPv4)
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local
  ["ff00::", 8], // multicast
] as const)
  blocked6.addSubnet(prefix, bits, "ipv6");

/** Whether an address (IPv4 or IPv6 literal, no brackets) is one deliveries must not reach. */
export function isForbiddenAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return true;
  return family === 6 ? blocked6.check(address, "ipv6") : blocked4.check(address, "ipv4");
}

const METADATA_NAMES = new Set([
  "metadata",
  "metadata.google.internal",
  "metadata.goog",
  "metadata.azure.com",
  "instance-data",
  "instance-data.ec2.internal",
  "kubernetes.default",
  "kubernetes.default.svc",
]);
// Internal names, and the reserved test TLDs (RFC 2606, 6761), which never resolve publicly.
const INTERNAL_SUFFIXES = [
  ".internal",
  ".local",
  ".localhost",
  ".localdomain",
  ".home.arpa",
  ".svc.cluster.local",
  ".example",
  ".invalid",
  ".test",
];

function isAllowed(host: string, policy: TargetPolicy): boolean {
  return policy.allowedHosts.includes(normalizeHost(host));
}

// The host as written, before the URL parser canonicalises it.
function rawHost(raw: string): string | null {
  const match = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(raw.trim());
  if (!match) return null;
  const authority = match[1]!;
  const hostPort = authority.slice(authority.lastIndexOf("@") + 1);
  if (hostPort.startsWith("[")) return hostPort.slice(0, hostPort.indexOf("]") + 1);
  const colon = hostPort.lastIndexOf(":");
  return colon >= 0 ? hostPort.slice(0, colon) : hostPort;
}

/** The syntactic gate. Throws TargetRefused with the reason; returns the parsed URL. */
export function checkTarget(raw: string, policy: TargetPolicy): URL {
  // The parser would drop a tab or line break silently: the URL connected to would not be the one stored.
  if (CONTROL_CHARACTER.test(raw)) throw new TargetRefused("a line break, tab or other control character in the URL");
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetRefused("not a valid URL");
  }
  if (url.protocol !== "https:") throw new TargetRefused(`only https URLs are delivered to (got ${url.protocol})`);
  if (url.username || url.password) throw new TargetRefused("URLs with credentials are not delivered to");
  const host = normalizeHost(url.hostname);
  const written = rawHost(raw);
  // The parser turns 2130706433, 0x7f000001, 0177.1 or 127.1 into 127.0.0.1: only the plain
  // dotted-decimal spelling is accepted for an IPv4 address.
  if (net.isIPv4(host) && (written === null || normalizeHost(written) !== host)) {
    throw new TargetRefused(`unusual spelling of the IP address ${host} (${written ?? "?"})`);
  }
  if (isAllowed(host, policy)) return url;
  if (net.isIP(host)) {
    if (isForbiddenAddress(host))
      throw new TargetRefused(`address ${host} is private, loopback, link-local or reserved`);
    return url;
  }
  if (
    host === "localhost" ||
    METADATA_NAMES.has(host) ||
    INTERNAL_SUFFIXES.some((s) => host.endsWith(s)) ||
    !host.includes(".")
  ) {
    throw new TargetRefused(`host name ${host} is internal`);
  }
  return url;
}

type LookupAddress = { address: string; family: number };
type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
export type Resolver = (host: string) => Promise<LookupAddress[]>;

const systemResolver: Resolver = (host) => dns.promises.lookup(host, { all: true, verbatim: true });

/**
 * A `lookup` for http(s).Agent / net.connect: resolves the name and refuses the connection when
 * any resolved address is forbidden and neither the name nor that address is allow-listed.
 */
export function guardedLookup(policy: TargetPolicy, resolve: Resolver = systemResolver) {
  return (hostname: string, options: dns.LookupOptions | number | LookupCallback, callback?: LookupCallback): void => {
    const cb = (typeof options === "function" ? options : callback)!;
    const opts = typeof options === "object" ? options : {};
    resolve(hostname).then(
      (addresses) => {
        const nameAllowed = isAllowed(hostname, policy);
        const bad = addresses.find(
          (a) => !nameAllowed && !isAllowed(a.address, policy) && isForbiddenAddress(a.address),
        );
        if (addresses.length === 0)
          return cb(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), "");
        if (bad)
          return cb(
            Object.assign(
              new TargetRefused(
                `${hostname} resolves to ${bad.address}, which is private, loopback, link-local or reserved`,
              ),
              { code: "ESSRF" },
            ),
            "",
          );
        const wanted =
          opts.family === 4 || opts.family === 6 ? addresses.filter((a) => a.family === opts.family) : addresses;
        if (opts.all) return cb(null, wanted);
        const first = wanted[0] ?? addresses[0]!;
        cb(null, first.address, first.family);
      },
      (err: NodeJS.ErrnoException) => cb(err, ""),
    );
  };
}
