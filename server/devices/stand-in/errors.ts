/**
 * Why records were not acknowledged: `refused`, the gateway does not take this device (the
 * protocol's refusal: Teltonika's 00, no answer to a GT06 login, OsmAnd's 400); `lost`, the
 * connection or the request failed (refused, reset, closed, no answer in time). Either way the
 * records stay the device's to send again.
 */
export class StandInError extends Error {
  constructor(
    readonly reason: "refused" | "lost",
    message: string,
  ) {
    super(message);
  }
}
