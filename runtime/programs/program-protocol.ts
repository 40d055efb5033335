// The messages between a ProgramRunner and its helper (program-runner-child.ts), over Node's IPC
// channel with "advanced" serialization (Buffers pass as they are).

export interface ProgramRequest {
  readonly id: number;
  readonly command: string;
  readonly args: readonly string[];
  readonly input?: string;
  readonly env?: Record<string, string | undefined>;
  readonly timeoutMs?: number;
}

export type ProgramReply =
  | {
      readonly id: number;
      readonly ok: true;
      readonly code: number | null;
      readonly signal: NodeJS.Signals | null;
      readonly stdout: Uint8Array;
      readonly stderr: Uint8Array;
      readonly timedOut: boolean;
    }
  | {
      readonly id: number;
      readonly ok: false;
      readonly message: string;
      /** The spawn's errno code when the program could not be started. */
      readonly startError?: string;
    };
