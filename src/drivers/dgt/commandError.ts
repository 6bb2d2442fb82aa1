/**
 * Why bytes sent to a DGT board could not be read as a command (used when parsing host
 * commands, e.g. by the board emulator). A Result error carrying a discriminated union.
 *
 *   const r = parseCommand(bytes);
 *   if (r.isErr && r.error.problem.kind === 'incomplete') waitForMore(r.error.problem.needed);
 */
export type CommandProblem =
  /** A byte that starts no command. */
  | { readonly kind: 'unknown-command'; readonly byte: number }
  /** More bytes are needed; `needed` is the total length once known. */
  | { readonly kind: 'incomplete'; readonly received: number; readonly needed: number | undefined }
  | { readonly kind: 'bad-length'; readonly declared: number; readonly expected: number }
  | { readonly kind: 'bad-field'; readonly field: string; readonly value: number }
  /** Bus command checksum mismatch. */
  | { readonly kind: 'checksum'; readonly expected: number; readonly actual: number }
  /** A bus command contained a byte with bit 7 set after its first byte. */
  | { readonly kind: 'interrupted'; readonly received: number };

export class CommandError extends Error {
  /**
   * @param problem what is wrong
   * @param consumed how many bytes a reader should drop before trying again (0 when incomplete)
   */
  constructor(
    readonly problem: CommandProblem,
    readonly consumed = 1,
  ) {
    super(`bad DGT command: ${problem.kind}`);
    this.name = 'CommandError';
  }
}
