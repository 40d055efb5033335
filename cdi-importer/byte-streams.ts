// Small helpers over async iterables of Buffers, the one stream shape the import pipeline passes around.

/** The first `length` bytes (fewer at the end of the input) and the whole input again, head included. */
export async function peek(
  input: AsyncIterable<Buffer>,
  length: number,
): Promise<{ head: Buffer; all: AsyncIterable<Buffer> }> {
  const iterator = input[Symbol.asyncIterator]();
  const taken: Buffer[] = [];
  let size = 0;
  let ended = false;
  while (size < length) {
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      break;
    }
    taken.push(next.value);
    size += next.value.length;
  }
  const head = Buffer.concat(taken).subarray(0, length);
  async function* all(): AsyncGenerator<Buffer> {
    try {
      yield* taken;
      if (ended) return;
      for (;;) {
        const next = await iterator.next();
        if (next.done) return;
        yield next.value;
      }
    } finally {
      // Stopping early (an error downstream) ends the input too: a socket or a child process.
      await iterator.return?.();
    }
  }
  return { head, all: all() };
}

/** Passes the input through, telling `onBytes` how many bytes went by. */
export async function* counted(
  input: AsyncIterable<Buffer>,
  onBytes: (bytes: number) => void,
): AsyncGenerator<Buffer> {
  for await (const chunk of input) {
    onBytes(chunk.length);
    yield chunk;
  }
}
