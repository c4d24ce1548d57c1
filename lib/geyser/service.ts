import type { ServiceDefinition } from "@grpc/grpc-js";
import { SubscribeRequest, SubscribeUpdate } from "@triton-one/yellowstone-grpc";

/**
 * The Yellowstone (Dragon's Mouth) Geyser service's Subscribe call, for
 * @grpc/grpc-js: the path and message codecs of the protocol's geyser.proto,
 * the codecs being those @triton-one/yellowstone-grpc generates from it. The
 * worker's client and the local cluster's server both speak through it.
 */
export const GEYSER_SUBSCRIBE_PATH = "/geyser.Geyser/Subscribe";

const encodeRequest = (message: SubscribeRequest) => Buffer.from(SubscribeRequest.encode(message).finish());
const decodeRequest = (bytes: Buffer) => SubscribeRequest.decode(bytes);
const encodeUpdate = (message: SubscribeUpdate) => Buffer.from(SubscribeUpdate.encode(message).finish());
const decodeUpdate = (bytes: Buffer) => SubscribeUpdate.decode(bytes);

export const geyserService = {
  subscribe: {
    path: GEYSER_SUBSCRIBE_PATH,
    requestStream: true,
    responseStream: true,
    requestSerialize: encodeRequest,
    requestDeserialize: decodeRequest,
    responseSerialize: encodeUpdate,
    responseDeserialize: decodeUpdate,
    originalName: "Subscribe",
  },
} satisfies ServiceDefinition;

export { CommitmentLevel, SlotStatus, SubscribeRequest, SubscribeUpdate } from "@triton-one/yellowstone-grpc";
export type { SubscribeUpdateTransactionInfo } from "@triton-one/yellowstone-grpc";
