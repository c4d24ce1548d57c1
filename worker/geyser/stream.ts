import { credentials, Metadata, makeGenericClientConstructor, type ClientDuplexStream, type ServiceError } from "@grpc/grpc-js";
import { CommitmentLevel, geyserService, SlotStatus, type SubscribeRequest, type SubscribeUpdate, type SubscribeUpdateTransactionInfo } from "../../lib/geyser/service";

/** What the stream tells, in the order it came. */
export type StreamEvent =
  | { kind: "transaction"; slot: number; index: number; info: SubscribeUpdateTransactionInfo }
  | { kind: "blockMeta"; slot: number; blockTime: number | null }
  | { kind: "slot"; slot: number; status: SlotStatus }
  | { kind: "end"; error: Error; beforeAnyUpdate: boolean };

export interface StreamOptions {
  url: string;
  token?: string;
  programId: string;
  commitment: "confirmed" | "finalized";
  /** Ask the server to replay from this slot. */
  fromSlot?: number;
  /** No message at all for this long (pings included): the stream is stalled and ended. */
  stallMs: number;
}

export interface GeyserStream {
  /** The next event; null when none came within `timeoutMs`. After an `end` event, always that event. */
  next(timeoutMs: number): Promise<StreamEvent | null>;
  close(): void;
}

const GeyserClient = makeGenericClientConstructor(geyserService, "Geyser");

/** The server's pings are answered on the same stream, as the protocol asks of clients behind proxies. */
const PING_REPLY_ID = 1;

/**
 * One Subscribe call to a Yellowstone server for the program's transactions
 * (accountInclude, failed ones too, no votes), slot updates and block metas
 * at the commitment. Events queue up here until read, so a reader busy with a
 * backfill loses nothing; a server ping is answered at once, and a stream
 * that sends nothing for `stallMs` is cancelled and ends with an error.
 */
export function openGeyserStream(options: StreamOptions): GeyserStream {
  const url = new URL(options.url);
  const secure = url.protocol === "https:";
  const target = `${url.hostname}:${url.port || (secure ? 443 : 80)}`;
  const client = new GeyserClient(target, secure ? credentials.createSsl() : credentials.createInsecure(), {
    "grpc.max_receive_message_length": 64 * 1024 * 1024,
  });
  const metadata = new Metadata();
  if (options.token) metadata.set("x-token", options.token);
  const call = (client as unknown as { subscribe(metadata: Metadata): ClientDuplexStream<SubscribeRequest, SubscribeUpdate> }).subscribe(metadata);

  const queue: StreamEvent[] = [];
  let waiter: (() => void) | null = null;
  let ended: StreamEvent | null = null;
  let updates = 0;
  const push = (event: StreamEvent) => {
    if (ended) return;
    if (event.kind === "end") ended = event;
    else queue.push(event);
    waiter?.();
  };
  const finish = (error: Error) => {
    clearTimeout(stallTimer);
    push({ kind: "end", error, beforeAnyUpdate: updates === 0 });
    call.cancel();
    client.close();
  };
  let stallTimer = setTimeout(() => finish(new Error(`the Geyser stream sent nothing for ${options.stallMs} ms (stalled)`)), options.stallMs);
  const heard = () => {
    clearTimeout(stallTimer);
    stallTimer = setTimeout(() => finish(new Error(`the Geyser stream sent nothing for ${options.stallMs} ms (stalled)`)), options.stallMs);
  };

  call.on("data", (update: SubscribeUpdate) => {
    heard();
    if (update.ping) {
      call.write(pingRequest());
      return;
    }
    if (update.pong) return;
    updates++;
    if (update.transaction?.transaction) {
      push({ kind: "transaction", slot: Number(update.transaction.slot), index: Number(update.transaction.transaction.index), info: update.transaction.transaction });
    } else if (update.blockMeta) {
      const time = update.blockMeta.blockTime?.timestamp;
      push({ kind: "blockMeta", slot: Number(update.blockMeta.slot), blockTime: time === undefined ? null : Number(time) });
    } else if (update.slot) {
      push({ kind: "slot", slot: Number(update.slot.slot), status: update.slot.status });
    }
  });
  call.on("error", (error: ServiceError) => finish(error));
  call.on("end", () => finish(new Error("the Geyser server ended the stream")));

  call.write(subscribeRequest(options));

  return {
    async next(timeoutMs) {
      if (queue.length) return queue.shift()!;
      if (ended) return ended;
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        waiter = resolve;
        timer = setTimeout(resolve, timeoutMs);
      });
      clearTimeout(timer);
      waiter = null;
      return queue.shift() ?? ended;
    },
    close: () => finish(new Error("closed by the worker")),
  };
}

function subscribeRequest(options: StreamOptions): SubscribeRequest {
  return {
    accounts: {},
    slots: { slots: { filterByCommitment: true } },
    transactions: { program: { vote: false, failed: undefined, accountInclude: [options.programId], accountExclude: [], accountRequired: [] } },
    transactionsStatus: {},
    blocks: {},
    blocksMeta: { blocks: {} },
    entry: {},
    commitment: options.commitment === "finalized" ? CommitmentLevel.FINALIZED : CommitmentLevel.CONFIRMED,
    accountsDataSlice: [],
    ...(options.fromSlot === undefined ? {} : { fromSlot: String(options.fromSlot) }),
  };
}

function pingRequest(): SubscribeRequest {
  return { accounts: {}, slots: {}, transactions: {}, transactionsStatus: {}, blocks: {}, blocksMeta: {}, entry: {}, accountsDataSlice: [], ping: { id: PING_REPLY_ID } };
}
