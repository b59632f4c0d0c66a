import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { splitFrames } from "@/server/devices/protocols/gt06/frames";
import { decodeFrame } from "@/server/devices/protocols/gt06/messages";
import { parseOsmAndRequest } from "@/server/devices/protocols/osmand/request";
import type { DeviceRecord } from "@/server/devices/protocols/record";
import { CODEC_16, CODEC_8, CODEC_8_EXTENDED } from "@/server/devices/protocols/teltonika/codecs";
import type { Codec } from "@/server/devices/protocols/teltonika/encode";
import { decodeTcpPacket, splitTcpFrames } from "@/server/devices/protocols/teltonika/frames";
import { handshakeReply } from "@/server/devices/protocols/teltonika/replies";
import { tripRecords } from "@/server/devices/stand-in/records";
import { type DeviceProtocol, runStandIn, type StandInEvent } from "@/server/devices/stand-in/run";
import { polylineGeometry } from "@/server/simulator/geometry";
import { generateTrip } from "@/server/simulator/model";

// The stand-in against peers on loopback that answer as the gateway does (docs/devices.md): each
// reads what the device sends with the protocol's own decoder and acknowledges it, and can be told
// to drop a connection before acknowledging, or not to know the device. The peers are the tests'
// own; the device under test is server/devices/stand-in/.

const IMEI = "356307042441013";
const peers: { close(): void }[] = [];
afterEach(() => {
  for (const peer of peers.splice(0)) peer.close();
});

// About 1.4 km along North High Street in Columbus: a trip of two dozen fixes, 5 s apart.
const geometry = polylineGeometry([
  [-83.0007, 39.9612],
  [-83.0012, 39.9701],
  [-83.0035, 39.979],
]);
const trip = generateTrip(geometry, { collectionPeriod: 5, seed: 3, engineData: false });
const recordsFor = (protocol: DeviceProtocol, codec?: Codec) =>
  tripRecords(trip, { protocol, deviceId: IMEI, start: new Date(), speedup: 1, codec });

const fast = { host: "127.0.0.1", deviceId: IMEI, timeoutMs: 2000, retryDelayMs: 20 };

type Peer = {
  port: number;
  /** Each frame's records as they arrived, acknowledged or not. */
  received: DeviceRecord[][];
  /** The records acknowledged. */
  stored: DeviceRecord[];
  connections: number;
  refusals: string[];
  /** GT06: the message types received, in order, and the heartbeats' records. */
  types: number[];
  heartbeats: DeviceRecord[];
};

function listen(server: net.Server, peer: Omit<Peer, "port">): Promise<Peer> {
  peers.push({ close: () => server.close() });
  server.on("connection", (socket) => {
    peer.connections++;
    peers.push({ close: () => socket.destroy() });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve(Object.assign(peer, { port: (server.address() as AddressInfo).port }))),
  );
}

const newPeer = (): Omit<Peer, "port"> => ({
  received: [],
  stored: [],
  connections: 0,
  refusals: [],
  types: [],
  heartbeats: [],
});

/** A Teltonika gateway: 01 to a known IMEI (00 and closed otherwise), each packet's count once it is "stored". */
function teltonikaPeer(options: { known?: boolean; dropBeforeAck?: (packet: number) => boolean } = {}) {
  const peer = newPeer();
  let packets = 0;
  const server = net.createServer((socket) => {
    let buffer = new Uint8Array();
    let deviceId: string | null = null;
    socket.on("error", () => {});
    socket.on("data", (chunk: Buffer) => {
      const split = splitTcpFrames(Buffer.concat([buffer, chunk]), { identified: deviceId !== null });
      buffer = Uint8Array.from(split.rest);
      for (const frame of split.frames) {
        if (frame.kind === "imei") {
          deviceId = frame.imei;
          if (options.known === false) return void socket.end(handshakeReply(false));
          socket.write(handshakeReply(true));
          continue;
        }
        const decoded = decodeTcpPacket(frame.packet, { deviceId: deviceId!, now: new Date() });
        if ("refused" in decoded) {
          peer.refusals.push(decoded.refused);
          return void socket.destroy();
        }
        peer.received.push(decoded.records);
        if (options.dropBeforeAck?.(packets++)) return void socket.destroy();
        peer.stored.push(...decoded.records);
        socket.write(decoded.reply);
      }
      if (split.refusal) {
        peer.refusals.push(split.refusal);
        socket.destroy();
      }
    });
  });
  return listen(server, peer);
}

