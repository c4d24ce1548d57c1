import { connect, createServer, type AddressInfo, type Server, type Socket } from "node:net";

/**
 * A TCP relay in front of PostgreSQL that records the frontend messages it
 * passes on, each with how many chunks of the server's answer had gone back
 * to the client before it arrived. Messages of one query that share that
 * count were sent without waiting on the server: one flight.
 */
export interface ClientMessage {
  /** The protocol's type byte ("P" Parse, "B" Bind, "D" Describe, "E" Execute, "S" Sync, "H" Flush...). */
  type: string;
  /** Parse's statement text; empty for the others. */
  text: string;
  serverChunksBefore: number;
}

export interface WireRelay {
  url(databaseUrl: string): string;
  readonly messages: readonly ClientMessage[];
  /** The messages from the Parse whose text includes `marker` to the Sync that ends it. */
  queryMessages(marker: string): ClientMessage[];
  /** How many times the client waited on the server while sending that query. */
  flights(marker: string): number;
  close(): Promise<void>;
}

const SSL_REQUEST = 80877103;

/** Splits the frontend stream into messages; the first (startup, or an SSL request and then startup) has no type byte. */
function frontendParser(onMessage: (type: string, body: Buffer) => void) {
  let pending = Buffer.alloc(0);
  let untyped = true;
  return (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    for (;;) {
      const header = untyped ? 4 : 5;
      if (pending.length < header) return;
      const length = pending.readUInt32BE(untyped ? 0 : 1);
      const total = untyped ? length : length + 1;
      if (pending.length < total) return;
      const message = pending.subarray(0, total);
      pending = pending.subarray(total);
      if (untyped) {
        untyped = message.length >= 8 && message.readUInt32BE(4) === SSL_REQUEST;
        continue;
      }
      onMessage(String.fromCharCode(message[0]!), message.subarray(5));
    }
  };
}

function parseText(body: Buffer): string {
  const nameEnd = body.indexOf(0);
  return body.toString("utf8", nameEnd + 1, body.indexOf(0, nameEnd + 1));
}

export async function pgWireRelay(target: { host: string; port: number }): Promise<WireRelay> {
  const messages: ClientMessage[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    let serverChunks = 0;
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
    }
    const parse = frontendParser((type, body) =>
      messages.push({ type, text: type === "P" ? parseText(body) : "", serverChunksBefore: serverChunks }),
    );
    client.on("data", (chunk: Buffer) => {
      parse(chunk);
      upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => {
      serverChunks += 1;
      client.write(chunk);
    });
    client.on("end", () => upstream.end());
    upstream.on("end", () => client.end());
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  const queryMessages = (marker: string) => {
    const start = messages.findIndex((m) => m.type === "P" && m.text.includes(marker));
    if (start < 0) throw new Error(`no Parse of a statement with ${marker}`);
    const end = messages.findIndex((m, i) => i > start && m.type === "S");
    if (end < 0) throw new Error(`no Sync after the statement with ${marker}`);
    return messages.slice(start, end + 1);
  };

  return {
    url(databaseUrl) {
      const url = new URL(databaseUrl);
      url.hostname = "127.0.0.1";
      url.port = String(port);
      return url.toString();
    },
    messages,
    queryMessages,
    flights: (marker) => new Set(queryMessages(marker).map((m) => m.serverChunksBefore)).size,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
