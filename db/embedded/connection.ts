import type net from "node:net";

// One client connection of the wire server, as the socket plumbing, the connection queue and the
// NOTIFY fan-out all see it.

export const STARTUP = 0; // our tag for the untyped startup message
export const SYNC = 0x53; // "S"
export const QUERY = 0x51; // "Q"
export const TERMINATE = 0x58; // "X"
export const PARSE = 0x50; // "P"

/** Why the server closed a client's connection on its own (a client's own hang-up is not reported). */
export type HangUp = { reason: "backend error" | "malformed message" | "unsupported startup"; error?: Error };

export interface Message {
  type: number;
  bytes: Uint8Array;
}

export interface Connection {
  socket: net.Socket;
  input: Buffer;
  started: boolean;
  pending: Message[];
  queued: boolean;
  closed: boolean;
  // Messages have run since the last Sync/Query: the backend may hold this
  // connection's unnamed statement/portal or be skipping input until Sync.
  midExtended: boolean;
  // Channels this client LISTENs to.
  listening: Set<string>;
}

export function newConnection(socket: net.Socket): Connection {
  return {
    socket,
    input: Buffer.alloc(0),
    started: false,
    pending: [],
    queued: false,
    closed: false,
    midExtended: false,
    listening: new Set(),
  };
}