/** A GT06 gateway: the login answered when the IMEI is known (closed otherwise), then each message answered. */
function gt06Peer(options: { known?: boolean; dropBeforeReply?: (location: number) => boolean } = {}) {
  const peer = newPeer();
  let locations = 0;
  const server = net.createServer((socket) => {
    let buffer = new Uint8Array();
    let deviceId: string | null = null;
    socket.on("error", () => {});
    socket.on("data", (chunk: Buffer) => {
      const split = splitFrames(Buffer.concat([buffer, chunk]));
      buffer = Uint8Array.from(split.rest);
      for (const frame of split.frames) {
        const message = decodeFrame(frame, { deviceId, now: new Date() });
        if ("refused" in message) {
          peer.refusals.push(message.refused);
          return void socket.destroy();
        }
        peer.types.push(frame[3]!);
        if (message.kind === "login") {
          if (options.known === false) return void socket.destroy();
          deviceId = message.deviceId;
        } else if (message.kind === "records" && frame[3] === 0x23) {
          peer.heartbeats.push(...message.records);
        } else if (message.kind === "records") {
          peer.received.push(message.records);
          if (options.dropBeforeReply?.(locations++)) return void socket.destroy();
          peer.stored.push(...message.records);
        }
        if (message.reply) socket.write(message.reply);
      }
      if (split.refusal) {
        peer.refusals.push(split.refusal);
        socket.destroy();
      }
    });
  });
  return listen(server, peer);
}

/** An OsmAnd gateway: 200 once stored, 400 for an unknown id or a refused request; can drop a request unanswered. */
function osmandPeer(options: { known?: boolean; dropUnanswered?: (request: number) => boolean } = {}) {
  const peer = newPeer();
  let requests = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const parsed = parseOsmAndRequest(
        {
          method: req.method!,
          url: req.url!,
          contentType: req.headers["content-type"] ?? null,
          body: Buffer.concat(chunks),
        },
        new Date(),
      );
      if ("refused" in parsed || options.known === false) {
        peer.refusals.push("refused" in parsed ? parsed.refused : "unknown id");
        return void res.writeHead(400).end();
      }
      peer.received.push(parsed.records);
      if (options.dropUnanswered?.(requests++)) return void req.socket.destroy();
      peer.stored.push(...parsed.records);
      res.writeHead(200).end();
    });
  });
  return listen(server, peer);
}

