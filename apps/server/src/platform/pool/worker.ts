import { move } from 'piscina';

// The body of every pool thread (pool.ts): a task names a module and one of its exports; the module is
// imported once per thread and the export called with the task's arguments. A byte result (a file
// written in the thread) is moved to the main thread, not copied.

interface Call {
  module: string;
  name: string;
  args: unknown[];
}

const modules = new Map<string, Promise<Record<string, unknown>>>();

export default async function run(call: Call): Promise<unknown> {
  if (call.module === '') return null; // pool.ts's no-op: it only makes Piscina start a thread
  let loading = modules.get(call.module);
  if (!loading) {
    loading = import(call.module) as Promise<Record<string, unknown>>;
    modules.set(call.module, loading);
  }
  const fn = (await loading)[call.name];
  if (typeof fn !== 'function') throw new Error(`${call.module} does not export a function ${call.name}`);
  const result = await (fn as (...a: unknown[]) => unknown)(...call.args);
  if (result instanceof Uint8Array && !(result.buffer instanceof SharedArrayBuffer)) {
    // a Buffer may be a slice of Node's shared allocation pool: only a buffer of its own can be moved
    const own =
      result.byteOffset === 0 && result.byteLength === result.buffer.byteLength
        ? result
        : new Uint8Array(result);
    return move(own);
  }
  return result;
}
