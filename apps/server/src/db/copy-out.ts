import type pg from 'pg';

// COPY … TO STDOUT through node-postgres without pg-copy-streams: the driver hands a query object that
// has `submit` the connection and the protocol's messages (its "submittable" extension point), so the
// CopyData chunks arrive as Buffers — no row parsing, no text decoding. Used for the saved read models'
// bytes (saved-arrays.ts readSaved: binary COPY, SavedSink) and by the bench's raw-table export (CSV).

/**
 * Sends `text` (a `COPY … TO STDOUT` statement) and hands each CopyData chunk to `onChunk` (a view of the
 * driver's buffer: copy what must outlive the call); `finished` resolves with the bytes received once the
 * server is ready again, and rejects with the server's error or the first error `onChunk` threw.
 */
export class CopyOut {
  bytes = 0;
  private done!: (n: number) => void;
  private fail!: (e: Error) => void;
  readonly finished = new Promise<number>((resolve, reject) => {
    this.done = resolve;
    this.fail = reject;
  });
  constructor(
    private readonly text: string,
    private readonly onChunk: (chunk: Buffer) => void,
  ) {}
  submit(connection: { query: (text: string) => void }) {
    connection.query(this.text);
  }
  /** the first error `onChunk` threw: the chunks after it are dropped, and `finished` rejects with it */
  private chunkError: unknown = null;
  handleCopyData(msg: { chunk: Buffer }) {
    this.bytes += msg.chunk.length;
    if (this.chunkError !== null) return;
    // thrown here, it would escape from the driver's socket handler and end the process
    try {
      this.onChunk(msg.chunk);
    } catch (err) {
      this.chunkError = err;
    }
  }
  handleCommandComplete() {}
  handleEmptyQuery() {}
  handleRowDescription() {}
  handleDataRow() {}
  /** pg drops the query on an error (no readyForQuery reaches it): the error is final */
  handleError(err: Error) {
    this.fail(err);
  }
  handleReadyForQuery() {
    if (this.chunkError !== null) this.fail(this.chunkError as Error);
    else this.done(this.bytes);
  }
}

/** Runs `text` (COPY … TO STDOUT) on `client`, each chunk to `onChunk`; resolves with the bytes received. */
export function copyOut(
  client: pg.ClientBase,
  text: string,
  onChunk: (chunk: Buffer) => void,
): Promise<number> {
  const copy = new CopyOut(text, onChunk);
  client.query(copy as unknown as pg.QueryConfig);
  return copy.finished;
}

/**
 * `text` with its parameters `$1`, `$2`, … written as SQL literals (COPY takes no parameters): finite
 * numbers as they are, strings and Buffers (as bytea hex) quoted by the driver's escapeLiteral. Anything
 * else is refused. Only for statements the server writes, never for text from a request.
 */
export function withLiterals(client: pg.ClientBase, text: string, values: unknown[]): string {
  return text.replace(/\$(\d+)/g, (_m, i: string) => {
    const v = values[Number(i) - 1];
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
    if (typeof v === 'string') return client.escapeLiteral(v);
    if (Buffer.isBuffer(v)) return `${client.escapeLiteral(`\\x${v.toString('hex')}`)}::bytea`;
    throw new Error(`parámetro $${i} no admitido en COPY`);
  });
}
