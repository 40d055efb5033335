/** Where the guest builder reports progress; a pino logger fits. */
export interface BuildLog {
  info(fields: Record<string, unknown>, message: string): void;
}

export const silentBuildLog: BuildLog = { info: () => {} };
