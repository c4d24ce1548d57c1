import bs58 from "bs58";
import { I64_MAX, I64_MIN, U64_MAX } from "./constants";

/** A base58 public key, the form addresses take in JSON, the database and the API. */
export type Address = string;

export function addressToBytes(address: Address): Uint8Array {
  const bytes = bs58.decode(address);
  if (bytes.length !== 32) throw new Error(`not a 32-byte address: ${address}`);
  return bytes;
}

export function bytesToAddress(bytes: Uint8Array): Address {
  return bs58.encode(bytes);
}

/** Little-endian reads at fixed offsets; the caller has checked the length. */
export class ByteReader {
  private readonly view: DataView;
  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  u8(offset: number): number {
    return this.view.getUint8(offset);
  }
  u64(offset: number): bigint {
    return this.view.getBigUint64(offset, true);
  }
  i64(offset: number): bigint {
    return this.view.getBigInt64(offset, true);
  }
  address(offset: number): Address {
    return bytesToAddress(this.bytes.subarray(offset, offset + 32));
  }
}

/** Little-endian writes that refuse values the field cannot hold, instead of wrapping them. */
export class ByteWriter {
  readonly bytes: Uint8Array;
  private readonly view: DataView;
  constructor(length: number) {
    this.bytes = new Uint8Array(length);
    this.view = new DataView(this.bytes.buffer);
  }
  raw(offset: number, value: Uint8Array): this {
    this.bytes.set(value, offset);
    return this;
  }
  u8(offset: number, value: number, field: string): this {
    if (!Number.isInteger(value) || value < 0 || value > 255) throw new RangeError(`${field} is not a u8: ${value}`);
    this.view.setUint8(offset, value);
    return this;
  }
  u64(offset: number, value: bigint, field: string): this {
    if (value < 0n || value > U64_MAX) throw new RangeError(`${field} is not a u64: ${value}`);
    this.view.setBigUint64(offset, value, true);
    return this;
  }
  i64(offset: number, value: bigint, field: string): this {
    if (value < I64_MIN || value > I64_MAX) throw new RangeError(`${field} is not an i64: ${value}`);
    this.view.setBigInt64(offset, value, true);
    return this;
  }
  address(offset: number, value: Address): this {
    this.bytes.set(addressToBytes(value), offset);
    return this;
  }
}