describe("the stand-in, as a Teltonika tracker", () => {
  for (const codec of [CODEC_8, CODEC_8_EXTENDED, CODEC_16] as const) {
    it(`codec 0x${codec.toString(16)}: the IMEI, then packets of at most N records, each acknowledged once`, async () => {
      const peer = await teltonikaPeer();
      const records = recordsFor("teltonika", codec);
      const events: StandInEvent[] = [];
      const result = await runStandIn({
        ...fast,
        protocol: "teltonika",
        port: peer.port,
        records,
        codec,
        maxRecordsPerPacket: 4,
        onEvent: (e) => events.push(e),
      });
      expect(result).toMatchObject({ pending: [], connections: 1, stopped: null });
      expect(result.acknowledged).toEqual(records);
      // What the gateway decoded is the record the stand-in made: nothing lost on the wire.
      expect(peer.stored).toEqual(records);
      expect(peer.received.map((r) => r.length)).toEqual(
        Array.from({ length: Math.ceil(records.length / 4) }, (_, i) => Math.min(4, records.length - i * 4)),
      );
      expect(events.filter((e) => e.kind === "acknowledged")).toHaveLength(peer.received.length);
      expect(records[0]!.ignition).toBe(true);
      expect(records.at(-1)!.ignition).toBe(false);
    });
  }

  it("a connection dropped before the acknowledgement: it connects again, sends the same records again, each acknowledged once", async () => {
    const peer = await teltonikaPeer({ dropBeforeAck: (packet) => packet === 1 });
    const records = recordsFor("teltonika");
    const events: StandInEvent[] = [];
    const result = await runStandIn({
      ...fast,
      protocol: "teltonika",
      port: peer.port,
      records,
      maxRecordsPerPacket: 5,
      onEvent: (e) => events.push(e),
    });
    expect(result).toMatchObject({ pending: [], connections: 2, stopped: null });
    expect(result.acknowledged).toEqual(records);
    expect(peer.connections).toBe(2);
    // The second packet arrived twice; the gateway acknowledged (stored) it once.
    expect(peer.received[1]).toEqual(records.slice(5, 10));
    expect(peer.received[2]).toEqual(records.slice(5, 10));
    expect(peer.stored).toEqual(records);
    expect(events.find((e) => e.kind === "failed")).toMatchObject({ reason: "lost", pending: records.length - 5 });
    const acknowledged = events.filter((e) => e.kind === "acknowledged");
    expect(acknowledged.map((e) => e.resent)).toEqual(acknowledged.map((_, i) => i === 1));
  });

  it("an IMEI no vehicle names is answered 00: refused, retried, given up after maxFailures with nothing acknowledged", async () => {
    const peer = await teltonikaPeer({ known: false });
    const events: StandInEvent[] = [];
    const result = await runStandIn({
      ...fast,
      protocol: "teltonika",
      port: peer.port,
      records: recordsFor("teltonika"),
      maxFailures: 3,
      onEvent: (e) => events.push(e),
    });
    expect(result.acknowledged).toEqual([]);
    expect(result.pending).toHaveLength(recordsFor("teltonika").length);
    expect(result.stopped).toMatch(/^gave up after 3 failures: the gateway answered 00 to IMEI 356307042441013/);
    expect(events.map((e) => e.kind)).toEqual(["failed", "failed"]);
    expect(events[0]).toMatchObject({ reason: "refused", retryInMs: 20 });
    expect(events[1]).toMatchObject({ retryInMs: 40 }); // doubled
    expect(peer.connections).toBe(3);
  });

  it("no gateway listening: the connection is refused, the records kept", async () => {
    const closed = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const result = await runStandIn({
      ...fast,
      protocol: "teltonika",
      port: closed,
      records: recordsFor("teltonika"),
      maxFailures: 2,
    });
    expect(result.stopped).toMatch(/ECONNREFUSED/);
    expect(result.acknowledged).toEqual([]);
  });
});

