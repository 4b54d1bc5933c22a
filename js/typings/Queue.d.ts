// Typings of the Queue plugin, written from its declaration by `jsbridge --typings Queue`.
// Do not edit: regenerate instead.
/// <reference path="../../Plugins/Queue/Plugin/queue.d.ts" />

declare namespace QueuePlugin {
  interface DeadArguments {
    name: string;
    limit?: number;
  }
  interface DeadAnswer {
    id: number;
    payload: string;
    attempts: number;
    error?: string;
    failedAt: number;
  }
  interface EnqueueArguments {
    name: string;
    json: string;
    delayMs?: number;
    key?: string;
    attempts?: number;
    backoff?: QueuePlugin.BackoffArguments;
  }
  interface BackoffArguments {
    kind?: string;
    delayMs?: number;
    maxDelayMs?: number;
  }
  interface EnqueueAnswer {
    id: number;
    created: boolean;
  }
  interface Info {
    backend: string;
    location: string;
  }
  interface PurgeArguments {
    name: string;
    olderThanMs?: number;
    dead?: boolean;
  }
  interface NameArguments {
    name: string;
  }
  interface QueueStats {
    ready: number;
    delayed: number;
    leased: number;
    done: number;
    dead: number;
  }
  interface WorkArguments {
    name: string;
    concurrency?: number;
    leaseMs?: number;
  }
  interface JobMessage {
    worker: string;
    id: number;
    name: string;
    payload: string;
    attempt: number;
    maxAttempts: number;
  }
  interface WorkerError {
    name: string;
    code: string;
    message: string;
  }
}

interface JSBridgePluginTypes {
  Queue: {
    actions: {
      dead: { kind: "async"; args: QueuePlugin.DeadArguments; result: QueuePlugin.DeadAnswer[] };
      enqueue: { kind: "async"; args: QueuePlugin.EnqueueArguments; result: QueuePlugin.EnqueueAnswer };
      info: { kind: "sync"; args: void; result: QueuePlugin.Info };
      purge: { kind: "async"; args: QueuePlugin.PurgeArguments; result: number };
      stats: { kind: "async"; args: QueuePlugin.NameArguments; result: QueuePlugin.QueueStats };
      work: { kind: "stream"; args: QueuePlugin.WorkArguments; value: QueuePlugin.JobMessage };
    };
    events: {
      error: QueuePlugin.WorkerError;
    };
  };
}

