import { crcItu } from "../protocols/gt06/crc";
import { encodeHeartbeat, encodeLocation, encodeLogin } from "../protocols/gt06/encode";
import { splitFrames } from "../protocols/gt06/frames";
import { GPS_LBS_2, HEARTBEAT, LOGIN } from "../protocols/gt06/messages";
import type { DeviceRecord } from "../protocols/record";
import { StandInError } from "./errors";
import type { Link } from "./link";
import { DeviceSocket } from "./socket";

// A GT06 / Concox tracker over TCP: the login, answered only when a vehicle names the IMEI; then
// one GPS+LBS location (0x22, with its ACC byte) a frame, each answered with its type and serial;
// a heartbeat when it has had nothing to say for a while.

type Options = { host: string; port: number; deviceId: string; timeoutMs: number };

export function gt06Link(options: Options): Link {
  let socket: DeviceSocket | null = null;
  let serial = 0;
  const next = () => (serial = (serial + 1) % 0x10000);

  /** Sends a frame and waits for the answer of the same type and serial. */
  async function exchange(frame: Uint8Array, type: number, at: number): Promise<void> {
    if (!socket) throw new StandInError("lost", "not connected");
    socket.write(frame);
    const answer = await readFrame(socket, options.timeoutMs);
    const view = new DataView(answer.buffer, answer.byteOffset, answer.byteLength);
    const answeredType = answer[answer[0] === 0x79 ? 4 : 3];
    if (answeredType !== type || view.getUint16(answer.length - 6) !== at)
      throw new StandInError(
        "lost",
        `an answer to message 0x${answeredType?.toString(16)}, not 0x${type.toString(16)}`,
      );
  }

  return {
    async open() {
      socket = await DeviceSocket.open(options.host, options.port, options.timeoutMs);
      const at = next();
      try {
        await exchange(encodeLogin(options.deviceId, { serial: at }), LOGIN, at);
      } catch (error) {
        // The gateway answers a login only when a vehicle names the device, and closes otherwise.
        if (error instanceof StandInError)
          throw new StandInError("refused", `no answer to the login of IMEI ${options.deviceId} (${error.message})`);
        throw error;
      }
    },
    batchOf: () => 1,
    async send([record]) {
      const at = next();
      await exchange(encodeLocation(GPS_LBS_2, record!, { serial: at }), GPS_LBS_2, at);
    },
    async keepAlive(ignition) {
      const at = next();
      const heartbeat: DeviceRecord = {
        deviceId: options.deviceId,
        fixTime: new Date(),
        position: null,
        valid: false,
        ignition,
        attributes: {},
      };
      await exchange(encodeHeartbeat(heartbeat, { serial: at }), HEARTBEAT, at);
    },
    close() {
      socket?.close();
      socket = null;
    },
  };
}

/** One frame of the gateway's, its framing and CRC checked. */
async function readFrame(socket: DeviceSocket, timeoutMs: number): Promise<Uint8Array> {
  const start = await socket.read(2, timeoutMs);
  const long = start[0] === 0x79;
  if ((start[0] !== 0x78 && !long) || start[1] !== start[0])
    throw new StandInError("lost", "an answer that is not a GT06 frame");
  const lengthBytes = await socket.read(long ? 2 : 1, timeoutMs);
  const length = long ? (lengthBytes[0]! << 8) | lengthBytes[1]! : lengthBytes[0]!;
  const rest = await socket.read(length + 2, timeoutMs); // the type to the CRC, then 0D 0A
  const frame = Uint8Array.of(...start, ...lengthBytes, ...rest);
  const split = splitFrames(frame);
  if (split.refusal || split.frames.length !== 1) throw new StandInError("lost", "an answer that is not a GT06 frame");
  const crc = new DataView(frame.buffer).getUint16(frame.length - 4);
  if (crc !== crcItu(frame.subarray(2, frame.length - 4))) throw new StandInError("lost", "an answer with a bad CRC");
  return frame;
}
