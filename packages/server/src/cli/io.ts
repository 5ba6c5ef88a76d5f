/** Where a CLI command writes: stdout for results, stderr for everything human. */
export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

/** A user mistake: printed without a stack trace, exit code 2. */
export class CliError extends Error {}

export const processIo: CliIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};
