import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postHttps, makeNetwork, type DeliveryNetwork } from "@/server/delivery/https-client";
import { checkTarget, guardedLookup, isForbiddenAddress, TargetRefused } from "@/server/delivery/ssrf";
import { ensureTestCa, startHttpsReceiver, type HttpsReceiver } from "../helpers/https-receiver";

// The SSRF guard at work on real sockets: a "trap" listener on 127.0.0.2 (loopback, NOT on the
// allow-list) counts every connection it accepts; each bypass attempt must be refused before
// any connection is made. The allow-list holds 127.0.0.1 only, where a legitimate receiver
// proves the same client does connect when it may.

let trap: net.Server;
let trapPort: number;
let trapConnections = 0;
let receiver: HttpsReceiver;
let network: DeliveryNetwork;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wayline-ssrf-"));

beforeAll(async () => {
  const ca = ensureTestCa(path.join(dir, "ca"));
  trap = net.createServer((socket) => {
    trapConnections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => trap.listen(0, "127.0.0.2", resolve));
  trapPort = (trap.address() as net.AddressInfo).port;
  receiver = await startHttpsReceiver({ ca });
  // A resolver standing in for a hostile DNS server: "rebind.hostile-dns.net" answers a public address
  // and then the trap's; "inside.hostile-dns.net" only the trap's.
  const zone: Record<string, string[]> = {
    "rebind.hostile-dns.net": ["93.184.216.34", "127.0.0.2"],
    "inside.hostile-dns.net": ["127.0.0.2"],
    "mapped.hostile-dns.net": ["::ffff:127.0.0.2"],
    "allowed-by-address.hostile-dns.net": ["127.0.0.1"],
  };
  network = makeNetwork({
    allowedHosts: ["127.0.0.1"],
    extraCaPem: fs.readFileSync(ca.certFile, "utf8"),
    resolve: async (host) => (zone[host] ?? []).map((address) => ({ address, family: net.isIP(address) })),
  });
});

afterAll(async () => {
  await new Promise((r) => trap.close(r));
  await receiver.close();
  network.agent.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

const bypasses = () => {
  const p = trapPort;
  return [
    `https://127.0.0.2:${p}/`,
    `https://127.2:${p}/`, // short form
    `https://2130706434:${p}/`, // decimal
    `https://0x7f000002:${p}/`, // hex
    `https://0x7f.0.0.2:${p}/`, // hex part
    `https://0177.0.0.2:${p}/`, // octal part
    `https://017700000002:${p}/`, // octal
    `https://127.0.0.2.:${p}/`, // trailing dot
    `https://[::ffff:127.0.0.2]:${p}/`, // IPv4-mapped
    `https://[::ffff:7f00:2]:${p}/`, // IPv4-mapped, hex
    `https://[0:0:0:0:0:ffff:127.0.0.2]:${p}/`,
    `https://[::127.0.0.2]:${p}/`, // IPv4-compatible
    `https://[64:ff9b::7f00:2]:${p}/`, // NAT64
    `https://[::1]:${p}/`,
    `https://localhost:${p}/`,
    `https://127.0.0.1@127.0.0.2:${p}/`, // credentials trick
    `http://127.0.0.1:${p}/`, // not https
    `https://0.0.0.0:${p}/`,
    `https://0:${p}/`,
    `https://10.0.0.1:${p}/`,
    `https://172.16.5.4:${p}/`,
    `https://192.168.1.1:${p}/`,
    `https://100.64.0.1:${p}/`, // CGNAT
    `https://169.254.169.254/latest/meta-data/`, // cloud metadata
    `https://224.0.0.1:${p}/`, // multicast
    `https://255.255.255.255:${p}/`,
    `https://[fe80::1]:${p}/`, // link-local
    `https://[fd00::1]:${p}/`, // ULA
    `https://[ff02::1]:${p}/`,
    `https://metadata.google.internal/computeMetadata/v1/`,
    `https://metadata/`,
    `https://instance-data.ec2.internal/`,
    `https://printer.local:${p}/`,
    `https://hooks.partner.example:${p}/`, // reserved test TLD
    `https://rebind.hostile-dns.net:${p}/`, // resolves to a public and a loopback address
    `https://inside.hostile-dns.net:${p}/`,
    `https://mapped.hostile-dns.net:${p}/`,
  ];
};

describe("SSRF guard (server/delivery/ssrf.ts)", () => {
  it("refuses 37 bypass attempts without a single connection to the trap", async () => {
    const list = bypasses();
    expect(list.length).toBeGreaterThanOrEqual(25);
    for (const url of list) {
      const result = await postHttps({ url, headers: {}, body: "{}", network, timeoutMs: 3000 });
      expect(result, url).toMatchObject({ ok: false, kind: "refused" });
    }
    expect(trapConnections).toBe(0);
  });

  it("the same client does reach an allow-listed receiver (the harness can connect)", async () => {
    const result = await postHttps({
      url: `${receiver.url}/allowed`,
      headers: { "content-type": "application/json" },
      body: "{}",
      network,
    });
    expect(result).toMatchObject({ ok: true, status: 200 });
    const byAddress = await postHttps({
      url: `https://allowed-by-address.hostile-dns.net:${receiver.port}/x`,
      headers: {},
      body: "{}",
      network,
    });
    // Resolves to the allow-listed 127.0.0.1: the guard lets it through; the certificate (made
    // for 127.0.0.1 and localhost) then rightly fails the name check.
    expect(byAddress).toMatchObject({ ok: false, kind: "tls" });
    expect(receiver.on("/allowed")).toHaveLength(1);
  });

  it("checks every address a name resolves to, at connect time", async () => {
    const lookup = guardedLookup({ allowedHosts: [] }, async () => [
      { address: "8.8.8.8", family: 4 },
      { address: "10.1.2.3", family: 4 },
    ]);
    const error = await new Promise<Error | null>((resolve) =>
      lookup("twofaced.hostile-dns.net", { all: true }, (err) => resolve(err)),
    );
    expect(error).toBeInstanceOf(TargetRefused);
    const ok = await new Promise<unknown>((resolve) =>
      guardedLookup({ allowedHosts: [] }, async () => [{ address: "8.8.8.8", family: 4 }])(
        "public.hostile-dns.net",
        {},
        (err, address) => resolve(err ?? address),
      ),
    );
    expect(ok).toBe("8.8.8.8");
  });

  it("the syntactic pre-check accepts ordinary public https URLs", () => {
    const policy = { allowedHosts: [] };
    expect(checkTarget("https://hooks.partner-site.com/wayline?x=1", policy).hostname).toBe("hooks.partner-site.com");
    expect(checkTarget("https://93.184.216.34:8443/hook", policy).port).toBe("8443");
    expect(checkTarget("https://[2606:4700::1111]/hook", policy).hostname).toBe("[2606:4700::1111]");
    expect(() => checkTarget("not a url", policy)).toThrow(TargetRefused);
  });

  it("refuses a URL holding a line break, tab or other control character, which the URL parser would drop", () => {
    const policy = { allowedHosts: [] };
    for (const raw of [
      "https://hooks.example.com/a\r\nX: 1",
      "https://hooks.example.com/a\nb",
      "https://hooks.exa\tmple.com/",
    ])
      expect(() => checkTarget(raw, policy), JSON.stringify(raw)).toThrow(/control character/);
  });

  it("classifies the reserved ranges", () => {
    for (const a of [
      "127.0.0.1",
      "10.255.0.1",
      "100.127.255.254",
      "169.254.1.1",
      "172.31.0.1",
      "192.168.0.1",
      "0.1.2.3",
      "224.1.1.1",
      "::1",
      "::",
      "fe80::1",
      "fc00::1",
      "::ffff:8.8.8.8",
      "2002:7f00:1::1",
      "not-an-ip",
    ])
      expect(isForbiddenAddress(a), a).toBe(true);
    for (const a of ["8.8.8.8", "93.184.216.34", "100.128.0.1", "172.32.0.1", "2606:4700::1111"])
      expect(isForbiddenAddress(a), a).toBe(false);
  });
});
