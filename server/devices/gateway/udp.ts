import dgram from "node:dgram";
import net from "node:net";
import type { Environment } from "@/db/schema";
import { logger } from "@/server/platform/log";
import { submitRecords } from "../ingest/queue";
import { decodeUdpDatagram } from "../protocols/teltonika/udp";
import { logUnknownDevice } from "../unknown-ids";
import type { Listener } from "./tcp";

// Teltonika over UDP (docs/devices.md#teltonika): each datagram stands alone, with its IMEI. Its
// records are stored and only then is it answered (the specification's acknowledgement, to the
// address it came from); a datagram refused, of an id no vehicle names, or not stored is not
// answered, and the device sends it again. The drain stops reading, answers the datagrams in hand,
// then closes the socket.

export function listenUdp(input: { environment: Environment; port: number; host: string }): Promise<Listener> {
  const { environment } = input;
  const socket = dgram.createSocket(net.isIPv6(input.host) ? "udp6" : "udp4");
  const inHand = new Set<Promise<void>>();
  let draining = false;

  socket.on("message", (datagram, from) => {
    if (draining) return;
    const handled = handle(datagram, from)
      .catch((error: unknown) => logger.error({ err: error, protocol: "teltonika" }, "device gateway: datagram failed"))
      .finally(() => inHand.delete(handled));
    inHand.add(handled);
  });

  async function handle(datagram: Buffer, from: dgram.RemoteInfo): Promise<void> {
    const decoded = decodeUdpDatagram(datagram, { now: new Date() });
    if ("refused" in decoded) {
      logger.debug({ protocol: "teltonika", remote: from.address, reason: decoded.refused }, "device datagram refused");
      return;
    }
    const { deviceId, records, reply } = decoded;
    try {
      const outcome =
        records.length === 0
          ? "stored"
          : await submitRecords(environment, { deviceId, protocol: "teltonika", records });
      if (outcome === "unknown") {
        logUnknownDevice({ environment, deviceId, protocol: "teltonika", remote: `${from.address}:${from.port}` });
        return;
      }
      socket.send(reply, from.port, from.address);
    } catch (error) {
      logger.error({ err: error, protocol: "teltonika", deviceId }, "device gateway: datagram not stored");
    }
  }

  return new Promise((resolve, reject) => {
    socket.once("error", reject);
    socket.bind(input.port, input.host, () => {
      socket.off("error", reject);
      socket.on("error", (error) => logger.warn({ err: error }, "device gateway: UDP socket error"));
      resolve({
        port: socket.address().port,
        async drain(withinMs) {
          draining = true;
          let timer: NodeJS.Timeout | undefined;
          const late = new Promise<false>((done) => (timer = setTimeout(() => done(false), withinMs)));
          const inTime = await Promise.race([Promise.all(inHand).then(() => true as const), late]);
          clearTimeout(timer);
          socket.close();
          return inTime;
        },
      });
    });
  });
}
