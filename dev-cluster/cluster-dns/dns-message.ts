/**
 * The DNS wire format (RFC 1035), as much as a cluster DNS server needs: one question in, A,
 * SRV, CNAME and SOA records out. Names in answers are written whole (no compression), which
 * every resolver accepts; only the question's name is read with compression pointers followed.
 */

export const RecordType = { A: 1, CNAME: 5, SOA: 6, PTR: 12, TXT: 16, AAAA: 28, SRV: 33, ANY: 255 } as const;
export const ResponseCode = {
  NOERROR: 0,
  FORMERR: 1,
  SERVFAIL: 2,
  NXDOMAIN: 3,
  NOTIMP: 4,
  REFUSED: 5,
} as const;
const CLASS_IN = 1;

export interface DnsQuestion {
  /** Lower case, without the trailing dot. */
  name: string;
  type: number;
  class: number;
}

export interface DnsQuery {
  id: number;
  /** Opcode 0 (QUERY) is the only one answered. */
  opcode: number;
  recursionDesired: boolean;
  question: DnsQuestion;
}

export type RecordData =
  | { type: typeof RecordType.A; address: string }
  | { type: typeof RecordType.CNAME; target: string }
  | { type: typeof RecordType.SRV; priority: number; weight: number; port: number; target: string }
  | {
      type: typeof RecordType.SOA;
      primary: string;
      mailbox: string;
      serial: number;
      refresh: number;
      retry: number;
      expire: number;
      minimum: number;
    };

export interface ResourceRecord {
  name: string;
  ttl: number;
  data: RecordData;
}

export interface DnsAnswer {
  code: number;
  answers: readonly ResourceRecord[];
  /** The zone's SOA on a negative answer, so that resolvers cache it only briefly. */
  authority: readonly ResourceRecord[];
}

export class DnsFormatError extends Error {
  override readonly name = "DnsFormatError";
}

/** Reads a query; throws DnsFormatError when the message is not a well-formed one-question query. */
export function parseQuery(message: Buffer): DnsQuery {
  if (message.length < 12) throw new DnsFormatError("shorter than a DNS header");
  const flags = message.readUInt16BE(2);
  if (flags & 0x8000) throw new DnsFormatError("a response, not a query");
  if (message.readUInt16BE(4) !== 1) throw new DnsFormatError("not exactly one question");
  const { name, end } = readName(message, 12);
  if (end + 4 > message.length) throw new DnsFormatError("the question is cut short");
  return {
    id: message.readUInt16BE(0),
    opcode: (flags >> 11) & 0xf,
    recursionDesired: (flags & 0x0100) !== 0,
    question: { name, type: message.readUInt16BE(end), class: message.readUInt16BE(end + 2) },
  };
}

/** The id of a message too broken to parse, so that a FORMERR can still be matched by the client. */
export function messageId(message: Buffer): number | undefined {
  return message.length >= 2 ? message.readUInt16BE(0) : undefined;
}

/** Encodes the response to `query`: authoritative, no recursion offered. */
export function encodeResponse(query: DnsQuery, answer: DnsAnswer): Buffer {
  const flags = 0x8000 | (query.opcode << 11) | 0x0400 | (query.recursionDesired ? 0x0100 : 0) | answer.code;
  const header = Buffer.alloc(12);
  header.writeUInt16BE(query.id, 0);
  header.writeUInt16BE(flags, 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(answer.answers.length, 6);
  header.writeUInt16BE(answer.authority.length, 8);
  const question = Buffer.concat([
    encodeName(query.question.name),
    uint16(query.question.type),
    uint16(query.question.class),
  ]);
  return Buffer.concat([
    header,
    question,
    ...answer.answers.map(encodeRecord),
    ...answer.authority.map(encodeRecord),
  ]);
}

/** A header-only error response (FORMERR, NOTIMP, ...). */
export function encodeError(id: number, code: number): Buffer {
  const header = Buffer.alloc(12);
  header.writeUInt16BE(id, 0);
  header.writeUInt16BE(0x8000 | code, 2);
  return header;
}

function readName(message: Buffer, start: number): { name: string; end: number } {
  const labels: string[] = [];
  let offset = start;
  let end: number | undefined;
  for (let jumps = 0; ; ) {
    if (offset >= message.length) throw new DnsFormatError("a name runs past the message");
    const length = message.readUInt8(offset);
    if ((length & 0xc0) === 0xc0) {
      if (offset + 1 >= message.length) throw new DnsFormatError("a pointer runs past the message");
      end ??= offset + 2;
      offset = ((length & 0x3f) << 8) | message.readUInt8(offset + 1);
      if (++jumps > 16) throw new DnsFormatError("a name's pointers loop");
      continue;
    }
    if (length & 0xc0) throw new DnsFormatError("an unknown label type");
    if (length === 0) {
      end ??= offset + 1;
      break;
    }
    if (offset + 1 + length > message.length) throw new DnsFormatError("a label runs past the message");
    labels.push(
      message
        .subarray(offset + 1, offset + 1 + length)
        .toString("latin1")
        .toLowerCase(),
    );
    offset += 1 + length;
  }
  const name = labels.join(".");
  if (name.length > 253) throw new DnsFormatError("a name longer than 253 characters");
  return { name, end };
}

function encodeName(name: string): Buffer {
  const labels = name === "" ? [] : name.split(".");
  const parts = labels.map((label) => {
    const bytes = Buffer.from(label, "latin1");
    if (bytes.length === 0 || bytes.length > 63)
      throw new Error(`"${name}" has a label of ${bytes.length} bytes`);
    return Buffer.concat([Buffer.from([bytes.length]), bytes]);
  });
  return Buffer.concat([...parts, Buffer.from([0])]);
}

function encodeRecord(record: ResourceRecord): Buffer {
  const data = encodeData(record.data);
  const fixed = Buffer.alloc(10);
  fixed.writeUInt16BE(record.data.type, 0);
  fixed.writeUInt16BE(CLASS_IN, 2);
  fixed.writeUInt32BE(record.ttl, 4);
  fixed.writeUInt16BE(data.length, 8);
  return Buffer.concat([encodeName(record.name), fixed, data]);
}

function encodeData(data: RecordData): Buffer {
  switch (data.type) {
    case RecordType.A:
      return Buffer.from(data.address.split(".").map(Number));
    case RecordType.CNAME:
      return encodeName(data.target);
    case RecordType.SRV:
      return Buffer.concat([
        uint16(data.priority),
        uint16(data.weight),
        uint16(data.port),
        encodeName(data.target),
      ]);
    case RecordType.SOA:
      return Buffer.concat([
        encodeName(data.primary),
        encodeName(data.mailbox),
        ...[data.serial, data.refresh, data.retry, data.expire, data.minimum].map(uint32),
      ]);
  }
}

function uint16(value: number): Buffer {
  const buffer = Buffer.alloc(2);
  buffer.writeUInt16BE(value, 0);
  return buffer;
}

function uint32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32BE(value >>> 0, 0);
  return buffer;
}
