import type net from "node:net";
import { SMTPServer } from "smtp-server";

// A real SMTP server on loopback that keeps what it receives. `failNext` makes the next
// deliveries fail with a temporary error (451), to exercise retries.

export type ReceivedMail = { from: string; to: string[]; raw: string };

export async function startSmtpReceiver(): Promise<{
  url: string;
  port: number;
  mails: ReceivedMail[];
  failNext(count: number): void;
  close(): Promise<void>;
}> {
  const mails: ReceivedMail[] = [];
  let failures = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        if (failures > 0) {
          failures--;
          const error = Object.assign(new Error("Try again later"), { responseCode: 451 });
          return callback(error);
        }
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.server.address() as net.AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    mails,
    failNext: (count) => void (failures = count),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
