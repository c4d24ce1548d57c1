import { connect as tcpConnect, createServer, type AddressInfo, type Server, type Socket } from "node:net";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { afterEach, describe, expect, it } from "vitest";
import { codedError, isDatabaseUnreachable } from "../../../lib/resilience";
import { databaseStartupError } from "../../../platform/postgres/connect-error";

// The predicate is judged on the errors themselves, as postgres.js, drizzle
// and node make them: no database needed. A few lines of PostgreSQL's wire
// protocol stand in for a server that refuses a session or a statement.

/** A protocol message: its type byte, its length, its body. */
function message(type: string, body: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeInt32BE(body.length + 4);
  return Buffer.concat([Buffer.from(type), length, body]);
}

/** An ErrorResponse with PostgreSQL's code (SQLSTATE) and message. */
function errorResponse(code: string, text: string, severity: "FATAL" | "ERROR"): Buffer {
  const field = (key: string, value: string) => Buffer.from(`${key}${value}\0`);
  return message("E", Buffer.concat([field("S", severity), field("V", severity), field("C", code), field("M", text), Buffer.from([0])]));
}

const AUTHENTICATION_OK = message("R", Buffer.from([0, 0, 0, 0]));
const READY_FOR_QUERY = message("Z", Buffer.from("I"));

const servers: Server[] = [];
const clients: postgres.Sql[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.end({ timeout: 0 })));
  for (const server of servers.splice(0)) server.close();
});

