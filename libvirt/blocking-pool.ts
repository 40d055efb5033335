import { Worker } from "node:worker_threads";
import type { BlockingOpName, BlockingOps } from "./blocking-ops.js";
import type { JobReply, JobRequest } from "./blocking-protocol.js";
import { LibvirtError } from "./errors.js";

export interface BlockingPoolOptions {
  /** Most calls in flight at once; each runs on its own worker thread. Default 8: as many as virt-handler reconciles VMIs at once. */
  readonly maxWorkers?: number;
}

interface Job {
  readonly request: JobRequest;
  readonly resolve: (value: unknown) => void;
  readonly reject: (err: Error) => void;
}

interface PoolWorker {
  readonly thread: Worker;
  job: Job | null;
}

/**
 * Runs libvirt calls that can block (start, destroy, shutdown, define, …) on worker threads, so the main
 * thread keeps serving, and so each call reads libvirt's thread-local last error on the thread that made
 * it (koffi's `.async` would run the call on a libuv thread and lose the error). Workers start on demand
 * and do not keep the process alive while idle.
 */
export class BlockingPool {
  static #default: BlockingPool | undefined;
  readonly #maxWorkers: number;
  readonly #workers: PoolWorker[] = [];
  readonly #queue: Job[] = [];
  #nextId = 1;
  #closed = false;

  constructor(options: BlockingPoolOptions = {}) {
    this.#maxWorkers = Math.max(1, options.maxWorkers ?? 8);
  }

  /** The pool connections use unless they are given one. */
  static default(): BlockingPool {
    BlockingPool.#default ??= new BlockingPool();
    return BlockingPool.#default;
  }

  run<K extends BlockingOpName>(
    op: K,
    ...args: Parameters<BlockingOps[K]>
  ): Promise<ReturnType<BlockingOps[K]>> {
    if (this.#closed) return Promise.reject(new Error("the blocking-call pool is closed"));
    return new Promise((resolve, reject) => {
      const request: JobRequest = { id: this.#nextId++, op, args };
      this.#queue.push({ request, resolve: resolve as (value: unknown) => void, reject });
      this.#dispatch();
    });
  }

  /** Stops the workers; calls in flight are rejected. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const job of this.#queue.splice(0)) job.reject(new Error("the blocking-call pool was closed"));
    await Promise.all(this.#workers.map((worker) => worker.thread.terminate()));
  }

  #dispatch(): void {
    while (this.#queue.length > 0) {
      const worker = this.#workers.find((candidate) => candidate.job === null) ?? this.#spawn();
      if (!worker) return;
      const job = this.#queue.shift() as Job;
      worker.job = job;
      worker.thread.ref();
      worker.thread.postMessage(job.request);
    }
  }

  #spawn(): PoolWorker | undefined {
    if (this.#workers.length >= this.#maxWorkers) return undefined;
    // No inherited Node flags: some that the main script may run with (--input-type, --expose-gc)
    // make a Worker fail to start, and the worker needs none.
    const thread = new Worker(new URL("./blocking-worker.js", import.meta.url), { execArgv: [] });
    const worker: PoolWorker = { thread, job: null };
    thread.on("message", (reply: JobReply) => this.#finish(worker, reply));
    thread.on("error", (err) => this.#fail(worker, err));
    thread.on("exit", (code) =>
      this.#fail(worker, new Error(`blocking-call worker exited with code ${code}`)),
    );
    this.#workers.push(worker);
    return worker;
  }

  #finish(worker: PoolWorker, reply: JobReply): void {
    const job = worker.job;
    worker.job = null;
    worker.thread.unref();
    if (job) settle(job, reply);
    this.#dispatch();
  }

  #fail(worker: PoolWorker, err: Error): void {
    const index = this.#workers.indexOf(worker);
    if (index >= 0) this.#workers.splice(index, 1);
    worker.job?.reject(new Error(`blocking libvirt call failed: ${err.message}`, { cause: err }));
    worker.job = null;
    if (!this.#closed) this.#dispatch();
  }
}

function settle(job: Job, reply: JobReply): void {
  if (reply.ok) {
    job.resolve(reply.value);
  } else if (reply.libvirt) {
    job.reject(new LibvirtError(reply.libvirt.operation, reply.libvirt.data));
  } else {
    job.reject(
      new Error(`blocking libvirt call ${job.request.op} failed: ${reply.message ?? "unknown error"}`),
    );
  }
}
