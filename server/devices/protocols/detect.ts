// Which protocol a connection to the shared port speaks, from its first bytes: Teltonika opens
// with 00 0F and the IMEI's 15 digits, GT06 with 78 78 or 79 79, OsmAnd with an HTTP request line.

type Detected = "teltonika" | "gt06" | "osmand" | "unknown" | "more";

const TELTONIKA_OPENING = 17;
const METHOD = /^[A-Z]{3,16} \S/;
const METHOD_SO_FAR = /^[A-Z]{1,16} ?$/;

/** The protocol, "more" while the bytes so far fit more than one (or none yet), "unknown" when they fit none. */
export function detectProtocol(bytes: Uint8Array): Detected {
  if (bytes.length === 0) return "more";
  const first = bytes[0]!;
  if (first === 0x78 || first === 0x79) return bytes.length < 2 ? "more" : bytes[1] === first ? "gt06" : "unknown";
  if (first === 0x00) {
    if (bytes.length < 2) return "more";
    if (bytes[1] !== 0x0f) return "unknown";
    for (const byte of bytes.subarray(2, TELTONIKA_OPENING)) if (byte < 0x30 || byte > 0x39) return "unknown";
    return bytes.length < TELTONIKA_OPENING ? "more" : "teltonika";
  }
  const text = String.fromCharCode(...bytes.subarray(0, 18));
  if (METHOD.test(text)) return "osmand";
  return METHOD_SO_FAR.test(text) ? "more" : "unknown";
}
