// The Queue plugin's API (docs/queues.md).

interface QueueBackoff {
  /** "exponential" (default: delayMs, 2×delayMs, 4×delayMs, … capped at maxDelayMs) or "fixed". */
  type?: "fixed" | "exponential";
  /** The delay before the first retry (default 1000). */
  delayMs?: number;
  /** The longest delay (default 3600000). */
  maxDelayMs?: number;
}

interface QueueEnqueueOptions {
  /** Milliseconds before the job may first run (default 0). */
  delayMs?: number;
  /** An idempotency key: enqueuing again with a key the queue holds returns the existing job's id. */
  key?: string;
  /** Attempts before the job goes to the dead-letter list (default 3, 1–1000). */
  attempts?: number;
  /** Milliseconds (doubling) or a backoff object. */
  backoff?: number | QueueBackoff;
}

interface QueueJob<T = unknown> {
  readonly id: number;
  readonly name: string;
  readonly payload: T;
  /** 1 for the first attempt. */
  readonly attempt: number;
  readonly maxAttempts: number;
}

interface QueueWorkOptions {
  /** Jobs run at once by this worker (default 1). */
  concurrency?: number;
  /** The lease (default 30000): a job whose worker stops heartbeating this long is handed out again. */
  leaseMs?: number;
  /** Called when the worker's stream fails. */
  onError?: (error: Error) => void;
}

interface QueueWorker {
  /** Settles when the worker stops. */
  readonly done: Promise<void>;
  /** Stops claiming; jobs whose handlers have not finished are given back. */
  stop(): Promise<void>;
}

interface QueueStats {
  ready: number;
  delayed: number;
  leased: number;
  done: number;
  dead: number;
}

interface QueueDeadJob<T = unknown> {
  id: number;
  payload: T;
  attempts: number;
  error: string | null;
  failedAt: number;
}

declare const Queue: {
  enqueue(name: string, payload?: unknown, options?: QueueEnqueueOptions): Promise<number>;
  work<T = unknown>(name: string, handler: (job: QueueJob<T>) => unknown, options?: QueueWorkOptions): QueueWorker;
  stats(name: string): Promise<QueueStats>;
  dead<T = unknown>(name: string, options?: { limit?: number }): Promise<QueueDeadJob<T>[]>;
  /** Deletes done jobs finished more than olderThanMs ago (dead ones too with dead: true); resolves with the count. */
  purge(name: string, options?: { olderThanMs?: number; dead?: boolean }): Promise<number>;
  info(): { backend: "sqlite" | "postgres" | "custom"; location: string };
};