async function listen(onConnection: (socket: Socket) => void): Promise<number> {
  const server = createServer((socket) => {
    socket.on("error", () => {}); // the client hanging up on a fake server is no failure
    onConnection(socket);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

/** A port nothing listens on: one just let go of. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** What `select 1` through drizzle throws, against a server on `port`. */
async function queryError(port: number): Promise<unknown> {
  const client = postgres(`postgres://offer_book@127.0.0.1:${port}/offer_book`, { max: 1, fetch_types: false, connect_timeout: 0.2, onnotice: () => {} });
  clients.push(client);
  return drizzle(client).execute(sql`select 1`).then(
    () => expect.unreachable("the query succeeded"),
    (error: unknown) => error,
  );
}

/** A server that refuses the session at start-up with `code`. */
const refusingSession = (code: string, text: string) => listen((socket) => socket.once("data", () => socket.end(errorResponse(code, text, "FATAL"))));

/** A server that accepts the session and answers every statement with `code`. */
const failingStatements = (code: string, text: string) =>
  listen((socket) => {
    let started = false;
    socket.on("data", () => {
      socket.write(started ? Buffer.concat([errorResponse(code, text, "ERROR"), READY_FOR_QUERY]) : Buffer.concat([AUTHENTICATION_OK, READY_FOR_QUERY]));
      started = true;
    });
  });

describe("is the database unreachable?", () => {
  it("yes when nothing listens (ECONNREFUSED, through drizzle's wrapper)", async () => {
    const error = await queryError(await closedPort());
    expect(codedError(error)?.code).toBe("ECONNREFUSED");
    expect(isDatabaseUnreachable(error)).toBe(true);
  });

  it("yes when the server does not answer in time (CONNECT_TIMEOUT)", async () => {
    const error = await queryError(await listen(() => {}));
    expect(codedError(error)?.code).toBe("CONNECT_TIMEOUT");
    expect(isDatabaseUnreachable(error)).toBe(true);
  });

  it("yes when the connection drops mid-statement (CONNECTION_CLOSED)", async () => {
    const port = await listen((socket) => {
      let started = false;
      socket.on("data", () => {
        if (started) return void socket.destroy();
        started = true;
        socket.write(Buffer.concat([AUTHENTICATION_OK, READY_FOR_QUERY]));
      });
    });
    const error = await queryError(port);
    expect(codedError(error)?.code).toBe("CONNECTION_CLOSED");
    expect(isDatabaseUnreachable(error)).toBe(true);
  });

  it("yes when the pool was ended (CONNECTION_ENDED)", async () => {
    const client = postgres(`postgres://offer_book@127.0.0.1:${await closedPort()}/offer_book`, { max: 1 });
    await client.end();
    const error = await client`select 1`.then(() => null, (e: unknown) => e);
    expect(codedError(error)?.code).toBe("CONNECTION_ENDED");
    expect(isDatabaseUnreachable(error)).toBe(true);
  });

  it.each([
    ["57P03", "the database system is starting up"],
    ["53300", "sorry, too many clients already"],
    ["3D000", 'database "offer_book" does not exist'],
  ])("yes when PostgreSQL refuses the session with %s", async (code, text) => {
    const error = await queryError(await refusingSession(code, text));
    expect(codedError(error)?.code).toBe(code);
    expect(isDatabaseUnreachable(error)).toBe(true);
  });

  it("yes when PostgreSQL ends the session under a statement (57P01 admin_shutdown)", async () => {
    const error = await queryError(await failingStatements("57P01", "terminating connection due to administrator command"));
    expect(codedError(error)?.code).toBe("57P01");
    expect(isDatabaseUnreachable(error)).toBe(true);
  });

  it("yes for a socket node saw reset (ECONNRESET)", async () => {
    const port = await listen((socket) => socket.resetAndDestroy());
    const error = await new Promise<Error>((resolve) => {
      const socket = tcpConnect(port, "127.0.0.1", () => socket.write("hello"));
      socket.on("error", resolve);
    });
    expect((error as NodeJS.ErrnoException).code).toBe("ECONNRESET");
    expect(isDatabaseUnreachable(error)).toBe(true);
  });

  it.each([
    ["42601", "syntax error at or near \"selec\""],
    ["57014", "canceling statement due to statement timeout"],
    ["23505", "duplicate key value violates unique constraint"],
  ])("no for a statement PostgreSQL refused (%s): a bug or a bad request, not an outage", async (code, text) => {
    const error = await queryError(await failingStatements(code, text));
    expect(codedError(error)?.code).toBe(code);
    expect(isDatabaseUnreachable(error)).toBe(false);
  });

  it("no for an error without a code, or no error at all", () => {
    expect(isDatabaseUnreachable(new Error("plain"))).toBe(false);
    expect(isDatabaseUnreachable(new Error("wrapped", { cause: new Error("plain") }))).toBe(false);
    expect(isDatabaseUnreachable(null)).toBe(false);
    expect(isDatabaseUnreachable("ECONNREFUSED")).toBe(false);
    const looped: Error & { cause?: unknown } = new Error("loop");
    looped.cause = looped;
    expect(isDatabaseUnreachable(looped)).toBe(false);
  });
});

describe("the start-up wording, built on the predicate", () => {
  const url = "postgres://offer_book:secret@127.0.0.1:5999/offer_book";

  it("names the causes people meet, and calls any other unreachable database one that does not answer", async () => {
    expect(databaseStartupError(url, await queryError(await closedPort())).message).toMatch(/^no PostgreSQL answers at 127\.0\.0\.1:5999 \(DATABASE_URL=postgres:\/\/offer_book:\*\*\*@/);
    expect(databaseStartupError(url, await queryError(await refusingSession("57P03", "starting up"))).message).toMatch(/is starting up or shutting down/);
    expect(databaseStartupError(url, await queryError(await listen(() => {}))).message).toMatch(/^the database at 127\.0\.0\.1:5999 does not answer/);
    const terminated = await queryError(await failingStatements("57P01", "terminating connection due to administrator command"));
    expect(databaseStartupError(url, terminated).message).toMatch(/^the database at 127\.0\.0\.1:5999 does not answer/);
    const syntax = await queryError(await failingStatements("42601", "syntax error"));
    expect(databaseStartupError(url, syntax).message).toBe("the database at 127.0.0.1:5999 failed: syntax error: check DATABASE_URL and the server's log");
  });
});