describe("the stand-in, as a GT06 tracker", () => {
  it("the login, then one 0x22 location a frame, each answered; a frame dropped unanswered is sent again after a new login", async () => {
    const peer = await gt06Peer({ dropBeforeReply: (location) => location === 3 });
    const records = recordsFor("gt06");
    const result = await runStandIn({ ...fast, protocol: "gt06", port: peer.port, records });
    expect(result).toMatchObject({ pending: [], connections: 2, stopped: null });
    expect(result.acknowledged).toEqual(records);
    expect(peer.stored).toEqual(records);
    expect(peer.received[3]).toEqual(peer.received[4]);
    expect(peer.types).toEqual([0x01, 0x22, 0x22, 0x22, 0x22, 0x01, ...records.slice(3).map(() => 0x22)]);
    expect(peer.refusals).toEqual([]);
  });

  it("live: each record no earlier than its time, a heartbeat with the ACC bit while there is nothing to send", async () => {
    const peer = await gt06Peer();
    const start = Date.now();
    const records = recordsFor("gt06")
      .slice(0, 2)
      .map((record, i) => ({ ...record, fixTime: new Date(Math.ceil(start / 1000) * 1000 + i * 1200) }));
    const heartbeats: number[] = [];
    const result = await runStandIn({
      ...fast,
      protocol: "gt06",
      port: peer.port,
      records,
      live: true,
      heartbeatMs: 250,
      onEvent: (e) => {
        if (e.kind === "heartbeat") heartbeats.push(Date.now());
      },
    });
    expect(result.acknowledged).toEqual(records);
    expect(Date.now()).toBeGreaterThanOrEqual(records[1]!.fixTime.getTime());
    expect(heartbeats.length).toBeGreaterThanOrEqual(2);
    expect(peer.types.filter((t) => t === 0x23)).toHaveLength(heartbeats.length);
    // Between the ON and the next fix the ignition is on.
    expect(peer.heartbeats.map((r) => r.ignition)).toEqual(heartbeats.map(() => true));
  });

  it("a login the gateway does not answer (an unknown IMEI) is a refusal", async () => {
    const peer = await gt06Peer({ known: false });
    const result = await runStandIn({
      ...fast,
      protocol: "gt06",
      port: peer.port,
      records: recordsFor("gt06"),
      maxFailures: 1,
    });
    expect(result.stopped).toMatch(/^gave up after 1 failures: no answer to the login of IMEI 356307042441013/);
    expect(peer.types).toEqual([0x01]);
  });
});

describe("the stand-in, as an OsmAnd app", () => {
  for (const form of ["query", "form", "json"] as const) {
    it(`${form}: one request a record, answered 200; a request dropped unanswered is sent again`, async () => {
      const peer = await osmandPeer({ dropUnanswered: (request) => request === 2 });
      const records = recordsFor("osmand");
      const result = await runStandIn({ ...fast, protocol: "osmand", port: peer.port, records, form });
      expect(result).toMatchObject({ pending: [], stopped: null });
      expect(result.acknowledged).toEqual(records);
      expect(peer.received).toHaveLength(records.length + 1);
      expect(peer.refusals).toEqual([]);
      if (form === "json") {
        // Traccar Client 9 sends m/s: the speed comes back within a rounding.
        expect(peer.stored.map((r) => ({ ...r, speedKnots: undefined }))).toEqual(
          records.map((r) => ({ ...r, speedKnots: undefined })),
        );
        peer.stored.forEach((r, i) => expect(r.speedKnots).toBeCloseTo(records[i]!.speedKnots!, 9));
      } else expect(peer.stored).toEqual(records);
    });
  }

  it("an id the gateway refuses (400) is a refusal", async () => {
    const peer = await osmandPeer({ known: false });
    const result = await runStandIn({
      ...fast,
      protocol: "osmand",
      port: peer.port,
      records: recordsFor("osmand"),
      maxFailures: 2,
    });
    expect(result.stopped).toMatch(/^gave up after 2 failures: the gateway answered 400/);
    expect(peer.refusals).toEqual(["unknown id", "unknown id"]);
  });
});

describe("the stand-in stops when told", () => {
  it("an abort while it waits for the next fix ends it with what was acknowledged", async () => {
    const peer = await teltonikaPeer();
    const records = recordsFor("teltonika").map((record, i) => ({
      ...record,
      fixTime: new Date(Date.now() + (i === 0 ? 0 : 60_000 + i)),
    }));
    const stop = new AbortController();
    const result = await runStandIn({
      ...fast,
      protocol: "teltonika",
      port: peer.port,
      records,
      live: true,
      signal: stop.signal,
      onEvent: (e) => {
        if (e.kind === "acknowledged") setTimeout(() => stop.abort(), 50);
      },
    });
    expect(result.acknowledged).toEqual(records.slice(0, 1));
    expect(result.pending).toEqual(records.slice(1));
    expect(result.stopped).toBe("stopped");
  });
});
